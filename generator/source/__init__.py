"""The load stage: a game's files read safely into located data (YAML, CSV, rulebook text) and checked by schema."""

"""A cardpress project on disk: its folders, new games, the catalogue, atomic output and the reuse cache."""

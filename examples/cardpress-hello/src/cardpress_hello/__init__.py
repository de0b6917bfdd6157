"""cardpress-hello: a worked example of a ruleset and an export target that cardpress finds by entry point."""

"""`python -m generator` runs the cardpress command line."""

from .cli.main import main

main()

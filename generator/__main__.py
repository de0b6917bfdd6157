"""`python -m generator` runs the cardpress command line."""

from .cli import main

main()

"""The `cardpress` command line: Typer commands over the Python API."""

"""The `cardpress` command line: Typer commands over the Python API."""

from ..project import compiled

compiled.install()  # first: every class and pattern the commands' imports make is compiled from the cache

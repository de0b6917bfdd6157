"""The `cardpress` command line: Typer commands over the Python API."""

from ..project import methodcache

methodcache.install()  # first: every class the commands' imports make compiles its methods from the cache

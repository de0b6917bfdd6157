"""Write the manual's generated reference pages into docs/ (`--check`: only say which ones are out of date)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import PAGES


def main(argv: list[str]) -> int:
    """Write (or with --check, compare) every generated page under DOCS; exit 1 when a page was stale."""
    parser = argparse.ArgumentParser(prog="python -m generator.docs", description=__doc__)
    parser.add_argument("docs", nargs="?", default="docs", type=Path, help="the manual's folder (default: docs)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page differs")
    args = parser.parse_args(argv)
    stale = []
    for name, make in PAGES.items():
        path = args.docs / name
        text = make()
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for name in stale:
        print(f"{'out of date' if args.check else 'wrote'}: {args.docs / name}", file=sys.stderr)
    if args.check and stale:
        print("run `python -m generator.docs` (or `make docs`) and commit the pages", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

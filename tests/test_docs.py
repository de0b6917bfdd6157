"""The manual: its reference pages are the code's (a test fails when they drift), its links resolve, its examples run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import unicodedata
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT, build_wheel
from pypdf import PdfReader

from generator import codes
from generator.cli.main import commands
from generator.docs import PAGES
from generator.docs.__main__ import main as write_pages
from generator.export.target import registrations
from generator.source.schema import load_schema

DOCS = ROOT / "docs"
EXAMPLES = ROOT / "examples"
HELLO = EXAMPLES / "cardpress-hello"


def test_every_generated_page_is_what_the_code_makes_now():
    stale = [name for name, make in PAGES.items() if (DOCS / name).read_text(encoding="utf-8") != make()]
    assert stale == [], "run `python -m generator.docs` (or `make docs`) and commit the pages"


def test_a_stale_page_is_found_and_rewritten(tmp_path, capsys):
    shutil.copytree(DOCS / "reference", tmp_path / "reference")
    cli = tmp_path / "reference" / "cli.md"
    cli.write_text(cli.read_text(encoding="utf-8").replace("| `--players` |", "| `--player` |"), encoding="utf-8")
    assert write_pages([str(tmp_path), "--check"]) == 1
    assert f"out of date: {cli}" in capsys.readouterr().err
    assert "`--player`" in cli.read_text(encoding="utf-8")  # --check writes nothing
    assert write_pages([str(tmp_path)]) == 0
    assert cli.read_text(encoding="utf-8") == (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    assert write_pages([str(tmp_path), "--check"]) == 0


def test_the_cli_page_has_every_command_and_every_option():
    text = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    visible = {name: c for name, c in commands().items() if not c.hidden}
    assert len(visible) == 21  # replay joined the 17, then preflight, new-translation and pseudo-locale
    for name, command in visible.items():
        section = text.split(f"\n## {name}\n", 1)[1].split("\n## ", 1)[0]
        assert f"cardpress {name} [OPTIONS]" in section, name
        for param in command.params:
            shown = f"`{param.opts[0]}`" if param.param_type_name == "option" else f"`{param.name.upper()}`"
            assert shown in section, (name, shown)
    assert "| `--games` | integer, 1–1,000,000 | `1000` | Games in the main line-up. |" in text
    assert "| `--paper` | one of `a4`, `letter`, `both` | `both` |" in text
    assert "### explain for pocket-foundry games" in text and "| `--skip` | integer, repeatable |" in text
    assert "cardpress export hedgerow --to all      # every target, and the bundle zip" in text
    assert "Also `cardpress games`." in text


def test_the_export_page_lists_every_shipped_target():
    text = (DOCS / "reference" / "exports.md").read_text(encoding="utf-8")
    targets = [r.plugin for r in registrations() if r.origin.startswith("generator.") and r.plugin]
    assert [t.name for t in targets] == [
        "pnp",
        "cards",
        "drivethrucards",
        "makeplayingcards",
        "thegamecrafter",
        "screentop",
        "ttpg",
        "tts",
        "bundle",
    ]
    for target in targets:
        assert f"| `{target.name}` |" in text and target.summary in text


def test_the_layout_page_has_every_element_and_key_of_the_schema():
    text = (DOCS / "reference" / "layout-elements.md").read_text(encoding="utf-8")
    schema = load_schema("layout").schema
    for element in schema["$defs"]["element"]["properties"]:
        section = text.split(f"\n### {element}\n", 1)[1].split("\n### ", 1)[0]
        for key in schema["$defs"][element]["properties"]:
            assert f"| `{key}` |" in section, (element, key)
    assert "| `stroke_width` | length |  | The outline's width (default 0.25 mm). |" in text
    assert "Give exactly one of `text` and `rich`." in text


def test_the_macro_page_has_every_shared_macro():
    text = (DOCS / "reference" / "macros.md").read_text(encoding="utf-8")
    source = (ROOT / "layouts" / "common" / "macros.j2").read_text(encoding="utf-8")
    names = re.findall(r"\{% macro (\w+)\(", source)
    assert len(names) == 8 and all(f"| `{name}(" in text for name in names)
    assert (
        "| `circle(cx, cy, r, fill=none, stroke=none, width=0.3, bleed=false, opacity=1)` | "
        "[`ellipse`](layout-elements.md#ellipse) | `r` sets `rx`; `r` sets `ry`; `width` sets `stroke_width`. |"
    ) in text


def test_the_template_page_names_every_filter_cardpress_adds(tmp_path):
    from jinja2.defaults import DEFAULT_FILTERS

    from generator.layout.templates import Templates

    filters = Templates([tmp_path], tmp_path).env.filters
    added = [name for name in filters if name not in DEFAULT_FILTERS and not name.startswith("cp_")]
    assert added == ["q", "escape_markup", "lighten", "darken", "mix", "legible", "decimal"]
    text = (DOCS / "reference" / "layouts.md").read_text(encoding="utf-8")
    assert [name for name in added if f"`{name}" not in text] == []


def test_the_code_page_is_every_registered_code():
    text = (DOCS / "reference" / "codes.md").read_text(encoding="utf-8")
    assert "## The pocket-foundry ruleset's codes" in text and "## The micro-engine ruleset's codes" in text
    assert all(f"| {code} |" in text for code in codes.registry())


def test_every_code_the_manual_names_is_registered():
    not_codes = {"HE001": "the example plugin's own code", "K100": "100 % black ink"}
    named = {
        (page.relative_to(ROOT).as_posix(), code)
        for page in [ROOT / "README.md", *DOCS.rglob("*.md")]
        for code in re.findall(r"\b[A-Z]{1,2}\d{3}\b", page.read_text(encoding="utf-8"))
    }
    assert len(named) > 100
    assert sorted((page, code) for page, code in named if code not in codes.registry() and code not in not_codes) == []


def test_the_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, len(lines)
    text = "\n".join(lines)
    for must in ("pipx install .", "make build", "make test", ". .venv/bin/activate", "docs/images/"):
        assert must in text, must


# A link or image: [text](target) or ![alt](target); code spans and fenced blocks are left out first.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
HTML_LINK = re.compile(r'(?:src|href)="([^"]+)"')
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)


def slug(heading: str) -> str:
    """Return the anchor the manual's Markdown (Python-Markdown's toc) gives a heading."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    """Return the anchors of a Markdown file's headings (a repeated heading gets _1, _2, … as toc gives it)."""
    found: set[str] = set()
    for _, heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        name, n = base, 0
        while name in found:
            n += 1
            name = f"{base}_{n}"
        found.add(name)
    return found


def links(path: Path) -> list[str]:
    """Return every link and image target in a Markdown file (HTML `src` and `href` too), outside code."""
    text = CODE_SPAN.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    return LINK.findall(text) + HTML_LINK.findall(text)


def test_every_relative_link_in_the_readme_and_the_manual_resolves():
    pages = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
    broken = []
    checked = 0
    for page in pages:
        for target in links(page):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: …: not ours to check
                continue
            checked += 1
            file, _, anchor = target.partition("#")
            resolved = (page.parent / file).resolve() if file else page
            if not resolved.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []
    assert checked > 100


def test_the_link_checker_finds_a_broken_link_and_a_broken_anchor(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# A `cardpress` page\n\n## Two words\n\n[ok](#two-words) [gone](#three) [file](nothing.md)\n"
        '<img src="gone.png" alt="">\n\n```\n[not a link](in-code.md)\n```\n'
    )
    assert anchors(page) == {"a-cardpress-page", "two-words"}
    assert links(page) == ["#two-words", "#three", "nothing.md", "gone.png"]


@pytest.fixture(scope="module")
def hello_site(tmp_path_factory) -> Path:
    """Return a folder holding the example plugin installed from its wheel (a wheel unpacked is an install)."""
    where = tmp_path_factory.mktemp("hello")
    wheel = build_wheel(HELLO, where)
    zipfile.ZipFile(wheel).extractall(where / "site")
    return where / "site"


def cardpress(*args: str, cwd: Path, site: Path | None = None) -> subprocess.CompletedProcess:
    """Run cardpress, with `site` (an installed plugin) in front of the module search path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site or ""), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env
    )


@pytest.mark.slow
def test_the_worked_plugin_adds_a_ruleset_and_an_export_target(hello_site, tmp_path):
    declared = tomllib.loads((HELLO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    assert declared == {
        "cardpress.rulesets": {"hello": "cardpress_hello.ruleset:RULESET"},
        "cardpress.exports": {"checklist": "cardpress_hello.checklist:TARGET"},
    }
    built = cardpress("build", "hello", "--paper", "a4", cwd=tmp_path, site=hello_site)  # an empty folder
    assert built.returncode == 0, built.stderr
    pages = PdfReader(tmp_path / "output" / "hello" / "hello-a4.pdf").pages
    assert len(pages) == 6 and [pages[2].extract_text().count(name) for name in ("Ant", "Bee", "Cat")] == [1, 2, 1]

    exported = cardpress("export", "hello", "--to", "checklist", cwd=tmp_path, site=hello_site)
    assert exported.returncode == 0, exported.stderr
    assert (tmp_path / "output" / "hello" / "checklist" / "checklist.md").read_text(encoding="utf-8") == (
        "# Hello Deck: 4 cards for 2 players\n\n## hello cards\n\n- [ ] Ant\n- [ ] Bee × 2\n- [ ] Cat\n"
    )
    listed = cardpress("codes", "HE001", cwd=tmp_path, site=hello_site)
    assert listed.stdout == "HE001  hello  two cards print the same name\n"

    # A fan edition of the plugin's game: its cards merge by id, and each mistake is located in its own file.
    assert cardpress("new-edition", "my-hello", "--from", "hello", cwd=tmp_path, site=hello_site).returncode == 0
    cards = tmp_path / "cards" / "my-hello" / "cards.yaml"
    cards.write_text("- {id: dog, name: Dog, add: true}\n- {id: cat, name: Ant}\n- {id: bee, copies: two}\n")
    refused = cardpress("export", "my-hello", "--to", "checklist", cwd=tmp_path, site=hello_site)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "cards/my-hello/cards.yaml:3:21: error[S001] [1].copies: expected a whole number" in refused.stderr
    assert not (tmp_path / "output" / "my-hello").exists()
    cards.write_text("- {id: dog, name: Dog, add: true}\n- {id: cat, name: Ant}\n")
    refused = cardpress("validate", "my-hello", cwd=tmp_path, site=hello_site)
    assert "cards/my-hello/cards.yaml:2:19: error[HE001] [2].name: 'Ant' is printed twice" in refused.stderr
    assert "  = hint: [0] has that name too; give one card `copies: 2` instead" in refused.stderr
    cards.write_text("- {id: dog, name: Dog, add: true}\n")
    assert cardpress("export", "my-hello", "--to", "checklist", cwd=tmp_path, site=hello_site).returncode == 0
    assert (
        (tmp_path / "output" / "my-hello" / "checklist" / "checklist.md")
        .read_text(encoding="utf-8")
        .endswith("- [ ] Cat\n- [ ] Dog\n")
    )


def test_the_tutorials_small_game_builds_six_cards_with_one_back(tmp_path):
    shutil.copytree(EXAMPLES / "tiny-deck" / "cards", tmp_path / "cards")  # no fonts or layouts: cardpress's own
    built = cardpress("build", "tiny", "--paper", "a4", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert built.stdout.splitlines()[-1] == "tiny: built (0 errors, 0 warnings)"
    pages = PdfReader(tmp_path / "output" / "tiny" / "tiny-a4.pdf").pages
    assert len(pages) == 6  # cover, duplex check, one sheet of fronts and its backs, the deck's tuck box and a blank
    fronts = pages[2].extract_text()
    assert [fronts.count(name) for name in ("Ant", "Bee", "Cat")] == [2, 1, 3]

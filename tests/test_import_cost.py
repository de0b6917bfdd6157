"""What a build does not load: modules it does not use, fallback fonts no character needs (fresh processes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def loaded(code: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_the_build_path_imports_no_platypus_urllib_or_babel_extractor():
    found = loaded(
        "import json, sys\n"
        "import generator.cli.main, generator.build, generator.render.kitpdf\n"
        "heavy = ['reportlab.platypus', 'urllib.request', 'http.client', 'ssl', 'babel.messages.extract', 'jinja2.ext']\n"
        "print(json.dumps({m: m in sys.modules for m in heavy}))"
    )
    assert found == dict.fromkeys(found, False)


def test_a_ruleset_loads_without_its_model():
    found = loaded(
        "import json, sys\n"
        "import generator.registry as r\n"
        "r.registrations()\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('generator.games') and m.endswith('.model'))))"
    )
    assert found == []


def test_fallback_fonts_are_read_only_for_characters_that_need_them(tmp_path):
    found = loaded(
        "import json, os\n"
        f"os.environ['CARDPRESS_CACHE'] = {str(tmp_path)!r}\n"
        "from pathlib import Path\n"
        "from generator.pipeline import Pipeline\n"
        "from generator.render import fonts\n"
        f"assert Pipeline(Path({str(ROOT)!r}), 'pocket-foundry').render(['a4']) is not None\n"
        "print(json.dumps(sorted(fonts._REGISTERED)))"
    )
    # The kit prints in these six; a character Roboto or Lato lacks is found in DejaVu, the first fallback,
    # so Noto Sans Symbols 2, Noto Emoji and Noto Sans JP are never read.
    assert found == [
        "cp-DejaVuSans",
        "cp-Lato-Bold",
        "cp-Lato-Italic",
        "cp-Lato-Regular",
        "cp-RobotoCondensed-Bold",
        "cp-RobotoCondensed-Regular",
    ]


def test_a_kit_without_rules_pages_or_svg_art_loads_no_platypus_lxml_babel_or_lab(tmp_path):
    found = loaded(
        "import json, os, sys\n"
        f"os.environ['CARDPRESS_CACHE'] = {str(tmp_path / 'cache')!r}\n"
        "from pathlib import Path\n"
        "sys.path.insert(0, 'benchmarks')\n"
        "from scale import make\n"
        "from generator.pipeline import Pipeline\n"
        f"root = Path({str(tmp_path / 'project')!r})\n"
        "make(root, 4, 1)\n"
        "assert Pipeline(root, 'scale').render(['a4']) is not None\n"
        "heavy = ['reportlab.platypus', 'lxml.etree', 'svglib', 'babel', 'generator.sim']\n"
        "print(json.dumps({m: m in sys.modules for m in heavy}))"
    )
    assert found == dict.fromkeys(found, False)


def test_a_warm_build_command_loads_no_rich_no_jinja_no_pyyaml_no_other_commands_and_no_skipped_stage(tmp_path):
    code = (
        "import json, os, sys\n"
        f"os.environ['CARDPRESS_CACHE'] = {str(tmp_path / 'cache')!r}\n"
        f"sys.argv = ['cardpress', 'build', 'pocket-foundry', '--paper', 'a4', '--out', {str(tmp_path / 'out')!r}]\n"
        "from generator.cli.main import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as stop:\n"
        "    assert not stop.code, stop.code\n"
        "heavy = ['rich', 'jinja2', 'yaml', 'generator.cli.rules', 'generator.cli.export', 'generator.cli.edition',\n"
        "         'generator.cli.iterate', 'generator.cli.translate', 'generator.games.micro_engine.model',\n"
        # the stages an unchanged face skips (reading its layout text, tracing and linting it), and what the kit has
        # none of
        "         'generator.layout.flow', 'generator.render.trace', 'generator.source.tablesrc',\n"
        "         'generator.layout.svgicon', 'generator.impose.boards', 'generator.source.edits', 'generator.layout.lint',\n"
        "         'generator.layout.legibility']\n"
        "print(json.dumps({m: m in sys.modules for m in heavy}))"
    )
    loaded(code)  # the first build lays the faces out and keeps them
    found = loaded(code)
    assert found == dict.fromkeys(found, False)

"""The game contract: every registered ruleset conforms, a third-party package adds a game, the header is shared."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT, copy_project, run_cli
from pypdf import PdfReader

from generator import registry as rulesets
from generator.contract import Capability, GameCommand, Header, LoadedGame, Ruleset
from generator.kit import Kit
from generator.pipeline import Pipeline

SHIPPED = {
    "pocket-foundry": "pocket-foundry",
    "micro-engine": "micro-engine",
    "deck": "hedgerow",
}  # ruleset -> a game using it


@pytest.mark.parametrize("name", rulesets.names())
def test_every_registered_ruleset_conforms(name):
    registration = rulesets.get(name)
    ruleset = registration.plugin
    assert isinstance(ruleset, Ruleset) and ruleset.name == name and ruleset.summary
    assert set(ruleset.capabilities) <= set(Capability)
    assert set(ruleset.variants) == set(dict.fromkeys(ruleset.variants))  # no variant named twice
    for capability, method in (
        (Capability.RULES, "check_rules"),
        (Capability.SIMULATE, "simulation"),
        (Capability.COMMANDS, "commands"),
    ):
        overridden = getattr(type(ruleset), method) is not getattr(Ruleset, method)
        assert overridden == ruleset.offers(capability), f"{name}: {capability} declared iff {method} is defined"
    if ruleset.offers(Capability.COMMANDS):
        for command in ruleset.commands():
            assert isinstance(command, GameCommand) and command.help and command.run.__doc__
            first = next(iter(inspect.signature(command.run).parameters))
            assert first == "game", "a command's first parameter receives the loaded game"
    game = SHIPPED.get(name)
    if game is None:
        return
    pipeline = Pipeline(ROOT, game)
    loaded = pipeline.validate()
    assert loaded is not None and pipeline.report.ok(), pipeline.report.render()
    assert isinstance(loaded.header, Header) and loaded.header.ruleset == name
    for players in loaded.header.players:
        kit = ruleset.kit(loaded, players)
        assert isinstance(kit, Kit) and kit.players == players and kit.game == game and kit.cards
    if ruleset.offers(Capability.SIMULATE):
        plugin = ruleset.simulation(loaded, ())
        assert set(plugin.players) <= set(loaded.header.players)


def test_the_shipped_games_register_through_the_entry_point_group():
    from importlib.metadata import entry_points

    points = {p.name: p.value for p in entry_points(group="cardpress.rulesets")}
    assert points["pocket-foundry"] == "generator.games.pocket_foundry:RULESET"
    assert points["micro-engine"] == "generator.games.micro_engine:RULESET"
    assert points["deck"] == "generator.games.deck:RULESET"


def test_no_generic_module_imports_a_game_package():
    """The core knows games only through the contract: the arrows run from games to the core, never back."""
    import ast

    package = ROOT / "generator"
    for path in package.rglob("*.py"):
        parts = path.relative_to(package).parts
        if parts[0] == "games":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module or ''}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "hasattr":
                    pytest.fail(f"{path.relative_to(ROOT)}:{node.lineno} discovers with hasattr, not the contract")
                continue
            assert not any(n.split(".")[:2] == ["generator", "games"] or n.startswith("games") for n in names), (
                f"{path.relative_to(ROOT)}:{node.lineno} imports a game package"
            )


TINY_RULESET = '''
"""A third-party ruleset: a deck of plain cards from cards.yaml, printed with its own two templates."""

from pathlib import Path

from generator.contract import LoadedGame, Pack, Ruleset
from generator.kit import Card, Face, Kit
from generator.source.yamlsrc import format_path


class Tiny(Ruleset):
    name = "tiny"
    summary = "plain cards with a name and a line of text"

    def pack(self):
        return Pack(schemas=Path(__file__).parent / "schemas")  # shipped in the package, found through the ruleset

    def load(self, game, header, report, icons):
        source = game.load("cards.yaml", "tiny-cards", report)  # checked against its own schema
        cards = source.data if isinstance(source.data, list) else []
        for i, card in enumerate(cards):
            if isinstance(card, dict) and "name" in card and card["name"] == card.get("text"):
                report.error("T901", "a card's text repeats its name", path=format_path((i,)), loc=source.loc((i,)))
        return cards if report.ok() else None

    def kit(self, game: LoadedGame, players: int) -> Kit:
        kit = game.new_kit(players, decks={"main": "tiny cards"})
        back = Face("tiny-back.yaml.j2", {}, "back")
        for i, card in enumerate(game.model):
            front = Face("tiny-front.yaml.j2", {"card": card}, f"card-{i}/front")
            kit.cards.append(Card(f"card-{i}", card["name"], "main", front, back))
        return kit


RULESET = Tiny()
'''


TINY_SCHEMA = """\
$id: cardpress:tiny-cards
type: array
maxItems: 100
items:
  type: object
  additionalProperties: false
  required: [name]
  properties:
    name: {type: string, maxLength: 40}
    text: {type: string, maxLength: 200}
"""


def tiny_project(tmp_path: Path) -> tuple[Path, Path]:
    """Return (project, site): a project using the `tiny` ruleset, and a folder holding its installed package."""
    site = tmp_path / "site"
    (site / "tinygame").mkdir(parents=True)
    (site / "tinygame" / "__init__.py").write_text(TINY_RULESET)
    (site / "tinygame" / "schemas").mkdir()
    (site / "tinygame" / "schemas" / "tiny-cards.yaml").write_text(TINY_SCHEMA)
    info = site / "tinygame-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tinygame\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[cardpress.rulesets]\ntiny = tinygame:RULESET\n")
    project = copy_project(tmp_path / "project", games=())
    game = project / "cards" / "tiny"
    (game / "layouts").mkdir(parents=True)
    (game / "game.yaml").write_text("title: Tiny Deck\nruleset: tiny\nplayers: {supported: [2], default: 2}\n")
    (game / "cards.yaml").write_text("- name: Ant\n- name: Bee\n- name: Cat\n")
    (game / "layouts" / "tiny-front.yaml.j2").write_text(
        textwrap.dedent(
            """\
            {% import "macros.j2" as m %}
            bleed: 3
            elements:
            - {{ m.rect(-3, -3, face.w + 6, face.h + 6, fill="#ffffff", bleed=true) }}
            - {{ m.text(6, 40, face.w - 12, 10, card.name, font="display", size=18, align="center", plain=true) }}
            """
        )
    )
    (game / "layouts" / "tiny-back.yaml.j2").write_text(
        '{% import "macros.j2" as m %}\nbleed: 3\nelements:\n'
        '- {{ m.rect(-3, -3, face.w + 6, face.h + 6, fill="#224466", bleed=true) }}\n'
    )
    return project, site


def run_with(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run cardpress with `site` on the path, as if the package living there had been installed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env
    )


@pytest.mark.slow  # a fresh process: another sys.path
def test_a_separately_installed_ruleset_adds_a_game_without_touching_cardpress(tmp_path):
    project, site = tiny_project(tmp_path)
    result = run_with(site, "build", "tiny", "--paper", "a4", "--out", str(tmp_path / "out"), cwd=project)
    assert result.returncode == 0, result.stderr
    reader = PdfReader(tmp_path / "out" / "tiny" / "tiny-a4.pdf")
    assert len(reader.pages) == 6  # cover, duplex check, one sheet of fronts and its backs, a tuck box and a blank
    assert "Ant" in reader.pages[2].extract_text() and "Cat" in reader.pages[2].extract_text()

    broken = project / "cards" / "tiny" / "cards.yaml"
    broken.write_text("- name: Ant\n- nmae: Bee\n- name: Cat\n  text: Cat\n")
    result = run_with(site, "validate", "tiny", cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "cards/tiny/cards.yaml:2:3: error[S003] [1].nmae: unknown key 'nmae'" in result.stderr  # its own schema
    assert "did you mean 'name'" in result.stderr
    assert "cards/tiny/cards.yaml:3:3: error[T901] [2]: a card's text repeats its name" in result.stderr
    assert result.stderr.count("error[") == 2

    # Without the package on the path, the game's ruleset is unknown: a located error, not a crash.
    result = run_cli("validate", "tiny", cwd=project)
    assert result.returncode == 1
    assert "cards/tiny/game.yaml:2:10: error[S005] ruleset: unknown ruleset 'tiny'" in result.stderr


@pytest.mark.slow  # a fresh process: another sys.path
def test_a_ruleset_that_fails_to_import_is_a_located_error(tmp_path):
    project, site = tiny_project(tmp_path)
    (site / "tinygame" / "__init__.py").write_text("raise ImportError('needs numpy 9')\n")
    result = run_with(site, "validate", "tiny", cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert (
        "cards/tiny/game.yaml:2:10: error[G002] ruleset: the ruleset 'tiny' (tinygame:RULESET) could not be "
        "loaded: ImportError: needs numpy 9" in result.stderr
    )


def test_header_fields_are_shared_and_checked_once(project):
    game = project / "cards" / "pocket-foundry" / "game.yaml"
    text = game.read_text()
    game.write_text(text.replace("title: Pocket Foundry\n", "title: Pocket Foundry\ncredits: [Art by Ada]\n", 1))
    loaded = Pipeline(project, "pocket-foundry").validate()
    assert loaded is not None and loaded.header.credits == ("Art by Ada",)
    assert loaded.header.byline() == "Pocket Foundry · Round & Revel · First edition, October 2026"

    game.write_text(text.replace("default: 6", "default: 5"))
    result = run_cli("validate", "pocket-foundry", "--root", str(project), cwd=project)
    assert result.returncode == 1
    assert result.stderr.count("error[S004] players.default: default player count 5 is not in supported") == 1


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("[pocket-foundry]", "error[S001] ruleset: ruleset must be a name"),
        ("pocket-foundri", "error[S005] ruleset: unknown ruleset 'pocket-foundri'"),
    ],
)
def test_a_wrong_ruleset_value_is_located(project, value, expected):
    game = project / "cards" / "pocket-foundry" / "game.yaml"
    game.write_text(game.read_text().replace("ruleset: pocket-foundry", f"ruleset: {value}"))
    result = run_cli("validate", "pocket-foundry", "--root", str(project), cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "cards/pocket-foundry/game.yaml:" in result.stderr and expected in result.stderr


def test_one_broken_game_does_not_stop_the_others(tmp_path):
    project = copy_project(tmp_path / "project", games=("pocket-foundry", "micro-engine"))
    machines = project / "cards" / "pocket-foundry" / "machines.yaml"
    machines.write_text(machines.read_text().replace("build_cost: {parts: 2}", "build_cost: {parts: -2}", 1))
    out = tmp_path / "out"
    result = run_cli("build", "--paper", "a4", "--out", str(out), cwd=project)
    assert result.returncode == 1
    assert (out / "micro-engine" / "micro-engine-a4.pdf").is_file()
    assert not (out / "pocket-foundry").exists()
    assert "micro-engine: built (0 errors, 0 warnings)" in result.stdout
    assert "pocket-foundry: not built (1 error, 0 warnings in 1 file)" in result.stderr


@pytest.mark.slow  # a fresh process: another sys.path
def test_a_game_without_the_capability_has_no_command(tmp_path):
    project, site = tiny_project(tmp_path)
    result = run_with(site, "simulate", "tiny", cwd=project)
    assert result.returncode == 1
    assert "error[U005] the ruleset of 'tiny' (tiny) has no rules engine" in result.stderr
    result = run_with(site, "explain", "tiny", "x", cwd=project)
    assert result.returncode == 1
    assert "error[U005] Tiny Deck (tiny) has no `explain` command" in result.stderr
    assert "`explain` is offered by: pocket-foundry" in result.stderr


def test_each_game_command_has_its_own_options():
    shared = run_cli("analyze", "--help", cwd=ROOT)
    assert shared.returncode == 0 and "cardpress analyze GAME --help" in shared.stdout
    pf = run_cli("analyze", "pocket-foundry", "--help", cwd=ROOT)
    me = run_cli("analyze", "micro-engine", "--help", cwd=ROOT)
    assert "Skip the eight searches with one machine removed." in pf.stdout
    assert "Play 100 games per experiment instead of 400." in me.stdout


def test_unknown_variant_is_refused_from_the_declaration():
    result = run_cli("simulate", "pocket-foundry", "--variant", "quick", "--games", "1", cwd=ROOT)
    assert result.returncode == 1
    assert "error[U006] unknown variant 'quick' for Pocket Foundry" in result.stderr
    assert "it has none" in result.stderr


def test_loaded_game_carries_the_header_not_a_module():
    loaded = Pipeline(ROOT, "micro-engine").load()
    assert isinstance(loaded, LoadedGame) and isinstance(loaded.ruleset, Ruleset)
    assert loaded.ruleset.variants == ("quick", "travel")

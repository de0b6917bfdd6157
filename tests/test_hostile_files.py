"""Hostile files: links out of the project, special files, huge files, bad names and encodings.

Every file cardpress reads for a game goes through generator.source.safefile: it must be a regular file
inside the project (links resolved first), it is refused before it is opened when it is a FIFO, a
device or a folder, and it is never read past its size cap. Each refusal is a located diagnostic.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import run_cli
from hostile import GAME, SECRET, cli, fifo, headlines, peak_memory, relink

from generator.art.files import ArtError, open_art
from generator.diagnostics import CardpressError, Report
from generator.layout.icons import load_icons
from generator.layout.templates import Templates
from generator.project.folders import GameDir
from generator.render import fonts
from generator.source import safefile, schema, yamlsrc

LINKED_OUT = "it is a link to a file outside the project"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the project holding files a hostile edition would like to read."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(f"{SECRET}\nsecond line\n", encoding="utf-8")
    (folder / "secret.yaml").write_text(f"title: {SECRET}\n", encoding="utf-8")
    (folder / "secret.j2").write_text(
        "elements:\n- {text: {x: 5, y: 5, w: 50, h: 9, text: " + SECRET + "}}\n", encoding="utf-8"
    )
    return folder


# --- links that leave the project ---------------------------------------------------------------


def test_card_file_linked_outside_is_refused_unread(project, outside):
    relink(project / GAME / "components.yaml", outside / "secret.yaml")
    code, out, err = cli("validate", "pocket-foundry", "--root", str(project))
    assert code == 1
    assert err == (
        "cards/pocket-foundry/components.yaml:1:1: error[Y006] cannot read cards/pocket-foundry/components.yaml: "
        f"{LINKED_OUT}\n"
        "  = hint: cardpress reads only files inside the project; copy the file in instead of linking to it\n"
        "\n1 error, 0 warnings in 1 file\n"
    )
    assert SECRET not in out + err


def test_card_file_linked_to_a_system_file_prints_none_of_it(project):
    relink(project / GAME / "components.yaml", "/etc/passwd")
    code, _, err = cli("validate", "pocket-foundry", "--root", str(project))
    assert code == 1
    assert headlines(err) == [
        f"cards/pocket-foundry/components.yaml:1:1: error[Y006] cannot read cards/pocket-foundry/components.yaml: {LINKED_OUT}"
    ]
    assert "root:" not in err


def test_template_linked_outside_never_reaches_the_pdf(project, outside, tmp_path):
    relink(project / "layouts" / "pocket-foundry" / "market-back.yaml.j2", outside / "secret.j2")
    code, out, err = cli("build", "pocket-foundry", "--root", str(project), "--out", str(tmp_path / "out"))
    assert code == 1
    assert headlines(err) == [
        "layouts/pocket-foundry/market-back.yaml.j2:1:1: error[Y006] cannot read "
        f"layouts/pocket-foundry/market-back.yaml.j2: {LINKED_OUT}"
    ]
    assert SECRET not in out + err
    assert not (tmp_path / "out").exists()


def test_link_inside_the_project_is_followed(project):
    """A link is judged by where it leads: inside the project it is an ordinary file."""
    shared = project / "shared-components.yaml"
    shutil.move(project / GAME / "components.yaml", shared)
    relink(project / GAME / "components.yaml", "../../shared-components.yaml")
    report = Report()
    source = yamlsrc.load_file(project / GAME / "components.yaml", "cards/pocket-foundry/components.yaml", report)
    assert report.ok() and source.data["mat"]["name"] == "Foundry mat"


def test_font_linked_outside_is_refused(project, outside):
    shutil.copy(project / "fonts" / "Lato-Black.ttf", outside / "font.ttf")
    relink(project / "fonts" / "Lato-Black.ttf", outside / "font.ttf")
    with pytest.raises(CardpressError) as caught:
        fonts.load_fonts(project / "fonts", project)
    (problem,) = caught.value.report.items
    assert problem.headline() == (
        "fonts/fonts.yaml:7:25: error[F001] families.heavy.regular: cannot use font file Lato-Black.ttf: " + LINKED_OUT
    )


def test_icons_linked_outside_are_refused(project, outside):
    shutil.copy(project / "layouts" / "pocket-foundry" / "icons.yaml", outside / "icons.yaml")
    relink(project / "layouts" / "pocket-foundry" / "icons.yaml", outside / "icons.yaml")
    report = Report()
    load_icons([project / "layouts" / "pocket-foundry"], report)
    assert [d.headline() for d in report.items] == [
        "layouts/pocket-foundry/icons.yaml:1:1: error[Y006] cannot read layouts/pocket-foundry/icons.yaml: "
        + LINKED_OUT
    ]


def test_art_linked_outside_the_game_folder_is_refused(project, outside):
    shutil.copy(project / GAME / "art" / "feed-belt.png", outside / "art.png")
    relink(project / GAME / "art" / "feed-belt.png", outside / "art.png")
    report = Report()
    assert GameDir(project, "pocket-foundry").resolve("art/feed-belt.png", report, None, "machines[0].art") is None
    (problem,) = report.items
    assert problem.headline() == (
        "error[S010] machines[0].art: path 'art/feed-belt.png' leaves the folder cards/pocket-foundry/ (through a link)"
    )
    assert problem.hint == (
        "cardpress reads only files inside the folder cards/pocket-foundry/; copy the file in instead of linking to it"
    )


def test_rulebook_linked_outside_is_refused(project, outside):
    """The reader rules_check should use for rulebook.txt (one line there): refused, located, unread."""
    relink(project / GAME / "rulebook.txt", outside / "secret.txt")
    report = Report()
    text = safefile.read_text_or_report(
        project / GAME / "rulebook.txt", "cards/pocket-foundry/rulebook.txt", 2_000_000, report
    )
    assert text is None
    assert report.items[0].headline() == (
        f"cards/pocket-foundry/rulebook.txt:1:1: error[Y006] cannot read cards/pocket-foundry/rulebook.txt: {LINKED_OUT}"
    )


# --- special files: refused before they are opened ----------------------------------------------


def test_card_file_that_is_a_fifo_is_refused_without_hanging(project):
    with fifo(project / GAME / "components.yaml") as blocked:
        result = run_cli(
            "validate", "pocket-foundry", "--root", str(project), cwd=project
        )  # a subprocess: a hang guard too
    assert not blocked
    assert result.returncode == 1
    assert headlines(result.stderr) == [
        "cards/pocket-foundry/components.yaml:1:1: error[Y005] cannot read cards/pocket-foundry/components.yaml: "
        "it is a named pipe (FIFO), not a file"
    ]


@pytest.mark.parametrize(
    "where, display",
    [
        (GAME / "machines.yaml", "cards/pocket-foundry/machines.yaml"),
        (Path("layouts/pocket-foundry/icons.yaml"), "layouts/pocket-foundry/icons.yaml"),
        (Path("fonts/fonts.yaml"), "fonts/fonts.yaml"),
    ],
)
def test_yaml_fifos_anywhere_are_refused(project, where, display):
    report = Report()
    with fifo(project / where) as blocked:
        yamlsrc.load_file(project / where, display, report)
    assert not blocked
    assert [d.headline() for d in report.items] == [
        f"{display}:1:1: error[Y005] cannot read {display}: it is a named pipe (FIFO), not a file"
    ]


def test_template_fifo_font_fifo_and_art_fifo_are_refused(project):
    game = GameDir(project, "pocket-foundry")
    with (
        fifo(project / "layouts" / "pocket-foundry" / "market-back.yaml.j2") as t,
        fifo(project / "fonts" / "Lato-Black.ttf") as f,
        fifo(project / GAME / "art" / "feed-belt.png") as a,
        fifo(project / "fonts" / "stray.bin") as s,  # not a font of fonts.yaml, but in the folder a build hashes
    ):
        report = Report()
        templates = Templates(game.layout_dirs(), project)
        assert templates.render("market-back.yaml.j2", {}, "market-back", report) is None
        assert templates.digest("market-back.yaml.j2")
        with pytest.raises(CardpressError) as caught:
            fonts.load_fonts(project / "fonts", project)
        art = game.resolve("art/feed-belt.png", report, None, "machines[0].art")
        from generator.source.digest import files_digest

        files_digest(sorted((project / "fonts").iterdir()))
    assert not (t or f or a or s)
    assert art is None
    assert [d.headline() for d in report.items] == [
        "layouts/pocket-foundry/market-back.yaml.j2:1:1: error[Y005] cannot read "
        "layouts/pocket-foundry/market-back.yaml.j2: it is a named pipe (FIFO), not a file",
        "error[Y005] machines[0].art: cannot read cards/pocket-foundry/art/feed-belt.png: it is a named pipe (FIFO), not a file",
    ]
    assert (
        caught.value.report.items[0].message
        == "cannot use font file Lato-Black.ttf: it is a named pipe (FIFO), not a file"
    )


def test_card_file_linked_to_dev_zero_reads_nothing(project):
    relink(project / GAME / "components.yaml", "/dev/zero")
    report = Report()
    with peak_memory() as peak:
        yamlsrc.load_file(project / GAME / "components.yaml", "cards/pocket-foundry/components.yaml", report)
    assert report.items[0].code == "Y006"
    assert peak[0] < 1_000_000


def test_devices_are_refused_before_they_are_opened_even_inside_the_roots():
    with peak_memory() as peak, pytest.raises(safefile.Refused) as caught:
        safefile.read_bytes("/dev/zero", 10_000_000_000, roots=[Path("/dev")])
    assert (caught.value.code, caught.value.reason) == ("Y005", "it is a device, not a file")
    assert peak[0] < 1_000_000


def test_huge_file_is_refused_by_its_size_unread(project):
    path = project / GAME / "components.yaml"
    with path.open("r+b") as handle:
        handle.truncate(6 * 1024**3)  # sparse: 6 GB on paper, nothing on disk
    report = Report()
    with peak_memory() as peak:
        yamlsrc.load_file(path, "cards/pocket-foundry/components.yaml", report)
    assert [d.headline() for d in report.items] == [
        "cards/pocket-foundry/components.yaml:1:1: error[Y003] file is 6442450944 bytes; the limit is 2000000"
    ]
    assert peak[0] < 1_000_000


def test_read_stops_one_byte_past_the_cap(tmp_path):
    path = tmp_path / "grows.txt"
    path.write_bytes(b"x" * 100)
    assert safefile.read_bytes(path, 100, [tmp_path]) == b"x" * 100
    with pytest.raises(safefile.Refused) as caught:
        safefile.read_bytes(path, 99, [tmp_path])
    assert caught.value.code == "Y003"


@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda p: (p.unlink(), p.mkdir()),
            "cannot read cards/pocket-foundry/components.yaml: it is a folder, not a file",
        ),
        (
            lambda p: (p.unlink(), p.symlink_to(p.name)),
            "cannot read cards/pocket-foundry/components.yaml: it is a loop of symbolic links",
        ),
        (lambda p: relink(p, "no-such-file.yaml"), "file not found: cards/pocket-foundry/components.yaml"),
    ],
    ids=["folder", "link-loop", "dangling-link"],
)
def test_card_file_that_cannot_be_a_file_is_located(project, make, message):
    """(The CLI's exit code for these is in test_bad_input.)"""
    make(project / GAME / "components.yaml")
    report = Report()
    yamlsrc.load_file(project / GAME / "components.yaml", "cards/pocket-foundry/components.yaml", report)
    (problem,) = report.items
    assert problem.loc.file == "cards/pocket-foundry/components.yaml" and problem.loc.line == 1
    assert problem.message == message


# --- bad names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "relative, headline",
    [
        ("art/a\0b.png", "error[Y007] art: path 'art/a\\x00b.png' contains a NUL character"),
        (
            "art/" + "a" * 280 + ".png",
            "error[Y007] art: cannot read cards/pocket-foundry/art/"
            + "a" * 280
            + ".png: its name is too long for the file system",
        ),
        ("../machines.yaml", "error[S010] art: path '../machines.yaml' leaves the folder cards/pocket-foundry/"),
        ("/etc/passwd", "error[S010] art: path '/etc/passwd' leaves the folder cards/pocket-foundry/"),
        (
            "art/\ud800.png",
            "error[Y007] art: cannot read cards/pocket-foundry/art/\ud800.png: the file name is not valid text",
        ),
    ],
    ids=["nul", "280-characters", "dot-dot", "absolute", "surrogate"],
)
def test_bad_art_paths_are_located(project, relative, headline):
    report = Report()
    assert GameDir(project, "pocket-foundry").resolve(relative, report, None, "art") is None
    assert [d.headline() for d in report.items] == [headline]


def test_art_symlink_loop_is_located(project):
    path = project / GAME / "art" / "feed-belt.png"
    path.unlink()
    path.symlink_to("feed-belt.png")
    report = Report()
    assert GameDir(project, "pocket-foundry").resolve("art/feed-belt.png", report, None) is None
    assert (
        report.items[0].message == "cannot read cards/pocket-foundry/art/feed-belt.png: it is a loop of symbolic links"
    )
    with pytest.raises(ArtError, match="it is a loop of symbolic links"):
        open_art(path)


# --- bad contents -------------------------------------------------------------------------------


def test_yaml_nested_500_deep_is_a_located_error(tmp_path):
    report = Report()
    yamlsrc.load_text("a: " + "[" * 500 + "]" * 500 + "\n", "deep.yaml", report)
    assert [d.headline() for d in report.items] == [
        "deep.yaml:1:104: error[Y003] document is nested more than 100 levels deep"
    ]


def test_deep_block_yaml_is_a_located_error():
    text = "".join("  " * i + "- \n" for i in range(600))
    report = Report()
    yamlsrc.load_text(text, "deep.yaml", report)
    assert [d.code for d in report.items] == ["Y003"]


def test_whole_number_of_5000_digits_is_a_located_error():
    report = Report()
    yamlsrc.load_text("copies: " + "9" * 5000 + "\n", "big.yaml", report)
    (problem,) = report.items
    assert (
        problem.headline()
        == "big.yaml:1:9: error[Y001] copies: YAML value error: a whole number of more than 4300 digits"
    )


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "ruleset: [pocket-foundry]\n",
            "cards/g/game.yaml:1:10: error[S001] ruleset: expected a string, got a list of 1",
        ),
        ("ruleset: {a: 1}\n", "cards/g/game.yaml:1:10: error[S001] ruleset: expected a string, got a mapping"),
        ("- pocket-foundry\n", "cards/g/game.yaml:1:1: error[S001] expected a mapping, got a list of 1"),
        ("title: x\n", "cards/g/game.yaml:1:1: error[S002] missing required key 'ruleset'"),
    ],
)
def test_game_header_schema_explains_a_ruleset_that_is_not_a_name(text, message):
    report = Report()
    source = yamlsrc.load_text(text, "cards/g/game.yaml", report)
    assert not schema.check(source, "game-header", report)
    assert message in [d.headline() for d in report.items]


def test_ruleset_given_as_a_list_is_a_located_error(project):
    path = project / GAME / "game.yaml"
    path.write_text(path.read_text().replace("ruleset: pocket-foundry", "ruleset: [pocket-foundry]"))
    code, _, err = cli("validate", "pocket-foundry", "--root", str(project))
    assert code == 1
    assert headlines(err) == ["cards/pocket-foundry/game.yaml:3:10: error[S001] ruleset: ruleset must be a name"]


def test_template_that_is_not_utf8_is_a_located_error(project):
    (project / "layouts" / "pocket-foundry" / "market-back.yaml.j2").write_bytes(
        b"bleed: 3\nelements: []\n# \xff\xfe\n"
    )
    report = Report()
    templates = Templates(GameDir(project, "pocket-foundry").layout_dirs(), project)
    assert templates.render("market-back.yaml.j2", {}, "market-back", report) is None
    assert [d.headline() for d in report.items] == [
        "layouts/pocket-foundry/market-back.yaml.j2:1:1: error[T002] file is not UTF-8 text (invalid start byte at byte 24)"
    ]


@pytest.mark.parametrize(
    "damage, problem",
    [
        (lambda data: data[:1000], "it is truncated (its 'GPOS' table runs past the end of the file)"),
        (lambda data: b"hello, not a font", "it is not a TrueType font"),
        (lambda data: b"", "it is not a TrueType font"),
        (lambda data: b"wOFF" + data[4:], "it is a WOFF web font; convert it to .ttf"),
        (lambda data: data[:12], "it is truncated (its table directory is cut off)"),
    ],
    ids=["truncated", "text", "empty", "woff", "header-only"],
)
def test_a_font_that_is_not_a_font_is_found_on_load(project, damage, problem):
    path = project / "fonts" / "Lato-Black.ttf"
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(CardpressError) as caught:
        fonts.load_fonts(project / "fonts", project)
    (diagnostic,) = caught.value.report.items
    assert diagnostic.headline() == (
        f"fonts/fonts.yaml:7:25: error[F001] families.heavy.regular: cannot use font file Lato-Black.ttf: {problem}"
    )


def test_validate_reports_a_truncated_font_that_no_face_uses(project):
    """Lato Black (the `heavy` family) draws nothing in Pocket Foundry: it is checked on load all the same."""
    path = project / "fonts" / "Lato-Black.ttf"
    path.write_bytes(path.read_bytes()[:1000])
    code, _, err = cli("validate", "pocket-foundry", "--root", str(project))
    assert code == 1
    assert headlines(err) == [
        "fonts/fonts.yaml:7:25: error[F001] families.heavy.regular: cannot use font file Lato-Black.ttf: "
        "it is truncated (its 'GPOS' table runs past the end of the file)"
    ]


def test_build_agrees_with_validate_on_a_bad_font(project, tmp_path):
    (project / "fonts" / "Lato-Black.ttf").write_bytes(b"not a font")
    code, _, err = cli("build", "pocket-foundry", "--root", str(project), "--out", str(tmp_path / "out"))
    assert code == 1
    assert headlines(err) == [
        "fonts/fonts.yaml:7:25: error[F001] families.heavy.regular: cannot use font file Lato-Black.ttf: "
        "it is not a TrueType font"
    ]


def test_special_files_in_a_folder_a_build_hashes_do_not_block_it(tmp_path):
    from generator.source.digest import file_digest

    with fifo(tmp_path / "pipe") as blocked:
        assert file_digest(tmp_path / "pipe") is None
    assert not blocked
    assert file_digest(Path("/dev/zero")) is None


def test_default_roots_are_the_project_the_file_lies_in(project):
    assert safefile.project_root(project / GAME / "machines.yaml") == project
    assert safefile.project_root(project / "fonts" / "fonts.yaml") == project
    lone = project.parent / "lone" / "x.yaml"
    assert safefile.project_root(lone) == lone.parent


def test_permission_denied_is_located(project):
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    path = project / GAME / "components.yaml"
    path.chmod(0)
    report = Report()
    yamlsrc.load_file(path, "cards/pocket-foundry/components.yaml", report)
    assert report.items[0].message == "cannot read cards/pocket-foundry/components.yaml: permission denied"


# --- thousands of problems ----------------------------------------------------------------------


def test_collecting_thousands_of_diagnostics_compares_none_of_them(monkeypatch):
    """Report.add keeps a set beside its list: adding n problems makes no pairwise comparisons (it was n²/2)."""
    from generator.diagnostics import Diagnostic, Location

    compared = []
    original = Diagnostic.__eq__
    monkeypatch.setattr(Diagnostic, "__eq__", lambda a, b: compared.append(1) or original(a, b))
    report = Report()
    for i in range(5000):
        report.error("S002", "missing required key 'id'", path=f"machines[{i}]", loc=Location("m.yaml", i + 1, 5))
    report.error("S002", "missing required key 'id'", path="machines[7]", loc=Location("m.yaml", 8, 5))  # again
    assert len(report.items) == 5000
    assert len(compared) <= 1


def test_many_empty_items_are_each_explained_once(tmp_path):
    """2,500 empty machines: seven missing keys each, every one located, none twice."""
    text = "reminder: r\nstarter: {}\nmachines:\n" + "  - {}\n" * 2500
    report = Report()
    source = yamlsrc.load_text(text, "m.yaml", report)
    schema.check(source, "pocket-foundry-machines", report)
    lines = [d.loc.line for d in report.items if d.path.startswith("machines[")]
    assert len(lines) == 2500 * 7 and len(set(lines)) == 2500
    assert report.items[0].headline() == "m.yaml:4:3: error[S004] machines: must have at most 40 items, got 2500"


# --- CSV card tables (the generic deck ruleset) go through the same containment -------------------


def test_csv_card_table_linked_outside_is_refused_unread(tmp_path, outside):
    from deck_helpers import deck_project, load_report
    from deck_helpers import headlines as deck_headlines

    project = deck_project(tmp_path)
    (outside / "secret.csv").write_text(f"name,copies\n{SECRET},1\n", encoding="utf-8")
    relink(project / "cards" / "tiny" / "cards.csv", outside / "secret.csv")
    _, report = load_report(project)
    shown = deck_headlines(report)
    assert shown == [
        "cards/tiny/game.yaml:8:12: error[S010] decks[0].cards: path 'cards.csv' leaves the folder cards/tiny/ "
        "(through a link)"
    ]
    assert SECRET not in "\n".join(d.render() for d in report.items)


def test_csv_read_directly_is_contained_too(tmp_path, outside):
    from generator.source import tablesrc

    project = tmp_path / "p"
    (project / "cards").mkdir(parents=True)
    (outside / "secret.csv").write_text(f"name\n{SECRET}\n", encoding="utf-8")
    relink(project / "cards" / "t.csv", outside / "secret.csv")
    report = Report()
    table = tablesrc.load_file(project / "cards" / "t.csv", "cards/t.csv", report)
    assert table.data == []
    assert [d.headline() for d in report.items] == [
        f"cards/t.csv:1:1: error[Y006] cannot read cards/t.csv: {LINKED_OUT}"
    ]


def test_csv_card_table_that_is_a_fifo_does_not_hang(tmp_path):
    from generator.source import tablesrc

    project = tmp_path / "p"
    (project / "cards").mkdir(parents=True)
    report = Report()
    with fifo(project / "cards" / "t.csv") as blocked:
        tablesrc.load_file(project / "cards" / "t.csv", "cards/t.csv", report)
    assert not blocked
    assert [d.headline() for d in report.items] == [
        "cards/t.csv:1:1: error[Y005] cannot read cards/t.csv: it is a named pipe (FIFO), not a file"
    ]


def test_rulebook_linked_outside_is_refused_unread(project, outside):
    relink(project / GAME / "rulebook.txt", outside / "secret.txt")
    code, out, err = cli("validate", "pocket-foundry", "--root", str(project))
    assert code == 1
    assert "cards/pocket-foundry/rulebook.txt:1:1: error[Y006] cannot read cards/pocket-foundry/rulebook.txt" in err
    assert SECRET not in out + err

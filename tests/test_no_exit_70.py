"""No exit 70 for user input: each case the attack campaign of issue 25 found is a located error and exit 1."""

from __future__ import annotations

import errno
import os
import random
import struct
from pathlib import Path

import pytest
from conftest import ROOT, run_cli
from deck_helpers import GAME_YAML, deck_project
from fastjsonschema import JsonSchemaValueException
from hostile import headlines

from generator.diagnostics import CardpressError
from generator.project import output

LOOP_HINT = "point the link at a real file, or replace it with one"


def validate(project: Path):
    return run_cli("validate", "tiny", "--root", str(project), cwd=project)


def loop(path: Path) -> None:
    """Make `path` a link to itself."""
    if path.exists() or path.is_symlink():
        path.unlink()
    path.symlink_to(path.name)


def test_a_loop_of_links_as_an_included_template(tmp_path):
    front = '{% include "loopy.j2" %}\n'
    project = deck_project(tmp_path, files={"layouts/front.yaml.j2": front})
    loop(project / "cards/tiny/layouts/loopy.j2")
    result = validate(project)
    assert result.returncode == 1, result.stderr
    assert [h for h in headlines(result.stderr) if "error[" in h] == [
        "cards/tiny/layouts/loopy.j2:1:1: error[Y007] cannot read cards/tiny/layouts/loopy.j2: "
        "it is a loop of symbolic links"
    ]
    assert LOOP_HINT in result.stderr


def test_a_loop_of_links_as_the_shared_macros(tmp_path):
    project = deck_project(tmp_path)
    loop(project / "layouts/common/macros.j2")
    result = validate(project)
    assert result.returncode == 1, result.stderr
    assert headlines(result.stderr)[0] == (
        "layouts/common/macros.j2:1:1: error[Y007] cannot read layouts/common/macros.j2: it is a loop of symbolic links"
    )


def test_a_loop_of_links_as_fonts_yaml(tmp_path):
    project = deck_project(tmp_path)
    loop(project / "fonts/fonts.yaml")
    result = validate(project)
    assert result.returncode == 1, result.stderr
    assert headlines(result.stderr) == [
        "fonts/fonts.yaml:1:1: error[Y007] cannot read fonts/fonts.yaml: it is a loop of symbolic links"
    ]


def test_a_hundred_nested_parentheses_in_a_template(tmp_path):
    front = "elements: []\nx: {{ " + "(" * 100 + "card.name" + ")" * 100 + " }}\n"
    project = deck_project(tmp_path, files={"layouts/front.yaml.j2": front})
    result = validate(project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert [h for h in headlines(result.stderr) if "error[" in h] == [
        "cards/tiny/layouts/front.yaml.j2:1:1: error[T003] template error while rendering ant/front: "
        "maximum recursion depth exceeded (and 2 more places: bee/front, cat/front)"
    ]


def test_a_font_whose_glyph_table_is_random_bytes(tmp_path, monkeypatch):
    from generator.render import fonts

    data = bytearray((ROOT / "fonts" / "Lato-Regular.ttf").read_bytes())
    for i in range(struct.unpack(">H", data[4:6])[0]):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        if tag == b"glyf":
            data[offset : offset + length] = random.Random(1).randbytes(length)
    broken = tmp_path / "fonts" / "Broken.ttf"
    broken.parent.mkdir()
    broken.write_bytes(bytes(data))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CardpressError) as caught:
        fonts._register("cp-test-random-glyf", broken)
    (problem,) = caught.value.report.items
    assert problem.code == "F001" and problem.loc is not None and problem.loc.file == "fonts/Broken.ttf"
    assert problem.message == (
        "cannot use font file Broken.ttf: it is damaged: its 'glyf' table fails its checksum, "
        "and its glyph outlines cannot be read"
    )


def test_a_font_with_a_wrong_checksum_but_whole_glyphs_is_still_used(tmp_path):
    from generator.render import fonts

    data = bytearray((ROOT / "fonts" / "Lato-Regular.ttf").read_bytes())
    for i in range(struct.unpack(">H", data[4:6])[0]):
        if data[12 + 16 * i : 16 + 16 * i] == b"glyf":
            data[16 + 16 * i : 20 + 16 * i] = b"\0\0\0\0"  # the recorded checksum only
    odd = tmp_path / "Odd.ttf"
    odd.write_bytes(bytes(data))
    assert fonts._register("cp-test-odd-checksum", odd) == "cp-test-odd-checksum"


def test_a_corrupted_cache_file_is_a_miss(tmp_path, monkeypatch):
    from generator.source import schema

    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    schema._fast.__wrapped__("fonts")  # fills the cache
    files = sorted((tmp_path / "schemas").iterdir())
    assert files
    for path in files:
        path.write_bytes(b"\xff\xfe" + os.urandom(64))  # not UTF-8, not marshal
    check = schema._fast.__wrapped__("fonts")  # compiled afresh, not read from the wreck
    with pytest.raises(JsonSchemaValueException, match="must contain"):
        check({})


def test_a_compiled_validator_is_read_back_without_its_source(tmp_path, monkeypatch):
    from generator.source import schema

    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    schema._fast.__wrapped__("fonts")  # fills the cache
    (source,) = (tmp_path / "schemas").glob("*.py")
    source.unlink()  # a second run reads the compiled code and the name of its entry, not the generated text
    monkeypatch.setattr(schema.fastjsonschema, "compile_to_code", lambda *a, **k: pytest.fail("compiled again"))
    check = schema._fast.__wrapped__("fonts")
    with pytest.raises(JsonSchemaValueException, match="must contain"):
        check({})
    assert not list((tmp_path / "schemas").glob("*.py"))  # nor written again


def test_a_compiled_validator_in_another_shape_is_compiled_again(tmp_path, monkeypatch):
    import marshal

    from generator.project import cache
    from generator.source import schema

    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    schema._fast.__wrapped__("fonts")
    (compiled,) = (tmp_path / "schemas").glob("*.marshal")
    cache.write(compiled, marshal.dumps(("validate", "x = 1")))  # sealed, and a pair, but of text, not code
    check = schema._fast.__wrapped__("fonts")
    with pytest.raises(JsonSchemaValueException, match="must contain"):
        check({})


def test_a_full_disk_under_the_cache_is_no_error(tmp_path, monkeypatch):
    project = deck_project(tmp_path)
    real = os.fdopen

    def full(fd, *args, **kwargs):
        handle = real(fd, *args, **kwargs)
        if "wb" in args or kwargs.get("mode") == "wb":

            def write(_data):
                raise OSError(errno.ENOSPC, "No space left on device")

            handle.write = write
        return handle

    env = {**os.environ, "CARDPRESS_CACHE": str(tmp_path / "cache")}
    monkeypatch.setattr(output.os, "fdopen", full)
    result = run_cli("validate", "tiny", "--root", str(project), cwd=project, env=env)
    monkeypatch.undo()
    assert result.returncode == 0, result.stderr
    written = [p for p in (tmp_path / "cache").rglob("*") if p.is_file() and ".sqlite3" not in p.name]
    assert written == []  # no cache file, whole or torn (SQLite's own shelf writes through its own calls)


def test_an_out_folder_name_over_255_bytes(tmp_path):
    project = deck_project(tmp_path)
    long = tmp_path / ("o" * 300)
    for command in (["build", "tiny"], ["export", "tiny", "--to", "cards"], ["proof", "tiny"]):
        result = run_cli(*command, "--root", str(project), "--out", str(long), cwd=project)
        assert result.returncode == 1, (command, result.stderr)
        assert headlines(result.stderr) == [
            f"error[O001] cannot write {long}: its name is too long for the file system"
        ]


def test_a_cmyk_profile_that_is_not_icc(tmp_path):
    project = deck_project(tmp_path)
    bad = tmp_path / "bad.icc"
    bad.write_text("not a colour profile\n")
    args = ["export", "tiny", "--to", "drivethrucards", "--cmyk-profile", str(bad), "--root", str(project)]
    result = run_cli(*args, "--out", str(tmp_path / "out"), cwd=project)
    assert result.returncode == 1
    assert headlines(result.stderr) == [f"error[X003] --cmyk-profile: {bad} is not an ICC colour profile"]
    assert not (tmp_path / "out").exists()


def test_a_set_killed_between_its_renames_is_finished_by_the_next_run(tmp_path):
    """A4 renamed, Letter not yet, then a kill: the journal left behind makes the next run finish the switch."""
    a4, letter = tmp_path / "g" / "g-a4.pdf", tmp_path / "g" / "g-letter.pdf"
    output.write_all({a4: b"old a4", letter: b"old letter"}, root=tmp_path)
    child = os.fork()
    if child == 0:  # the run that is killed: its second rename never happens
        real, count = os.replace, [0]

        def replace(src, dst):
            if str(dst).endswith(".pdf"):
                count[0] += 1
                if count[0] == 2:
                    os._exit(9)
            real(src, dst)

        os.replace = replace  # type: ignore[assignment]
        output.write_all({a4: b"new a4", letter: b"new letter"}, root=tmp_path)
        os._exit(0)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 9
    assert (a4.read_bytes(), letter.read_bytes()) == (b"new a4", b"old letter")  # mid-switch
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".cardpress-set-")]
    output.check_folder(tmp_path)  # what every command does with its --out before any work
    assert (a4.read_bytes(), letter.read_bytes()) == (b"new a4", b"new letter")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["g", "g-a4.pdf", "g-letter.pdf"]


@pytest.fixture
def full_disk(tmp_path):
    """A tiny tmpfs filled to the last byte (root only: mounting needs it); yields its folder."""
    import subprocess

    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root; test_a_full_disk_under_the_cache_is_no_error covers the writer")
    where = tmp_path / "full"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)], capture_output=True).returncode:
        pytest.skip("this system refuses a tmpfs mount")
    try:
        for kind in ("templates", "schemas", "faces"):
            (where / "cache" / kind).mkdir(parents=True)
        fd = os.open(where / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
        finally:
            os.close(fd)
        yield where / "cache"
    finally:
        subprocess.run(["umount", str(where)], check=True)


def test_cardpress_cache_on_a_really_full_disk(tmp_path, full_disk):
    project = deck_project(tmp_path)
    env = {**os.environ, "CARDPRESS_CACHE": str(full_disk)}
    result = run_cli("validate", "tiny", "--root", str(project), cwd=project, env=env)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "make, said",
    [
        (lambda p: p.mkdir(), "error[Y005] cannot read cards/tiny/game.yaml: it is a folder, not a file"),
        (os.mkfifo, "error[Y005] cannot read cards/tiny/game.yaml: it is a named pipe (FIFO), not a file"),
        (loop, "error[Y007] cannot read cards/tiny/game.yaml: it is a loop of symbolic links"),
    ],
    ids=["folder", "fifo", "loop"],
)
def test_a_game_yaml_that_is_no_file_is_said_at_it(tmp_path, make, said):
    project = deck_project(tmp_path)
    (project / "cards/tiny/game.yaml").unlink()
    make(project / "cards/tiny/game.yaml")
    result = validate(project)
    assert result.returncode == 1
    assert headlines(result.stderr) == [f"cards/tiny/game.yaml:1:1: {said}"]


@pytest.mark.parametrize(
    "make, said",
    [
        (os.mkfifo, "error[Y005] cannot read cards/tiny/layouts/icons.yaml: it is a named pipe (FIFO), not a file"),
        (loop, "error[Y007] cannot read cards/tiny/layouts/icons.yaml: it is a loop of symbolic links"),
    ],
    ids=["fifo", "loop"],
)
def test_an_icons_yaml_that_is_no_file_is_said_not_skipped(tmp_path, make, said):
    project = deck_project(tmp_path)
    (project / "cards/tiny/layouts/icons.yaml").unlink()
    make(project / "cards/tiny/layouts/icons.yaml")
    result = validate(project)
    assert result.returncode == 1
    assert f"cards/tiny/layouts/icons.yaml:1:1: {said}" in headlines(result.stderr)


def test_nan_in_an_icon_is_refused_where_it_is(tmp_path):
    icons = "icons:\n  coin:\n    label: coin\n    shapes:\n      - circle: [50, .nan, 45]\n"
    project = deck_project(tmp_path, files={"layouts/icons.yaml": icons})
    result = validate(project)
    assert result.returncode == 1
    assert headlines(result.stderr)[0] == (
        "cards/tiny/layouts/icons.yaml:5:22: error[S004] icons.coin.shapes[0].circle[1]: "
        "an icon's numbers must be finite, not NaN or infinity"
    )


@pytest.mark.parametrize(
    "make, said",
    [
        (lambda p: p.write_bytes(b"bleed: 3\n# \xff\xfe\n"), "error[Y001] file is not UTF-8 text (invalid start byte at byte 11)"),
        (lambda p: p.write_text("#" * 1_000_001), "error[Y003] file is 1000001 bytes; the limit is 1000000"),
        (loop, "error[Y007] cannot read cards/tiny/layouts/front.yaml.j2: it is a loop of symbolic links"),
    ],
    ids=["latin1", "too-big", "loop"],
)  # fmt: skip
def test_a_deck_template_that_cannot_be_read_is_said_at_it_not_unknown(tmp_path, make, said):
    project = deck_project(tmp_path)
    make(project / "cards/tiny/layouts/front.yaml.j2")
    result = validate(project)
    assert result.returncode == 1
    assert [h for h in headlines(result.stderr) if "error[" in h] == [f"cards/tiny/layouts/front.yaml.j2:1:1: {said}"]


def test_a_colour_that_is_no_colour_is_said_in_our_words(tmp_path):
    game_yaml = GAME_YAML.replace('style: {ink: "#222222"}', "style: {ink: red}")
    front = (
        '{% import "macros.j2" as m %}\nbleed: 3\nelements:\n'
        "- {{ m.rect(-3, -3, face.w + 6, face.h + 6, fill=game.style.ink|lighten(0.5), bleed=true) }}\n"
    )
    project = deck_project(tmp_path, game_yaml=game_yaml, files={"layouts/front.yaml.j2": front})
    result = validate(project)
    assert result.returncode == 1
    (error,) = [h for h in headlines(result.stderr) if "error[" in h]
    assert error.startswith("cards/tiny/layouts/front.yaml.j2:4:")
    assert "'red' is not a colour: colours are written #rrggbb, e.g. '#2a2622'" in error
    assert "base 16" not in result.stderr

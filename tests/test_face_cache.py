"""The on-disk cache of laid-out faces: a rebuild lays out only what changed and prints the same bytes."""

from __future__ import annotations

import marshal
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from generator.build import kit_path
from generator.layout import studio
from generator.layout.document import walk
from generator.pipeline import Pipeline
from generator.project import cache
from generator.render.draw import Prepared

FACES = 60  # 45 faces, some at two sizes or pages, and the tuck boxes' pages on A4 and Letter


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of this test's own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CARDPRESS_CACHE", str(folder))
    return folder


def _entries(cache_dir: Path, parts: bool = False) -> list[tuple[str, bytes]]:
    """Every face kept on disk (or every shape faces share, kept apart), once the process's writes are in."""
    shelf = cache.shelf("faces")
    assert shelf is not None and shelf.db is not None
    shelf.flush()
    found = shelf.db.execute("SELECT key, value FROM entries ORDER BY key").fetchall()
    return [(key, value) for key, value in found if key.startswith("part:") == parts]


def _build(project: Path) -> tuple[bytes, list[str], list[str]]:
    """Build Pocket Foundry's A4 kit in-process; return its PDF, its diagnostics and the faces laid out afresh."""
    pipeline = Pipeline(project, "pocket-foundry")
    pdfs = pipeline.render(["a4"])
    assert pdfs is not None, pipeline.report.render()
    studio = pipeline.studio()
    assert studio is not None
    return pdfs["a4"], [d.render() for d in pipeline.report.items], studio.rendered


def test_a_warm_build_lays_out_nothing_and_prints_the_same_bytes(project: Path, cache_dir: Path) -> None:
    cold_pdf, cold_said, cold_rendered = _build(project)
    assert len(cold_rendered) == len(_entries(cache_dir)) == FACES
    warm_pdf, warm_said, warm_rendered = _build(project)
    assert warm_pdf == cold_pdf
    assert warm_said == cold_said  # the warnings of a face come back with it
    assert warm_rendered == []


def test_a_changed_card_is_laid_out_again_and_nothing_else(project: Path, cache_dir: Path) -> None:
    _build(project)
    machines = project / "cards" / "pocket-foundry" / "machines.yaml"
    text = machines.read_text(encoding="utf-8")
    assert text.count('colour: "#c8741c"') == 1
    machines.write_text(text.replace('colour: "#c8741c"', 'colour: "#1c74c8"'), encoding="utf-8")
    _, _, rendered = _build(project)
    assert rendered == ["feed-belt-1/front", "feed-belt-2/front"]


def test_changed_art_is_placed_again(project: Path, cache_dir: Path) -> None:
    _build(project)
    art = project / "cards" / "pocket-foundry" / "art" / "small-press.png"
    art.write_bytes((art.parent / "twin-press.png").read_bytes())  # other bytes, same name
    _, _, rendered = _build(project)
    assert rendered == ["small-press-1/front", "small-press-2/front"]


def test_unusable_art_is_judged_again_once_it_is_removed_or_replaced(project: Path, cache_dir: Path) -> None:
    art = project / "cards" / "pocket-foundry" / "art" / "small-press.png"
    good = art.read_bytes()
    art.write_bytes(b"not a picture")
    pipeline = Pipeline(project, "pocket-foundry")
    assert pipeline.render(["a4"]) is None
    assert [d.code for d in pipeline.report.errors] == ["A004", "A004"]  # both copies of Small Press
    art.unlink()  # removed: a stand-in now, as the game's policy says (a warning, no error)
    pipeline = Pipeline(project, "pocket-foundry")
    assert pipeline.render(["a4"]) is not None, pipeline.report.render()
    assert "A004" not in {d.code for d in pipeline.report.items}
    art.write_bytes(b"still not a picture")
    pipeline = Pipeline(project, "pocket-foundry")
    assert pipeline.render(["a4"]) is None and pipeline.report.errors[0].code == "A004"
    art.write_bytes(good)
    _, said, rendered = _build(project)
    assert rendered == ["small-press-1/front", "small-press-2/front"] and not any("A004" in d for d in said)


def test_a_torn_entry_is_a_miss_not_a_failure(project: Path, cache_dir: Path) -> None:
    cold_pdf, _, _ = _build(project)
    (first, _), (second, _) = _entries(cache_dir)[:2]
    shelf = cache.shelf("faces")
    assert shelf is not None and shelf.db is not None
    shelf.db.execute("UPDATE entries SET value = ? WHERE key = ?", (b"\x80\x05 torn", first))
    shelf.db.execute("UPDATE entries SET value = ? WHERE key = ?", (pickle.dumps({"not": "a render"}), second))
    warm_pdf, _, rendered = _build(project)
    assert warm_pdf == cold_pdf and len(rendered) == 2


def test_a_face_without_art_is_kept_as_plain_values_and_one_with_art_as_a_pickle(
    project: Path, cache_dir: Path
) -> None:
    _build(project)
    kinds = {value[:1] for _, value in _entries(cache_dir)}
    assert kinds == {studio.PLAIN, studio.PICKLED}  # Pocket Foundry's cards place art; its pages do not


def test_the_shapes_faces_share_are_kept_once_and_a_face_whose_part_is_gone_is_laid_out_again(
    project: Path, cache_dir: Path
) -> None:
    cold_pdf, _, _ = _build(project)
    naming = [_face(value) for _, value in _entries(cache_dir) if value[:1] == studio.PLAIN and _names_a_part(value)]
    assert len(_entries(cache_dir, parts=True)) == 13 and sorted(naming) == ["mat"] * 5  # the players' mats
    shelf = cache.shelf("faces")
    assert shelf is not None and shelf.db is not None
    shelf.db.execute("DELETE FROM entries WHERE key LIKE 'part:%'")
    cache._SHELVES.clear()  # a new process, as far as the cache knows
    warm_pdf, _, rendered = _build(project)
    # Only faces that named a part are laid out again, until one stores the parts again (they are named by
    # what they hold), so the mats after it read theirs.
    assert warm_pdf == cold_pdf and rendered and set(rendered) == {"mat"}
    assert len(_entries(cache_dir, parts=True)) == 13
    cache._SHELVES.clear()
    assert _build(project)[2] == []


def _face(value: bytes) -> str:
    (_, face, *_), _ = marshal.loads(value[1:])
    return str(face)


def _names_a_part(value: bytes) -> bool:
    (_, _, _, _, _, elements, *_), _ = marshal.loads(value[1:])
    return any(type(e) is str for e in elements)


def test_a_file_that_is_no_database_is_no_cache(
    project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "_SHELVES", {})
    (cache_dir / "faces").mkdir(parents=True)
    (cache_dir / "faces" / "faces.sqlite3").write_bytes(b"not a database" * 100)
    _, said, rendered = _build(project)
    assert len(rendered) == FACES and not any("error" in line for line in said)


def test_another_project_folder_does_not_share_entries(project: Path, cache_dir: Path, tmp_path: Path) -> None:
    _build(project)
    moved = project.rename(tmp_path / "moved")  # diagnostics and art paths name the folder
    _, _, rendered = _build(moved)
    assert len(rendered) == FACES


def test_off_writes_nothing(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDPRESS_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    _build(project)
    _, _, rendered = _build(project)
    assert len(rendered) == FACES
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "home").exists()


def test_a_prepared_face_keeps_its_text_and_art_through_a_pickle(project: Path, cache_dir: Path) -> None:
    pipeline = Pipeline(project, "pocket-foundry")
    faces = pipeline.layout()
    assert faces is not None
    prepared = faces["small-press-1/front"]
    assert prepared is not None and prepared.texts and prepared.images
    data = pickle.dumps(prepared)
    assert b"generator.render.text" not in data  # set text is kept as tuples, not as dataclass instances
    again: Prepared = pickle.loads(data)
    assert again.doc == prepared.doc and again.digest == prepared.digest
    for kept in ("texts", "images"):  # each element keeps its own text and art, found by its new id
        before = [getattr(prepared, kept).get(id(el)) for el in walk(prepared.doc.elements)]
        after = [getattr(again, kept).get(id(el)) for el in walk(again.doc.elements)]
        assert after == before and any(before)
    assert (
        again.fonts()
        == prepared.fonts()
        == {"cp-RobotoCondensed-Bold", "cp-Lato-Regular", "cp-Lato-Bold", "cp-Lato-Italic"}
    )


def test_a_fresh_process_draws_cached_faces_with_their_fonts(project: Path, tmp_path: Path) -> None:
    env = {**os.environ, "CARDPRESS_CACHE": str(tmp_path / "cache")}
    pdfs = []
    for run in ("cold", "warm"):
        out = tmp_path / run
        done = run_cli("build", "pocket-foundry", "--paper", "a4", "--out", str(out), cwd=project, env=env)
        assert done.returncode == 0, done.stderr
        pdfs.append(kit_path(out, "pocket-foundry", "a4").read_bytes())
    assert pdfs[0] == pdfs[1]


def test_trim_keeps_the_most_recently_used_entries(tmp_path: Path) -> None:
    shelf = cache.Shelf(tmp_path / "t.sqlite3")
    for n in range(5):
        shelf.put(f"k{n}", b"x" * 100)
    shelf.flush()
    assert shelf.db is not None
    shelf.db.executemany("UPDATE entries SET used = ? WHERE key = ?", [(n, f"k{n}") for n in range(5)])
    assert shelf.get("k0") == b"x" * 100  # read just now: kept
    assert shelf.trim(250) == 3
    assert [k for (k,) in shelf.db.execute("SELECT key FROM entries ORDER BY key")] == ["k0", "k4"]
    assert shelf.trim(250) == 0
    assert shelf.get("k1") is None


def test_watch_starts_from_the_faces_a_build_kept(project: Path, cache_dir: Path) -> None:
    from generator.iterate.session import Session

    _, _, built = _build(project)
    session = Session(project, "pocket-foundry", project / "output", dpi=30, papers=["a4"], pdfs=False)
    outcome = session.rebuild()
    assert outcome.ok, outcome.report.render()
    assert outcome.rendered == [] and len(outcome.entries) == 21  # every face from disk, none laid out again
    machines = project / "cards" / "pocket-foundry" / "machines.yaml"
    machines.write_text(machines.read_text(encoding="utf-8").replace('"#c8741c"', '"#1c74c8"'), encoding="utf-8")
    changed = session.rebuild([machines])
    assert changed.rendered == ["feed-belt-1/front", "feed-belt-2/front"]
    _, _, rebuilt = _build(project)  # the edited faces were kept on disk by watch: a build lays out nothing
    assert len(built) == FACES and rebuilt == []


def test_a_face_cut_short_by_the_clock_is_not_kept(
    project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A time limit hit on a busy machine says nothing about the face: the next build lays it out again."""
    from generator.layout import templates

    monkeypatch.setattr(templates, "MAX_TOTAL_SECONDS", 0.0)
    pipeline = Pipeline(project, "pocket-foundry")
    assert pipeline.render(["a4"]) is None
    assert {d.code for d in pipeline.report.errors} == {"T003"}
    assert _entries(cache_dir) == []
    monkeypatch.undo()
    pdf, said, rendered = _build(project)
    assert len(rendered) == FACES and not [s for s in said if "T003" in s]


RENDERER = """\
import sys
from pathlib import Path

from generator.pipeline import Pipeline

pipeline = Pipeline(Path(sys.argv[1]), "pocket-foundry")
assert pipeline.render(["letter"]) is not None
print("rendered", len(pipeline.studio().rendered), flush=True)
sys.stdin.readline()  # stays alive, as `watch` or a benchmark does, until the test lets it go
"""


@pytest.mark.slow
def test_a_long_lived_renderer_never_locks_a_build_out(project: Path, cache_dir: Path) -> None:
    """A process that laid faces out and lives on (watch, serve, a benchmark) holds no write lock: a build run
    meanwhile stores its own faces, and the next build lays out nothing."""
    env = {**os.environ, "CARDPRESS_CACHE": str(cache_dir)}
    renderer = subprocess.Popen(
        [sys.executable, "-c", RENDERER, str(project)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert renderer.stdout is not None and renderer.stdout.readline().startswith("rendered ")
        _, _, built = _build(project)
        # the build's faces are stored (the renderer's first batch may have given it some)
        assert 0 < len(built) <= FACES and len(_entries(cache_dir)) >= FACES
        cache._SHELVES.clear()  # a new process, as far as the cache knows
        _, _, rebuilt = _build(project)
        assert rebuilt == []
    finally:
        assert renderer.stdin is not None
        renderer.stdin.close()
        renderer.wait(timeout=60)


def test_the_code_digest_follows_pyyaml_without_importing_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util
    from types import SimpleNamespace

    lib = tmp_path / "yaml"
    lib.mkdir()
    (lib / "__init__.py").write_text("# PyYAML 1\n")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: SimpleNamespace(submodule_search_locations=[lib]))
    cache.code_digest.cache_clear()
    before = cache.code_digest()
    (lib / "__init__.py").write_text("# PyYAML 2, a longer file\n")  # an upgrade: another size and time
    cache.code_digest.cache_clear()
    after = cache.code_digest()
    cache.code_digest.cache_clear()
    assert before != after


def test_the_code_digest_stamps_every_code_file_of_the_package_in_path_order(tmp_path: Path) -> None:
    package = tmp_path / "generator"
    for name in ("a.py", "a-b/x.py", "a/b.yaml", "a/__pycache__/b.cpython-311.pyc", "a/c.json", "z/notes.txt"):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text("x")
    # a folder's files before a name that sorts after the folder's as text ("a/" < "a-b" as parts, not as text)
    assert [name for name, _ in cache.code_files(package)] == ["a/b.yaml", "a/c.json", "a-b/x.py", "a.py"]
    for root in (package, Path(cache.__file__).resolve().parent.parent):  # as pathlib would find and sort them
        expected = [
            (path.relative_to(root).as_posix(), path)
            for path in sorted(root.rglob("*"))
            if path.suffix in (".py", ".yaml", ".json") and "__pycache__" not in path.parts
        ]
        assert cache.code_files(root) == expected


def test_the_code_digest_stamps_a_link_to_nothing_as_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lock = tmp_path / ".#studio.py"  # an editor's lock file: a link to nowhere
    lock.symlink_to(tmp_path / "gone")
    real = cache.code_files
    monkeypatch.setattr(cache, "code_files", lambda package: [*real(package), (".#studio.py", lock)])
    cache.code_digest.cache_clear()
    try:
        assert len(cache.code_digest()) == 64
    finally:
        cache.code_digest.cache_clear()


def _statements(shelf: cache.Shelf) -> list[str]:
    """Start recording every SQL statement the shelf's database runs; return the list it fills."""
    assert shelf.db is not None
    said: list[str] = []
    shelf.db.set_trace_callback(said.append)
    return said


def test_a_missing_key_costs_no_query_once_the_keys_are_read(tmp_path: Path) -> None:
    first = cache.Shelf(tmp_path / "t.sqlite3")
    for n in range(3):
        first.put(f"k{n}", b"v%d" % n)
    first.flush()
    shelf = cache.Shelf(tmp_path / "t.sqlite3")
    said = _statements(shelf)
    assert [shelf.get(f"absent{n}") for n in range(100)] == [None] * 100
    assert shelf.get("k1") == b"v1"
    assert said == ["SELECT key FROM entries LIMIT 20001", "SELECT value FROM entries WHERE key = 'k1'"]


def test_what_a_shelf_writes_it_finds_and_what_another_writes_later_is_a_miss_until_the_next_run(
    tmp_path: Path,
) -> None:
    shelf, other = cache.Shelf(tmp_path / "t.sqlite3"), cache.Shelf(tmp_path / "t.sqlite3")
    assert shelf.get("mine") is None  # the keys are read now: none
    shelf.put("mine", b"1")
    shelf.flush()
    other.put("theirs", b"2")
    other.flush()
    assert (shelf.get("mine"), shelf.get("theirs")) == (b"1", None)
    assert cache.Shelf(tmp_path / "t.sqlite3").get("theirs") == b"2"


def test_past_known_max_keys_every_get_asks_the_database(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(cache.Shelf, "KNOWN_MAX", 2)
    first = cache.Shelf(tmp_path / "t.sqlite3")
    for n in range(3):
        first.put(f"k{n}", b"v")
    first.flush()
    shelf = cache.Shelf(tmp_path / "t.sqlite3")
    said = _statements(shelf)
    assert (shelf.get("k2"), shelf.get("absent")) == (b"v", None)
    assert said == [
        "SELECT key FROM entries LIMIT 3",
        "SELECT value FROM entries WHERE key = 'k2'",
        "SELECT value FROM entries WHERE key = 'absent'",
    ]

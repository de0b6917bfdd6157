"""What a run keeps on disk for the next: a font's parse and a large file's digest, each by what it was made from."""

from __future__ import annotations

import hashlib
import io
import os

import pytest
from conftest import ROOT
from reportlab.pdfbase import ttfonts

from generator.render import fonts
from generator.render.subsets import TaggedTTFont
from generator.source import digest

SHIPPED = sorted((ROOT / "fonts").glob("*.ttf"))


def parsed_afresh(path) -> TaggedTTFont:
    handle = io.BytesIO(path.read_bytes())
    handle.name = str(path)
    return TaggedTTFont("cp-test", handle)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_a_font_rebuilt_from_its_kept_parse_is_the_parsed_font(path):
    fresh = parsed_afresh(path)
    data = path.read_bytes()
    kept = TaggedTTFont.from_parsed("cp-test", str(path), data, hashlib.sha256(data).digest(), fresh.parsed())
    a, b = vars(fresh.face), vars(kept.face)
    assert a.keys() == b.keys()
    assert {k: v for k, v in a.items() if k != "_pdfScale"} == {k: v for k, v in b.items() if k != "_pdfScale"}
    assert [a["_pdfScale"](v) for v in (0, 1, 517, -2048)] == [b["_pdfScale"](v) for v in (0, 1, 517, -2048)]
    assert vars(fresh).keys() == vars(kept).keys()
    assert (fresh.digest, fresh.shapable, fresh._asciiReadable) == (kept.digest, kept.shapable, kept._asciiReadable)
    glyphs = sorted(fresh.face.charToGlyph)[:40]
    assert kept.face.makeSubset(glyphs) == fresh.face.makeSubset(glyphs)  # the bytes a PDF embeds
    assert kept.stringWidth("Pocket Foundry ♨", 9) == fresh.stringWidth("Pocket Foundry ♨", 9)


def test_a_font_is_parsed_once_then_rebuilt_from_the_disk(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    path = ROOT / "fonts" / "Lato-Regular.ttf"
    first = fonts._parsed("cp-a", path, path.read_bytes())
    assert len(list((tmp_path / "fonts").iterdir())) == 1

    def no_parse(*args, **kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr(ttfonts.TTFontFile, "extractInfo", no_parse)
    again = fonts._parsed("cp-b", path, path.read_bytes())
    assert again.face.charWidths == first.face.charWidths and again.fontName == "cp-b"


def test_a_torn_kept_parse_means_parsing_again(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    path = ROOT / "fonts" / "Lato-Regular.ttf"
    fonts._parsed("cp-a", path, path.read_bytes())
    (entry,) = (tmp_path / "fonts").iterdir()
    entry.write_bytes(entry.read_bytes()[:-100])  # the seal no longer matches
    assert fonts._parsed("cp-b", path, path.read_bytes()).face.charWidths == parsed_afresh(path).face.charWidths


def test_a_font_of_other_bytes_is_not_taken_for_a_kept_one(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    lato, dejavu = ROOT / "fonts" / "Lato-Regular.ttf", ROOT / "fonts" / "DejaVuSans.ttf"
    fonts._parsed("cp-a", lato, lato.read_bytes())
    other = fonts._parsed("cp-b", lato, dejavu.read_bytes())  # the same path, new bytes
    assert other.face.charWidths == parsed_afresh(dejavu).face.charWidths
    assert len(list((tmp_path / "fonts").iterdir())) == 2


@pytest.fixture
def fresh_memo(monkeypatch, tmp_path):
    """The digest memo as a new process finds it, with a cache folder of its own."""
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(digest, "_MEMO", {})
    monkeypatch.setattr(digest, "_kept", None)
    monkeypatch.setattr(digest, "_new", {})

    def next_run():
        digest._keep()  # what the process does at exit
        digest._MEMO.clear()
        digest._new.clear()
        digest._kept = None

    return next_run


def large_file(tmp_path, name="big.ttf", byte=b"a"):
    path = tmp_path / name
    path.write_bytes(byte * digest.KEPT_FROM)
    old = os.stat(path).st_mtime_ns - 10 * digest.RACY_NS  # not changed just now
    os.utime(path, ns=(old, old))
    return path


def test_a_large_files_digest_is_kept_for_the_next_run(fresh_memo, tmp_path, monkeypatch):
    path = large_file(tmp_path)
    first = digest.file_digest(path)
    assert first == hashlib.sha256(path.read_bytes()).hexdigest()
    fresh_memo()
    monkeypatch.setattr(digest.hashlib, "file_digest", lambda *a, **k: pytest.fail("hashed again"))
    assert digest.file_digest(path) == first


def test_a_changed_file_is_hashed_again_though_its_size_and_time_are_the_same(fresh_memo, tmp_path):
    path = large_file(tmp_path)
    digest.file_digest(path)
    fresh_memo()
    st = os.stat(path)
    path.write_bytes(b"b" * digest.KEPT_FROM)  # same size; its time set back, as a careless copy would
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert digest.file_digest(path) == hashlib.sha256(b"b" * digest.KEPT_FROM).hexdigest()


def test_a_file_changed_just_now_and_a_small_file_are_not_kept(fresh_memo, tmp_path):
    recent = tmp_path / "recent.ttf"
    recent.write_bytes(b"r" * digest.KEPT_FROM)
    small = tmp_path / "card.yaml"
    small.write_bytes(b"name: x\n")
    os.utime(small, ns=(0, 0))
    for path in (recent, small, large_file(tmp_path)):
        digest.file_digest(path)
    assert list(digest._new) == [str(tmp_path / "big.ttf")]


def test_known_digest_never_reads_a_file_and_answers_only_for_its_present_stamp(fresh_memo, tmp_path, monkeypatch):
    path = large_file(tmp_path)
    assert digest.known_digest(path) is None  # not hashed yet: it says nothing rather than read the file
    taken = digest.file_digest(path)
    monkeypatch.setattr(digest.hashlib, "file_digest", lambda *a, **k: pytest.fail("read"))
    assert digest.known_digest(path) == taken
    fresh_memo()
    assert digest.known_digest(path) == taken  # kept on disk for the next run
    path.write_bytes(b"b" * digest.KEPT_FROM)
    assert digest.known_digest(path) is None
    assert digest.known_digest(tmp_path / "missing.ttf") is None


def test_a_font_registered_after_its_digest_was_taken_is_not_hashed_again(fresh_memo, monkeypatch):
    path = ROOT / "fonts" / "Lato-Italic.ttf"
    bytes_digest = hashlib.sha256(path.read_bytes()).digest()
    fonts._parsed("cp-warm", path, path.read_bytes())  # its parse kept, as by an earlier run
    digest.file_digest(path)  # as the studio does for the faces' keys
    hashed, sha256 = [], hashlib.sha256
    monkeypatch.setattr(hashlib, "sha256", lambda *a: hashed.append(a) or sha256(*a))
    monkeypatch.setattr(fonts, "_REGISTERED", set())
    fonts._register("cp-known", path)
    font = fonts.pdfmetrics.getFont("cp-known")
    assert font.digest == bytes_digest
    assert not [a for a in hashed if a and a[0] == path.read_bytes()]  # the kept parse's seal, but not the font


def test_a_font_changed_after_its_digest_was_taken_is_hashed_from_its_bytes(fresh_memo, monkeypatch, tmp_path):
    path = tmp_path / "Font.ttf"
    path.write_bytes((ROOT / "fonts" / "Lato-Regular.ttf").read_bytes())
    digest.file_digest(path)
    path.write_bytes((ROOT / "fonts" / "Lato-Bold.ttf").read_bytes())  # a new stamp: the digest is not its
    monkeypatch.setattr(fonts, "_REGISTERED", set())
    fonts._register("cp-changed", path)
    assert fonts.pdfmetrics.getFont("cp-changed").digest == hashlib.sha256(path.read_bytes()).digest()


def test_known_digest_says_nothing_of_a_file_changed_just_now(fresh_memo, tmp_path):
    recent = tmp_path / "recent.ttf"
    recent.write_bytes(b"r" * 1024)
    digest.file_digest(recent)  # hashed, but its stamp may not show a change made within the same tick
    assert digest.known_digest(recent) is None


def test_a_parse_is_kept_under_the_digest_of_the_bytes_parsed_not_the_one_given(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    lato, dejavu = ROOT / "fonts" / "Lato-Regular.ttf", ROOT / "fonts" / "DejaVuSans.ttf"
    stale = hashlib.sha256(lato.read_bytes()).digest()  # taken of the file before it was replaced
    font = fonts._parsed("cp-stale", lato, dejavu.read_bytes(), stale)  # a miss: parsed from the bytes
    assert font.digest == hashlib.sha256(dejavu.read_bytes()).digest()
    (entry,) = (tmp_path / "fonts").iterdir()
    assert entry == fonts._kept_parse(tmp_path / "fonts", font.digest)
    again = fonts._parsed("cp-lato", lato, lato.read_bytes())  # the real Lato finds no DejaVu parse
    assert again.face.charWidths == parsed_afresh(lato).face.charWidths


def test_a_file_rewritten_with_its_old_times_is_hashed_again_in_the_same_run(fresh_memo, tmp_path):
    path = large_file(tmp_path)
    digest.file_digest(path)
    st = os.stat(path)
    path.write_bytes(b"b" * digest.KEPT_FROM)  # the same inode and size, its times put back (cp -p, touch -r)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert digest.file_digest(path) == hashlib.sha256(b"b" * digest.KEPT_FROM).hexdigest()
    assert digest.known_digest(path) == hashlib.sha256(b"b" * digest.KEPT_FROM).hexdigest()

"""Draw once: the painter calls a face's trace records (its display list) are what the PDF is drawn from, so
the marks the lint reads and the PDF cannot disagree. Checked on every face of every shipped game."""

from __future__ import annotations

import io
import marshal
import pickle
from typing import Any

import pytest
from conftest import ROOT
from reportlab.pdfgen.canvas import Canvas

from generator.layout.document import walk
from generator.layout.studio import Parts
from generator.pipeline import Pipeline
from generator.render.draw import Prepared, draw, from_plain, replay, to_plain, walk_elements
from generator.render.fonts import FontSet
from generator.render.painters import PdfPainter
from generator.render.trace import Tracer, record, trace

GAMES = sorted(p.name for p in (ROOT / "cards").iterdir() if (p / "game.yaml").is_file())


def _faces(game: str) -> tuple[Any, dict[str, Prepared]]:
    """Return the studio and every face a build of `game` lays out (cards, and the pages on each paper)."""
    pipeline = Pipeline(ROOT, game)
    studio = pipeline.studio()
    assert studio is not None
    seen: dict[str, Prepared] = {}
    render = studio.render

    def keep(face: Any, *args: Any, **kwargs: Any) -> Prepared | None:
        prepared = render(face, *args, **kwargs)
        if prepared is not None:
            seen[f"{face.key} {args[:2]}"] = prepared
        return prepared

    studio.render = keep  # type: ignore[method-assign]
    pipeline.lint()
    assert pipeline.report.ok(), pipeline.report.render()
    return studio, seen


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> tuple[Any, dict[str, Prepared]]:
    return _faces(request.param)


def _pdf_code(prepared: Prepared, fonts: FontSet, icons: Any, walked: bool) -> list[str]:
    """Return the content stream the PDF painter writes for a face: replayed from its list, or walked."""
    canvas = Canvas(io.BytesIO(), invariant=1, initialFontName=fonts.resolve(None))  # type: ignore[arg-type]
    painter = PdfPainter(canvas)
    painter.begin(0, prepared.doc.height)
    if walked:
        walk_elements(prepared, painter, fonts, icons)
    else:
        draw(prepared, painter, fonts, icons)
    painter.end()
    return list(canvas._code)  # type: ignore[attr-defined]


def test_every_face_is_traced_once_and_keeps_its_list(game: tuple[Any, dict[str, Prepared]]) -> None:
    _, faces = game
    assert faces and all(p.ops for p in faces.values())


def test_the_list_is_what_walking_the_face_draws_and_its_marks_are_the_old_tracers(
    game: tuple[Any, dict[str, Prepared]],
) -> None:
    studio, faces = game
    for key, prepared in faces.items():
        walker = Tracer(studio.fonts)
        walk_elements(prepared, walker, studio.fonts, studio.icons)  # the face walked again, as the lint once did
        assert prepared.ops is not None and tuple(walker.ops) == prepared.ops, key
        from_list = Tracer(studio.fonts)
        replay(prepared.ops, from_list)
        assert from_list.marks == walker.marks, key
        assert [m.element for m in from_list.marks] == [m.element for m in walker.marks], key
        assert all(a.element is b.element for a, b in zip(from_list.marks, walker.marks, strict=True)), key
        assert trace(prepared, studio.fonts, studio.icons) == walker.marks, key  # trace reads the list too


def test_the_pdf_drawn_from_the_list_is_the_pdf_drawn_by_walking(game: tuple[Any, dict[str, Prepared]]) -> None:
    studio, faces = game
    for key, prepared in faces.items():
        assert _pdf_code(prepared, studio.fonts, studio.icons, walked=False) == _pdf_code(
            prepared, studio.fonts, studio.icons, walked=True
        ), key


def test_a_pickled_face_keeps_its_list_naming_its_own_elements(game: tuple[Any, dict[str, Prepared]]) -> None:
    studio, faces = game
    for key, prepared in list(faces.items())[:20]:
        back: Prepared = pickle.loads(pickle.dumps(prepared, protocol=pickle.HIGHEST_PROTOCOL))
        assert back.ops is not None
        own = {id(el) for el in walk(back.doc.elements)} | {
            id(el) for placed in back.images.values() for el in walk(placed.placeholder)
        }
        assert all(id(args[0]) in own for name, args in back.ops if name == "enter"), key
        assert _pdf_code(back, studio.fonts, studio.icons, walked=False) == _pdf_code(
            prepared, studio.fonts, studio.icons, walked=False
        ), key


def test_a_face_kept_as_plain_values_draws_the_same_pdf(game: tuple[Any, dict[str, Prepared]]) -> None:
    """The disk cache keeps a face without art as plain values (marshal); back, it draws exactly as before."""
    studio, faces = game
    plain = 0
    for key, prepared in faces.items():
        state = to_plain(prepared)
        if prepared.images:
            assert state is None, key  # art goes by pickle
            continue
        assert state is not None, key
        back = from_plain(marshal.loads(marshal.dumps(state)))
        plain += 1
        assert back.doc == prepared.doc and back.digest == prepared.digest and back.images == {}, key
        before = [prepared.texts.get(id(el)) for el in walk(prepared.doc.elements)]
        assert [back.texts.get(id(el)) for el in walk(back.doc.elements)] == before, key
        assert back.ops is not None and len(back.ops) == len(prepared.ops or ()), key
        own = {id(el) for el in walk(back.doc.elements)}
        assert all(id(args[0]) in own for name, args in back.ops if name == "enter"), key
        assert _pdf_code(back, studio.fonts, studio.icons, walked=False) == _pdf_code(
            prepared, studio.fonts, studio.icons, walked=False
        ), key
    assert plain > 0


def test_a_face_whose_shared_shapes_are_kept_apart_draws_the_same_pdf(game: tuple[Any, dict[str, Prepared]]) -> None:
    """Shapes faces share go to disk once (studio.Parts); a face read back names the same element objects as
    every other face that shares them, and draws exactly as before."""
    studio, faces = game
    shelf = _DictShelf()
    parts = Parts(shelf)  # type: ignore[arg-type]
    kept = []
    for prepared in faces.values():
        state = to_plain(prepared, parts.keep)
        if state is not None:  # None: it places art, and goes by pickle
            kept.append((prepared, marshal.loads(marshal.dumps(state))))
    named = sum(type(e) is str for _, state in kept for e in state[5])
    assert named > 0 and len(shelf.values) > 0
    parts.read.clear()  # read back as a new process would, from the shelf
    by_part: dict[str, int] = {}
    for prepared, state in kept:
        back = from_plain(state, parts.get)
        for e, el in zip(state[5], back.doc.elements):
            if type(e) is str:
                assert by_part.setdefault(e, id(el)) == id(el)  # one object for every face that shares it
        assert back.doc == prepared.doc and len(back.ops or ()) == len(prepared.ops or ())
        assert _pdf_code(back, studio.fonts, studio.icons, walked=False) == _pdf_code(
            prepared, studio.fonts, studio.icons, walked=False
        )
    assert len(by_part) == len(shelf.values)


class _DictShelf:
    def __init__(self) -> None:
        self.values: dict[str, bytes] = {}

    def get(self, key: str) -> bytes | None:
        return self.values.get(key)

    def put(self, key: str, value: bytes) -> None:
        self.values[key] = value


def test_record_keeps_the_calls_and_returns_the_marks_of_one_walk(game: tuple[Any, dict[str, Prepared]]) -> None:
    studio, faces = game
    prepared = next(iter(faces.values()))
    fresh = Prepared(prepared.doc, prepared.texts, prepared.images)
    assert fresh.ops is None
    marks = record(fresh, studio.fonts, studio.icons)
    assert fresh.ops == prepared.ops
    # the same marks as tracing the list, text boxes as wide as set rather than measured again (the next test)
    assert [(m.element, m.paint, m.text) for m in marks] == [
        (m.element, m.paint, m.text) for m in trace(prepared, studio.fonts, studio.icons)
    ]


def test_record_measures_no_set_text_again_and_its_boxes_are_the_measured_ones(
    game: tuple[Any, dict[str, Prepared]], monkeypatch: pytest.MonkeyPatch
) -> None:
    studio, faces = game
    measured = {key: trace(prepared, studio.fonts, studio.icons) for key, prepared in faces.items()}

    def refuse(*_: Any) -> float:
        raise AssertionError("a set piece was measured again")

    monkeypatch.setattr(type(studio.fonts), "width", refuse)
    for key, prepared in faces.items():
        marks = record(Prepared(prepared.doc, prepared.texts, prepared.images), studio.fonts, studio.icons)
        assert len(marks) == len(measured[key]), key
        for mark, other in zip(marks, measured[key], strict=True):
            assert (mark.element, mark.paint, mark.text, mark.line) == (
                other.element,
                other.paint,
                other.text,
                other.line,
            )
            for a, b in zip(
                (mark.box.left, mark.box.top, mark.box.right, mark.box.bottom),
                (other.box.left, other.box.top, other.box.right, other.box.bottom),
                strict=True,
            ):
                assert a == pytest.approx(b, abs=1e-9), key  # the set width is the measured one, to rounding

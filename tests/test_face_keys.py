"""A face's cache key is the digest of what its render reads, however it is taken: the hash of the common parts
changes how, not what; the context goes in as its repr, so a mapping's order (which a template sees) counts."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

from generator.kit import Face
from generator.layout.limits import SAFE, Thresholds
from generator.layout.studio import Studio
from generator.pipeline import Pipeline
from generator.source.digest import text_digest, text_hash


def _as_before(studio_: Studio, face: Face, w: float, h: float, extra: dict[str, object] | None) -> str:
    """The key taken the plain way: every part hashed afresh."""
    variant = (studio_.variant,) if studio_.variant else ()
    return text_digest(
        *variant,
        studio_.inputs,
        studio_.art.policy,
        repr(studio_.limits),
        studio_.templates.digest(face.template),
        repr(face.context),
        repr((w, h, SAFE, extra or {})),
    )


def test_a_key_taken_from_the_started_hash_is_the_key_taken_afresh(project: Path) -> None:
    pipeline = Pipeline(project, "pocket-foundry")
    kit, studio = pipeline.kit(), pipeline.studio()
    assert kit is not None and studio is not None
    faces = [face for card in kit.cards[:6] for face in (card.front, card.back)]
    odd = Face("front.yaml.j2", {"when": Path("x"), "n": [1.5, None, {"b": 1, "a": "é"}]}, "odd")  # not JSON
    for face in [*faces, odd]:
        for extra in (None, {"page": 2, "of": Path("y")}):
            assert studio.key(face, 63.5, 88.9, extra, SAFE) == _as_before(studio, face, 63.5, 88.9, extra)
    before = studio.key(faces[0], 63.5, 88.9, None, SAFE)
    studio.limits = dataclasses.replace(Thresholds(), min_text_pt=5.0)  # a common part changes: so does the key
    studio.variant = "lowink"
    assert studio.key(faces[0], 63.5, 88.9, None, SAFE) == _as_before(studio, faces[0], 63.5, 88.9, None)
    assert studio.key(faces[0], 63.5, 88.9, None, SAFE) != before


def test_a_started_hash_finishes_as_the_whole_digest() -> None:
    start = text_hash("a", "b")
    assert text_digest("c", start=start) == text_digest("a", "b", "c") == text_digest("c", start=start)
    assert text_digest(start=start) == text_digest("a", "b") and text_digest() == hashlib.sha256().hexdigest()


def test_contexts_alike_but_for_order_are_two_keys_and_alike_in_order_one(project: Path) -> None:
    studio = Pipeline(project, "pocket-foundry").studio()
    assert studio is not None
    ab, ba = Face("front.yaml.j2", {"a": 1, "b": 2}, "x"), Face("front.yaml.j2", {"b": 2, "a": 1}, "x")
    again = Face("front.yaml.j2", {"a": 1, "b": 2}, "y")  # the same data under another face's name
    assert studio.key(ab, 63.5, 88.9, None, SAFE) != studio.key(ba, 63.5, 88.9, None, SAFE)  # `{% for %}` differs
    assert studio.key(ab, 63.5, 88.9, None, SAFE) == studio.key(again, 63.5, 88.9, None, SAFE)
    assert studio.key(ab, 63.5, 88.9, None, SAFE) != studio.key(ab, 63.5, 88.9, None, 0.0)


def test_a_value_written_again_only_when_it_is_another_object_keeps_every_key(project: Path) -> None:
    studio = Pipeline(project, "pocket-foundry").studio()
    assert studio is not None
    shared, other = {"title": "Foundry", "style": {"ink": "#222"}}, {"title": "Foundry", "style": {"ink": "#333"}}
    contexts = [
        {"game": shared, "card": {"name": "Press"}},
        {"game": shared, "card": {"name": "Lathe"}},  # the game's mapping again: its repr is reused
        {"game": other, "card": {"name": "Lathe"}},  # another mapping in its place: written again
        {"card": {"name": "Lathe"}, "game": shared},  # the same entries in another order
        {"game": shared},
        {"game": [shared, 1.5], "card": None},
    ]
    keys = []
    for n, context in enumerate(contexts):
        face = Face("front.yaml.j2", context, f"face-{n}")
        keys.append(studio.key(face, 63.5, 88.9, None, SAFE))
        assert keys[-1] == _as_before(studio, face, 63.5, 88.9, None), n
    assert len(set(keys)) == len(keys)

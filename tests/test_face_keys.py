"""A face's cache key is the digest it always was: the shared encoder and the hash of the common parts change
how it is taken, not what it is, so the faces a build kept stay hits."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

from generator.kit import Face
from generator.layout.limits import SAFE, Thresholds
from generator.layout.studio import Studio
from generator.pipeline import Pipeline
from generator.source.digest import text_digest, text_hash


def _as_before(studio_: Studio, face: Face, w: float, h: float, extra: dict[str, object] | None) -> str:
    """The key as cardpress took it before: every part hashed afresh, json.dumps for each face."""
    variant = (studio_.variant,) if studio_.variant else ()
    return text_digest(
        *variant,
        studio_.inputs,
        studio_.art.policy,
        repr(studio_.limits),
        studio_.templates.digest(face.template),
        json.dumps(face.context, sort_keys=True, default=str),
        json.dumps([w, h, SAFE, extra or {}], sort_keys=True, default=str),
    )


def test_keys_are_the_digests_they_were(project: Path) -> None:
    pipeline = Pipeline(project, "pocket-foundry")
    kit, studio = pipeline.kit(), pipeline.studio()
    assert kit is not None and studio is not None
    faces = [face for card in kit.cards[:6] for face in (card.front, card.back)]
    odd = Face("front.yaml.j2", {"when": Path("x"), "n": [1.5, None, {"b": 1, "a": "é"}]}, "odd")  # default=str
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

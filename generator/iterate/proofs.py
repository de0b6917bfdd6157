"""PNG proofs of faces, rasterized from the kit's own drawing; only faces whose inputs changed are redone."""

from __future__ import annotations

import copy
import io
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..kit import Kit
from ..layout.limits import SAFE
from ..layout.studio import PAGE_SAFE
from ..project.output import write_all, write_atomic
from ..render.draw import Prepared
from .contact import contact_sheet, thumbnail

if TYPE_CHECKING:
    from PIL import Image

    from ..layout.icons import IconSet
    from ..render.fonts import FontSet

MANIFEST = "proofs.json"
CONTACT = "contact.png"  # every proof on one sheet
OVERLAY = ".overlay"  # overlay proofs are named apart (x.front.overlay.png), never over the clean ones


def named(name: str, overlay: bool) -> str:
    """Return a proof folder's file name, with `.overlay` before the extension for overlay proofs."""
    if not overlay:
        return name
    stem, dot, ext = name.rpartition(".")
    return f"{stem}{OVERLAY}{dot}{ext}"


@dataclass(frozen=True)
class Entry:
    """A face to proof, with what the contact sheet and the preview page say about it."""

    key: str  # face key, e.g. "feed-belt-1/front"
    title: str  # e.g. "Feed Belt · copy 1 (front)"
    deck: str  # deck id, or "pages" for full-page components
    cards: tuple[str, ...]  # ids of the cards (or pages) that print this face
    prepared: Prepared
    safe: float  # the safe margin its lint used, for the overlay

    @property
    def file(self) -> str:
        """Return the proof's file name: the face key with '/' as '.', e.g. feed-belt-1.front.png."""
        return re.sub(r"[^A-Za-z0-9._-]|^\.", "-", self.key.replace("/", ".")) + ".png"  # a name, never a path


def entries(kit: Kit, faces: dict[str, Prepared | None], pages: dict[str, Prepared | None]) -> list[Entry]:
    """Return one entry per distinct face: card fronts in print order, then their backs, then full pages."""
    found: dict[str, dict[str, Any]] = {}
    for side in ("front", "back"):
        for card in kit.cards:
            face = card.front if side == "front" else card.back
            if faces.get(face.key) is None:
                continue
            item = found.setdefault(
                face.key,
                {
                    "title": f"{card.name} ({side})",
                    "deck": card.deck,
                    "cards": [],
                    "prepared": faces[face.key],
                    "safe": SAFE,
                },
            )
            item["cards"].append(card.id)
            if side == "back" and len(item["cards"]) > 1:
                item["title"] = f"{kit.decks.get(card.deck, card.deck)} (back)"
    for page in kit.pages:
        if pages.get(page.face.key) is None:
            continue
        item = found.setdefault(
            page.face.key,
            {
                "title": page.name.rstrip(" 0123456789") or page.name,
                "deck": "pages",
                "cards": [],
                "prepared": pages[page.face.key],
                "safe": PAGE_SAFE,
            },
        )
        item["cards"].append(page.id)
    return [Entry(key, v["title"], v["deck"], tuple(v["cards"]), v["prepared"], v["safe"]) for key, v in found.items()]


class ProofFolder:
    """A folder of proof PNGs and a manifest of what each was made from, so unchanged faces are kept."""

    def __init__(self, folder: Path, dpi: int, overlay: bool = False, root: Path | None = None):
        self.folder, self.dpi, self.overlay = folder, dpi, overlay
        self.root = root if root is not None else folder  # the output folder chosen: writes stay inside it
        self.contact = named(CONTACT, overlay)
        self._thumbs: dict[str, tuple[str, Image.Image]] = {}  # face key -> (stamp, contact-sheet thumbnail)
        try:
            self.manifest: dict[str, Any] = json.loads((folder / named(MANIFEST, overlay)).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.manifest = {}
        if not isinstance(self.manifest.get("faces"), dict):
            self.manifest = {"faces": {}}

    def file(self, entry: Entry) -> str:
        """Return the name of an entry's proof in this folder (overlay proofs have their own)."""
        return named(entry.file, self.overlay)

    def stamp(self, entry: Entry) -> str:
        """Return what the proof of `entry` must have been made from to be reused."""
        return f"{entry.prepared.digest}:{self.dpi}:{int(self.overlay)}"

    def stale(self, items: Sequence[Entry]) -> list[Entry]:
        """Return the entries whose proof is missing or was made from other inputs."""
        known = self.manifest["faces"]
        return [
            e
            for e in items
            if known.get(e.key, {}).get("stamp") != self.stamp(e) or not (self.folder / self.file(e)).is_file()
        ]

    def update(self, items: Sequence[Entry], fonts: FontSet, icons: IconSet, prune: bool = False) -> list[str]:
        """Rasterize the stale entries and write their PNGs; return their keys.

        With `prune`, `items` is the whole kit: proofs of faces no longer in it are deleted.
        """
        from ..render import facepdf, raster

        todo = self.stale(items)
        if not todo and not prune:
            return []
        manifest = copy.deepcopy(self.manifest)  # adopted only once every file of the set is in place
        gone: list[Path] = []
        if prune:
            keep = {e.key for e in items}
            for key in [k for k in manifest["faces"] if k not in keep]:
                name = str(manifest["faces"].pop(key).get("file", ""))
                if name.endswith(".png") and Path(name).name == name:  # never anything outside the folder
                    gone.append(self.folder / name)
        thumbs: dict[str, tuple[str, Image.Image]] = {}

        def files() -> Iterator[tuple[Path, bytes]]:
            if todo:
                pdf = facepdf.write([(e.prepared, e.safe) for e in todo], fonts, icons, overlay=self.overlay)
                for entry, image in zip(todo, raster.rasterize(pdf, self.dpi)):
                    yield self.folder / self.file(entry), png(image, self.dpi)
                    manifest["faces"][entry.key] = {"file": self.file(entry), "stamp": self.stamp(entry)}
                    thumbs[entry.key] = (self.stamp(entry), thumbnail(image))
            yield (
                self.folder / named(MANIFEST, self.overlay),
                (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode("utf-8"),
            )

        write_all(files(), remove=gone, root=self.root)  # the proofs and their manifest change together or not at all
        self.manifest = manifest
        self._thumbs.update(thumbs)
        return [e.key for e in todo]

    def contact_sheet(self, items: Sequence[Entry], title: str, fonts_dir: Path | None = None) -> Path:
        """Write contact.png from the current proofs of `items` (thumbnails are kept between calls)."""
        from PIL import Image

        thumbs = []
        for entry in items:
            stamp = self.stamp(entry)
            known = self._thumbs.get(entry.key)
            if known is None or known[0] != stamp:
                with Image.open(self.folder / self.file(entry)) as image:
                    known = self._thumbs[entry.key] = (stamp, thumbnail(image))
            thumbs.append((entry, known[1]))
        return write_atomic(self.folder / self.contact, contact_sheet(thumbs, title, fonts_dir), root=self.root)


def png(image: Image.Image, dpi: float) -> bytes:
    """Return PNG bytes that record their resolution (fast compression: proofs are rewritten often)."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1, dpi=(dpi, dpi))
    return out.getvalue()

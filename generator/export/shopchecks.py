"""Each shop's requirements as checks on exported files: what `cardpress preflight` runs, shop by shop.

A check reads the bytes a target wrote (a PDF, a PNG, a saved object) and, where a size depends on the
deck, the laid-out game; it returns one Check with every problem it found, each located (page, image,
cell, key). The requirements and their sources are in the manual's "Print shops" and "Virtual tables".
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from ..layout import legibility, lint
from ..layout.inks import MAX_INK
from ..render.draw import Prepared
from . import makeplayingcards, pdfinspect, pdfx, thegamecrafter, tts
from .common import MM_PER_INCH, SHOP_DPI, Deck, Game
from .drivethrucards import BLEED

PT_PER_MM = 72 / MM_PER_INCH
PPI_SLACK = 0.5  # a placement written to 5 digits may come out a hair under 300 ppi
INK_SLACK = 1e-6
SAFE_MM = {"dtc": MM_PER_INCH / 8, "tgc": MM_PER_INCH / 8, "mpc": MM_PER_INCH / 8}  # 1/8 in inside the trim


@dataclass
class Check:
    """One requirement checked on one file: its name, what passed, and every located problem."""

    shop: str
    file: str  # relative to the target's folder
    name: str
    detail: str = ""  # what was measured, when it passed
    problems: list[str] = field(default_factory=list)
    severity: str = "error"  # of the problems
    code: str = ""  # their diagnostic code ("" : K001 for an error, K003 for a warning)

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        """Return the report line: PASS/FAIL/WARN, shop, file, check and what was found."""
        if self.ok:
            return f"PASS  {self.shop}  {self.file}: {self.name}: {self.detail}"
        mark = "FAIL" if self.severity == "error" else "WARN"
        more = f" (and {len(self.problems) - 3} more)" if len(self.problems) > 3 else ""
        return f"{mark}  {self.shop}  {self.file}: {self.name}: {'; '.join(self.problems[:3])}{more}"


Files = dict[str, bytes]
Checker = Callable[[Files, Game | None, Path], Iterator[Check]]


def _deck_of(game: Game | None, slug: str) -> Deck | None:
    if game is None or game.kit is None:
        return None
    return next((d for d in game.decks() if d.slug == slug), None)


# -- DriveThruCards -----------------------------------------------------------------------------------------


def dtc(files: Files, game: Game | None, folder: Path) -> Iterator[Check]:
    """PDF/X-1a:2003 keys, boxes with 1/8 in bleed, CMYK only, total ink, 300 ppi, fonts, safe zone."""
    import pikepdf

    pdfs = sorted(name for name in files if name.endswith(".pdf"))
    if not pdfs:
        yield Check("dtc", ".", "files", problems=["no PDF: run `cardpress export GAME --to drivethrucards`"])
    for name in pdfs:
        try:
            doc = pikepdf.open(io.BytesIO(files[name]))
        except pikepdf.PdfError as exc:
            yield Check("dtc", name, "readable PDF", problems=[f"not a PDF pikepdf can read: {exc}"])
            continue
        with doc:
            slug = name.removeprefix(f"{game.id}-" if game else "").removesuffix("-dtc.pdf")
            deck = _deck_of(game, slug)
            yield _pdfx_keys(name, doc)
            yield _boxes(name, doc, deck)
            painted = pdfinspect.painted(doc)
            yield _colour_spaces(name, painted)
            yield _ink(name, painted)
            yield _resolution("dtc", name, painted)
            yield _fonts(name, doc)
            if deck is not None and game is not None:
                yield _safe_zone("dtc", name, game, deck)
                yield _plates(name, game, deck)


def _pdfx_keys(name: str, doc: Any) -> Check:
    check = Check("dtc", name, "PDF/X-1a:2003 keys")
    info = doc.docinfo
    version = str(info.get("/GTS_PDFXVersion", ""))
    if version != pdfx.PDFX:
        check.problems.append(f"Info GTS_PDFXVersion is {version or 'missing'}, needs {pdfx.PDFX}")
    intents = [i for i in doc.Root.get("/OutputIntents", []) if str(i.get("/S")) == "/GTS_PDFX"]
    if len(intents) != 1:
        check.problems.append(f"{len(intents)} GTS_PDFX output intents, needs exactly 1")
    else:
        (intent,) = intents
        if "/OutputConditionIdentifier" not in intent:
            check.problems.append("the output intent has no OutputConditionIdentifier")
        if "/DestOutputProfile" not in intent and "/RegistryName" not in intent:
            check.problems.append("the output intent neither embeds a profile nor names a registry")
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        check.problems.append("Info Trapped is not True or False")
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if key not in info:
            check.problems.append(f"Info has no {key[1:]}")
    if "/ID" not in doc.trailer:
        check.problems.append("the trailer has no ID")
    if doc.pdf_version > "1.4":
        check.problems.append(f"PDF {doc.pdf_version}, PDF/X-1a:2003 allows at most 1.4")
    if pdfx.transparent(doc):
        check.problems.append("transparency (a soft mask or alpha below 1): PDF/X-1a allows none")
    if check.ok:
        ident = str(intents[0].OutputConditionIdentifier)
        check.detail = f"{version}, output intent {ident}, Trapped {str(info.Trapped)[1:]}, PDF {doc.pdf_version}"
    return check


def _box(page: Any, key: str) -> tuple[float, float, float, float] | None:
    value = page.obj.get(key)
    return tuple(float(v) for v in value) if value is not None else None  # type: ignore[return-value]


def _boxes(name: str, doc: Any, deck: Deck | None) -> Check:
    check = Check("dtc", name, "page, trim and bleed")
    bleed_pt = BLEED * PT_PER_MM
    for number, page in enumerate(doc.pages, 1):
        media, trim, bleed = _box(page, "/MediaBox"), _box(page, "/TrimBox"), _box(page, "/BleedBox")
        if trim is None:
            check.problems.append(f"page {number}: no TrimBox")
            continue
        if bleed is None:
            check.problems.append(f"page {number}: no BleedBox")
            continue
        assert media is not None
        if not (_inside(trim, bleed) and _inside(bleed, media)):
            check.problems.append(f"page {number}: boxes not nested (TrimBox ⊆ BleedBox ⊆ MediaBox)")
        margins = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
        if any(abs(m - bleed_pt) > 0.1 for m in margins):
            shown = ", ".join(f"{m / PT_PER_MM:.2f}" for m in margins)
            check.problems.append(f"page {number}: bleed {shown} mm a side, needs 1/8 in (3.175 mm)")
        if deck is not None:
            w, h = (trim[2] - trim[0]) / PT_PER_MM, (trim[3] - trim[1]) / PT_PER_MM
            if abs(w - deck.size.w) > 0.05 or abs(h - deck.size.h) > 0.05:
                check.problems.append(f"page {number}: trim {w:.2f} × {h:.2f} mm, the deck is {deck.size.label}")
    if check.ok:
        first = _box(doc.pages[0], "/TrimBox")
        assert first is not None
        size = f"{(first[2] - first[0]) / 72:.3g} × {(first[3] - first[1]) / 72:.3g} in"
        check.detail = f"{len(doc.pages)} pages, trim {size}, TrimBox and BleedBox on each, bleed 1/8 in"
    return check


def _inside(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] >= b[0] - 0.01 and a[1] >= b[1] - 0.01 and a[2] <= b[2] + 0.01 and a[3] <= b[3] + 0.01


def _colour_spaces(name: str, painted: pdfinspect.Painted) -> Check:
    check = Check("dtc", name, "colour spaces")
    allowed = {"DeviceCMYK", "DeviceGray"}
    for paint in painted.paints:
        if paint.colour.space not in allowed:
            check.problems.append(f"page {paint.page}: a {paint.kind} in {paint.colour.space}")
    for text in painted.texts:
        if text.colour.space not in allowed:
            check.problems.append(f"page {text.page}: text in {text.colour.space} ({text.font})")
    for image in painted.images:
        if image.colour_space not in allowed:
            check.problems.append(f"page {image.page}: image {image.name} in {image.colour_space}")
    check.problems = list(dict.fromkeys(check.problems))
    if check.ok:
        check.detail = (
            f"{len(painted.paints)} paints, {len(painted.texts)} text runs, {len(painted.images)} images: CMYK or grey"
        )
    return check


def _ink(name: str, painted: pdfinspect.Painted) -> Check:
    check = Check("dtc", name, "total ink ≤ 240 %")
    worst = 0.0
    for paint in painted.paints:
        ink = paint.colour.ink or 0.0
        worst = max(worst, ink)
        if ink > MAX_INK + INK_SLACK:
            check.problems.append(f"page {paint.page}: a {paint.kind} of {ink:.1%} ink")
    seen: dict[tuple[int, int], float] = {}
    for image in painted.images:
        key = image.obj.objgen
        if key not in seen:
            seen[key] = pdfinspect.image_ink(image)
        worst = max(worst, seen[key])
        if seen[key] > MAX_INK + INK_SLACK:
            check.problems.append(f"page {image.page}: image {image.name} has pixels of {seen[key]:.1%} ink")
    check.problems = list(dict.fromkeys(check.problems))
    if check.ok:
        check.detail = f"at most {worst:.1%} over every fill, stroke and pixel"
    return check


def _resolution(shop: str, name: str, painted: pdfinspect.Painted) -> Check:
    check = Check(shop, name, f"images ≥ {SHOP_DPI} ppi at print size")
    for image in painted.images:
        if image.ppi < SHOP_DPI - PPI_SLACK:
            check.problems.append(f"page {image.page}: image {image.name} at {image.ppi:.0f} ppi")
    check.problems = list(dict.fromkeys(check.problems))
    if check.ok:
        least = min((i.ppi for i in painted.images), default=math.inf)
        check.detail = (
            f"{len(painted.images)} images placed, the least {least:.0f} ppi" if painted.images else "no images"
        )
    return check


def _fonts(name: str, doc: Any) -> Check:
    import pikepdf

    check = Check("dtc", name, "fonts embedded")
    fonts = {}
    for obj in doc.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and obj.get("/Subtype") != "/Type3":
            descriptor = obj.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in obj:
                descriptor = obj.DescendantFonts[0].get("/FontDescriptor")
            embedded = descriptor is not None and any(
                k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")
            )
            fonts[str(obj.get("/BaseFont", "?")).lstrip("/")] = embedded
    check.problems = [f"font {font} is not embedded" for font, ok in sorted(fonts.items()) if not ok]
    tags = [f.split("+")[0] for f in fonts if "+" in f]
    if check.ok:
        check.detail = f"{len(fonts)} fonts, all embedded subsets ({', '.join(sorted(fonts))})"
    if check.ok and len(tags) != len(set(tags)):  # a shop merging files could mix subsets that share a tag
        check.severity, check.problems = "warning", [f"subset tags repeat: {', '.join(sorted(fonts))}"]
    return check


def _safe_zone(shop: str, name: str, game: Game, deck: Deck) -> Check:
    """Elements of the deck's faces that reach into the shop's safe zone (art marked `bleed` may)."""
    studio = game.pipeline.studio()
    safe = SAFE_MM[shop]
    check = Check(shop, name, f"safe zone {safe:g} mm", severity="warning")
    if studio is None:
        return check
    distinct = _distinct(deck, game)
    found: dict[str, list[str]] = {}  # the same element of one template, on every face it is drawn
    for label, prepared in distinct.values():
        for finding in lint.check(prepared.doc, studio.icons, safe=safe):
            if finding.code == "L101":
                found.setdefault(finding.message.split(" (box ")[0], []).append(label)
    check.problems = _on_faces(found)
    if check.ok:
        check.detail = f"{len(distinct)} faces: every element at least {safe:g} mm inside the trim"
    return check


def _plates(name: str, game: Game, deck: Deck) -> Check:
    """Small text of the deck's faces in a colour that prints on three or four inks (the lint's L114)."""
    from ..render.trace import trace

    check = Check("dtc", name, "small text on at most two inks", severity="warning", code="L114")
    studio = game.pipeline.studio()
    if studio is None:
        return check
    found: dict[str, list[str]] = {}
    faces = _distinct(deck, game)
    for label, prepared in faces.values():
        for finding in legibility.plates(trace(prepared, studio.fonts, studio.icons), studio.limits):
            found.setdefault(finding.message, []).append(label)
    check.problems = _on_faces(found)
    if check.ok:
        check.detail = f"{len(faces)} faces: text below {legibility.SHARP_TEXT_PT:g} pt prints on one or two inks"
    return check


def _on_faces(found: dict[str, list[str]]) -> list[str]:
    """Return each problem once, with the first face it is on and how many more."""
    return [
        f"{what} on {labels[0]}" + (f" and {len(labels) - 1} more faces" if len(labels) > 1 else "")
        for what, labels in found.items()
    ]


def _distinct(deck: Deck, game: Game) -> dict[str, tuple[str, Prepared]]:
    """Return each distinct face of the deck once: {face key: (card/side, laid-out face)}."""
    distinct: dict[str, tuple[str, Prepared]] = {}
    for card in deck.cards:
        for side in ("front", "back"):
            face = card.front if side == "front" else card.back
            distinct.setdefault(face.key, (f"{card.id}/{side}", game.prepared(card, side)))
    return distinct


# -- The Game Crafter and MakePlayingCards ------------------------------------------------------------------


def faces(shop: str, target: Callable[[Any], tuple[int, int]]) -> Checker:
    """Return the check of a shop that takes one PNG per face at a template's pixel size."""

    def checker(files: Files, game: Game | None, folder: Path) -> Iterator[Check]:
        from PIL import Image, UnidentifiedImageError

        decks = sorted({name.split("/")[0] for name in files if "/" in name})
        if not decks:
            yield Check(
                shop, ".", "files", problems=[f"no deck folders: run `cardpress export GAME --to {folder.name}`"]
            )
        for slug in decks:
            deck = _deck_of(game, slug)
            want = target(deck.size) if deck is not None else None
            pngs = sorted(n for n in files if n.startswith(f"{slug}/") and n.endswith(".png"))
            check = Check(shop, slug + "/", "face images")
            for png in pngs:
                try:
                    with Image.open(io.BytesIO(files[png])) as im:
                        size, mode, dpi = im.size, im.mode, im.info.get("dpi")
                except (UnidentifiedImageError, OSError) as exc:
                    check.problems.append(f"{png}: not an image: {exc}")
                    continue
                if want is not None and size != want:
                    check.problems.append(f"{png}: {size[0]} × {size[1]} px, needs {want[0]} × {want[1]}")
                if mode not in ("RGB", "RGBA"):
                    check.problems.append(f"{png}: colour mode {mode}, needs RGB")
                if dpi is None or round(float(dpi[0])) < SHOP_DPI:
                    check.problems.append(f"{png}: {round(float(dpi[0])) if dpi else 'no'} dpi, needs {SHOP_DPI}")
            if check.ok:
                shown = f"{want[0]} × {want[1]} px" if want else "sizes not checked (no such deck)"
                check.detail = f"{len(pngs)} PNGs, RGB, {SHOP_DPI} dpi, {shown}"
            yield check
            yield _counts(shop, slug, files)
            if deck is not None and game is not None and shop in SAFE_MM:
                yield _safe_zone(shop, slug + "/", game, deck)

    return checker


def _counts(shop: str, slug: str, files: Files) -> Check:
    check = Check(shop, f"{slug}/counts.csv", "counts")
    data = files.get(f"{slug}/counts.csv")
    if data is None:
        check.problems.append("missing")
        return check
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
    for number, row in enumerate(rows, 2):
        for column in ("front", "back"):
            if f"{slug}/{row.get(column, '')}" not in files:
                check.problems.append(f"row {number}: {column} {row.get(column)!r} is not in the folder")
    if check.ok:
        check.detail = f"{len(rows)} faces, {sum(int(r['count']) for r in rows)} cards, every file present"
    return check


# -- Tabletop Simulator -------------------------------------------------------------------------------------


def table(files: Files, game: Game | None, folder: Path) -> Iterator[Check]:
    """Sheets within 10 × 7 and 4096 px, URLs TTS can load (with a scheme, local files present), ids."""
    from PIL import Image

    saves = sorted(n for n in files if n.endswith(".json"))
    if not saves:
        yield Check("tts", ".", "files", problems=["no saved object: run `cardpress export GAME --to tts`"])
    for name in saves:
        check_urls = Check("tts", name, "image URLs")
        check_grid = Check("tts", name, "sheets ≤ 10 × 7 cells, ≤ 4096 px")
        try:
            save = json.loads(files[name])
        except ValueError as exc:
            yield Check("tts", name, "JSON", problems=[f"not JSON: {exc}"])
            continue
        sheets = 0
        for where, deck in _custom_decks(save):
            sheets += 1
            for key in ("FaceURL", "BackURL"):
                problem = _url_problem(str(deck.get(key, "")), folder, files)
                if problem:
                    check_urls.problems.append(f"{where} {key}: {problem}")
            cols, rows = int(deck.get("NumWidth", 0)), int(deck.get("NumHeight", 0))
            if not (1 <= cols <= tts.MAX_COLS and 1 <= rows <= tts.MAX_ROWS):
                check_grid.problems.append(f"{where}: grid {cols} × {rows}, TTS allows up to 10 × 7")
            local = _local_name(str(deck.get("FaceURL", "")), folder)
            if local is not None and local in files:
                with Image.open(io.BytesIO(files[local])) as im:
                    w, h = im.size
                if max(w, h) > tts.MAX_PX:
                    check_grid.problems.append(f"{where}: {local} is {w} × {h} px, TTS loads at most 4096 a side")
                if cols and rows and (w % cols or h % rows):
                    check_grid.problems.append(
                        f"{where}: {local} ({w} × {h} px) does not split into {cols} × {rows} cells"
                    )
        check_urls.problems = list(dict.fromkeys(check_urls.problems))
        if check_urls.ok:
            check_urls.detail = f"{sheets} sheets, every FaceURL and BackURL has a scheme and local files exist"
        if check_grid.ok:
            check_grid.detail = f"{sheets} sheets within 10 × 7 cells and 4096 px"
        yield check_urls
        yield check_grid
        yield _card_ids(name, save)


def _card_ids(name: str, save: dict[str, Any]) -> Check:
    """Every card's CardID names a sheet of its deck (key × 100 + slot) and a cell before the hidden last one."""
    check = Check("tts", name, "card ids")
    count = 0
    for index, state in enumerate(save.get("ObjectStates") or []):
        cards = state.get("ContainedObjects") or ([state] if state.get("Name") == "Card" else [])
        for number, card in enumerate(cards):
            count += 1
            card_id = int(card.get("CardID", -1))
            sheets = {**(state.get("CustomDeck") or {}), **(card.get("CustomDeck") or {})}
            sheet = sheets.get(str(card_id // 100))
            where = f"ObjectStates[{index}] card {number} (CardID {card_id})"
            if sheet is None:
                check.problems.append(f"{where}: no CustomDeck {card_id // 100}")
            elif card_id % 100 >= int(sheet.get("NumWidth", 0)) * int(sheet.get("NumHeight", 0)) - 1:
                check.problems.append(f"{where}: slot {card_id % 100} is past the sheet's last card cell")
    if check.ok:
        check.detail = f"{count} cards, each on a cell of its sheet"
    return check


def _custom_decks(save: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield every distinct CustomDeck entry of the saved object, located where it first appears."""

    def walk(obj: dict[str, Any], where: str) -> Iterator[tuple[str, dict[str, Any]]]:
        for key, deck in (obj.get("CustomDeck") or {}).items():
            yield f"{where} CustomDeck {key}", deck
        for index, inner in enumerate(obj.get("ContainedObjects") or []):
            yield from walk(inner, f"{where} card {index}")

    seen: set[str] = set()
    for index, state in enumerate(save.get("ObjectStates") or []):
        for where, deck in walk(state, f"ObjectStates[{index}] {state.get('Nickname', '')!r}"):
            key = json.dumps(deck, sort_keys=True)
            if key not in seen:
                seen.add(key)
                yield where, deck


def _url_problem(url: str, folder: Path, files: Files) -> str | None:
    """Return why TTS cannot load `url`, or None: a scheme it reads, and a local file that is there."""
    parsed = urlparse(url)
    if parsed.scheme in ("http", "https") and parsed.netloc:
        return None
    if parsed.scheme == "file":
        path = Path(unquote(parsed.path))
        present = path.name in files if path.parent == folder else path.is_file()
        return None if present else f"{url} names no exported file"
    return (
        f"{url!r} has no scheme: TTS loads only http(s):// or file:/// URLs "
        "(export without --url-prefix for file:/// URLs, or with it for hosted ones)"
    )


def _local_name(url: str, folder: Path) -> str | None:
    parsed = urlparse(url)
    if parsed.scheme != "file":
        return None
    path = Path(unquote(parsed.path))
    return path.name if path.parent == folder else None


CHECKERS: dict[str, Checker] = {
    "dtc": dtc,
    "tgc": faces("tgc", thegamecrafter.template),
    "mpc": faces("mpc", makeplayingcards.template),
    "tts": table,
}
TARGETS = {"dtc": "drivethrucards", "tgc": "thegamecrafter", "mpc": "makeplayingcards", "tts": "tts"}

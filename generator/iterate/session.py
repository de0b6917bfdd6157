"""One game kept built: each rebuild re-renders only the faces whose inputs changed, never replaces good output
with broken output, and leaves a snapshot for the preview page."""

from __future__ import annotations

import fnmatch
import os
import re
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .. import resources
from ..build import kit_path
from ..diagnostics import MAX_SHOWN, CardpressError, Diagnostic, Report, did_you_mean, not_shown
from ..kit import Card, Kit, Page
from ..layout.studio import RenderCache, Studio, keep_faces
from ..pipeline import Pipeline
from ..project import cache as disk
from ..project.output import write_all
from .proofs import Entry, ProofFolder, entries

PREVIEW = "preview"  # watch and serve write under OUT/<game>/preview/


@dataclass
class Outcome:
    """What one rebuild did and found."""

    ok: bool
    report: Report
    rendered: list[str] = field(default_factory=list)  # face keys rendered afresh
    proofed: list[str] = field(default_factory=list)  # face keys whose PNG was rewritten
    written: list[Path] = field(default_factory=list)  # PDFs (and the contact sheet) written
    seconds: dict[str, float] = field(default_factory=dict)  # time per stage, and "total"
    entries: list[Entry] = field(default_factory=list)


class Session:
    """Builds one game again and again, reusing every face render whose inputs are unchanged."""

    def __init__(
        self,
        root: Path,
        game_id: str,
        out: Path,
        *,
        dpi: int = 150,
        overlay: bool = False,
        papers: Sequence[str] = ("a4", "letter"),
        players: int | None = None,
        missing_art: str | None = None,
        pdfs: bool = True,
        contact: bool = False,
        preview: bool = False,
    ):
        self.root, self.game_id, self.out = root, game_id, out
        self.papers, self.players, self.missing_art = list(papers), players, missing_art
        self.pdfs, self.contact = pdfs, contact
        self.pdfs_due = False  # a good rebuild left the kit PDFs to write later (see write_pdfs)
        self._good: Pipeline | None = None  # the last good complete rebuild, whose PDFs are due
        # watch and serve keep their proofs and PDFs in a folder of their own, so a kit the user built with
        # other options (3 players, short-edge duplex) is never replaced by the preview's
        self.folder = out / game_id / PREVIEW if preview else out / game_id
        self.proofs = ProofFolder(self.folder / "proofs", dpi, overlay, root=out)
        # shared by every rebuild, renders by a digest of what they read; on disk too, as `build` keeps them,
        # so the first rebuild lays out only the faces that changed since the last build or watch
        self.cache = RenderCache(disk.shelf("faces"), str(root))
        self.version = 0
        self._lock = threading.Lock()
        self._state: dict[str, Any] = {
            "game": game_id,
            "title": game_id,
            "version": 0,
            "ok": None,
            "status": "starting",
            "diagnostics": [],
            "faces": [],
            "decks": {},
            "kits": [],
        }

    def affected_by(self, changed: Iterable[Path]) -> bool:
        """Return True if any changed path may feed this game (its cards, any layouts, the fonts).

        A folder holding any of those (the project root, say) counts as a change to all of it.
        """
        from ..editions.chain import chain_ids

        def real(path: Path) -> Path:  # os.path.realpath, unlike Path.resolve, does not raise on a loop of links
            return Path(os.path.realpath(path))

        feeds = [
            *(real(self.root / "cards" / gid) for gid in chain_ids(self.root, self.game_id)),
            real(self.root / "layouts"),
            real(self.root / "fonts"),
        ]
        out = real(self.out)
        for path in (real(Path(p)) for p in changed):
            if path == out or out in path.parents:
                continue  # what we write ourselves, should --out lie inside a watched folder
            if any(f == path or f in path.parents or path in f.parents for f in feeds):
                return True
        return False

    def rebuild(
        self, changed: Iterable[Path] = (), only: Sequence[str] | None = None, pdfs: bool | None = None
    ) -> Outcome:
        """Validate, render what changed, write proofs (and PDFs); keep the last good output on failure.

        A problem that stops the rebuild part way (a disk full, an output folder that is a file) is in the
        outcome's report like any other, so `watch` and `serve` say it and keep running.
        """
        start = time.perf_counter()
        try:
            return self._rebuild(changed, only, pdfs)
        except CardpressError as exc:
            return self._finish(Outcome(False, exc.report), start, None, None, False)

    def _rebuild(self, changed: Iterable[Path], only: Sequence[str] | None, pdfs: bool | None) -> Outcome:
        """Do one rebuild (see `rebuild`).

        `only` limits the rebuild to cards (or pages) whose id matches one of its patterns; PDFs and
        the contact sheet are then left alone. `pdfs=False` leaves the PDFs for `write_pdfs` (watch
        mode writes them once edits pause, so a proof never waits for a whole kit).
        """
        start = time.perf_counter()
        complete = only is None
        if complete and not self.pdfs_due:  # PDFs still due need the cover and furniture renders they used
            self.cache.prune()
        pipeline = Pipeline(
            self.root, self.game_id, players=self.players, missing_art=self.missing_art, cache=self.cache
        )
        outcome = Outcome(False, pipeline.report)
        report = outcome.report
        kit, studio = pipeline.kit(), pipeline.studio()
        if kit is None or studio is None:
            return self._finish(outcome, start, None, None, False)
        cards, pages = self._select(kit, only, report)
        faces = pipeline.layout(cards) or {}
        outcome.entries = entries(replace(kit, cards=cards, pages=pages), faces, pipeline.pages(self.papers[0], pages))
        outcome.rendered = list(dict.fromkeys(studio.rendered))
        outcome.seconds["render"] = time.perf_counter() - start
        if complete:
            keep_faces()  # written now, not in hours: a long write would hold up `build`
        if not report.ok():
            return self._finish(outcome, start, kit, studio, complete)
        mark = time.perf_counter()
        outcome.proofed = self.proofs.update(outcome.entries, studio.fonts, studio.icons, prune=complete)
        outcome.seconds["proofs"] = time.perf_counter() - mark
        outcome.ok = True
        self._finish(outcome, start, kit, studio, complete)  # the preview page shows the new proofs now
        if self.pdfs and complete:
            self._good, self.pdfs_due = pipeline, True
            if pdfs is not False:
                self._write_pdfs(outcome)
        if self.contact and complete and (outcome.proofed or not (self.proofs.folder / self.proofs.contact).exists()):
            mark = time.perf_counter()
            title = f"{kit.title}: {len(outcome.entries)} faces, {self.proofs.dpi} dpi"
            outcome.written.append(self.proofs.contact_sheet(outcome.entries, title, resources.fonts(self.root)))
            outcome.seconds["contact"] = time.perf_counter() - mark
        outcome.seconds["total"] = time.perf_counter() - start
        return outcome

    def write_pdfs(self) -> Outcome:
        """Write the kit PDFs of the last good rebuild (if a rebuild left them due)."""
        outcome = Outcome(True, Report())
        if self.pdfs_due:
            try:
                self._write_pdfs(outcome)
            except CardpressError as exc:
                outcome.ok = False
                outcome.report.extend(exc.report.items)
                self._finish(outcome, time.perf_counter(), None, None, False)
        return outcome

    def _write_pdfs(self, outcome: Outcome) -> None:
        pipeline = self._good
        assert pipeline is not None  # pdfs_due is set with it
        mark = time.perf_counter()
        said = len(pipeline.report.items)
        pdfs = pipeline.render(self.papers)
        self.pdfs_due = False
        outcome.report.extend(pipeline.report.items[said:])  # the cover and sheet furniture, linted as drawn
        if pdfs is not None:
            paths = {self.folder / kit_path(Path(), self.game_id, paper).name: data for paper, data in pdfs.items()}
            outcome.written += write_all(paths, root=self.out)
            with self._lock:  # the preview page links the new PDFs
                self.version += 1
                self._state = {**self._state, "kits": self.kits(), "version": self.version}
        else:
            outcome.ok = False
            self._finish(outcome, mark, pipeline.kit(), pipeline.studio(), True)
        outcome.seconds["pdfs"] = time.perf_counter() - mark

    def _select(self, kit: Kit, only: Sequence[str] | None, report: Report) -> tuple[list[Card], list[Page]]:
        """Return the cards and pages to render: all of them, or those matching the patterns in `only`."""
        if only is None:
            return kit.cards, kit.pages
        ids = [c.id for c in kit.cards] + [p.id for p in kit.pages]
        kinds = list(dict.fromkeys(re.sub(r"-\d+$", "", i) for i in ids))  # feed-belt for feed-belt-1, -2
        cards: list[Card] = []
        pages: list[Page] = []
        for pattern in only:
            if not any(_matches(i, pattern) for i in ids):
                report.error(
                    "P001",
                    f"no card or page '{pattern}' in {self.game_id}",
                    hint=did_you_mean(pattern, kinds + ids) or f"cards: {', '.join(kinds)}",
                )
        for card in kit.cards:
            if any(_matches(card.id, p) for p in only):
                cards.append(card)
        for page in kit.pages:
            if any(_matches(page.id, p) for p in only):
                pages.append(page)
        return cards, pages

    def _finish(
        self, outcome: Outcome, start: float, kit: Kit | None, studio: Studio | None, complete: bool
    ) -> Outcome:
        """Publish what this rebuild found for the preview page; keep the last good faces on failure.

        After a `complete` good rebuild the face list is replaced (faces may have gone); otherwise the
        faces it covered are updated in place.
        """
        outcome.seconds.setdefault("total", time.perf_counter() - start)
        said = studio.said if studio is not None else {}
        with self._lock:
            state = dict(self._state)
            state["ok"] = outcome.ok
            state["status"] = "ok" if outcome.ok else "failed"
            state["summary"] = outcome.report.summary()
            if kit is not None:
                state["title"], state["decks"] = kit.title, {**kit.decks, "pages": "full-page components"}
            faces = {f["key"]: f for f in state["faces"]}
            if outcome.ok:
                known = self.proofs.manifest["faces"]
                fresh = {
                    e.key: {
                        "key": e.key,
                        "title": e.title,
                        "deck": e.deck,
                        "cards": list(e.cards),
                        "file": self.proofs.file(e),
                        "stamp": known.get(e.key, {}).get("stamp", ""),
                    }
                    for e in outcome.entries
                }
                faces = fresh if complete else {**faces, **fresh}
            for key, face in faces.items():
                face["diagnostics"] = _listed(said[key]) if key in said else face.get("diagnostics", [])
            state["faces"] = list(faces.values())
            state["kits"] = self.kits()
            # a problem is shown beside its face; one whose face is not on show (none built yet) above them all
            attached = {d for key, items in said.items() if key in faces for d in items}
            state["diagnostics"] = _listed([d for d in outcome.report.items if d not in attached])
            self.version += 1
            state["version"] = self.version
            self._state = state
        return outcome

    def kits(self) -> list[dict[str, str]]:
        """Return the kit PDFs on disk for this session's papers: [{"paper": "a4", "file": "game-a4.pdf"}]."""
        found = [(paper, kit_path(self.out, self.game_id, paper)) for paper in self.papers]
        return [{"paper": paper, "file": path.name} for paper, path in found if path.is_file()]

    def snapshot(self) -> dict[str, Any]:
        """Return the latest published state (what the preview page shows)."""
        with self._lock:
            return self._state


def _matches(ident: str, pattern: str) -> bool:
    """A card matches its id, a glob, or its type: 'feed-belt' matches feed-belt-1 and feed-belt-2."""
    return (
        ident == pattern
        or fnmatch.fnmatchcase(ident, pattern)
        or re.fullmatch(re.escape(pattern) + r"-\d+", ident) is not None
    )


def _listed(items: Sequence[Diagnostic]) -> list[dict[str, Any]]:
    """Return diagnostics for the page as the terminal says them: each problem once, runs on a line as one, the
    first MAX_SHOWN, then a line for the rest (so the page's state stays small whatever the input)."""
    problems = Report(list(items)).problems()
    listed = [_json(p.shown(), p.note()) for p in problems[:MAX_SHOWN]]
    more = not_shown(problems[MAX_SHOWN:])
    if more:
        listed.append({"severity": "note", "code": "", "headline": more, "hint": "", "source": ""})
    return listed


def _json(d: Diagnostic, note: str = "") -> dict[str, Any]:
    """Return a diagnostic for the page: its headline, hint and the source lines with the caret."""
    source = "\n".join(line for line in d.render().splitlines()[1:] if not line.startswith("  = hint: "))
    headline = d.headline() + (f" {note}" if note else "")
    return {"severity": d.severity, "code": d.code, "headline": headline, "hint": d.hint or "", "source": source}

"""Export games to the targets named: each game's files are written together or not at all.

`run(root, game, targets, out, options)` writes each target's files under OUT/<game>/<target>/ (through
generator.project.output.write_all); one failing game does not stop the others. A shop's or table's
files are preflighted first (generator.export.preflight): a file that breaks its requirements is an
error, and the game's files are not written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Report
from ..pipeline import resolve_games
from ..project.output import write_all
from . import preflight, readmes
from .options import ExportOptions
from .preflight import SHOP_OF
from .shopchecks import Check
from .target import ExportJob, exports, get, registrations


@dataclass
class ExportResult:
    """What an export wrote, which games failed, and every diagnostic."""

    written: list[Path] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    report: Report = field(default_factory=Report)
    checks: list[Check] = field(default_factory=list)  # the preflight of every shop and table file written


def run(
    root: Path,
    game_id: str | None,
    targets: Sequence[str],
    out: Path,
    options: ExportOptions,
    missing_art: str | None = None,
) -> ExportResult:
    """Export every named game to every target; a game's files are written together or not at all."""
    result = ExportResult()
    chosen = [get(name) for name in targets]
    if None in chosen:
        for name, target in zip(targets, chosen):
            if target is None:
                result.report.error("X004", f"export target '{name}' is not available", hint=_why(name))
        return result
    for gid in resolve_games(root, game_id):
        job = ExportJob(root, gid, options, missing_art)
        files: dict[Path, bytes] = {}
        reports: list[Report] = []  # targets that share a layout share its report: each is read once
        ok = True
        for target in chosen:
            assert target is not None
            made, said = target.files(job)
            if all(said is not r for r in reports):
                reports.append(said)
            ok = ok and said.ok() and bool(made)
            files.update({out / gid / target.name / name: data for name, data in made.items()})
            note = readmes.readme(target.name, gid, options, out / gid / target.name) if made else None
            if note is not None:
                files[out / gid / target.name / readmes.NAME] = note
            if made and target.name in SHOP_OF:  # the shop's own requirements, before anything is written
                found = preflight.check(SHOP_OF[target.name], made, job.game(), out / gid / target.name)
                result.checks += found.checks
                reports.append(found.report)
                ok = ok and found.report.ok()
        report = Report()
        for said in reports:
            report.extend(said.items)
        result.report.extend(_unique(report).items)
        if not ok:
            result.failed.append(gid)
            continue
        result.written += write_all(dict(sorted(files.items())), root=out)
    return result


def _why(name: str) -> str:
    """Return why a target is missing: its package failed to load, or nothing registers it."""
    found = next((r for r in registrations() if r.name == name), None)
    if found is not None:
        return f"its package ({found.origin}) could not be loaded: {found.problem}"
    return f"export targets: {', '.join(t.name for t in exports())}"


def _unique(report: Report) -> Report:
    """Return the report with each diagnostic once (targets that share a pipeline share its findings)."""
    seen, out = set(), Report()
    for item in report.items:
        key = repr(item)
        if key not in seen:
            seen.add(key)
            out.add(item)
    return out

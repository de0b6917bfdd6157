"""The checklist export target: every card a kit prints, deck by deck with its copies, to tick off after cutting."""

from __future__ import annotations

from generator.sdk import ExportJob, ExportTarget, Report


class Checklist(ExportTarget):
    """A Markdown checklist of a game's cards."""

    name = "checklist"  # what `--to` says; it must be the name the entry point registers
    summary = "A Markdown checklist of every card the kit prints, deck by deck, with its copies."
    kind = "files"

    def files(self, job: ExportJob) -> tuple[dict[str, bytes], Report]:
        game = job.game()  # laid out through cardpress's pipeline, once for every target of the run
        if game.kit is None:  # the game has errors: they are in the report, and nothing is written
            return {}, game.report
        kit = game.kit
        lines = [f"# {kit.title}: {len(kit.cards)} cards for {kit.players} players", ""]
        for deck, deck_name in kit.decks.items():
            copies: dict[str, int] = {}
            for card in kit.cards:
                if card.deck == deck:
                    copies[card.name] = copies.get(card.name, 0) + 1
            lines += [f"## {deck_name}", ""]
            lines += [f"- [ ] {name}" + (f" × {n}" if n > 1 else "") for name, n in copies.items()]
            lines.append("")
        return {"checklist.md": "\n".join(lines).encode("utf-8")}, game.report


TARGET = Checklist()

"""`cardpress explain` tells a run the way the rulebook's worked example does."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli
from pf_common import ROOT, model

from generator.diagnostics import CardpressError
from generator.games.pocket_foundry.explain import explain, render_text, to_json

WORKED = ["Starter Feeder", "Small Press", "Polishing Wheel", "Ticket Stamp"]


def test_the_worked_example_step_by_step():
    text = render_text(explain(model(), WORKED, ["feed=3"], []))
    assert text.splitlines()[:10] == [
        "Row:   1 Starter Feeder · 2 Small Press · 3 Polishing Wheel · 4 Ticket Stamp",
        "Start: 3 FEED, 0 PARTS (caps: 6 FEED, 4 PARTS)",
        "Skips: best: the most points now; on a tie, the leftovers this row turns into the most points later",
        "",
        "Slot 1  Starter Feeder   ran: gain 2 FEED → 5 FEED, 0 PARTS, +0 points",
        "Slot 2  Small Press      ran: pay 2 FEED, gain 1 PART → 3 FEED, 1 PART, +0 points",
        "Slot 3  Polishing Wheel  ran: pay 1 PART, gain 4 points → 3 FEED, 0 PARTS, +4 points",
        "Slot 4  Ticket Stamp     ran: pay 3 FEED, gain 3 points → 0 FEED, 0 PARTS, +7 points",
        "",
        "End:   0 FEED, 0 PARTS and 7 new points.",
    ]


def test_wheel_before_press_is_skipped_and_the_part_kept():
    e = explain(model(), ["Polishing Wheel", "Small Press", "Ticket Stamp"], [], [])
    data = to_json(e)
    assert data["row"][0] == "Starter Feeder"  # slot 1 may go unsaid
    assert [s["status"] for s in data["steps"]] == ["ran", "cannot pay", "ran", "ran"]
    assert data["end"] == {"feed": 0, "parts": 1, "points": 3}
    assert "skipped: cannot pay 1 PART with 5 FEED, 0 PARTS" in render_text(e)


def test_the_cap_discards_at_once_and_named_skips_are_honoured():
    e = explain(model(), WORKED, ["5 FEED"], [4])
    lines = render_text(e).splitlines()
    assert lines[4] == (
        "Slot 1  Starter Feeder   ran: gain 2 FEED, discard 1 FEED above the cap (6 FEED) → 6 FEED, 0 PARTS, +0 points"
    )
    assert lines[7] == "Slot 4  Ticket Stamp     skipped by choice"
    assert to_json(e)["end"] == {"feed": 4, "parts": 0, "points": 4}


def test_best_prefers_keeping_what_the_row_can_use_later():
    # Equal points now (3) either way; keeping the PART is worth 4 more points on the next run.
    e = explain(model(), ["Polishing Wheel", "Small Press", "Ticket Stamp"], [], [])
    assert e.trace.end == (0, 1)
    assert [(a.end, a.points) for a in e.alternatives][0] == ((2, 0), 3)


@pytest.mark.parametrize(
    "row, start, skips, message",
    [
        (["Small Pres"], [], [], "slot 2: unknown machine 'Small Pres'"),
        (["Feed Belt", "Starter Feeder"], [], [], "slot 3: the Starter Feeder only ever sits in slot 1"),
        (["Feed Belt"], ["feed=9"], [], "--start 'feed=9': 9 is above the feed cap of 6"),
        (["Feed Belt"], ["coal=1"], [], "--start 'coal=1': 'coal' is not a stored resource"),
        (["Feed Belt"], [], [5], "--skip 5: slots are numbered 1 to 4"),
        (["A", "B", "C", "D", "E"], [], [], "slot 5: a row has 4 slots, not 5"),
    ],
)
def test_user_mistakes_are_diagnostics(row, start, skips, message):
    with pytest.raises(CardpressError) as info:
        explain(model(), row, start, skips)
    assert message in [d.message for d in info.value.report.items]


def test_cli_text_json_and_errors():
    ok = run_cli("explain", "pocket-foundry", *WORKED, "--json", cwd=ROOT)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["end"] == {"feed": 0, "parts": 0, "points": 7}
    bad = run_cli("explain", "pocket-foundry", "Feed Bolt", cwd=ROOT)
    assert bad.returncode == 1
    assert (
        bad.stderr == "error[S005] slot 2: unknown machine 'Feed Bolt'\n  = hint: did you mean 'Feed Belt'?\n\n"
        "1 error, 0 warnings\n"
    )

"""The preview server links a game's latest lab reports and serves their files, and nothing else on disk."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from generator.iterate import reports
from generator.iterate.serve import PreviewServer
from generator.iterate.session import Session


def _report(folder: Path, stem: str, title: str, when: float) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.html").write_text(f"<title>{title}</title>")
    (folder / f"{stem}.json").write_text(json.dumps({"title": title, "meta": {}, "sections": {}}))
    (folder / f"{stem}.md").write_text(f"# {title}\n")
    (folder / "charts").mkdir(exist_ok=True)
    (folder / "charts" / f"{stem}-owner.png").write_bytes(b"\x89PNG chart")
    os.utime(folder / f"{stem}.html", (when, when))


@pytest.fixture
def served(project, tmp_path):
    out = tmp_path / "output"
    game = out / "pocket-foundry"
    _report(game / "simulation", "report", "pocket-foundry: simulated playtest", 1_000_000)
    _report(
        game / "sweep" / "ticket-stamp-run-gain-points", "sweep", "pocket-foundry: sweep of Ticket Stamp points", 2e6
    )
    _report(game / "compare" / "pocket-foundry-vs-pocket-foundry", "compare", "pocket-foundry against itself", 3e5)
    (game / "simulation" / "notes.html").write_text("no JSON beside it: not a report")
    (game / "proofs").mkdir()
    (game / "proofs" / "x.html").write_text("proof folder")
    (game / "proofs" / "x.json").write_text("{}")
    (tmp_path / "secret.txt").write_text("secret")
    (game / "simulation" / "charts" / "report-leak.png").symlink_to(tmp_path / "secret.txt")
    server = PreviewServer([Session(project, "pocket-foundry", out)], port=0)
    server.start()
    yield server
    server.shutdown()
    server.server_close()


def _get(server: PreviewServer, path: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(server.url + path.lstrip("/"), timeout=10) as answer:
            return answer.status, answer.read(), answer.headers["Content-Type"]
    except urllib.error.HTTPError as exc:
        return exc.code, b"", ""


def test_the_state_lists_the_latest_reports_newest_first(served):
    status, body, _ = _get(served, "/api/state")
    [game] = json.loads(body)["games"]
    assert status == 200
    assert [(r["title"], r["kind"], r["url"]) for r in game["reports"]] == [
        (
            "pocket-foundry: sweep of Ticket Stamp points",
            "sweep",
            "/reports/pocket-foundry/sweep/ticket-stamp-run-gain-points/sweep.html",
        ),
        ("pocket-foundry: simulated playtest", "simulation", "/reports/pocket-foundry/simulation/report.html"),
        (
            "pocket-foundry against itself",
            "comparison",
            "/reports/pocket-foundry/compare/pocket-foundry-vs-pocket-foundry/compare.html",
        ),
    ]


def test_a_report_its_markdown_json_and_charts_are_served(served):
    assert _get(served, "/reports/pocket-foundry/simulation/report.html") == (
        200,
        b"<title>pocket-foundry: simulated playtest</title>",
        "text/html; charset=utf-8",
    )
    assert _get(served, "/reports/pocket-foundry/simulation/report.md")[0] == 200
    assert _get(served, "/reports/pocket-foundry/simulation/report.json")[2] == "application/json"
    assert _get(served, "/reports/pocket-foundry/simulation/charts/report-owner.png")[1] == b"\x89PNG chart"


def test_a_new_report_changes_the_version_the_page_polls(served):
    before = _get(served, "/api/version")[1]
    _report(served.reports_folder(next(iter(served.sessions.values()))) / "other", "report", "again", 3e6)
    assert _get(served, "/api/version")[1] != before


@pytest.mark.parametrize(
    "path",
    [
        "/reports/pocket-foundry/simulation/notes.html",  # no JSON beside it
        "/reports/pocket-foundry/proofs/x.html",  # the proofs folder is not a report
        "/reports/pocket-foundry/simulation/charts/report-leak.png",  # a link out of the folder
        "/reports/pocket-foundry/../../secret.txt",
        "/reports/pocket-foundry/%2e%2e/%2e%2e/secret.txt",
        "/reports/pocket-foundry/simulation/../../../secret.txt",
        "/reports/pocket-foundry//etc/passwd",
        "/reports/hedgerow/simulation/report.html",  # a game this server does not serve
        "/reports/pocket-foundry",
    ],
)
def test_nothing_else_is_reachable(served, path):
    assert _get(served, path)[0] == 404


def test_the_page_links_the_reports():
    page = Path(reports.__file__).with_name("page.html").read_text()
    assert 'el("nav", {class: "reports"' in page and "r.url" in page

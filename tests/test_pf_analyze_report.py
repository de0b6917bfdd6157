"""`analyze pocket-foundry --out` writes its report: its machines table is not a simulation's."""

from __future__ import annotations

import json

from conftest import ROOT, run_cli


def test_analyze_pocket_foundry_writes_its_report_where_asked(tmp_path):
    result = run_cli("analyze", "pocket-foundry", "--quick", "--out", str(tmp_path / "analysis"), cwd=ROOT)
    assert (result.returncode, result.stderr.count("internal error")) == (0, 0), result.stderr
    written = sorted(p.name for p in (tmp_path / "analysis").iterdir())
    assert written == ["analysis.html", "analysis.json", "analysis.md"]  # no chart fits its tables
    report = json.loads((tmp_path / "analysis" / "analysis.json").read_text(encoding="utf-8"))
    assert "win_share_with" not in report["sections"]["machines"]["data"][0]

"""`cardpress preflight`: shops' requirements checked on exported files, broken ones rejected with located messages."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from conftest import copy_project, run_cli
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from generator.export import drivethrucards, preflight, runner
from generator.export.options import ExportOptions
from generator.project.scaffold import new_game


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("preflight") / "project", games=())
    new_game(root, "tiny", size="poker")
    return root


@pytest.fixture(scope="module")
def exported(project) -> Path:
    out = project / "output"
    result = runner.run(
        project, "tiny", ["drivethrucards", "thegamecrafter", "makeplayingcards", "tts"], out, ExportOptions(out=out)
    )
    assert result.report.ok() and not result.failed, result.report.render()
    return out


def _broken_pdf() -> bytes:
    """A poker page with no TrimBox, an RGB fill, a font not embedded, an RGB image at 150 ppi, no PDF/X keys."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(198, 270), invariant=1)
    canvas.setFillColorRGB(1, 0, 0)
    canvas.rect(10, 10, 50, 50, fill=1)
    canvas.setFillColorCMYK(0, 0, 0, 1)
    canvas.drawString(10, 250, "Helvetica, not embedded")
    canvas.drawImage(ImageReader(Image.new("RGB", (150, 150), (0, 90, 200))), 20, 20, 72, 72)  # 1 in: 150 ppi
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_broken_dtc_file_fails_with_located_messages(tmp_path):
    result = preflight.check("dtc", {"tiny-main-poker-dtc.pdf": _broken_pdf()}, None, tmp_path)
    failed = {c.name: c.problems for c in result.checks if not c.ok}
    assert failed["page, trim and bleed"] == ["page 1: no TrimBox"]
    assert failed["fonts embedded"] == ["font Helvetica is not embedded"]
    assert "Info GTS_PDFXVersion is missing, needs PDF/X-1a:2003" in failed["PDF/X-1a:2003 keys"]
    assert "0 GTS_PDFX output intents, needs exactly 1" in failed["PDF/X-1a:2003 keys"]
    name = _xob(result)
    assert failed["colour spaces"] == ["page 1: a fill in DeviceRGB", f"page 1: image /FormXob.{name} in DeviceRGB"]
    assert failed["images ≥ 300 ppi at print size"] == [f"page 1: image /FormXob.{name} at 150 ppi"]
    codes = [(d.severity, d.code, d.path) for d in result.report.items]
    assert ("error", "K001", str(tmp_path / "tiny-main-poker-dtc.pdf")) in codes
    assert not result.report.ok()


def _xob(result: preflight.Preflight) -> str:
    problem = next(p for c in result.checks for p in c.problems if "ppi" in p)
    return problem.split("/FormXob.")[1].split(" ")[0]


def test_bare_tts_names_and_oversized_sheets_fail(tmp_path):
    save = {
        "ObjectStates": [
            {
                "Name": "DeckCustom",
                "Nickname": "Main",
                "ContainedObjects": [{"Name": "Card", "CardID": 221}],
                "CustomDeck": {
                    "1": {
                        "FaceURL": "main-1.png",
                        "BackURL": "https://example.org/b.png",
                        "NumWidth": 11,
                        "NumHeight": 2,
                    }
                },
            }
        ]
    }
    result = preflight.check("tts", {"tiny.json": json.dumps(save).encode()}, None, tmp_path)
    urls, grid, ids = result.checks
    assert urls.problems == [
        "ObjectStates[0] 'Main' CustomDeck 1 FaceURL: 'main-1.png' has no scheme: TTS loads only http(s):// or "
        "file:/// URLs (export without --url-prefix for file:/// URLs, or with it for hosted ones)"
    ]
    assert grid.problems == ["ObjectStates[0] 'Main' CustomDeck 1: grid 11 × 2, TTS allows up to 10 × 7"]
    assert ids.problems == ["ObjectStates[0] card 0 (CardID 221): no CustomDeck 2"]


def test_a_face_png_of_the_wrong_size_fails(exported, project):
    from generator.export.common import laid_out
    from generator.pipeline import Pipeline

    folder = exported / "tiny" / "thegamecrafter"
    files = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    small = io.BytesIO()
    Image.new("RGB", (750, 1050)).save(small, "PNG", dpi=(150, 150))
    name = next(n for n in files if n.endswith("-front.png"))
    files[name] = small.getvalue()
    game = laid_out(Pipeline(project, "tiny"))
    (check,) = [c for c in preflight.check("tgc", files, game, folder).checks if c.name == "face images"]
    assert check.problems == [f"{name}: 750 × 1050 px, needs 825 × 1125", f"{name}: 150 dpi, needs 300"]


def test_every_shop_passes_on_an_exported_game(exported, project):
    result = preflight.run(project, "tiny", preflight.SHOPS, exported)
    assert result.report.ok(), result.report.render()
    assert {c.shop for c in result.checks} == {"dtc", "tgc", "mpc", "tts"}
    assert all(c.ok or c.severity == "warning" for c in result.checks)
    lines = result.lines()
    assert (
        "PASS  dtc  tiny-main-poker-dtc.pdf: PDF/X-1a:2003 keys: PDF/X-1a:2003, output intent CGATS TR 001, Trapped False, PDF 1.4"
        in lines
    )
    assert any(line.startswith("PASS  tts  tiny.json: image URLs") for line in lines)


def test_the_cli_prints_a_line_per_check_and_fails_on_nothing_exported(exported, project):
    done = run_cli("preflight", "tiny", "--shop", "dtc", "--out", str(exported), "--root", str(project), cwd=project)
    assert done.returncode == 0, done.stderr
    assert "PASS  dtc  tiny-main-poker-dtc.pdf: fonts embedded" in done.stdout
    assert done.stdout.strip().splitlines()[-1].endswith("0 fail")
    empty = project / "nowhere"
    done = run_cli("preflight", "tiny", "--shop", "tgc", "--out", str(empty), "--root", str(project), cwd=project)
    assert done.returncode == 1 and "error[K002]" in done.stderr and "Traceback" not in done.stderr


def test_export_fails_and_writes_nothing_when_preflight_fails(project, monkeypatch, tmp_path):
    monkeypatch.setattr(drivethrucards, "files", lambda game, options: {"tiny-main-poker-dtc.pdf": _broken_pdf()})
    result = runner.run(project, "tiny", ["drivethrucards"], tmp_path, ExportOptions(out=tmp_path))
    assert result.failed == ["tiny"] and result.written == []
    assert any(d.code == "K001" and "no TrimBox" in d.message for d in result.report.items)
    assert not (tmp_path / "tiny").exists()

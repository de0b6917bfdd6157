"""Every kit prints a tuck box per deck: game.yaml's `boxes:`, the box pages in the kit, and what they print."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest
from conftest import ROOT
from deck_helpers import CSV, GAME_YAML, deck_project, headlines

from generator.impose import boxes
from generator.impose.plan import impose
from generator.impose.sheets import PAPERS, PRINTER_MARGIN
from generator.impose.tuckbox import STOCKS
from generator.pipeline import Pipeline

MM = 72 / 25.4


def _kit(root: Path, game: str):  # type: ignore[no-untyped-def]
    pipeline = Pipeline(root, game, missing_art="placeholder")
    kit = pipeline.kit()
    assert kit is not None, headlines(pipeline.report)
    return pipeline, kit


@pytest.mark.parametrize(
    ("game", "paper", "pages"),
    [
        ("hedgerow", "a4", [["critter cards", "season goals"], ["the whole Hedgerow"]]),
        ("hedgerow", "letter", [["critter cards"], ["season goals"], ["the whole Hedgerow"]]),
        ("pocket-foundry", "a4", [["market cards", "Starter Feeders (one per player)"], ["the whole Pocket Foundry"]]),
        (
            "micro-engine",
            "a4",
            # the whole game's 117 cards make a box 39.6 mm deep: too deep for one piece, so it is left out
            [
                ["Workshop deck: Parts, Upgrades, Calibrations"],
                ["Cores", "Patents"],
                ["Round Tracker and player aids (one per player)"],
            ],
        ),
    ],
)
def test_every_deck_gets_a_box_on_the_kits_last_pages(game: str, paper: str, pages: list[list[str]]) -> None:
    _, kit = _kit(ROOT, game)
    found = boxes.pages(kit, paper)
    assert [[b["deck"] for b in page.face.context["boxes"]] for page in found] == pages
    plan = impose(kit, paper).plan
    tail = plan.pages[-2 * len(pages) :]
    assert [p.kind for p in tail] == ["page", "blank"] * len(pages)
    assert [p.page.face.key for p in tail[::2] if p.page] == [f"tuckbox-{n}" for n in range(1, len(pages) + 1)]
    row = plan.contents[-1]
    total = len(plan.pages)
    assert row["title"] == "Tuck boxes" and row["pages"] == f"{total - 2 * len(pages) + 1}–{total}"


def test_a_box_is_sized_to_its_deck_and_says_what_it_holds() -> None:
    _, kit = _kit(ROOT, "hedgerow")
    (critters, goals) = boxes.pages(kit, "a4")[0].face.context["boxes"]
    assert critters["count"] == 40 and critters["inner"] == {"w": 65.0, "h": 89.9, "d": 14.2}  # 40 × 0.33 + 1
    assert goals["count"] == 9 and goals["inner"] == {"w": 46.0, "h": 64.5, "d": 5.0}  # the thinnest spine
    assert critters["pieces"] == 1 and critters["size"] == "poker, 63.5 × 88.9 mm"


@pytest.fixture(scope="module")
def hedgerow_a4(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    pipeline, kit = _kit(ROOT, "hedgerow")
    pdfs = pipeline.render(["a4"])
    assert pdfs is not None, headlines(pipeline.report)
    path = tmp_path_factory.mktemp("boxes") / "hedgerow-a4.pdf"
    path.write_bytes(pdfs["a4"])
    plan = impose(kit, "a4").plan
    return path, [
        i for i, p in enumerate(plan.pages) if p.kind == "page" and p.page and p.page.face.template == boxes.TEMPLATE
    ]


def test_box_pages_print_the_games_title_decks_counts_and_players(hedgerow_a4: tuple[Path, list[int]]) -> None:
    path, indices = hedgerow_a4
    pdf = pypdfium2.PdfDocument(path)
    text = pdf[indices[0]].get_textpage().get_text_range()
    for words in ("Hedgerow: tuck boxes", "Critter cards", "Season goals", "40 cards", "9 cards", "2–5 players"):
        assert words in text
    assert "Inside 65.0 × 89.9 × 14.2 mm, for 300 g/m² card" in text
    assert "Check the scale: 50 mm" in text and "glue this flap inside the back" in text


def test_box_pages_keep_every_ink_5_mm_from_the_paper_edge(hedgerow_a4: tuple[Path, list[int]]) -> None:
    path, indices = hedgerow_a4
    pdf = pypdfium2.PdfDocument(path)
    _, width, height = PAPERS["a4"]
    scale = 4  # 288 dpi
    for index in indices:
        image = pdf[index].render(scale=scale).to_pil().convert("L")
        w, h = image.size
        band = round(PRINTER_MARGIN * MM * scale) - 1
        inked = [
            (x, y)
            for (x0, y0, x1, y1) in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h))
            for x in range(x0, x1, 2)
            for y in range(y0, y1, 2)
            if image.getpixel((x, y)) < 250
        ]
        assert inked == [], index
        # and the die line itself reaches close to the margin: the page is used, not a postage stamp
        assert image.getbbox() is not None


def test_box_pages_pass_the_layout_lint() -> None:
    pipeline, kit = _kit(ROOT, "micro-engine")
    pipeline.lint(["a4", "letter"])
    assert [d for d in pipeline.report.items if "tuckbox" in d.message or "box-art" in str(d.loc)] == []
    assert pipeline.report.ok()


# -- game.yaml's `boxes:` -------------------------------------------------------------------------------------------


def _with(boxes_yaml: str) -> str:
    return GAME_YAML + boxes_yaml


def test_boxes_false_prints_none(tmp_path: Path) -> None:
    _, kit = _kit(deck_project(tmp_path, game_yaml=_with("boxes: false\n")), "tiny")
    assert kit.boxes is not None and kit.boxes.boxes == [] and boxes.pages(kit, "a4") == []


def test_stock_and_sleeves_size_the_box(tmp_path: Path) -> None:
    project = deck_project(
        tmp_path, csv=CSV.replace("Cat,3", "Cat,93"), game_yaml=_with("boxes: {stock: home-200gsm, sleeves: premium}\n")
    )
    _, kit = _kit(project, "tiny")
    (box,) = kit.boxes.boxes
    assert box.count == 96
    assert (box.inner.w, box.inner.h, box.inner.d) == pytest.approx((63.5 + 3 + 1.5, 88.9 + 3 + 1.0, 96 * 0.45 + 1.0))
    context = boxes.pages(kit, "a4")[0].face.context
    assert context["stock"] == "200 g/m² card" and context["sleeves"] == "premium sleeves"


def test_a_custom_thickness_is_read_with_its_unit(tmp_path: Path) -> None:
    _, kit = _kit(deck_project(tmp_path, game_yaml=_with("boxes: {stock: {thickness: 0.012in}}\n")), "tiny")
    assert kit.boxes.options.stock.thickness == pytest.approx(0.3048)


@pytest.mark.parametrize(
    ("yaml", "expected"),
    [
        (
            "boxes: {stock: home-300gms}\n",
            "cards/tiny/game.yaml:{line}:16: error[S004] boxes.stock: no stock 'home-300gms'",
        ),
        (
            "boxes: {stock: {thickness: 4mm}}\n",
            "cards/tiny/game.yaml:{line}:28: error[S004] boxes.stock.thickness: must be a length from 0.05 to 3 mm, "
            "got '4mm'",
        ),
        (
            "boxes: {sleeves: {thick: 1}}\n",
            "cards/tiny/game.yaml:{line}:19: error[S004] boxes.sleeves: must be a name or {thickness: <length>}",
        ),
        ("boxes: {skip: [mian]}\n", "cards/tiny/game.yaml:{line}:16: error[S005] boxes.skip[0]: no deck 'mian'"),
        ("boxes: {sleves: penny}\n", "cards/tiny/game.yaml:{line}:9: error[S003] boxes.sleves: unknown key 'sleves'"),
    ],
)
def test_bad_box_options_are_located(tmp_path: Path, yaml: str, expected: str) -> None:
    pipeline = Pipeline(deck_project(tmp_path, game_yaml=_with(yaml)), "tiny", missing_art="placeholder")
    assert pipeline.kit() is None or not pipeline.report.ok()
    line = GAME_YAML.count("\n") + 1  # the line _with adds
    assert headlines(pipeline.report) == [expected.replace("{line}", str(line))]


def test_a_stock_name_gets_a_did_you_mean(tmp_path: Path) -> None:
    pipeline = Pipeline(deck_project(tmp_path, game_yaml=_with("boxes: {stock: home-300gms}\n")), "tiny")
    pipeline.kit()
    (problem,) = pipeline.report.items
    assert problem.hint == "did you mean 'home-300gsm'?"


def test_the_manual_lists_every_stock_and_sleeve() -> None:
    manual = (ROOT / "docs" / "printing-components.md").read_text(encoding="utf-8")
    for name, stock in STOCKS.items():
        assert f"| `{name}` | {stock.thickness:g} mm |" in manual
    for name in boxes.SLEEVES:
        assert f"`{name}`" in manual


def test_a_deck_too_thick_for_any_box_is_a_located_error_and_nothing_is_written(tmp_path: Path) -> None:
    game_yaml = GAME_YAML.replace("    cards: cards.csv\n", "    size: poker\n    cards: cards.csv\n")
    thick = game_yaml + "boxes: {stock: {thickness: 2mm}}\n"
    project = deck_project(tmp_path, csv=CSV.replace("Cat,3", "Cat,97"), game_yaml=thick)
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    assert pipeline.render(["a4"]) is None
    (problem,) = pipeline.report.items
    size_line = game_yaml.splitlines().index("    size: poker") + 1
    assert problem.headline() == (
        f"cards/tiny/game.yaml:{size_line}:11: error[B006] A4: deck 'main': 100 cards at 2 mm make a tuck box 201.0 mm deep, "
        "too deep for A4 even split over two sheets (a box there holds at most 31)"
    )
    assert problem.hint == (
        "choose a thinner stock or no sleeves under `boxes:` in game.yaml, or leave the deck's box out with "
        "`boxes: {skip: [main]}`"
    )
    two_mm = boxes.Stock("x", 2.0, "")
    assert boxes.fitting(boxes.inner((63.5, 88.9), 31, two_mm), "a4") is not None
    assert boxes.fitting(boxes.inner((63.5, 88.9), 32, two_mm), "a4") is None
    skipped = deck_project(
        tmp_path / "skip", csv=CSV.replace("Cat,3", "Cat,97"), game_yaml=thick.replace("}}", "}, skip: [main]}")
    )
    assert Pipeline(skipped, "tiny", missing_art="placeholder").render(["a4"]) is not None


def test_a_deck_in_two_pieces_prints_both(tmp_path: Path) -> None:
    project = deck_project(tmp_path, csv=CSV.replace("Cat,3", "Cat,140"))
    _, kit = _kit(project, "tiny")
    placed = [b for page in boxes.pages(kit, "a4") for b in page.face.context["boxes"]]
    assert [(b["piece"], b["pieces"]) for b in placed] == [(1, 2), (2, 2)]
    assert {name for b in placed for name in b["panels"]} >= {"front", "back", "glue", "glue-2"}


BOX_ART = """\
{% import "macros.j2" as m %}
{% macro front(w, h, b, c, k) -%}
{{ m.text(6, 10, w - 12, 10, "Our own " ~ b.deck, size=10, colour="#ffffff", plain=true, id="own-front") }}
{%- endmacro %}
{% macro back(w, h, b, c, k) -%}
{{ m.text(6, 10, w - 12, 10, "Our own back", size=10, colour="#ffffff", plain=true) }}
{%- endmacro %}
{% macro spine(w, h, b, c, k) -%}
{{ m.text(3, 0.8, w - 6, h - 1.6, "spine", size=7, colour="#ffffff", plain=true) }}
{%- endmacro %}
{% macro lid(w, h, b, c, k) -%}
{{ m.text(3, 0.8, w - 8, h - 1.6, "lid", size=7, colour="#ffffff", plain=true) }}
{%- endmacro %}
{% macro glue(w, h, b, c, k, target="back") -%}
{{ m.text(6, 1.2, w - 12, h - 2.4, "glue", size=7, plain=true) }}
{%- endmacro %}
"""


def test_a_game_draws_its_own_box_art(tmp_path: Path) -> None:
    project = deck_project(tmp_path, files={"layouts/box-art.j2": BOX_ART})
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pdfs = pipeline.render(["a4"])
    assert pdfs is not None, headlines(pipeline.report)
    pdf = pypdfium2.PdfDocument(pdfs["a4"])
    text = pdf[len(pdf) - 2].get_textpage().get_text_range()
    assert "Our own main cards" in text and "Our own back" in text
    assert "Holds 6 cards" not in text and "2–3 players" not in text  # the built-in art is not drawn as well


def test_box_art_is_held_to_the_lint_like_a_card(tmp_path: Path) -> None:
    faint = BOX_ART.replace('"Our own back", size=10, colour="#ffffff"', '"Our own back", size=10, colour="#2e3a47"')
    pipeline = Pipeline(deck_project(tmp_path, files={"layouts/box-art.j2": faint}), "tiny", missing_art="placeholder")
    pipeline.lint(["a4"])
    found = headlines(pipeline.report)
    assert any("tuckbox-1" in line and "contrast" in line for line in found), found

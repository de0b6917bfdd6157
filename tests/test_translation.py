"""Translations as editions: the catalogue (messages.po), the French Pocket Foundry, new-translation, the pseudo-locale."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, copy_project, run_cli

from generator import pipeline
from generator.diagnostics import sort_diagnostics
from generator.games.pocket_foundry import textparse
from generator.games.pocket_foundry.rulebook import FACTS
from generator.i18n.catalogue import ENGLISH, Catalogue, fill, slots
from generator.i18n.pseudo import GROWTH, pseudo
from generator.i18n.pseudo import catalogue as pseudo_catalogue
from generator.impose.plan import impose
from generator.render.kitpdf import page_faces
from generator.source.edits import Edit, by_file

FR = "pocket-foundry-fr"


@pytest.fixture
def french(tmp_path):
    """A private copy of Pocket Foundry and its French translation that a test may break."""
    return copy_project(tmp_path / "project", ("pocket-foundry", FR))


def edit(project, name, old, new):
    path = project / "cards" / FR / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def headlines(project, game=FR):
    _, report = pipeline.validate(project, game)
    return [d.headline() for d in sort_diagnostics(report.items)]


# -- the shipped translation ---------------------------------------------------------------------------------


def test_the_french_translation_validates_cleanly():
    game, report = pipeline.validate(ROOT, FR)
    assert [d.headline() for d in report.items] == []
    assert game is not None and game.header.language == "fr" and game.dir.catalogue.translated


def test_its_cards_print_the_french_forms_with_icons_and_accents():
    kit = pipeline.Pipeline(ROOT, FR).kit()
    front = kit.cards[0].front.context
    assert front["lines"] == {
        "title": "Tapis d’alimentation · exemplaire 1",
        "build_cost": "PRIX : 2 MINERAIS.",
        "run": "MARCHE : Gagnez 3 MINERAIS.",
        "reminder": "Se met en marche au plus une fois par tour de production, dans l’ordre des emplacements. "
        "Payer le PRIX ne met pas cette machine en marche.",
    }
    assert front["rich"]["title"] == "Tapis d’alimentation<small> · exemplaire 1</small>"
    assert front["rich"]["build_cost"] == "<b>PRIX :</b> <nobr><icon feed>2 MINERAIS</nobr>."
    starter = next(c for c in kit.cards if c.deck == "starter").front.context["lines"]
    assert starter["run"] == "MARCHE : Gagnez 2 MINERAIS, puis défaussez jusqu’à la limite de six MINERAIS."
    assert kit.decks == {"market": "cartes du marché", "starter": "Trémie de départ (une par joueur)"}
    assert [p.name for p in kit.pages][-2:] == [
        "Plateau de fonderie 6",
        "Relevé des manches et marqueur de premier joueur",
    ]
    mat = next(p for p in kit.pages if p.id == "mat-1").face.context["lines"]
    assert mat["slots"][0] == "Emplacement 1 : TRÉMIE DE DÉPART"
    assert mat["tracks"][1] == "PIÈCES : 0 → __________________ (limite 4)."
    assert kit.credits == "Fonderie de poche · v1.0 · par cardpress examples"


def test_changing_one_number_in_a_french_card_text_fails_at_that_card(french):
    edit(
        french,
        "machines.yaml",
        "MARCHE : Payez 3 MINERAIS pour gagner 2 PIÈCES.",
        "MARCHE : Payez 3 MINERAIS pour gagner 3 PIÈCES.",
    )
    assert headlines(french) == [
        "cards/pocket-foundry-fr/machines.yaml:19:48: error[PF006] machines[4].text.run: the card prints "
        "'MARCHE : Payez 3 MINERAIS pour gagner 3 PIÈCES.', but Presse double's run.gain.parts is 2",
        "cards/pocket-foundry-fr/machines.yaml:19:48: error[PF005] machines[4].text.run: the kit prints '3' "
        "(word 8) where the rulebook has '2'",
    ]


def test_a_french_text_in_the_wrong_form_cannot_be_read(french):
    edit(
        french,
        "machines.yaml",
        'PRIX : 1 PIÈCE.", run: "MARCHE : Payez 1 PIÈCE pour gagner 4',
        'PRIX : une PIÈCES.", run: "MARCHE : Payez 1 PIÈCE pour gagner 4',
    )
    (first,) = [h for h in headlines(french) if "PF006" in h]
    assert first == (
        "cards/pocket-foundry-fr/machines.yaml:22:24: error[PF006] machines[5].text.build_cost: cannot read "
        "'PRIX : une PIÈCES.': 'une PIÈCES': write '1 PIÈCE'"
    )


def test_a_number_in_the_french_rulebook_is_held_to_the_data(french):
    edit(french, "rulebook.txt", "Disposez-en quatre face visible", "Disposez-en cinq face visible")
    assert headlines(french) == [
        "cards/pocket-foundry/game.yaml:21:16: error[PF004] rules.market_size: rules.market_size is 4; the "
        "rulebook states 5"
    ]


def test_a_french_rulebook_without_a_form_says_which_sentence_it_reads(french):
    edit(french, "rulebook.txt", "Ne remélangez jamais les machines défaussées.", "")
    (said,) = headlines(french)
    assert said.startswith("cards/pocket-foundry-fr/rulebook.txt:17:1: error[PF014]")
    assert said.endswith('the validator reads it from a sentence like "Ne remélangez jamais les machines défaussées"')


# -- the catalogue, held to its base ---------------------------------------------------------------------------


def po_line(project, text):
    lines = (project / "cards" / FR / "messages.po").read_text(encoding="utf-8").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if line == text)


def test_a_missing_message_is_located_where_it_belongs(french):
    path = french / "cards" / FR / "messages.po"
    text = path.read_text(encoding="utf-8")
    entry = '#. a free RUN effect; {gain} is amounts such as \'3 FEED and 1 point\'\n#, python-brace-format\nmsgid "Gain {gain}"\nmsgstr "Gagnez {gain}"\n\n'
    assert entry in text
    path.write_text(text.replace(entry, ""), encoding="utf-8")
    before = po_line(french, 'msgstr "Payez {pay} pour gagner {gain}"')
    assert headlines(french) == [
        f'cards/pocket-foundry-fr/messages.po:{before}:1: error[I002] no entry for "Gain {{gain}}", which the base prints'
    ]


def test_an_extra_message_names_the_nearest_msgid(french):
    path = french / "cards" / FR / "messages.po"
    path.write_text(
        path.read_text(encoding="utf-8") + '\nmsgid "Gain {gains}"\nmsgstr "Gagnez {gains}"\n', encoding="utf-8"
    )
    line = po_line(french, 'msgid "Gain {gains}"')
    _, report = pipeline.validate(french, FR)
    (d,) = report.items
    assert (
        d.headline()
        == f'cards/pocket-foundry-fr/messages.po:{line}:1: error[I003] the base prints no message "Gain {{gains}}"'
    )
    assert d.hint == "did you mean 'Gain {gain}'?"


def test_a_translation_that_loses_a_slot_is_located_at_its_msgstr(french):
    edit(french, "messages.po", 'msgstr "Payez {pay} pour gagner {gain}"', 'msgstr "Payez {prix} pour gagner {gain}"')
    line = po_line(french, 'msgstr "Payez {prix} pour gagner {gain}"')
    _, report = pipeline.validate(french, FR)
    (d,) = report.items
    assert d.headline() == (
        f'cards/pocket-foundry-fr/messages.po:{line}:15: error[I004] the translation of "Pay {{pay}} to gain '
        '{gain}" does not keep its slots: it has {prix}, which the msgid has not; it lacks {pay}'
    )


def test_markup_tags_and_number_words_are_checked(french):
    edit(french, "messages.po", 'msgstr "Édition de fans"', 'msgstr "<b>Édition de fans"')
    edit(french, "messages.po", "dix-neuf vingt", "dix-neuf")
    codes = [re.search(r"error\[(\w+)\]", h).group(1) for h in headlines(french)]
    assert codes == ["I004", "I006"]


def test_a_broken_po_file_and_a_language_mismatch_are_located(french):
    edit(french, "messages.po", '"Language: fr\\n"', '"Language: de\\n"')
    (said,) = headlines(french)
    assert re.fullmatch(
        r"cards/pocket-foundry-fr/messages.po:\d+:1: error\[I005\] the catalogue's Language header says 'de', "
        "but game.yaml says language: fr",
        said,
    )
    edit(french, "messages.po", '"Language: de\\n"', '"Language: fr\\n"')
    edit(french, "messages.po", 'msgid "machine"', 'not a keyword\nmsgid "machine"')
    line = po_line(french, "not a keyword")
    assert headlines(french) == [
        f"cards/pocket-foundry-fr/messages.po:{line}:1: error[I001] not a readable PO file: Unknown or "
        "misformatted keyword"
    ]


def test_language_without_a_catalogue_is_an_error(french):
    (french / "cards" / FR / "messages.po").unlink()
    assert headlines(french) == [
        "cards/pocket-foundry-fr/game.yaml:8:11: error[I005] game.yaml says language: fr, but there is no "
        "messages.po beside it"
    ]


# -- new-translation -------------------------------------------------------------------------------------------


def test_new_translation_writes_an_edition_that_validates_before_it_is_translated(tmp_path):
    project = copy_project(tmp_path / "p")
    result = run_cli("new-translation", "pf-de", "--from", "pocket-foundry", "--lang", "de", cwd=project)
    assert result.returncode == 0, result.stderr
    folder = project / "cards" / "pf-de"
    assert sorted(p.name for p in folder.iterdir()) == [
        "components.yaml", "game.yaml", "machines.yaml", "messages.po", "rulebook.txt"
    ]  # fmt: skip
    machines = (folder / "machines.yaml").read_text(encoding="utf-8")
    assert "- id: feed-belt\n  name: Feed Belt\n  text:\n    build_cost: 'BUILD COST: 2 FEED.'\n" in machines
    po = (folder / "messages.po").read_text(encoding="utf-8")
    assert '"Language: de\\n"' in po and 'msgid "BUILD COST: {amounts}."\nmsgstr ""' in po
    _, report = pipeline.validate(project, "pf-de")
    assert [(d.severity, d.code) for d in report.items] == [("warning", "I002")]  # every message said once
    assert "more messages) has no translation yet: printed in English" in report.items[0].message
    again = run_cli("new-translation", "pf-de", "--from", "pocket-foundry", "--lang", "de", cwd=project)
    assert again.returncode == 1 and "error[I007] cards/pf-de/ already exists" in again.stderr


def test_new_translation_refuses_a_bad_language_tag(tmp_path):
    project = copy_project(tmp_path / "p")
    result = run_cli("new-translation", "pf-x", "--from", "pocket-foundry", "--lang", "French", cwd=project)
    assert result.returncode == 1 and "error[I007] --lang 'French' is not a language tag" in result.stderr
    assert not (project / "cards" / "pf-x").exists()


# -- the pseudo-locale ---------------------------------------------------------------------------------------


def test_pseudo_keeps_slots_and_tags_and_is_a_third_longer():
    text = "<b>Print</b> at {paper} now"
    out = pseudo(text)
    assert out.startswith("<b>Prîñt</b> åt {paper} ñöw ")
    assert slots(out) == ("paper",) and "<b>" in out and "</b>" in out
    for sample in ("STARTER", "Run at most once per production turn, in slot order.", "Feed Belt"):
        assert len(pseudo(sample)) >= len(sample) * (1 + GROWTH) - 1


def test_the_pseudo_locale_lists_the_faces_that_overflow():
    result = run_cli("pseudo-locale", "pocket-foundry", cwd=ROOT)
    assert result.returncode == 1
    assert result.stdout == (
        "pocket-foundry: 1 of 45 faces overflow in the pseudo-locale (accented, 35 % longer)\n"
        "  lap-record\n"
        "    L100: tent-howto: text overflows: 2 lines need 6.9 mm but the box is 5.0 mm high\n"
    )


# -- reading printed text through a catalogue ------------------------------------------------------------------


def test_forms_fill_and_read_back_in_any_language():
    fr = Catalogue("fr", {("", "Pay {pay} to gain {gain}"): "Payez {pay} pour gagner {gain}"})
    assert fill("{a} et {b}", {"a": 1, "b": "x"}) == "1 et x"
    m = fr.pattern("Pay {pay} to gain {gain}").fullmatch("payez 2 MINERAIS  pour gagner 1 PIÈCE")
    assert m is not None and m.group("pay") == "2 MINERAIS" and m.group("gain") == "1 PIÈCE"
    assert ENGLISH.pattern("BUILD COST: {amounts}.").fullmatch("BUILD COST:2 FEED.") is not None
    words = Catalogue("fr", {("", "x"): "y"})
    assert words.singular(0) and words.singular(1) and not words.singular(2)
    assert ENGLISH.singular(1) and not ENGLISH.singular(0)


def test_french_number_words_read_as_numbers():
    game = pipeline.load(ROOT, FR)
    words = game.model.rules.words
    assert [words.number(w) for w in ("douze", "une", "dix-sept", "Six", "12")] == [12, 1, 17, 6, 12]
    assert textparse.amounts(game.model.rules, "3 MINERAIS, zéro PIÈCE et zéro point") == {
        "feed": 3,
        "parts": 0,
        "points": 0,
    }
    with pytest.raises(textparse.TextError, match="write '0 PIÈCE'"):
        textparse.amounts(game.model.rules, "zéro PIÈCES")


@pytest.mark.parametrize("form", FACTS, ids=[f"{f.id}:{f.form}" for f in FACTS])
def test_each_english_fact_form_reads_its_example_like_its_pattern(form):
    english = Catalogue("en", {("x", "x"): "x"})  # translated: reads through the form, not the pattern
    expected = form.rx.search(form.like)
    found = form.compiled(english).search(form.like)
    assert expected is not None and found is not None
    for slot in slots(form.form):
        assert found.group(slot) == expected.group(slot)


def test_the_cover_contents_and_page_footers_are_in_french():
    kit = pipeline.Pipeline(ROOT, FR).kit()
    layout = impose(kit, "a4")
    assert [(row["pages"], row["title"], row["detail"]) for row in layout.plan.contents][:3] == [
        ("1–2", "Cette feuille", "réglages d’impression, contrôle recto verso et règles"),
        ("3–6", "Cartes du marché", "16 cartes sur 2 planches, chaque recto suivi de son verso"),
        (
            "7–8",
            "Trémie de départ (une par joueur)",
            "6 cartes sur 1 planche, chaque recto suivi de son verso",
        ),
    ]
    assert [p.label for p in layout.plan.pages[2:4]] == [
        "cartes du marché, planche 1 sur 2 : recto",
        "cartes du marché, planche 1 sur 2 : verso",
    ]


def test_the_cover_prints_french_labels_and_decimal_commas():
    run = pipeline.Pipeline(ROOT, FR)
    cover, extra = next((face, extra) for _, face, _, extra in run_faces(run) if face.template == "cover.yaml.j2")
    text = run.studio().templates.render(cover.template, {**cover.context, **extra}, "cover", run.report)
    assert "Kit à imprimer · papier A4 · pour 6 joueurs" in text
    assert "Une carte au format fini<br>63,5 × 88,9 mm<br>(2,5 × 3,5 in)" in text
    assert "Sommaire" in text and "Contents" not in text


def run_faces(run):
    return page_faces(run.kit(), impose(run.kit(), "a4"))


def test_a_message_given_twice_is_located_at_its_second_entry(french):
    path = french / "cards" / FR / "messages.po"
    path.write_text(path.read_text(encoding="utf-8") + '\nmsgid "machine"\nmsgstr "engin"\n', encoding="utf-8")
    first = po_line(french, 'msgid "machine"')
    lines = path.read_text(encoding="utf-8").splitlines()
    second = len(lines) - 1
    assert headlines(french) == [
        f'cards/pocket-foundry-fr/messages.po:{second}:1: error[I003] "machine" has a second entry (the first is '
        f"at line {first})"
    ]


def test_a_rulebook_form_with_too_many_gaps_is_refused(french):
    edit(
        french, "messages.po", 'msgstr "Disposez-en {v} face visible"', 'msgstr "… Disposez-en … {v} … face … visible"'
    )
    (said,) = headlines(french)
    assert said.endswith('error[I004] the translation of "Deal {v} face up" (msgctxt "rulebook") has 4 …')


def test_the_pseudo_locale_lengthens_a_deck_games_names_and_prose_from_its_csv():
    loaded = pipeline.load(ROOT, "hedgerow")
    items = loaded.ruleset.translatable(loaded)
    assert items[:2] == [
        ("critters.csv", (0, "name"), "Frog"),
        ("critters.csv", (0, "text"), "Score your Frogs together: 1, 3, 6 or 10 points for 1, 2, 3 or 4 Frogs."),
    ]
    assert not [i for i in items if i[1][-1] in ("habitat", "copies", "points", "id")]  # no codes, no numbers
    edits = by_file(Edit(f, p, pseudo(t), "test") for f, p, t in items)
    run = pipeline.Pipeline(ROOT, "hedgerow", edits=edits, words=pseudo_catalogue, rules=False)
    card = run.kit().cards[0].front.context
    assert card["card"]["name"] == "Frög ~" and card["rich"]["text"].startswith("Sçöré ýöür Frögs tögéthér: 1, 3")
    assert run.report.items == []

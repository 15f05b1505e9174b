"""Both catalogues word Castle of the Devil whole (issue 25.5): every event type, every command
type as a verb, every card, profession and society by name, in English and in German; the
German names as printed on the cards (the German rules' names: see docs/service.md); and the
table page's Castle module is served beside table.js, with the pages' policy."""

from __future__ import annotations

import json
import re
from importlib import resources

from engine.desk.events import DESK_TYPES
from engine.games.castle.cards import ALL_ITEMS, PROFESSIONS, SOCIETIES, kind
from engine.games.castle.commands import COMMANDS
from engine.games.castle.events import EVENTS

FOLDER = resources.files("engine.web.pages").joinpath("i18n")
CATALOGUES = {lang: json.loads(FOLDER.joinpath(f"{lang}.json").read_text("utf-8"))["kinds"]
              ["castle"] for lang in ("en", "de")}
RULE = re.compile(r"\b(?:CASTLE|SEAT)-\d+(?:\.\d+)*\b")


def test_both_catalogues_word_every_castle_event_command_and_card():
    for lang, words in CATALOGUES.items():
        assert {key.split(".")[0] for key in words["events"]} == \
            set(EVENTS.by_type) - DESK_TYPES, lang
        assert set(COMMANDS.by_type) <= set(words["verbs"]), lang
        assert {kind(card) for card in ALL_ITEMS} | {"drink"} == set(words["cards"]), lang
        assert set(words["values"]["profession"]) == set(PROFESSIONS), lang
        assert set(words["values"]["society"]) == set(SOCIETIES), lang
        # every sentence but the turn's and the deal's own names its rule
        for key, sentence in words["events"].items():
            assert RULE.search(sentence) or "{reason:reason}" in sentence \
                or "{window:window}" in sentence, (lang, key)
        assert words["module"] == "table_castle.js"
    en, de = CATALOGUES["en"], CATALOGUES["de"]
    for part in ("events", "verbs", "inputs", "cards", "phrases", "labels", "knowledge"):
        assert set(en[part]) == set(de[part]), part
    # the rule ids are the same in both languages, sentence by sentence
    for key in en["events"]:
        assert RULE.findall(en["events"][key]) == RULE.findall(de["events"][key]), key
    assert de["values"]["society"] == {"order": "Orden der offenen Geheimnisse",
                                       "brotherhood": "Bruderschaft der wahren Lüge"}
    assert (de["cards"]["key"], de["cards"]["goblet"], de["cards"]["privilege"]) == \
        ("Schlüssel", "Kelch", "Freibrief")
    assert de["values"]["profession"]["poison-mixer"] == "Giftmischer"
    assert de["verbs"]["accept"] == "Annehmen" and en["verbs"]["use"] == "Use"


def test_the_castle_module_is_served_beside_the_table_script(tmp_path):
    from engine.web.pages.assets import CSP, kind_modules
    from tests.service.conftest import App

    assert "table_castle.js" in kind_modules()
    app = App(tmp_path / "store")
    try:
        answer = app.http.get("/pages/table_castle.js")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/javascript")
        assert answer.headers["content-security-policy"] == CSP
        assert "export function draw" in answer.text
        assert app.http.get("/pages/table_nothing.js").status_code == 404
    finally:
        app.close()

"""The refusal's sentences in every language (issue #23 item 5; games/text/refusals.py).

A seat's view carries why the other cards of its hand cannot be played: the engine's code and
the cards it names. The table's script puts the sentence together from the page's words
(`ui_strings`) and card names (`card_names`); this runs that very function of
static/js/views/hand.js in node, on views the engine built, in the four languages, and checks
the sentences a player reads, with the GLOSSARY's words.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from games.engine import apply, view
from games.engine.state import MatchState
from games.text.cards import card_names
from games.text.table import ui_strings
from tests.engine.helpers import ANNA, CANONICAL_DECK, CURDIN, OWNER, dealt, in_play, play, setup

ROOT = Path(__file__).resolve().parents[2]
HAND_JS = ROOT / "static" / "js" / "views" / "hand.js"
# The codes a view's refusal carries (games/engine/views.py `refusal`).
CODES = ("MUST_FOLLOW_SUIT", "MUST_PLAY_TRUMP", "BUOB_FORCED_JACK", "NOT_YOUR_TURN",
         "WRONG_PHASE", "MATCH_OVER", "SCART_FORBIDDEN_CARD")
LANGUAGES = ("en", "rm", "de", "fr")

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def views() -> dict[str, dict[str, Any]]:
    """One view per refusal that names cards, and one that names none."""
    vector: MatchState = in_play(CANONICAL_DECK, ["R9", "R10"], dealer=CURDIN)
    narr = setup({OWNER: ["R1"], ANNA: ["T3", "T4", "NARR"]}, void={ANNA: "RT"})
    forced = setup({OWNER: ["SK"], ANNA: ["SJ", "S4"]})
    forced = apply(forced, {"type": "play_card", "seat": OWNER, "card": "SK",
                            "call_buob": True})[0]
    return {
        "follow": view(play(vector, OWNER, "C1"), ANNA),
        "trump": view(play(vector, OWNER, "RK"), ANNA),
        "trump_narr": view(play(narr, OWNER, "R1"), ANNA),
        "forced": view(forced, ANNA),
        "scart": view(dealt(CANONICAL_DECK), CURDIN),
        "not_your_turn": view(vector, ANNA),
    }


def sentences(language: str) -> dict[str, str]:
    """hand.js `refusalText` for each of `views()`, as the page in `language` shows it."""
    with translation.override(language):
        words, names = ui_strings(), card_names()
    script = (
        "globalThis.window = { matchMedia: () => ({ matches: false,"
        " addEventListener() {} }) };"
        f"const m = await import({json.dumps(HAND_JS.as_uri())});"
        f"const S = {json.dumps(words)}; const names = {json.dumps(names)};"
        f"const views = {json.dumps(views())};"
        "const out = {};"
        "for (const [k, v] of Object.entries(views)) {"
        "  const t = { S, current: v, cardName: (id) => names[id] || id };"
        "  out[k] = m.refusalText(t, v.refusal); }"
        "console.log(JSON.stringify(out));"
    )
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=30, check=True)
    return json.loads(done.stdout)


@needs_node
def test_english_sentences_name_the_seats_cards() -> None:
    said = sentences("en")
    assert said["follow"] == ("You hold 7 of cups, 8 of cups, 9 of cups, 10 of cups, jack of "
                              "cups and cavalier of cups: follow cups.")
    assert said["trump"].startswith("You cannot follow coins, but you hold I — the Magician, "
                                    "II — Juno, ")
    assert said["trump"].endswith("and VI — the Lover: play a trump.")
    assert said["trump_narr"] == ("You cannot follow coins, but you hold III — the Empress and "
                                  "IV — the Emperor: play a trump. You may also play the Narr.")
    assert said["forced"] == ("BUOB was called on you: you must play the called jack (jack of "
                              "swords).")
    assert said["not_your_turn"] == "It is not your turn: wait for the highlighted player."
    # The dealer's own cards that the room's rules keep out of the Scart (issue #28 item 4).
    assert said["scart"] == ("Under this room's rules the Scart takes none of XXI — the World "
                             "and the Fool: choose other cards.")


# The GLOSSARY's words each sentence must use: follow suit, trump, jack, the Narr, the suits.
GLOSSARY = {
    "rm": {"follow": ["suondai la colur d'avertura", "cuppas", "buob da cuppas"],
           "trump": ["rosas", "atout"], "trump_narr": ["il narr"], "forced": ["BUOB", "buob"]},
    "de": {"follow": ["Bediene die angespielte Farbe", "Kelche", "Bube der Kelche"],
           "trump": ["Münzen", "Trumpf"], "trump_narr": ["Narr"], "forced": ["BUOB", "Buben"]},
    "fr": {"follow": ["fournissez la couleur entamée", "coupes", "valet de coupes"],
           "trump": ["deniers", "atout"], "trump_narr": ["le Mat"], "forced": ["BUOB", "valet"]},
}


@needs_node
@pytest.mark.parametrize("language", ["rm", "de", "fr"])
def test_each_language_says_it_with_the_glossary_words(language: str) -> None:
    said = sentences(language)
    english = sentences("en")
    with translation.override(language):
        names = card_names()
    for key, text in said.items():
        assert text and text != english[key], (language, key, text)
        assert "%(" not in text and "undefined" not in text, (language, key, text)
    for key, words in GLOSSARY[language].items():
        for word in words:
            assert word in said[key], (language, key, word, said[key])
    v = views()
    for key in ("follow", "trump", "trump_narr", "forced", "scart"):
        for card in v[key]["refusal"]["cards"]:
            assert names[card] in said[key], (language, key, card)
    # Only the seat's own cards are named: never one of another hand.
    for key in ("follow", "trump", "forced", "scart"):
        shown = {c for c, name in names.items() if re.search(re.escape(name) + r"\b", said[key])}
        assert shown <= set(v[key]["hand"]), (language, key, shown - set(v[key]["hand"]))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_of_a_refusal_has_its_sentence(language: str) -> None:
    with translation.override(language):
        s = ui_strings()
    for code in CODES:
        assert s[f"refusal_{code}"], (language, code)
    for key in ("refusal_narr", "cards_and"):
        assert s[key], (language, key)
    assert set(re.findall(r"%\((\w+)\)s", s["cards_and"])) == {"cards", "last"}


def test_the_script_keeps_no_copy_of_the_rules() -> None:
    """The hand's script reads the view's refusal; it no longer derives one from the trick."""
    source = HAND_JS.read_text()
    assert "refusal_${r.code}" in source and "S.cards_and" in source
    assert "S.err_" not in source and "forcedOn" not in source
    assert "trick.led" not in source and "v.trick" not in source

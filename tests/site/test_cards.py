"""Card names (games/text/cards.py) in every language, and the card artwork: the SVG sprite
static/cards/cards.svg and the module static/js/cards.js that draws a card from it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.utils import translation

from games.engine.cards import CARD_IDS
from games.text.cards import card_name, card_names

ROOT = Path(__file__).resolve().parents[2]
SPRITE = ROOT / "static" / "cards" / "cards.svg"
MODULE = ROOT / "static" / "js" / "cards.js"
SVG = "{http://www.w3.org/2000/svg}"
LANGUAGES = ("en", "rm", "de", "fr")


def names_in(language: str) -> dict[str, str]:
    with translation.override(language):
        return card_names()


# --- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_78_distinct_names_in_each_language(language):
    names = names_in(language)
    assert list(names) == list(CARD_IDS)
    assert all(isinstance(n, str) and n.strip() for n in names.values())
    assert len(set(names.values())) == 78


def test_languages_differ():
    en, rm, de, fr = (names_in(code) for code in LANGUAGES)
    assert en["CK"] != rm["CK"] != de["CK"] != fr["CK"]


def test_romansh_names_use_the_glossary_words():
    rm = names_in("rm")
    suits = {"C": "cuppas", "R": "rosas", "S": "spadas", "B": "bastuns"}
    courts = {"K": "retg", "Q": "regina", "N": "cavagl", "J": "buob"}
    for card_id, name in rm.items():
        if card_id[0] in suits:
            assert name.endswith(f"da {suits[card_id[0]]}"), name
            rank = card_id[1:]
            assert name.startswith(courts.get(rank, rank) + " "), name
    assert rm["CK"] == "retg da cuppas"
    assert rm["BJ"] == "buob da bastuns"
    assert rm["RQ"] == "regina da rosas"
    assert rm["SN"] == "cavagl da spadas"
    assert rm["T1"] == "I — il bagat"
    assert rm["T21"] == "XXI — il mund"
    assert rm["NARR"] == "il narr"


def test_glossary_names_in_each_language():
    expected = {
        "en": {"CK": "king of cups", "T21": "XXI — the World", "NARR": "the Fool"},
        "de": {"CK": "König der Kelche", "BJ": "Bube der Stäbe", "T1": "I — der Magier",
               "T21": "XXI — die Welt", "NARR": "der Narr"},
        "fr": {"CK": "roi de coupes", "SJ": "valet d'épées", "RN": "cavalier de deniers",
               "T1": "I — le Bateleur", "T16": "XVI — la Maison Dieu",
               "T21": "XXI — le Monde", "NARR": "le Mat"},
    }
    for language, pairs in expected.items():
        names = names_in(language)
        for card_id, name in pairs.items():
            assert names[card_id] == name


def test_every_trump_carries_its_roman_numeral():
    roman = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
             "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI"]
    for language in LANGUAGES:
        names = names_in(language)
        for n, numeral in enumerate(roman, start=1):
            assert names[f"T{n}"].startswith(numeral + " — ")


def test_unknown_card_id_is_refused():
    for bad in ("", "C0", "C11", "T0", "T22", "narr", "XK"):
        with pytest.raises(ValueError):
            card_name(bad)


# --- sprite and module ----------------------------------------------------------------------


def symbol_refs() -> set[str]:
    """Every sprite symbol cards.js names: its '#id' string literals (hex colours aside)."""
    source = MODULE.read_text(encoding="utf-8")
    # A reference assembled at run time could not be checked here.
    assert "#${" not in source
    refs = set(re.findall(r"""['"`]#([A-Za-z][\w-]*)['"`]""", source))
    return {r for r in refs if not re.fullmatch(r"[0-9a-fA-F]{3,8}", r)}


def test_sprite_defines_every_symbol_the_module_uses():
    root = ET.parse(SPRITE).getroot()  # noqa: S314 - our own sprite, not untrusted input
    assert root.tag == f"{SVG}svg"
    symbols = {s.get("id") for s in root.iter(f"{SVG}symbol")}
    refs = symbol_refs()
    required = {"suit-C", "suit-R", "suit-S", "suit-B", "court-K", "court-Q", "court-N",
                "court-J", "trump", "narr", "back"}
    assert required <= refs
    assert refs <= symbols
    for symbol in root.iter(f"{SVG}symbol"):
        assert symbol.get("viewBox"), symbol.get("id")


def test_sprite_has_no_external_references():
    text = SPRITE.read_text(encoding="utf-8")
    root = ET.fromstring(text)  # noqa: S314 - our own sprite, not untrusted input
    for node in root.iter():
        tag = node.tag.split("}")[-1]
        assert tag not in {"image", "script", "foreignObject", "style", "text", "font",
                           "font-face"}, tag
        for name, value in node.attrib.items():
            if name.endswith("href"):
                assert value.startswith("#"), (tag, value)
            assert "url(" not in value or re.fullmatch(r"url\(#[\w-]+\)", value), value
    for needle in ("http:", "https:", "//", "@import", "data:", "xlink:href=\""):
        assert needle not in text.replace("http://www.w3.org/2000/svg", ""), needle


def test_artwork_weight():
    sprite = SPRITE.stat().st_size
    assert sprite <= 40 * 1024
    assert sprite + MODULE.stat().st_size <= 60 * 1024


def test_module_requests_nothing_but_the_sprite():
    source = MODULE.read_text(encoding="utf-8").replace("'http://www.w3.org/2000/svg'", "")
    for needle in ("fetch(", "XMLHttpRequest", "import(", "WebSocket", "http:", "https:",
                   "innerHTML", "window.", "globalThis"):
        if needle == "window.":
            # the one use: comparing the sprite's origin with the page's
            assert source.count(needle) == 1
            continue
        assert needle not in source, needle
    exports = set(re.findall(r"^export (?:const|function) (\w+)", source, re.MULTILINE))
    assert exports == {"CARD_IDS", "suitOf", "rankOf", "renderCard", "renderBack",
                       "romanNumeral"}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_module_pure_exports_in_node():
    script = (
        f"import * as m from {json.dumps(MODULE.as_uri())};"
        "const bad = (f) => { try { f(); return false; }"
        " catch (e) { return e instanceof RangeError; } };"
        "console.log(JSON.stringify({ids: m.CARD_IDS, frozen: Object.isFrozen(m.CARD_IDS),"
        " suits: m.CARD_IDS.map(m.suitOf), ranks: m.CARD_IDS.map(m.rankOf),"
        " roman: [1, 4, 9, 14, 18, 19, 21, 40, 1999].map(m.romanNumeral),"
        " refused: [bad(() => m.suitOf('X1')), bad(() => m.rankOf('T22')),"
        " bad(() => m.romanNumeral(0)), bad(() => m.romanNumeral(2.5))]}));"
    )
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                         text=True, timeout=30, check=True).stdout
    data = json.loads(out)
    assert data["ids"] == list(CARD_IDS)
    assert data["frozen"]
    assert data["suits"] == [None if c == "NARR" else c[0] for c in CARD_IDS]
    assert data["ranks"] == [None if c == "NARR" else c[1:] for c in CARD_IDS]
    assert data["roman"] == ["I", "IV", "IX", "XIV", "XVIII", "XIX", "XXI", "XL", "MCMXCIX"]
    assert data["refused"] == [True, True, True, True]

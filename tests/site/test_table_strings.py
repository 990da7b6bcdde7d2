"""The table's words for BUOB (issue #14 item 1): every key the JS builds from the engine's
values exists in `ui_strings`, in every language, and no JS file compares with the old upper-case
mode names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from games.engine.state import BuobMode
from games.text.table import ui_strings

ROOT = Path(__file__).resolve().parents[2]
JS = sorted((ROOT / "static" / "js").rglob("*.js"))
NEW_KEYS = ("buob_called", "buob_exchange", "buob_jack_in", "buob_forced_you", "regame_already",
            "buob_refused", "buob_refused_suit")


@pytest.mark.parametrize("language", ["en", "rm", "de", "fr"])
def test_every_buob_mode_is_named_in_words(language: str) -> None:
    with translation.override(language):
        s = ui_strings()
    for mode in BuobMode:
        text = s.get(f"mode_{mode.value}")
        assert text and text != "undefined", (language, mode)
    for key in NEW_KEYS:
        assert s[key], (language, key)
    if language != "en":
        with translation.override("en"):
            en = ui_strings()
        for key in ("mode_forced", "mode_deferred", "buob_exchange", "regame_already"):
            assert s[key] != en[key], (language, key)


def test_the_js_builds_mode_keys_from_the_engine_values() -> None:
    source = "\n".join(p.read_text() for p in JS)
    assert "mode_${call.mode}" in source
    # The engine's modes are lower case: no comparison with an upper-case mode name is left.
    assert not re.search(r"""["'](FORCED|DEFERRED|SELF)["']""", source)
    assert "@ts-expect-error" not in (ROOT / "static/js/views/scene.js").read_text()
    for key in re.findall(r"S\.(buob_\w+|mode_\w+|regame_already)", source):
        assert key in ui_strings(), key


AWAY_KEYS = ("away_for", "away_now", "back_now", "auto_played", "auto_pass", "auto_scart")


@pytest.mark.parametrize("language", ["rm", "de", "fr"])
def test_the_away_and_timer_words_are_translated(language: str) -> None:
    """Issue #14 item 3: the away clock and the timer's automatic moves, in every language,
    with the placeholders the script fills in."""
    with translation.override("en"):
        en = ui_strings()
    with translation.override(language):
        s = ui_strings()
    for key in AWAY_KEYS:
        assert s[key] and s[key] != en[key], (language, key)
        assert set(re.findall(r"%\((\w+)\)s", s[key])) == set(
            re.findall(r"%\((\w+)\)s", en[key])), (language, key)
    # The Scart's cards are never named to others.
    assert "%(card" not in en["auto_scart"]


def test_the_js_uses_the_away_and_timer_words() -> None:
    source = "\n".join(p.read_text() for p in JS)
    for key in AWAY_KEYS:
        assert f"S.{key}" in source, key


# Issue #24 items 5 and 14: the plates' words, the owner's star, the Narr's refusals and help.
PLATE_KEYS = ("bot_level_badge", "turn_left", "owner", "refusal_narr")


@pytest.mark.parametrize("language", ["rm", "de", "fr"])
def test_the_plate_and_narr_words_are_translated(language: str) -> None:
    with translation.override("en"):
        en = ui_strings()
    with translation.override(language):
        s = ui_strings()
    for key in PLATE_KEYS:
        # "bot" is the Romansh and French word too: only its German badge differs.
        same_word = key == "bot_level_badge" and language != "de"
        assert s[key] and (same_word or s[key] != en[key]), (language, key)
        assert set(re.findall(r"%\((\w+)\)s", s[key])) == set(
            re.findall(r"%\((\w+)\)s", en[key])), (language, key)


@pytest.mark.parametrize("language", ["en", "rm", "de", "fr"])
def test_the_refusals_name_the_narr_only_through_the_table(language: str) -> None:
    from games.engine.errors import ErrorCode
    from games.text.errors import message_for

    with translation.override(language):
        narr = ui_strings()["help_narr_title"].split()[-1]  # "Narr", "narr", "Mat"
        for code in (ErrorCode.MUST_FOLLOW_SUIT, ErrorCode.MUST_PLAY_TRUMP):
            assert narr.lower() not in str(message_for(code)).lower(), (language, code)
        assert narr.lower() in ui_strings()["refusal_narr"].lower()
    # The help says a debt arises only when the Narr's team lost the trick (RULES.md §9).
    with translation.override("en"):
        assert "if that team lost the trick" in ui_strings()["help_narr"]


def test_the_js_adds_the_narr_only_for_a_hand_that_holds_it() -> None:
    table = (ROOT / "static" / "js" / "table.js").read_text()
    assert 'legal_cards.includes("NARR")) {' in table and "S.refusal_narr" in table
    seats = (ROOT / "static" / "js" / "views" / "seats.js").read_text()
    # The owner's star is named in words (a screen reader) and as a tooltip.
    assert "h(\"span.chip.chip-owner\", { title: S.owner }" in seats
    assert "S.bot_level_badge" in (ROOT / "static" / "js" / "views" / "bots.js").read_text()

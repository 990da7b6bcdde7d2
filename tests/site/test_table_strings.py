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

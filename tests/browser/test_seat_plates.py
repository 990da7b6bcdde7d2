"""Seat plates that never clip (issue #24 item 5), at 390×844 (touch) and 1366×800: each bot
has one badge, "bot · easy" or "bot · strong", beside its own name; no text on a plate runs
past its box; and an away player's plate shows one countdown, the one that acts first, in words:
"bot in 9:57" while the others play, "1:58 to play" once the turn timer (120 s) runs on her
seat before her grace period (600 s) ends."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_table import (
    APP,
    act,
    click_card,
    owner_anna_and_two_bots,
    shot,
    sign_up,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SIZES = [("phone", {"width": 390, "height": 844}), ("desktop", {"width": 1366, "height": 800})]

# Every element of every plate whose text runs past its own box sideways.
CLIPPED = """() => [...document.querySelectorAll(
    '#table-app .seat .plate, #table-app .seat .plate *')]
  .filter((n) => n.getClientRects().length > 0 && !n.closest('.visually-hidden'))
  .filter((n) => n.scrollWidth > n.clientWidth + 1 && getComputedStyle(n).display !== 'inline')
  .map((n) => n.className + ': ' + n.textContent)"""

# Per seat: the countdowns its plate shows (the turn timer's chip and the away notice's).
COUNTDOWNS = """() => [...document.querySelectorAll('#table-app .seat .plate')].map((p) => ({
  seat: p.dataset.seat,
  timers: [...p.querySelectorAll('[data-countdown]')].map((n) => n.textContent),
  away: [...p.querySelectorAll('.chip-away')].map((n) => n.textContent),
}))"""


def _plates(page: Any) -> dict[str, dict[str, Any]]:
    return {p["seat"]: p for p in page.evaluate(COUNTDOWNS)}


@pytest.mark.parametrize(("tag", "viewport"), SIZES, ids=[tag for tag, _ in SIZES])
def test_plates_never_clip_and_show_one_countdown(browser: Any, site_server: str,
                                                  artifacts: Path, tag: str,
                                                  viewport: dict[str, int]) -> None:
    contexts = [browser.new_context(viewport=viewport, locale="en", device_scale_factor=1,
                                    has_touch=tag == "phone", bypass_csp=True)
                for _ in range(2)]
    try:
        owner = sign_up(contexts[0], site_server, f"owner{tag}", "en")
        anna = sign_up(contexts[1], site_server, f"annamaria{tag}", "en")
        errors: list[str] = []
        owner.on("pageerror", lambda exc: errors.append(str(exc)))
        owner_anna_and_two_bots(owner, anna, site_server,
                                {"reveal_seconds": "2", "turn_seconds": "120",
                                 "stand_in_seconds": "600"})
        anna.close()
        owner.locator(".seat .chip-away").wait_for(timeout=15000)
        # The bots: one badge each, the level said once, their own names without "(bot, …)".
        badges = owner.locator(".seat .chip-bot").all_inner_texts()
        assert len(badges) == 2 and all(re.fullmatch(r"(?i)bot · (easy|strong)", b)
                                        for b in badges), badges
        names = owner.locator(".seat .plate-name .nm").all_inner_texts()
        assert not any("(bot" in n for n in names), names
        # While the owner deals, Anna's plate counts down to her stand-in only.
        anna_plate = _plates(owner)["1"]
        assert anna_plate["timers"] == [] and len(anna_plate["away"]) == 1
        assert " · bot in " in anna_plate["away"][0], anna_plate
        assert owner.evaluate(CLIPPED) == []
        shot(owner, artifacts, f"plates-{tag}-away")
        for _ in range(3):
            act(owner, lambda: owner.click("[data-action=deal]"))
        owner.wait_for_function(f"document.querySelector('{APP}').dataset.phase === 'SCART'",
                                timeout=20000)
        allowed = owner.locator(".hand button.card:not([aria-disabled=true])")
        click_card(allowed.nth(0))
        click_card(allowed.nth(1))
        act(owner, lambda: owner.click("[data-action=scart]"))
        # Anna leads the first trick: her turn timer (120 s) acts before her grace period
        # (600 s), so her plate shows that one, in words, and the away notice no countdown.
        owner.wait_for_selector(".seat .plate[data-seat='1'] [data-countdown]", timeout=20000)
        owner.wait_for_function(
            "() => /\\d:\\d\\d to play/.test(document.querySelector("
            "\".seat .plate[data-seat='1'] [data-countdown]\").textContent)", timeout=5000)
        anna_plate = _plates(owner)["1"]
        assert len(anna_plate["timers"]) == 1, anna_plate
        assert len(anna_plate["away"]) == 1 and "bot in" not in anna_plate["away"][0], anna_plate
        for seat, plate in _plates(owner).items():
            shown = len(plate["timers"]) + sum("bot in" in a for a in plate["away"])
            assert shown <= 1, (seat, plate)
        assert owner.evaluate(CLIPPED) == []
        shot(owner, artifacts, f"plates-{tag}-turn-timer")
        assert errors == []
    finally:
        for context in contexts:
            context.close()

"""A stand-in in a real browser (issue #15): a player closes their page during a match; the
other player's page counts down on the away notice ("bot in 0:02"), then says "bot for Anna"
while a bot plays her cards; she opens the table again and plays her next turn herself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_table import (
    APP,
    act,
    click_card,
    owner_anna_and_two_bots,
    phase,
    shot,
    sign_up,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

CHIP = ".seat .chip-away"


def test_a_bot_stands_in_for_an_away_player_and_hands_back(browser: Any, site_server: str,
                                                            artifacts: Path) -> None:
    base = site_server
    contexts = [browser.new_context(viewport={"width": 1366, "height": 800}, locale="en",
                                    device_scale_factor=1, bypass_csp=True) for _ in range(2)]
    try:
        owner = sign_up(contexts[0], base, "owner", "en")
        anna = sign_up(contexts[1], base, "anna", "en")
        errors: list[str] = []
        owner.on("pageerror", lambda exc: errors.append(str(exc)))
        owner_anna_and_two_bots(owner, anna, base,
                                {"reveal_seconds": "2", "stand_in_seconds": "4"})
        room_url = anna.url
        anna.close()
        # The countdown to the stand-in, on Anna's plate.
        chip = owner.locator(CHIP)
        chip.wait_for(timeout=15000)
        assert " · bot in " in chip.inner_text(), chip.inner_text()
        shot(owner, artifacts, "stand-in-countdown")
        # The owner deals and discards; Anna leads the first trick: her bot does.
        for _ in range(3):
            act(owner, lambda: owner.click("[data-action=deal]"))
        owner.wait_for_function(f"document.querySelector('{APP}').dataset.phase === 'SCART'",
                                timeout=20000)
        allowed = owner.locator(".hand button.card:not([aria-disabled=true])")
        click_card(allowed.nth(0))
        click_card(allowed.nth(1))
        act(owner, lambda: owner.click("[data-action=scart]"))
        owner.wait_for_function(
            "([sel]) => { const n = document.querySelector(sel);"
            " return n && n.textContent.includes('bot for Anna'); }", arg=[CHIP], timeout=20000)
        owner.wait_for_selector(".plate[data-seat='1'][data-stand-in='1']", timeout=20000)
        # Seat 1 leads the first trick: the first card on the table is the bot's, for Anna.
        owner.wait_for_function("document.querySelectorAll('.trick .slot-card').length >= 1",
                                timeout=20000)
        shot(owner, artifacts, "stand-in-playing")
        assert phase(owner) == "PLAY"
        # Anna is back: no notice, and her next turn is hers to play.
        anna = contexts[1].new_page()
        anna.goto(room_url)
        anna.wait_for_selector(f"{APP}[data-state=live]")
        owner.wait_for_selector(CHIP, state="detached", timeout=15000)
        # The owner plays on (the bots by themselves) until it is Anna's turn again.
        for _ in range(40):
            if anna.locator(APP).get_attribute("data-myturn") == "1":
                break
            if owner.locator(APP).get_attribute("data-myturn") == "1":
                legal = owner.locator(".hand button.card:not([aria-disabled=true])")
                act(owner, lambda legal=legal: click_card(legal.first))
            else:
                owner.wait_for_timeout(300)
        assert anna.locator(APP).get_attribute("data-myturn") == "1"
        legal = anna.locator(".hand button.card:not([aria-disabled=true])")
        act(anna, lambda: click_card(legal.first))
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()

"""The away notice in a real browser (issue #14 item 3): a seated player closes their page, the
room owner's page shows "away 0:0…" on that seat with a clock that counts up and says "Anna is
away." in its live region; the notice goes ("Anna is back.") when the player opens the room
again. On a phone (390×844) and a laptop (1366×800).

Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_table import APP, act, shot, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

AWAY = ".lobby .slot .chip-away"


def clock_seconds(text: str) -> int:
    match = re.search(r"(\d+):(\d\d)", text)
    assert match, text
    return int(match.group(1)) * 60 + int(match.group(2))


@pytest.mark.parametrize("viewport", [(390, 844), (1366, 800)], ids=["phone", "laptop"])
def test_an_away_seat_shows_a_counting_clock(browser: Any, site_server: str, artifacts: Path,
                                             viewport: tuple[int, int]) -> None:
    base = site_server
    size = {"width": viewport[0], "height": viewport[1]}
    contexts = [browser.new_context(viewport=size, locale="en", device_scale_factor=1,
                                    bypass_csp=True) for _ in range(2)]
    try:
        owner = sign_up(contexts[0], base, "owner", "en")
        guest = sign_up(contexts[1], base, "anna", "en")
        errors: list[str] = []
        for page in (owner, guest):
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        owner.goto(f"{base}/en/")
        owner.click("a.button[href$='/rooms/new/']")
        owner.fill("#id_name", "Stiva absenta")
        owner.click(".room-form [type=submit]")
        owner.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
        owner.wait_for_selector(f"{APP}[data-state=live]")
        invite = owner.input_value("#invite-link")

        guest.goto(invite)
        guest.wait_for_selector(f"{APP}[data-state=live] .lobby")
        act(guest, lambda: guest.click(".team-col.team-b [data-action=take-seat] >> nth=0"))
        owner.wait_for_selector(".lobby .slot:not(.free) >> text=Anna")
        assert owner.locator(AWAY).count() == 0
        room_url = guest.url

        guest.close()
        chip = owner.locator(AWAY)
        chip.wait_for(timeout=15000)
        slot = owner.locator(".lobby .slot", has=owner.locator(".chip-away"))
        assert "Anna" in slot.inner_text()
        first = chip.inner_text()
        assert first.startswith("away "), first
        # The clock moves on within a few seconds (polled: a loaded machine may run the page's
        # one-second timer late, which is no fault of the clock).
        owner.wait_for_function(
            "([sel, first]) => { const n = document.querySelector(sel);"
            " return n && n.textContent !== first; }", arg=[AWAY, first], timeout=8000)
        second = chip.inner_text()
        assert clock_seconds(second) > clock_seconds(first), (first, second)
        owner.wait_for_function("document.getElementById('live').textContent"
                                ".includes('Anna is away.')")
        shot(owner, artifacts, f"away-notice-{viewport[0]}x{viewport[1]}")

        again = contexts[1].new_page()
        again.goto(room_url)
        again.wait_for_selector(f"{APP}[data-state=live] .lobby")
        owner.wait_for_selector(AWAY, state="detached", timeout=15000)
        owner.wait_for_function("document.getElementById('live').textContent"
                                ".includes('Anna is back.')")
        shot(owner, artifacts, f"away-back-{viewport[0]}x{viewport[1]}")
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()

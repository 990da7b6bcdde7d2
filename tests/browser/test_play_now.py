"""Play now in a real browser (issue #15): one person presses Play now on the home page and
plays against three bots over real websockets — on a desktop the whole deal, on a phone the
first tricks. The bots play on the server's worker threads; the page only sees their cards
arrive like anyone else's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_table import (
    APP,
    act,
    click_card,
    phase,
    shot,
    sign_up,
    version,
    wait_version,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def _play_now(page: Any, base: str, level: str) -> None:
    page.goto(f"{base}/en/")
    page.check(f".play-now-form input[value={level}]")
    page.click("[data-play-now]")
    page.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
    page.wait_for_selector(f"{APP}[data-state=live]")
    page.wait_for_function(f"document.querySelector('{APP}').dataset.phase === 'DEALING'")


def _play(page: Any, artifacts: Path, tag: str, cards: int | None) -> int:
    """Deal, Scart and play the first legal card whenever it is the page's turn, until the
    deal is scored (or `cards` were played). Returns the cards played."""
    for _ in range(3):
        act(page, lambda: page.click("[data-action=deal]"))
    page.wait_for_function(f"document.querySelector('{APP}').dataset.phase === 'SCART'",
                           timeout=20000)
    allowed = page.locator(".hand button.card:not([aria-disabled=true])")
    click_card(allowed.nth(0))
    click_card(allowed.nth(1))
    act(page, lambda: page.click("[data-action=scart]"))
    played = 0
    while cards is None or played < cards:
        # The bots answer by themselves: wait for the page's turn or the score sheet.
        page.wait_for_function(
            f"(() => {{ const a = document.querySelector('{APP}');"
            " return a.dataset.myturn === '1' || ['ROUND_OVER', 'MATCH_OVER']"
            ".includes(a.dataset.phase); })()", timeout=30000)
        if phase(page) in ("ROUND_OVER", "MATCH_OVER"):
            break
        assert phase(page) == "PLAY"
        legal = page.locator(".hand button.card:not([aria-disabled=true])")
        act(page, lambda legal=legal: click_card(legal.first))
        played += 1
        if played == 3:
            shot(page, artifacts, f"bots-{tag}-play")
    return played


@pytest.mark.parametrize(("tag", "viewport", "cards"), [
    ("desktop", {"width": 1366, "height": 800}, None),
    ("phone", {"width": 390, "height": 844}, 4),
])
def test_one_person_plays_against_three_bots(browser: Any, site_server: str, artifacts: Path,
                                             tag: str, viewport: dict[str, int],
                                             cards: int | None) -> None:
    context = browser.new_context(viewport=viewport, locale="en", device_scale_factor=1,
                                  has_touch=tag == "phone", bypass_csp=True)
    errors: list[str] = []
    try:
        page = sign_up(context, site_server, f"mario{tag}", "en")
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        _play_now(page, site_server, "easy" if tag == "desktop" else "strong")
        # Three bots, each with one badge that says its level once ("bot · strong"), beside
        # its own name (issue #24 item 5).
        page.wait_for_selector(".seat .chip-bot")
        badges = page.locator(".seat .chip-bot").all_inner_texts()
        assert len(badges) == 3 and all(re.fullmatch(r"(?i)bot · (easy|strong)", b)
                                        for b in badges), badges
        names = page.locator(".seat .plate-name .nm").all_inner_texts()
        assert not any("(bot" in n for n in names), names
        shot(page, artifacts, f"bots-{tag}-dealing")
        played = _play(page, artifacts, tag, cards)
        if cards is None:
            # The whole deal: 19 cards of the person's, the rest by the bots, then the sheet.
            assert played == 19
            page.locator(".overlay .sheet").wait_for()
            points = page.locator(".score-sheet tbody tr:nth-child(3) td").all_inner_texts()
            assert sum(int(p) for p in points) == 72
            shot(page, artifacts, f"bots-{tag}-score-sheet")
        else:
            assert played == cards
            # 19 cards after the Scart, less the person's own plays: the bots played theirs.
            wait_version(page, version(page))
            assert page.locator(".hand button.card").count() == 19 - cards
        assert not errors, errors
    finally:
        context.close()


def test_the_owner_seats_and_removes_a_bot_from_the_lobby(browser: Any, site_server: str,
                                                          artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 800}, locale="de",
                                  device_scale_factor=1, bypass_csp=True)
    try:
        page = sign_up(context, site_server, "gionlobby", "de")
        page.goto(f"{site_server}/de/rooms/new/")
        page.click(".room-form [type=submit]")
        page.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
        page.wait_for_selector(f"{APP}[data-state=live] .lobby")
        free = page.locator(".slot.free[data-index='1']")
        free.locator("[data-action=bot-level]").select_option("strong")
        act(page, lambda: free.locator("[data-action=seat-bot]").click())
        bot = page.locator(".slot.bot[data-index='1']")
        bot.wait_for()
        assert "(Bot, stark)" in bot.inner_text()
        assert bot.locator(".chip-bot").count() == 1
        shot(page, artifacts, "bots-lobby-seated")
        act(page, lambda: bot.locator("[data-action=remove-bot]").click())
        page.locator(".slot.free[data-index='1']").wait_for()
    finally:
        context.close()

"""The before/after screenshots of issue #24 (items 1, 5, 6 and 7), at 390×844 on a touch phone
(item 6 also a spectator at 1366×800), into docs/screenshots/24/<item>-<label>.png.

    .venv/bin/python scripts/screenshots_24.py before     # or: after

It runs itself under pytest to reuse the browser tests' server and Chromium fixtures
(tests/browser/conftest.py): a real uvicorn server on a throwaway SQLite database. The states:

- 1: a message arrives while the phone player's talk panel is closed;
- 5: seat plates at a table with bots of both levels and an away player (their page closed);
- 6: a BUOB call on the table, on a player's phone and a desktop spectator's screen;
- 7: the match-over sheet on a phone.

Dealing is random: the BUOB state is reached by playing deals over websockets until some seat
may call (tests/browser/test_buob.py); without one in its deals, item 6 is left out and said so.
"""

from __future__ import annotations

import os
import re
import sys
from contextlib import ExitStack
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

if __name__ == "__main__":
    # Run as a script: pytest collects this file, whose fixtures need Django's settings first.
    if len(sys.argv) > 1:
        os.environ["SHOTS_24"] = sys.argv[1]
    os.chdir(ROOT)
    sys.exit(pytest.main([__file__, "-p", "no:cacheprovider", "-n", "0", "-s",
                          "-o", "python_files=screenshots_24.py", "--timeout", "900"]))

# The browser tests' fixtures, imported so that pytest finds them here (the parameters below).
from tests.browser.conftest import browser, site_server, site_server_log  # noqa: E402,F401
from tests.browser.test_buob import (  # noqa: E402
    MAX_DEALS,
    PHONE,
    Seat,
    call_in_page,
    choose,
    command,
    deal_and_scart,
    next_deal,
    open_table,
    settle,
    who_may_call,
)
from tests.browser.test_table import APP, act, sign_up, wait_version  # noqa: E402

OUT = ROOT / "docs" / "screenshots" / "24"
DESKTOP = {"width": 1366, "height": 800}


def label() -> str:
    return os.environ.get("SHOTS_24", "after")


def save(page: Any, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}-{label()}.png"))


def test_item_5_plates(browser: Any, site_server: str) -> None:  # noqa: F811
    """An owner on a phone, a strong and an easy bot, and Anna, who closes her page."""
    base = site_server
    phone = browser.new_context(viewport=PHONE, locale="en", has_touch=True, is_mobile=True,
                                bypass_csp=True)
    other = browser.new_context(viewport=PHONE, locale="en", has_touch=True, bypass_csp=True)
    try:
        owner = sign_up(phone, base, "ursina", "en", display_name="Ursina Casty")
        anna = sign_up(other, base, "mario", "en", display_name="Mario Caveng")
        owner.goto(f"{base}/en/rooms/new/")
        owner.fill("#id_turn_seconds", "60")
        owner.click(".room-form [type=submit]")
        owner.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
        owner.wait_for_selector(f"{APP}[data-state=live] .lobby")
        for index, level in ((2, "strong"), (3, "easy")):
            owner.select_option(f".slot.free[data-index='{index}'] [data-action=bot-level]", level)
            act(owner, lambda i=index: owner.locator(
                f".slot.free[data-index='{i}'] [data-action=seat-bot]").click())
        anna.goto(owner.input_value("#invite-link"))
        anna.wait_for_selector(f"{APP}[data-state=live] .lobby")
        act(anna, lambda: anna.click(".slot.free[data-index='1'] [data-action=take-seat]"))
        owner.wait_for_function("!document.querySelector('[data-action=start]').disabled")
        act(owner, lambda: owner.click("[data-action=start]"))
        anna.close()
        owner.locator(".chip-away").first.wait_for(timeout=20000)
        owner.wait_for_timeout(1500)
        save(owner, "5")
    finally:
        phone.close()
        other.close()


def test_items_1_6_7(browser: Any, site_server: str) -> None:  # noqa: F811
    base = site_server
    contexts, pages, code = open_table(browser, base)
    stack = ExitStack()
    watcher_context = browser.new_context(viewport=DESKTOP, locale="en", bypass_csp=True)
    try:
        watcher = sign_up(watcher_context, base, "watcher", "en", display_name="Men Tuor")
        watcher.goto(f"{base}/en/rooms/{code}/")
        watcher.wait_for_selector(f"{APP}[data-state=live]")
        seats = [Seat(base, code, context, stack) for context in contexts]
        phone = pages[2]
        deal_and_scart(seats)

        # 1: the owner says something while the phone player's talk is closed.
        wait_version(phone, max(s.version for s in seats))
        assert not phone.locator("#talk").is_visible()
        pages[0].fill("#talk-input", "Bun di! Who deals next?")
        pages[0].press("#talk-input", "Enter")
        pages[0].wait_for_selector("#talk-list-table .talk-line")
        phone.wait_for_timeout(700)
        save(phone, "1")

        # 6: deals are played over the websockets until some seat may call BUOB.
        caller = None
        for deal in range(MAX_DEALS):
            if deal:
                next_deal(seats)
            while seats[0].view["phase"] == "PLAY":
                caller = who_may_call(seats)
                if caller is not None:
                    break
                turn = seats[seats[0].view["turn"]]
                command(seats, turn, "play_card", card=choose(seats, turn))
            if caller is not None:
                break
        if caller is None:
            print(f"item 6: no seat could call BUOB in {MAX_DEALS} deals")
        else:
            latest = call_in_page(pages[caller], max(s.version for s in seats))
            settle(seats, latest)
            shown = next(p for i, p in enumerate(pages) if i >= 2)
            for page in (shown, watcher):
                wait_version(page, latest)
                page.locator(".buob-call").wait_for()
                # The banner's entrance has finished.
                page.clock.install()
                page.clock.pause_at(datetime.now() + timedelta(seconds=1))
                page.wait_for_timeout(500)
            save(shown, "6-phone")
            save(watcher, "6-spectator-desktop")
            for page in (shown, watcher):
                page.clock.resume()

        # 7: the deal is played out, the owner ends the match: the match-over sheet.
        while seats[0].view["phase"] == "PLAY":
            turn = seats[seats[0].view["turn"]]
            command(seats, turn, "play_card", card=turn.view["legal_cards"][0])
        latest = command(seats, seats[0], "end_match")
        wait_version(phone, latest)
        phone.locator(".overlay .match-over").wait_for()
        phone.wait_for_timeout(500)
        save(phone, "7")
    finally:
        stack.close()
        watcher_context.close()
        for context in contexts:
            context.close()

"""Find a game's bots offer in Chromium (issue #24 item 15): after the wait the player chose,
"Play with bots" appears (not before), and pressing it seats that player with three bots."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_table import APP, shot, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

ROOM = re.compile(r"/rooms/([a-z0-9]+)/$")


def _contexts(browser: Any, n: int) -> list[Any]:
    return [browser.new_context(viewport={"width": 1280, "height": 800}, locale="en")
            for _ in range(n)]


def _backdate_the_wait(tmp_path_factory: pytest.TempPathFactory, seconds: int) -> None:
    """The server's own database (tests/browser/conftest.py): the wait began `seconds` ago."""
    # pytest also links "browser-servercurrent" to it: the newest file is the server's.
    db = max(tmp_path_factory.getbasetemp().glob("browser-server*/site.sqlite3"),
             key=lambda path: path.stat().st_mtime)
    joined = (datetime.now(UTC) - timedelta(seconds=seconds)).strftime("%Y-%m-%d %H:%M:%S.%f")
    with sqlite3.connect(db, timeout=10) as conn:
        changed = conn.execute("UPDATE games_queueentry SET joined = ? WHERE status = 'waiting'",
                               (joined,)).rowcount
    assert changed == 1


def test_play_with_bots_appears_after_the_chosen_wait_and_seats_me_with_bots(
        browser: Any, site_server: str, artifacts: Path,
        tmp_path_factory: pytest.TempPathFactory) -> None:
    (context,) = _contexts(browser, 1)
    try:
        page = sign_up(context, site_server, "corsin", "en")
        page.goto(f"{site_server}/en/find/")
        page.select_option("[data-queue-bots-after]", "60")
        page.click("[data-find-join]")
        page.wait_for_selector("[data-find-wait]:not([hidden])")
        # Not yet: the offer's countdown shows, the button does not.
        page.wait_for_selector("[data-find-bots-in]:not([hidden])")
        assert page.locator("[data-find-play-bots]").is_hidden()
        _backdate_the_wait(tmp_path_factory, 61)
        page.reload()
        page.wait_for_selector("[data-find-play-bots]:visible")
        shot(page, artifacts, "find-bots-offer")
        page.click("[data-find-play-bots]")
        page.wait_for_url(ROOM, timeout=20000)
        page.wait_for_selector(f"{APP}[data-state=live]")
        # Three bots sit with me.
        assert page.locator("text=bot").count() >= 3
    finally:
        context.close()

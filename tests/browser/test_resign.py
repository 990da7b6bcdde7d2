"""The Resign button in a real browser (issue #24 item 2): at a practice table the person
presses Resign; dismissing the confirm changes nothing, accepting it ends the match and the
status line says who resigned."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.test_table import APP, phase, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_resign_asks_first_then_ends_the_match(browser: Any, site_server: str) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 800}, locale="en",
                                  device_scale_factor=1, bypass_csp=True)
    errors: list[str] = []
    try:
        page = sign_up(context, site_server, "marioresign", "en")
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{site_server}/en/")
        page.check(".play-now-form input[value=easy]")
        page.click("[data-play-now]")
        page.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
        page.wait_for_selector(f"{APP}[data-state=live]")
        page.wait_for_selector("[data-action=resign]")
        asked: list[str] = []

        def dismiss(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.dismiss()

        page.once("dialog", dismiss)
        page.click("[data-action=resign]")
        assert asked and "Give this match up?" in asked[0]
        assert phase(page) != "MATCH_OVER"
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("[data-action=resign]")
        page.wait_for_function(
            f"document.querySelector('{APP}').dataset.phase === 'MATCH_OVER'", timeout=20000)
        page.locator(f"{APP} .status", has_text="Marioresign resigned.").wait_for(timeout=10000)
        assert page.locator("[data-action=resign]").count() == 0
        assert not errors, errors
    finally:
        context.close()


def test_leaving_a_running_match_by_a_link_asks_first(browser: Any, site_server: str) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 800}, locale="en",
                                  device_scale_factor=1, bypass_csp=True)
    try:
        page = sign_up(context, site_server, "marioleave", "en")
        page.goto(f"{site_server}/en/")
        page.check(".play-now-form input[value=easy]")
        page.click("[data-play-now]")
        page.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
        page.wait_for_selector(f"{APP}[data-state=live]")
        page.wait_for_selector("[data-action=resign]")
        room = page.url
        asked: list[str] = []

        def dismiss(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.dismiss()

        link = page.locator("header a[href]:not([href^='#'])").first
        page.once("dialog", dismiss)
        link.click()
        # The grace period of the room (60 s by default), in words; staying keeps the page.
        assert asked == ["A bot will play for you after 60 s; leave anyway?"]
        assert page.url == room
        page.once("dialog", lambda dialog: dialog.accept())
        link.click()
        page.wait_for_url(lambda url: url != room, timeout=10000)
    finally:
        context.close()

"""Find a game with people, in four browsers (issue #24 item 15): four players each open the
find page and join with the standard choices; the first three see the wait and how many wait
(live, over the site socket); when the fourth joins, a table of four forms and every one of
the four browsers is taken to the same live table, rated, with no bot seated."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.test_table import APP, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_four_browsers_queue_and_land_at_one_table(browser: Any, site_server: str) -> None:
    base = site_server
    contexts = [browser.new_context(viewport=size, locale="en")
                for size in ({"width": 390, "height": 844}, {"width": 1366, "height": 800},
                             {"width": 390, "height": 844}, {"width": 1366, "height": 800})]
    errors: list[str] = []
    try:
        pages = [sign_up(context, base, name, language, display)
                 for context, (name, language, display) in zip(contexts, [
                     ("mengia", "rm", "Mengia Queue"), ("flurin", "de", "Flurin Queue"),
                     ("seraina", "fr", "Seraina Queue"), ("duri", "en", "Duri Queue")],
                     strict=True)]
        for page in pages:
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        for n, page in enumerate(pages[:3], start=1):
            page.goto(f"{base}/en/find/")
            page.click("[data-find-join]")
            page.wait_for_selector("[data-find-wait]", state="visible")
            # Each sees everyone waiting so far, themselves included.
            page.wait_for_function(
                "n => (document.querySelector('[data-find-count]').textContent || '')"
                ".includes(String(n))", arg=n, timeout=15000)
        # The first waiter's count went up live as the others came.
        assert "3" in pages[0].locator("[data-find-count]").inner_text()
        pages[3].goto(f"{base}/en/find/")
        pages[3].click("[data-find-join]")
        codes = set()
        for page in pages:
            page.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"), timeout=20000)
            codes.add(page.url.rstrip("/").rsplit("/", 1)[1])
            page.wait_for_selector(f"{APP}[data-state=live]", timeout=20000)
        assert len(codes) == 1
        # Four people, no bot badge at the table.
        assert pages[0].locator(".badge-bot, [data-bot]").count() == 0
        assert errors == []
    finally:
        for context in contexts:
            context.close()

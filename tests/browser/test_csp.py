"""Trust, issue #13 item 10: the pages work under their Content-Security-Policy — the table's
modules and import map, the rules, the account pages and the admin report no violation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_table import APP, sign_up

pytestmark = pytest.mark.browser


def test_the_pages_run_under_the_content_security_policy(browser: Any, site_server: str
                                                         ) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    violations: list[str] = []
    try:
        page = sign_up(context, site_server, "csp", "en")
        page.on("console", lambda msg: violations.append(msg.text)
                if "Content Security Policy" in msg.text else None)
        page.on("pageerror", lambda exc: violations.append(str(exc)))
        page.goto(f"{site_server}/en/rooms/new/")
        page.click("main form [type=submit]")
        # The table mounted: its modules ran (the import map is nonced, the rest is 'self').
        page.locator(f"{APP}[data-phase]").wait_for(timeout=15000)
        page.locator("[data-action=start]").wait_for(timeout=15000)
        for path in ("/en/", "/rm/rules/", "/de/accounts/profile/", "/en/matches/",
                     "/fr/friends/", "/en/friends/find/?q=csp", "/en/notifications/",
                     "/en/admin/login/"):
            page.goto(f"{site_server}{path}")
            page.wait_for_load_state("load")
    finally:
        context.close()
    assert violations == []

"""Friends and invitations end to end in Chromium (issue #17): Mona finds Gion by name and
sends a friend request, Gion accepts it, Mona opens a table and invites him from its drawer;
Gion's header badge lights up while he is on another page, and the notification's link takes
him to the live table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.axe import assert_accessible, ensure_axe
from tests.browser.test_table import APP, shot, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def test_a_friend_request_accepted_and_an_invitation_followed_to_the_table(
        browser: Any, site_server: str, artifacts: Path) -> None:
    ensure_axe()
    base = site_server
    # bypass_csp: axe-core is injected as an inline script (test_csp.py checks the policy).
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}, locale="en",
                                    bypass_csp=True)
                for _ in range(2)]
    errors: list[str] = []
    try:
        mona = sign_up(contexts[0], base, "mona", "en", "Mona Derungs")
        gion = sign_up(contexts[1], base, "gion", "en", "Gion Cadonau")
        for page in (mona, gion):
            page.on("pageerror", lambda exc: errors.append(str(exc)))

        # Mona finds Gion by a part of his name, any case, and asks him to be friends.
        mona.goto(f"{base}/en/friends/")
        mona.fill("#find-q", "cadonau")
        mona.click("form[role=search] [type=submit]")
        mona.wait_for_selector("[data-player]")
        assert mona.locator("[data-player]").count() == 1
        assert_accessible(mona, "player search")
        mona.click("[data-action-befriend]")
        mona.wait_for_selector("text=Your friend request has been sent.")

        # Gion's badge counts the request; he accepts it on his friends page.
        gion.goto(f"{base}/en/friends/")
        gion.wait_for_selector("[data-notice-count='1']")
        gion.click("[data-action-accept]")
        gion.wait_for_selector("text=You are friends now.")
        gion.wait_for_selector("[data-friend] >> text=Mona Derungs")
        shot(gion, artifacts, "friends-accepted")
        assert_accessible(gion, "friends page")

        # Mona opens a private table and invites Gion from the room's drawer.
        mona.goto(f"{base}/en/rooms/new/")
        mona.fill("#id_name", "Stiva Gion")
        mona.check("input[name=visibility][value=private]")
        mona.click(".room-form [type=submit]")
        mona.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
        room_url = mona.url
        mona.wait_for_selector(f"{APP}[data-state=live]")
        mona.click("#drawer-toggle")
        mona.select_option("#invite-friend-select", label="Gion Cadonau (online)")
        mona.click("[data-invite-friend]")
        mona.wait_for_selector("text=Gion Cadonau has been invited to this table.")

        # Gion, still on his friends page, sees the badge change without a reload.
        gion.wait_for_selector("[data-notice-count='2']", timeout=15000)
        gion.click("a[href$='/notifications/']")
        gion.wait_for_selector("[data-notice=invite]")
        shot(gion, artifacts, "friends-notification")
        assert_accessible(gion, "notifications")
        gion.click("[data-notice=invite] [data-invite-link]")
        gion.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
        assert gion.url.split("/rooms/")[1] == room_url.split("/rooms/")[1]
        gion.wait_for_selector(f"{APP}[data-state=live]")
        assert errors == []
    finally:
        for context in contexts:
            context.close()

"""Live drawers and a switcher that keeps the place (issue #24 items 8 and 9), in Chromium.

Mona asks Gion to be friends and opens a table; with its drawer open she has nobody to invite.
Gion accepts on his own page: without a reload, Mona's open drawer lists him (the site socket
says `friends`, the list is read again). She invites him; the confirmation goes away by itself
after a few seconds. Then the language switcher, pressed on a page with a step after the
hash, lands on the same page and step under the new prefix, in the new language."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.test_table import APP, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def test_a_friend_accepted_appears_in_the_open_drawer_and_the_note_goes(
        browser: Any, site_server: str) -> None:
    base = site_server
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}, locale="en")
                for _ in range(2)]
    errors: list[str] = []
    try:
        # Names of their own: the package's server keeps the other tests' Gions and Monas.
        mona = sign_up(contexts[0], base, "mona", "en", "Mona Tuor")
        gion = sign_up(contexts[1], base, "gion", "en", "Gion Casanova")
        for page in (mona, gion):
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        mona.goto(f"{base}/en/friends/")
        mona.fill("#find-q", "casanova")
        mona.click("form[role=search] [type=submit]")
        mona.click("[data-action-befriend]")
        mona.wait_for_selector("text=Your friend request has been sent.")

        mona.goto(f"{base}/en/rooms/new/")
        mona.fill("#id_name", "Stiva Mona")
        mona.check("input[name=visibility][value=private]")
        mona.click(".room-form [type=submit]")
        mona.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
        mona.wait_for_selector(f"{APP}[data-state=live]")
        mona.click("#drawer-toggle")
        mona.wait_for_selector(".invite-none", state="visible")
        assert not mona.locator("form.invite-friend").is_visible()

        # Gion accepts elsewhere; Mona's drawer, still open, lists him.
        gion.goto(f"{base}/en/friends/")
        gion.click("[data-action-accept]")
        gion.wait_for_selector("text=You are friends now.")
        mona.wait_for_selector("#invite-friend-select option:text-matches('Gion Casanova')",
                               state="attached", timeout=15000)
        assert mona.locator("form.invite-friend").is_visible()
        assert not mona.locator(".invite-none").is_visible()
        assert mona.locator("#room-drawer").evaluate("d => d.open")

        # The invitation's confirmation shows, then goes by itself.
        mona.select_option("#invite-friend-select", label="Gion Casanova (online)")
        mona.click("[data-invite-friend]")
        note = mona.locator("text=Gion Casanova has been invited to this table.")
        note.wait_for(state="visible")
        note.wait_for(state="detached", timeout=15000)
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_the_switcher_keeps_the_page_and_its_step(browser: Any, site_server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en",
                                  has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{site_server}/de/rules/bock/#triggers")
        assert page.evaluate("document.documentElement.lang") == "de"
        for language in ("rm", "fr", "en", "de"):
            page.click(f".language-switcher button[value={language}]")
            page.wait_for_url(re.compile(rf"/{language}/rules/bock/#triggers$"))
            assert page.evaluate("document.documentElement.lang") == language
    finally:
        context.close()

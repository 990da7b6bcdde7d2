"""Table talk in a real browser (issue #17): the owner, on a wide screen, talks beside the
table; Anna, on a phone, opens the talk drawer (from the score bar's "Talk"), reads it —
markup shown as text — and answers with a quick phrase; the drawer never covers her hand or
the trick. The panel is axe-clean."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.test_table import act, owner_anna_and_two_bots, shot, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

ATTACK = "Bun di! <b>bold</b> <img src=x onerror=window.__pwned=1> https://evil.example"

_OVERLAP = """([a, b]) => {
  const r = document.querySelector(a).getBoundingClientRect();
  const s = document.querySelector(b).getBoundingClientRect();
  return !(r.right <= s.left || s.right <= r.left || r.bottom <= s.top || s.bottom <= r.top);
}"""


def test_talk_beside_the_table_and_in_a_phone_drawer(browser: Any, site_server: str,
                                                     artifacts: Path) -> None:
    base = site_server
    wide = browser.new_context(viewport={"width": 1366, "height": 800}, locale="en",
                               device_scale_factor=1, bypass_csp=True)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en",
                                device_scale_factor=1, is_mobile=True, has_touch=True,
                                bypass_csp=True)
    try:
        owner = sign_up(wide, base, "owner", "en")
        anna = sign_up(phone, base, "anna", "rm")
        errors: list[str] = []
        for page in (owner, anna):
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        owner_anna_and_two_bots(owner, anna, base)
        for _ in range(3):
            act(owner, lambda: owner.click("[data-action=deal]"))
        anna.wait_for_selector(".hand .card", timeout=10000)
        # Wide screen: the panel is open beside the table; the score bar's button says so.
        assert owner.locator("#talk").is_visible()
        assert owner.locator("[data-action=talk]").get_attribute("aria-expanded") == "true"
        owner.fill("#talk-input", ATTACK)
        owner.press("#talk-input", "Enter")
        owner.wait_for_selector("#talk-list-table .talk-line")
        # Phone: closed until the score bar's "Talk" opens it, then in the flow below the
        # table (issue #24 item 1: on the table itself, no longer in the room drawer).
        assert not anna.locator("#talk").is_visible()
        anna.locator("[data-action=talk]").tap()
        line = anna.locator("#talk-list-table .talk-line .talk-text").first
        line.wait_for()
        assert line.inner_text() == ATTACK
        assert anna.locator("#talk-list-table b, #talk-list-table img, #talk-list-table a"
                            ).count() == 0
        assert anna.evaluate("window.__pwned") is None
        for covered in (".hand", ".trick"):
            if anna.locator(covered).count():
                assert not anna.evaluate(_OVERLAP, ["#talk", covered]), covered
        shot(anna, artifacts, "talk-phone-drawer")
        # A quick phrase, in Romansh for her and in English for the owner.
        anna.click("#talk-palette .talk-phrase >> text='Bain giugà!'")
        owner.wait_for_selector("#talk-list-table .talk-line:has-text('Well played!')")
        shot(owner, artifacts, "talk-wide")
        assert_accessible(owner, "talk panel (wide)", "#talk")
        assert_accessible(anna, "talk drawer (phone)", "#talk")
        assert errors == []
    finally:
        wide.close()
        phone.close()

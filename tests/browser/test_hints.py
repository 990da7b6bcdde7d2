"""A hint at a practice table in a real browser (issue #28 item 2): the Hint button at the
person's Scart and at their card, the strong bot's options listed with their points, the best
card outlined in the hand; none offered where people play together. Phone and desktop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_play_now import _play_now
from tests.browser.test_table import APP, act, click_card, shot, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


@pytest.mark.parametrize(("tag", "viewport"), [
    ("desktop", {"width": 1366, "height": 800}),
    ("phone", {"width": 390, "height": 844}),
])
def test_the_hint_lists_the_strong_bots_best_actions(browser: Any, site_server: str,
                                                     artifacts: Path, tag: str,
                                                     viewport: dict[str, int]) -> None:
    context = browser.new_context(viewport=viewport, locale="en", device_scale_factor=1,
                                  has_touch=tag == "phone", bypass_csp=True)
    errors: list[str] = []
    try:
        page = sign_up(context, site_server, f"hinta{tag}", "en")
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        _play_now(page, site_server, "easy")
        # Dealing has nothing to advise on: no button.
        assert page.locator("[data-action=hint]").count() == 0
        for _ in range(3):
            act(page, lambda: page.click("[data-action=deal]"))
        page.wait_for_function(f"document.querySelector('{APP}').dataset.phase === 'SCART'",
                               timeout=20000)
        page.click("[data-action=hint]")
        page.wait_for_selector(".hint-panel .hint-options li", timeout=15000)
        options = page.locator(".hint-panel .hint-options li")
        assert 1 <= options.count() <= 3
        assert "Scart" in options.first.inner_text()
        assert "points expected" in options.first.inner_text()
        shot(page, artifacts, f"hint-scart-{tag}")
        # The Scart made, the hint is gone; at the person's card the best one is outlined.
        allowed = page.locator(".hand button.card:not([aria-disabled=true])")
        click_card(allowed.nth(0))
        click_card(allowed.nth(1))
        act(page, lambda: page.click("[data-action=scart]"))
        assert page.locator(".hint-panel").is_hidden()
        page.wait_for_function(f"document.querySelector('{APP}').dataset.myturn === '1'",
                               timeout=30000)
        page.keyboard.press("h")
        page.wait_for_selector(".hint-panel .hint-options li", timeout=15000)
        best = page.locator(".hint-panel .hint-options li").first.get_attribute("data-choice")
        outlined = page.locator(".hand .card.hinted")
        assert outlined.count() == 1 and outlined.get_attribute("data-card") == best
        shot(page, artifacts, f"hint-play-{tag}")
        assert errors == []
    finally:
        context.close()

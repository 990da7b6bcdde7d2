"""Every lesson of the course played in a real browser, at a phone's and a desktop's size
(issue #28 item 6): the right moves found from the lesson's file (tests/teaching/
lesson_play.py) and made with the table's own buttons and cards; a wrong move and an illegal
card explained with the rule; the stars and the course's list at the end. Not signed in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.teaching import lessons
from games.teaching.lesson_files import lessons as all_lessons
from tests.browser.test_table import APP, click_card, shot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]


def _answers(page: Any) -> int:
    return int(page.locator(APP).get_attribute("data-answers") or 0)


def _answered(page: Any, before: int, do: Any) -> None:
    """Do it, and wait for the lesson's answer (a click made while the table still holds the
    last trick on show is not taken: it is made again)."""
    for _ in range(3):
        do()
        try:
            page.wait_for_function(
                f"Number(document.querySelector('{APP}').dataset.answers) > {before}",
                timeout=5000)
            return
        except Exception:  # noqa: BLE001, S112 - playwright's TimeoutError: try once more
            continue
    raise AssertionError(f"no answer at {page.locator(APP).get_attribute('data-step')}")


def _card(page: Any, card: str) -> Any:
    return page.locator(f".hand [data-card='{card}']")


def _make(page: Any, move: dict[str, Any]) -> None:
    before = _answers(page)
    kind = move["type"]
    if kind == "play_card":
        page.wait_for_function(f"document.querySelector('{APP}').dataset.myturn === '1'")
        _answered(page, before, lambda: click_card(_card(page, move["card"])))
    elif kind == "discard_scart":
        for card in move["cards"]:
            click_card(_card(page, card))
        _answered(page, before, lambda: page.click("[data-action=scart]"))
    elif kind == "call_buob":
        _answered(page, before, lambda: page.click("[data-action=buob]"))
    elif kind == "deal_next_pass":
        _answered(page, before, lambda: page.click("[data-action=deal]"))
    else:  # continue, next
        _answered(page, before, lambda: page.click(f"[data-lesson-action={kind}]"))
    verdict = page.locator("#lesson-feedback").get_attribute("data-verdict")
    assert verdict in ("right", ""), (move, page.locator("#lesson-feedback").inner_text())


@pytest.mark.parametrize(("tag", "viewport"), [
    ("desktop", {"width": 1366, "height": 800}),
    ("phone", {"width": 390, "height": 844}),
])
def test_every_lesson_is_completed_at_the_table(browser: Any, site_server: str,
                                                artifacts: Path, tag: str,
                                                viewport: dict[str, int]) -> None:
    context = browser.new_context(viewport=viewport, locale="en", device_scale_factor=1,
                                  has_touch=tag == "phone", bypass_csp=True)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{site_server}/en/")
        page.click("[data-learn]")
        page.click("[data-resume]")
        for found in all_lessons():
            page.wait_for_selector(f"{APP}[data-answers]")
            assert f"/learn/{found.slug}/" in page.url
            for scene in range(len(found.scenes)):
                for move in lessons.solve(found, scene):
                    _make(page, move)
                if scene + 1 < len(found.scenes):
                    _make(page, {"type": "next"})
            done = page.locator(".lesson-finished")
            assert done.get_attribute("data-stars") == "3"
            if found.number in (1, 8, 10):
                shot(page, artifacts, f"lesson-{found.number:02d}-{tag}")
            following = page.locator("[data-lesson-action=next-lesson]")
            if following.count():
                following.click()
        page.goto(f"{site_server}/en/learn/")
        assert page.locator("ol.lessons li[data-stars='3']").count() == len(all_lessons())
        assert errors == []
    finally:
        context.close()


def test_a_wrong_move_and_an_illegal_card_are_explained(browser: Any, site_server: str,
                                                        artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en",
                                  has_touch=True, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(f"{site_server}/en/learn/cards-and-counting/")
        page.wait_for_selector(f"{APP}[data-answers]")
        before = _answers(page)
        _answered(page, before, lambda: click_card(_card(page, "SN")))
        feedback = page.locator("#lesson-feedback")
        assert feedback.get_attribute("data-verdict") == "wrong"
        assert "cavalier counts 3" in feedback.inner_text()
        assert feedback.locator("a").get_attribute("href").endswith("/rules/#counting")
        assert _card(page, "SN").count() == 1  # taken back: try again
        page.goto(f"{site_server}/en/learn/follow-suit/")
        page.wait_for_selector(f"{APP}[data-answers]")
        before = _answers(page)
        _answered(page, before, lambda: click_card(_card(page, "T5")))
        assert feedback.get_attribute("data-verdict") == "illegal"
        text = feedback.inner_text()
        assert "7 of cups" in text and "king of cups" in text, text
        shot(page, artifacts, "lesson-illegal-phone")
    finally:
        context.close()

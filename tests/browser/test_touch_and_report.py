"""Touch targets and the talk report in a real browser (issue #24 item 14): every radio and
checkbox of the new-room form and the home page, and the talk's ⊘ and ⚑, is at least 44 px to
touch at 390×844 and 1366×800; a report asks for a reason (nothing is sent until one is
chosen) and carries it, with the optional note, to the server, which acknowledges it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_table import act, owner_anna_and_two_bots, shot, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SIZES = [("phone", {"width": 390, "height": 844}), ("desktop", {"width": 1366, "height": 800})]

# Each shown radio and checkbox with the largest box a finger can hit: its own or its label's.
TARGETS = """() => [...document.querySelectorAll('input[type=radio], input[type=checkbox]')]
  .filter((n) => n.checkVisibility() || [...n.labels].some((l) => l.checkVisibility()))
  .map((n) => { const boxes = [n, ...n.labels].map((e) => e.getBoundingClientRect());
    return {name: n.name, w: Math.max(...boxes.map((b) => b.width)),
            h: Math.max(...boxes.map((b) => b.height))}; })"""

BOXES = """(sel) => [...document.querySelectorAll(sel)].filter((n) => n.checkVisibility())
  .map((n) => { const b = n.getBoundingClientRect(); return {w: b.width, h: b.height}; })"""


def _small(targets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [t for t in targets if t["w"] < 44 or t["h"] < 44]


def _frames(into: list[dict[str, Any]]) -> Any:
    return lambda f: into.append(json.loads(f)) if f.startswith("{") else None


@pytest.mark.parametrize(("tag", "viewport"), SIZES, ids=[tag for tag, _ in SIZES])
def test_radios_and_checkboxes_are_44_px_to_touch(browser: Any, site_server: str, tag: str,
                                                  viewport: dict[str, int]) -> None:
    context = browser.new_context(viewport=viewport, locale="en", device_scale_factor=1,
                                  has_touch=tag == "phone", bypass_csp=True)
    try:
        page = sign_up(context, site_server, f"touch{tag}", "en")
        for path in ("/en/rooms/new/", "/en/"):
            page.goto(f"{site_server}{path}")
            targets = page.evaluate(TARGETS)
            assert targets, path
            assert _small(targets) == [], (path, _small(targets))
    finally:
        context.close()


def test_a_report_asks_for_a_reason(browser: Any, site_server: str, artifacts: Path) -> None:
    contexts = [browser.new_context(viewport={"width": 1366, "height": 800}, locale="en",
                                    device_scale_factor=1, bypass_csp=True) for _ in range(2)]
    try:
        owner = sign_up(contexts[0], site_server, "reporter", "en")
        anna = sign_up(contexts[1], site_server, "reported", "en")
        errors: list[str] = []
        sent: list[dict[str, Any]] = []
        received: list[dict[str, Any]] = []
        owner.on("pageerror", lambda exc: errors.append(str(exc)))

        def watch(ws: Any) -> None:
            ws.on("framesent", _frames(sent))
            ws.on("framereceived", _frames(received))

        owner.on("websocket", watch)
        owner_anna_and_two_bots(owner, anna, site_server)
        for _ in range(3):
            act(owner, lambda: owner.click("[data-action=deal]"))
        anna.fill("#talk-input", "buy cheap cards at example dot com")
        anna.press("#talk-input", "Enter")
        line = owner.locator("#talk-list-table .talk-line", has_text="buy cheap cards")
        line.wait_for(timeout=10000)
        for box in owner.evaluate(BOXES, "#talk .talk-actions button"):
            assert box["w"] >= 44 and box["h"] >= 44, box
        line.locator(".talk-report").click()
        form = line.locator(".talk-report-form")
        form.wait_for()
        assert form.locator("input[type=radio]").count() == 4
        # No reason chosen: the form asks for one and sends nothing.
        form.locator("button[type=submit]").click()
        assert [m for m in sent if m.get("type") == "report"] == []
        assert _small(owner.evaluate(TARGETS)) == []
        shot(owner, artifacts, "talk-report-reasons")
        form.get_by_label("spam or advertising").check()
        form.locator("input[name=note]").fill("the third time tonight")
        form.locator("button[type=submit]").click()
        owner.wait_for_function("() => !document.querySelector('.talk-report-form')")
        reports = [m for m in sent if m.get("type") == "report"]
        assert len(reports) == 1
        assert (reports[0]["reason"], reports[0]["note"]) == ("spam", "the third time tonight")
        assert line.locator(".talk-report").is_disabled()
        # The server stores it and acknowledges that very command.
        acks: list[dict[str, Any]] = []
        for _ in range(50):
            acks = [m for m in received if m.get("type") == "talk_ack"
                    and m.get("action_id") == reports[0]["action_id"]]
            if acks:
                break
            owner.wait_for_timeout(200)
        assert len(acks) == 1, received[-5:]
        assert [m for m in received if m.get("type") == "error"] == [] and errors == []
    finally:
        for context in contexts:
            context.close()

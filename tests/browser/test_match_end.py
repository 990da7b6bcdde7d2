"""The end of a match and the way back (issue #14 item 5), in real Chromium at a desktop
(1366×800) and a phone (390×844) size: a match of one deal (an open-ended room, ended by its
owner after the first deal: the shortest match there is) played quickly over websockets; the
match-over sheet lists the deal with its points, Bock, Narr debt and BUOB calls; its replay
link opens the replay, which draws the table's cards (not text chips) and steps by action, by
trick and by deal; and "same four again" starts a new match with the seats kept."""

from __future__ import annotations

import json
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_buob import (
    PLAYERS,
    Seat,
    choose,
    command,
    deal_and_scart,
    open_table,
    settle,
    who_may_call,
    words,
)
from tests.browser.test_table import APP, shot, wait_version

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]


def play_the_deal(seats: list[Seat]) -> bool:
    """Every card of the deal over the websockets, kings whose jack another player holds first,
    and the first BUOB call that will be accepted. Whether a call was made."""
    called = False
    while seats[0].view["phase"] == "PLAY":
        caller = who_may_call(seats)
        if caller is not None and not called:
            suits = seats[caller].view["buob"]["suits"]
            command(seats, seats[caller], "call_buob", suit=suits[0])
            called = True
            continue
        turn = seats[seats[0].view["turn"]]
        command(seats, turn, "play_card", card=choose(seats, turn))
    print(f"BUOB called: {called}")
    return called


def refused_code(seat: Seat, type_: str, **fields: Any) -> str:
    action_id = uuid.uuid4().hex
    seat.ws.send(json.dumps({"type": type_, "action_id": action_id,
                             "expected_version": seat.version, **fields}))
    while True:
        msg = seat.receive()
        if msg.get("action_id") == action_id:
            assert msg["type"] == "error", msg
            return str(msg["code"])


def check_replay(page: Any, language: str, called: bool, artifacts: Path, size: str) -> None:
    replay = "window.troccasReplay"
    page.wait_for_function(f"!!{replay}")
    assert page.evaluate(f"{replay}.index") == 0  # the deal starts: no card dealt yet
    page.focus("#replay")
    page.keyboard.press("ArrowRight")  # the first pass is dealt
    assert page.evaluate(f"{replay}.index") == 1
    cards = page.locator(".replay-table .card[data-card]")
    cards.first.wait_for()
    assert cards.count() > 0
    # Drawn as the table draws them: every card is an SVG with the sprite, no text chip.
    assert page.locator(".replay-table .card[data-card] svg use").count() >= cards.count()
    assert page.locator(".replay-table span.card").count() == 0
    page.keyboard.press("ArrowDown")  # to the end of the first trick
    first_end = page.evaluate(f"{replay}.trickEnds[0]")
    assert page.evaluate(f"{replay}.index") == first_end
    # Share a moment (issue #24 item 15): the address names the step, the button copies it.
    assert page.evaluate("location.hash") == "#d1t1"
    page.click("[data-copy-link]")
    page.wait_for_function("document.querySelector('.replay-copied').textContent !== ''")
    copied = page.locator(".replay-link")
    if copied.is_visible():  # the clipboard refused: the link is there to copy by hand
        assert copied.input_value().endswith("#d1t1")
    assert page.locator(".replay-trick .card[data-card]").count() == 4
    page.click("[data-go=next-trick]")
    assert page.evaluate(f"{replay}.index") == page.evaluate(f"{replay}.trickEnds[1]")
    page.keyboard.press("ArrowUp")
    assert page.evaluate(f"{replay}.index") == first_end
    page.focus("#replay")
    page.keyboard.press("PageDown")  # one deal: the next deal is none, so the last step
    assert page.evaluate(f"{replay}.index") == page.evaluate(f"{replay}.frames.length - 1")
    page.keyboard.press("PageUp")  # back to the deal's first step
    assert page.evaluate(f"{replay}.index") == 0
    page.click("[data-go=next-deal]")
    page.click("[data-go=prev-deal]")
    assert page.evaluate(f"{replay}.index") == 0
    if called:
        # The trick of the call: the call and what it did, in the table's words.
        page.evaluate(f"""() => {{ const r = {replay};
            r.show(r.frames.findIndex((f) => f.trick && f.trick.buob
                                      && f.trick.winner !== null)); }}""")
        note = page.locator(".replay-buob").inner_text()
        S = words(language)
        assert "undefined" not in note
        assert any(S[f"mode_{m}"] in note for m in ("forced", "deferred", "self")), note
    # A seat's perspective: the other hands are face down.
    page.evaluate(f"{replay}.show(1)")
    page.select_option(".replay-view", "2")
    assert page.locator(".replay-seat.seat-2 .hand .card[data-card]").count() > 0
    assert page.locator(".replay-seat.seat-0 .hand .card--back").count() == 1
    assert page.locator(".replay-seat.seat-0 .hand .card[data-card]").count() == 0
    shot(page, artifacts, f"match-end-replay-{size}-{language}")
    # A shared address opens that moment: deal 1, trick 2.
    page.evaluate("history.replaceState(null, '', '#d1t2')")
    page.reload()
    page.wait_for_function(f"!!{replay}")
    assert page.evaluate(f"{replay}.index") == page.evaluate(f"{replay}.trickEnds[1]")


def test_the_sheet_the_replay_and_same_four_again(browser: Any, site_server: str,
                                                  artifacts: Path) -> None:
    contexts, pages, code = open_table(browser, site_server)
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    languages = [language for _n, language, _t in PLAYERS]
    sizes = ["desktop" if i < 2 else "phone" for i in range(4)]
    stack = ExitStack()
    seats = [Seat(site_server, code, context, stack) for context in contexts]
    deal_and_scart(seats)
    called = play_the_deal(seats)
    latest = command(seats, seats[0], "end_match")
    view = seats[0].view
    assert view["phase"] == "MATCH_OVER"
    finished = view["match"]["id"]
    deal = view["match"]["deals"][0]
    assert len(view["match"]["deals"]) == 1

    # The sheet on every screen: the deal's points, Bock, Narr debt and BUOB calls.
    for page, language, size in zip(pages, languages, sizes, strict=True):
        wait_version(page, latest)
        row = page.locator(".match-deals tbody tr[data-deal]")
        row.first.wait_for()
        assert row.count() == 1
        cells = row.first.locator("td")
        for i in (0, 1):
            assert cells.nth(i).locator(".sheet-points").inner_text() == str(deal["points"][i])
            assert str(deal["running"][i]) in cells.nth(i).locator(".sheet-running").inner_text()
        S = words(language)
        assert cells.nth(2).inner_text() == (S["bock_double"] if deal["bock"] else "—")
        notes = page.locator(f".match-deals tr.sheet-notes[data-notes-for='{deal['number']}']")
        assert notes.locator(".sheet-narr").count() == (deal["narr_debt"] is not None)
        calls = notes.locator(".sheet-buob")
        assert calls.count() == len(deal["buob"])
        for i in range(calls.count()):
            text = calls.nth(i).inner_text()
            assert "undefined" not in text
            assert any(S[f"mode_{m}"] in text for m in ("forced", "deferred", "self")), text
        total = page.locator(".match-deals tr.total td").first.inner_text()
        assert total == str(view["totals"]["A"])
        assert page.locator("[data-action=same-four]").is_visible()
        shot(page, artifacts, f"match-end-sheet-{size}-{language}")
    assert called == bool(deal["buob"])
    # Figures (reported, not asserted): the match-over view's size with its deal list, and a
    # full rebuild of the table with the sheet on show.
    figures: dict[str, Any] = {
        "match_over_view_bytes": len(json.dumps(view, separators=(",", ":"))),
        "deals_bytes": len(json.dumps(view["match"]["deals"], separators=(",", ":"))),
        "rebuild_with_sheet_ms": {
            size: pages[i].evaluate("() => window.__troccasMetrics.bench(20)")
            for i, size in ((0, "desktop"), (2, "phone"))},
    }

    # The replay link, at a desktop size (a new tab) and on a phone.
    with contexts[1].expect_page() as opened:
        pages[1].click("[data-action=replay]")
    replay_desktop = opened.value
    replay_desktop.wait_for_load_state()
    assert replay_desktop.url.endswith(f"/matches/{finished}/")
    check_replay(replay_desktop, languages[1], called, artifacts, "desktop")
    figures["replay_frames"] = replay_desktop.evaluate("window.troccasReplay.frames.length")
    figures["replay_step_ms_mean"] = replay_desktop.evaluate("""() => {
        const r = window.troccasReplay, t0 = performance.now();
        for (let i = 0; i < r.frames.length; i++) r.show(i);
        return (performance.now() - t0) / r.frames.length; }""")
    href = pages[2].get_attribute("[data-action=replay]", "href")
    replay_phone = contexts[2].new_page()
    replay_phone.goto(f"{site_server}{href}")
    check_replay(replay_phone, languages[2], called, artifacts, "phone")
    for page in (replay_desktop, replay_phone):
        page.close()

    # Same four again, pressed on a phone: a new match, every seat where it was.
    before = [s.view["seat"] for s in seats]
    pages[3].click("[data-action=same-four]")
    for seat in seats:
        seat.until(lambda s=seat: s.view["phase"] == "DEALING")
    latest = max(s.version for s in seats)
    settle(seats, latest)
    assert [s.view["seat"] for s in seats] == before
    assert seats[0].view["match"]["id"] != finished
    assert seats[0].view["match"]["status"] == "running"
    for page, language, size in zip(pages, languages, sizes, strict=True):
        wait_version(page, latest)
        page.wait_for_selector(f"{APP}[data-phase=DEALING]")
        assert not page.locator(".match-deals").is_visible()
        shot(page, artifacts, f"match-end-same-four-{size}-{language}")
    # A second press for the finished match, a moment late: told the new match is on.
    assert refused_code(seats[1], "rematch", match=finished) == "NEW_MATCH_ALREADY_ON"
    (artifacts / "match-end-metrics.json").write_text(json.dumps(figures, indent=2))
    print(json.dumps(figures, indent=2))
    assert not errors, errors
    stack.close()

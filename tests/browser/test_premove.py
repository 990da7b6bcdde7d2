"""Choose your card early (issue #24 item 15) in real Chromium. Four players sit at a table;
the French player on a phone (seat 2) uses the page, the moves nobody looks at go over the
players' websockets (tests/browser/test_buob.py's Seat). The page's outgoing frames are
counted, so "played once" and "not played" are read off the wire:

- a card tapped while another player is on turn is marked as chosen early (aria-pressed, the
  first time with a line that says so), a tap on another card moves the choice, and the card
  is played by itself, once, when the turn comes;
- a choice cancelled (by keyboard: Enter twice) is not played, and said to screen readers;
- a choice that the card led makes illegal is dropped with a line, in the band, and nothing
  is sent;
- with "Play a single legal card by itself" ticked in the room's drawer (saved on the
  account), a turn with several legal cards waits for the player, and a turn with exactly one
  plays it by itself once the page's clock has run past the short moment in which it shows
  lifted.

Which card is legal when is worked out here from RULES.md §7 and the hands the players'
sockets see; no BUOB is called at this table, so no jack is ever forced."""

from __future__ import annotations

import re
from contextlib import ExitStack
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from games.text.cards import card_names
from tests.browser.test_buob import PLAYERS, Seat, command, next_deal, open_table, settle, words
from tests.browser.test_table import APP, act, click_card, shot, version, wait_version
from tests.browser.test_timer_and_refusal import RECORD_TOASTS, pattern, toasts

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

ME = 2  # the phone's seat
BEFORE = (ME + 3) % 4  # the seat whose card makes it my turn
LANGUAGE = PLAYERS[ME][1]
# Every play_card frame the page sends, kept in the page (read with `sent_plays`).
RECORD_PLAYS = """
window.__plays = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  try {
    const msg = JSON.parse(data);
    if (msg.type === "play_card") window.__plays.push(msg);
  } catch {}
  return send.call(this, data);
};
"""
# Long enough for a page that would wrongly play to have done so (its own play is sent at once
# when the turn comes, a single card after 0.6 s): the test's own wait, not the page's.
QUIET_SECONDS = 1.5


def suit_of(card: str) -> str | None:
    """A card's suit for following (RULES.md §2): C, R, S, B, T for trumps; none for the Narr."""
    return None if card == "NARR" else card[0]


def legal_for(hand: list[str], led: str | None) -> list[str]:
    """RULES.md §7's legal cards, for a seat that no BUOB forces."""
    if led is None:
        return list(hand)
    narr = [c for c in hand if c == "NARR"]
    follow = [c for c in hand if suit_of(c) == led]
    if follow:
        return follow + narr
    trumps = [c for c in hand if suit_of(c) == "T"]
    return trumps + narr if trumps else list(hand)


def led_after(view: dict[str, Any], card: str) -> str | None:
    """The suit led once `card` is added to the open trick."""
    trick = view.get("trick") or {}
    return trick.get("led") if trick.get("cards") and trick.get("led") else suit_of(card)


def until_before_me(seats: list[Seat]) -> None:
    """Play the first legal card of every seat until the seat before mine is on turn with a
    card of mine to follow in the same trick (my own turns too, over my socket), a new deal
    started if one ends."""
    settle(seats, max(s.version for s in seats))
    while True:
        view = seats[0].view
        if view["phase"] != "PLAY":
            next_deal(seats)
            continue
        # Not the trick's fourth card: its winner would lead next, not necessarily me.
        if view["turn"] == BEFORE and len((view.get("trick") or {}).get("cards", [])) < 3:
            return
        turn = seats[view["turn"]]
        command(seats, turn, "play_card", card=turn.view["legal_cards"][0])


def quiet(seat: Seat, seconds: float = QUIET_SECONDS) -> None:
    """Read whatever the socket receives for `seconds` (the test's wait, on its own clock)."""
    deadline = datetime.now() + timedelta(seconds=seconds)
    while (left := (deadline - datetime.now()).total_seconds()) > 0:
        try:
            seat.receive(timeout=left)
        except TimeoutError:
            return


def sent_plays(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("() => window.__plays"))


def card(page: Any, card_id: str) -> Any:
    return page.locator(f".hand .card[data-card='{card_id}']")


def pressed(page: Any, card_id: str) -> str | None:
    return card(page, card_id).get_attribute("aria-pressed")


def my_next_play(me: Seat, hand: list[str]) -> str:
    """Wait for a card of `hand` (my hand before) to leave my hand; the card."""
    me.until(lambda: len(me.view["hand"]) < len(hand))
    gone = [c for c in hand if c not in me.view["hand"]]
    assert len(gone) == 1, gone
    return gone[0]


def test_cards_chosen_early_and_the_single_legal_card(browser: Any, site_server: str,
                                                      artifacts: Path) -> None:
    base = site_server
    contexts, pages, code = open_table(browser, base)
    stack = ExitStack()
    errors: list[str] = []
    S = words(LANGUAGE)
    with translation.override(LANGUAGE):
        names = card_names()
    page = pages[ME]
    try:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(RECORD_TOASTS + RECORD_PLAYS)
        page.reload()
        page.wait_for_selector(f"{APP}[data-state=live]")
        seats = [Seat(base, code, context, stack) for context in contexts]
        me = seats[ME]

        # 1. Chosen early, moved to another card, played by itself when the turn comes.
        until_before_me(seats)
        wait_version(page, me.version)
        before = seats[BEFORE]
        lead = before.view["legal_cards"][0]
        legal = legal_for(me.view["hand"], led_after(before.view, lead))
        chosen = legal[0]
        other = next(c for c in me.view["hand"] if c != chosen)
        click_card(card(page, other))
        page.wait_for_function(
            f"document.querySelector(\".hand .card[data-card='{other}']\")"
            ".getAttribute('aria-pressed') === 'true'")
        # The first choice on this page says what it means, in the band of toasts.
        assert any(pattern(S["early_chosen"]).fullmatch(t) and names[other] in t
                   for t in toasts(page)), toasts(page)
        click_card(card(page, chosen))
        page.wait_for_function(
            f"document.querySelector(\".hand .card[data-card='{chosen}']\")"
            ".getAttribute('aria-pressed') === 'true'")
        assert pressed(page, other) == "false"
        assert "early" in (card(page, chosen).get_attribute("class") or "")
        assert page.locator(".hand .card[aria-pressed=true]").count() == 1
        shot(page, artifacts, "premove-chosen-phone")
        assert sent_plays(page) == []
        hand = list(me.view["hand"])
        latest = command(seats, before, "play_card", card=lead)
        assert my_next_play(me, hand) == chosen
        plays = sent_plays(page)
        assert len(plays) == 1 and plays[0]["card"] == chosen, plays
        # Sent at the version that made it my turn, with an action id of its own.
        assert plays[0]["expected_version"] == latest and plays[0]["action_id"]
        wait_version(page, me.version)
        assert card(page, chosen).count() == 0
        quiet(me)
        assert len(sent_plays(page)) == 1, sent_plays(page)

        # 2. Chosen and cancelled by keyboard: nothing is played when the turn comes.
        until_before_me(seats)
        wait_version(page, me.version)
        target = me.view["hand"][0]
        card(page, target).focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"document.querySelector(\".hand .card[data-card='{target}']\")"
            ".getAttribute('aria-pressed') === 'true'")
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"document.querySelector(\".hand .card[data-card='{target}']\")"
            ".getAttribute('aria-pressed') === 'false'")
        cancelled = S["early_cancelled"].replace("%(card)s", names[target])
        page.wait_for_function("(text) => document.getElementById('live').textContent"
                               ".includes(text)", arg=cancelled)
        sent_before = len(sent_plays(page))
        command(seats, before, "play_card", card=before.view["legal_cards"][0])
        quiet(me)
        assert me.view["turn"] == ME and len(sent_plays(page)) == sent_before, sent_plays(page)
        # The turn is still the player's: an ordinary tap plays.
        wait_version(page, me.version)
        act(page, lambda: click_card(
            page.locator(".hand button.card:not([aria-disabled=true])").first))
        settle(seats, version(page))
        assert len(sent_plays(page)) == sent_before + 1

        # 3. A choice the card led makes illegal is dropped, with a line in the band.
        for _attempt in range(40):
            until_before_me(seats)
            before = seats[BEFORE]
            pick = None
            for lead in before.view["legal_cards"]:
                legal = legal_for(me.view["hand"], led_after(before.view, lead))
                illegal = [c for c in me.view["hand"] if c not in legal]
                if illegal:
                    pick = (lead, illegal[0])
                    break
            if pick:
                break
            command(seats, before, "play_card", card=before.view["legal_cards"][0])
        else:  # pragma: no cover - every deal has a trick that leaves a card unfollowable
            pytest.fail("no trick made a card chosen early illegal")
        lead, doomed = pick
        wait_version(page, me.version)
        click_card(card(page, doomed))
        page.wait_for_function(
            f"document.querySelector(\".hand .card[data-card='{doomed}']\")"
            ".getAttribute('aria-pressed') === 'true'")
        sent_before = len(sent_plays(page))
        command(seats, before, "play_card", card=lead)
        page.wait_for_function("(text) => window.__toasts.includes(text)",
                               arg=S["early_dropped"])
        line = page.locator("#toasts .toast", has_text=S["early_dropped"])
        boxes = [line.bounding_box()] + [
            b for b in (el.bounding_box() for el in page.locator(
                "#table-app .trick .slot-card, #table-app .hand").all()) if b]
        first = boxes[0]
        assert first is not None
        for other_box in boxes[1:]:
            assert not overlaps(first, other_box), (first, other_box)
        shot(page, artifacts, "premove-dropped-phone")
        quiet(me)
        assert me.view["turn"] == ME and len(sent_plays(page)) == sent_before, sent_plays(page)
        assert doomed in me.view["hand"]
        wait_version(page, me.version)
        act(page, lambda: click_card(
            page.locator(".hand button.card:not([aria-disabled=true])").first))
        settle(seats, version(page))

        # 4. "Play a single legal card by itself", ticked in the drawer and saved.
        page.locator("#drawer-toggle").tap()
        box = page.locator("#play-single-card")
        with page.expect_response(re.compile(r"/preferences/single-card/$")) as answer:
            box.tap()
        assert answer.value.status == 200 and answer.value.json() == {"play_single_card": True}
        assert box.is_checked()
        page.locator("#drawer-close").tap()
        page.clock.install()
        several_checked = single_checked = False
        for _attempt in range(60):
            until_before_me(seats)
            before = seats[BEFORE]
            lead = before.view["legal_cards"][0]
            legal = legal_for(me.view["hand"], led_after(before.view, lead))
            wait_version(page, me.version)
            sent_before = len(sent_plays(page))
            if len(legal) > 1 and not several_checked:
                # Several legal cards: the page waits for the player.
                command(seats, before, "play_card", card=lead)
                quiet(me)
                assert me.view["turn"] == ME
                assert len(sent_plays(page)) == sent_before, sent_plays(page)
                assert page.locator(".hand .card.auto-play").count() == 0
                command(seats, me, "play_card", card=me.view["legal_cards"][0])
                several_checked = True
            elif len(legal) == 1 and not single_checked:
                # One legal card: lifted for a moment (the clock stands still), then played.
                page.clock.pause_at(datetime.now() + timedelta(seconds=2))
                hand = list(me.view["hand"])
                command(seats, before, "play_card", card=lead)
                wait_version(page, me.version)
                lifted = page.locator(f".hand .card.auto-play[data-card='{legal[0]}']")
                lifted.wait_for()
                shot(page, artifacts, "premove-single-card-phone")
                assert len(sent_plays(page)) == sent_before
                page.clock.run_for(1000)
                assert my_next_play(me, hand) == legal[0]
                plays = sent_plays(page)
                assert len(plays) == sent_before + 1 and plays[-1]["card"] == legal[0], plays
                page.clock.resume()
                quiet(me)
                assert len(sent_plays(page)) == sent_before + 1  # once, never again
                single_checked = True
            else:
                command(seats, before, "play_card", card=lead)
                command(seats, me, "play_card", card=me.view["legal_cards"][0])
            if several_checked and single_checked:
                break
        assert several_checked and single_checked
        assert errors == []
    finally:
        stack.close()
        for context in contexts:
            context.close()


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share more than a pixel's sliver."""
    return (min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 1
            and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 1)

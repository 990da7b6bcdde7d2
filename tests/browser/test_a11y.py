"""Accessibility (issue #14 item 8), in real Chromium with axe-core (the pinned npm package):

- every page of the site and every phase of the table, at a desktop and a phone size, has no
  critical and no serious violation;
- a whole trick is played by keyboard alone (Tab to the hand, arrow keys to a card, Enter to
  play it), and the polite live region tells a screen reader whose turn it is, the card each
  player played and who won the trick.

The moves nobody looks at go over websockets with the players' session cookies (the helpers of
test_buob.py), so each phase is reached in a few seconds."""

from __future__ import annotations

import re
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from games.text.table import ui_strings
from tests.browser.axe import assert_accessible, ensure_axe
from tests.browser.test_buob import DESKTOP, PHONE, Seat, command, deal_and_scart, settle
from tests.browser.test_table import (
    APP,
    PLAYERS,
    act,
    join_and_sit,
    shot,
    sign_up,
    wait_version,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SIZES = {"desktop": DESKTOP, "phone": PHONE}

# Records every text the live regions say (a screen reader hears each change once).
LIVE_LOG = """() => {
  window.__liveLog = [];
  for (const id of ['live', 'live-alert']) {
    const el = document.getElementById(id);
    // Each record's added text, not the region's text when the observer runs: two updates
    // in one turn of the event loop are both kept.
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (n.textContent) window.__liveLog.push([id, n.textContent]);
        }
      }
    }).observe(el, {childList: true});
  }
}"""


def check(page: Any, where: str, failures: list[str], artifacts: Path | None = None) -> None:
    """axe at both sizes on `page` as it is now; a failure is kept, so one run reports all."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        # The narrow layout redraws the hand on a media-query change: let it settle.
        page.wait_for_timeout(120)
        try:
            assert_accessible(page, f"{where} at {size}")
        except AssertionError as exc:
            failures.append(str(exc))
        if artifacts is not None:
            shot(page, artifacts, f"a11y-{where}-{size}")
    page.set_viewport_size(DESKTOP)


def open_room(owner: Any, base: str, name: str, reveal_seconds: int) -> str:
    """The owner opens a room of unlimited deals without a turn timer; its invite link."""
    owner.goto(f"{base}/en/rooms/new/")
    owner.fill("#id_name", name)
    owner.fill("#id_reveal_seconds", str(reveal_seconds))
    owner.fill("#id_turn_seconds", "0")
    owner.select_option("#id_match_deals", "0")
    owner.click(".room-form [type=submit]")
    owner.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
    owner.wait_for_selector(f"{APP}[data-state=live]")
    return owner.input_value("#invite-link")


def seat_four(browser: Any, base: str, stem: str, name: str, reveal_seconds: int
              ) -> tuple[list[Any], list[Any], str]:
    """Four players sign up; the owner opens a room and the others sit down by the invite
    link. The contexts, the pages and the room code."""
    contexts, pages = [], []
    for player, language, _team in PLAYERS:
        context = browser.new_context(viewport=DESKTOP, locale=language, bypass_csp=True)
        contexts.append(context)
        pages.append(sign_up(context, base, f"{stem}{player}", language))
    owner = pages[0]
    invite = open_room(owner, base, name, reveal_seconds)
    join_and_sit(pages[1:], invite)
    owner.wait_for_function("!document.querySelector('[data-action=start]').disabled")
    code = owner.url.rstrip("/").rsplit("/", 1)[-1]
    return contexts, pages, code


def test_every_page_and_every_phase_has_no_serious_violation(
        browser: Any, site_server: str, artifacts: Path) -> None:
    ensure_axe()
    base = site_server
    failures: list[str] = []
    contexts, pages, code = seat_four(browser, base, "x", "Stiva accessibla", 8)
    owner, anna = pages[0], pages[1]  # English and German
    check(owner, "lobby", failures, artifacts)
    latest = act(owner, lambda: owner.click("[data-action=start]"))
    stack = ExitStack()
    seats = [Seat(base, code, context, stack) for context in contexts]
    settle(seats, latest)
    check(owner, "dealing", failures, artifacts)

    # The owner deals; the reveal window (eight seconds) is checked while it is open.
    for _ in range(3):
        command(seats, seats[0], "deal_next_pass")
    for page in (owner, anna):
        page.wait_for_function(
            f"['REVEAL','SCART'].includes(document.querySelector('{APP}').dataset.phase)")
    if owner.locator(APP).get_attribute("data-phase") == "REVEAL":
        check(owner, "reveal", failures, artifacts)
    for seat in seats:
        seat.until(lambda s=seat: s.view["phase"] == "SCART")
    wait_version(owner, seats[0].version)
    check(owner, "scart", failures, artifacts)
    # The dealer (the owner) selects two cards in the page, as a player would.
    allowed = owner.locator(".hand button.card:not([aria-disabled=true])")
    allowed.nth(0).click(position={"x": 6, "y": 36})
    allowed.nth(1).click(position={"x": 6, "y": 36})
    check(owner, "scart-selected", failures)
    latest = act(owner, lambda: owner.click("[data-action=scart]"))
    settle(seats, latest)

    # Play: the first trick half played (anna waits, the owner sees legal and illegal cards).
    plays = 0
    while seats[0].view["phase"] == "PLAY":
        turn = seats[seats[0].view["turn"]]
        latest = command(seats, turn, "play_card", card=turn.view["legal_cards"][0])
        plays += 1
        if plays == 6:
            for page in (owner, anna):
                wait_version(page, latest)
            check(owner, "play", failures, artifacts)
            check(anna, "play-waiting", failures)
            owner.click("[data-action=last-trick]")
            owner.locator(".last-trick").wait_for()
            check(owner, "last-trick", failures)
            owner.keyboard.press("Escape")
            owner.keyboard.press("?")
            owner.locator("#help-pop").wait_for()
            check(owner, "help", failures)
            owner.keyboard.press("Escape")
    assert seats[0].view["phase"] == "ROUND_OVER"
    for page in (owner, anna):
        wait_version(page, latest)
        page.locator(".overlay .sheet").wait_for()
    check(owner, "round-over", failures, artifacts)
    check(anna, "round-over-de", failures)
    latest = command(seats, seats[0], "end_match")
    for page in (owner, anna):
        wait_version(page, latest)
        page.locator(".overlay .sheet").wait_for()
    check(owner, "match-over", failures, artifacts)
    stack.close()

    # The site's pages, for the signed-in owner and for a visitor.
    owner.goto(f"{base}/en/matches/")
    match_link = owner.locator("main a[href*='/matches/']").first.get_attribute("href")
    assert match_link, "the finished match is listed"
    signed_in = ["/en/", "/en/rooms/new/", "/de/accounts/profile/", "/en/matches/",
                 match_link, "/en/standings/", "/rm/rules/", "/fr/rules/bock/", "/en/faq/",
                 "/de/no-such-page/", f"/en/rooms/{code}/"]
    for path in signed_in:
        owner.goto(f"{base}{path}")
        owner.wait_for_load_state("load")
        if path == match_link:
            # The replay draws the deal once its JSON arrived.
            owner.wait_for_load_state("networkidle")
        check(owner, f"page {path}", failures)
    visitor = browser.new_context(viewport=DESKTOP, locale="rm", bypass_csp=True)
    contexts.append(visitor)
    page = visitor.new_page()
    for path in ("/rm/", "/rm/accounts/signup/", "/rm/accounts/login/", "/fr/rules/",
                 "/en/accounts/password/reset/", "/rm/no-such-page/"):
        page.goto(f"{base}{path}")
        page.wait_for_load_state("load")
        check(page, f"visitor page {path}", failures)
    for context in contexts:
        context.close()
    assert not failures, "\n\n".join(failures)


def test_a_trick_played_by_keyboard_is_announced(browser: Any, site_server: str) -> None:
    ensure_axe()
    base = site_server
    contexts, pages, code = seat_four(browser, base, "k", "Stiva da tastas", 2)
    owner = pages[0]
    latest = act(owner, lambda: owner.click("[data-action=start]"))
    stack = ExitStack()
    seats = [Seat(base, code, context, stack) for context in contexts]
    settle(seats, latest)
    deal_and_scart(seats)
    # Anna (seat 1, German) leads the first trick: she plays by keyboard, the others by socket.
    anna = pages[1]
    assert seats[0].view["turn"] == 1
    wait_version(anna, seats[0].version)
    anna.evaluate(LIVE_LOG)
    with translation.override("de"):
        S = ui_strings()

    # Tab from the top of the page until the focus is on a card of the hand.
    anna.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(60):
        anna.keyboard.press("Tab")
        if anna.evaluate("() => !!document.activeElement.closest('.hand .card')"):
            break
    else:
        pytest.fail("Tab never reached the hand")
    focused = "() => document.activeElement.dataset.card"
    first = anna.evaluate(focused)
    anna.keyboard.press("ArrowRight")
    second = anna.evaluate(focused)
    assert second != first, "the arrow key moves through the hand"
    anna.keyboard.press("ArrowLeft")
    assert anna.evaluate(focused) == first
    legal = seats[1].view["legal_cards"]
    for _ in range(20):
        if anna.evaluate(focused) in legal:
            break
        anna.keyboard.press("ArrowRight")
    card = anna.evaluate(focused)
    assert card in legal
    names = anna.evaluate("() => JSON.parse(document.getElementById('card-names').textContent)")
    # The card button is named by the card's full name alone (the drawing is aria-hidden).
    assert anna.get_by_role("button", name=names[card], exact=True).count() == 1
    latest = act(anna, lambda: anna.keyboard.press("Enter"))
    settle(seats, latest)
    assert card not in seats[1].view["hand"]
    played = {1: card}

    # Out of turn, Space chooses the focused card early (issue #24 item 15): a toggle that is
    # pressed, said politely with the card's name; Space again cancels it. Nothing is sent.
    assert anna.evaluate("() => !!document.activeElement.closest('.hand .card')"), \
        "the focus stays in the hand after a play"
    early = anna.evaluate(focused)
    anna.keyboard.press("Space")
    anna.wait_for_function("() => document.activeElement.getAttribute('aria-pressed') === 'true'")
    assert anna.evaluate(focused) == early, "the focus stays on the chosen card"
    chosen = S["early_chosen"] % {"card": names[early]}
    said = "t => window.__liveLog.some(([r, text]) => r === 'live' && text.includes(t))"
    anna.wait_for_function(said, arg=chosen)
    anna.keyboard.press("Space")
    anna.wait_for_function("() => document.activeElement.getAttribute('aria-pressed') === 'false'")
    cancelled = S["early_cancelled"] % {"card": names[early]}
    anna.wait_for_function(said, arg=cancelled)
    assert not [text for region, text in anna.evaluate("() => window.__liveLog")
                if region == "live-alert"]
    assert int(anna.locator(APP).get_attribute("data-version") or -1) == latest

    # The other three play; the live region said every card, whose turn, and the winner.
    while seats[0].view["tricks_played"] == 0:
        turn = seats[seats[0].view["turn"]]
        pick = turn.view["legal_cards"][0]
        played[turn.view["seat"]] = pick
        latest = command(seats, turn, "play_card", card=pick)
        # At a person's pace: each play reaches anna's page before the next one is made.
        wait_version(anna, latest)
    seat_names = {s["index"]: s["player"]["name"] for s in seats[0].view["seats"]}

    def shown(seat: int) -> str:
        """A seat's name as anna's page says it (her own with "(du)")."""
        return f"{seat_names[seat]} ({S['you']})" if seat == 1 else seat_names[seat]

    winner = seats[0].view["last_trick"]["winner"]
    won = S["trick_won_by"] % {"name": shown(winner)}
    anna.wait_for_function("won => window.__liveLog.some(([, text]) => text.includes(won))",
                           arg=won)
    said = " ".join(text for region, text in anna.evaluate("() => window.__liveLog")
                    if region == "live")
    for seat, pick in played.items():
        assert S["played"] % {"name": shown(seat), "card": names[pick]} in said, said
    for seat in (2, 3, 0):
        assert S["turn_of"] % {"name": shown(seat)} in said, said
    assert said.index(S["played"] % {"name": shown(1), "card": names[card]}) < said.index(won)
    assert_accessible(anna, "the table after a keyboard trick")
    stack.close()
    for context in contexts:
        context.close()

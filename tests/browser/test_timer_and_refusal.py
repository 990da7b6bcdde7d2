"""Two table events a player only sees happen to others (issue #14 items 1 and 3), and a card
the rules refuse (issue #23 item 5), in real Chromium at a phone and a desktop size:

- a card a player may not play says why, in their language, naming the cards of their own hand
  the rule asks for ("You hold … : follow cups."): the view's refusal, on the card and in the
  toast a click on it shows, and nothing is sent;
- a seated player walks away and the turn timer plays for them: the others' pages say, in their
  own language, which card the timer played for whom (never a silent jump);
- a BUOB call refused because of where a jack lies is public (RULES §8): a spectator's page
  says so, and no seat is offered that suit again in the trick.

The moves nobody looks at go over websockets with the players' session cookies (test_buob's
`Seat`). Every toast a page shows is recorded by an init script, since toasts leave after
five seconds."""

from __future__ import annotations

import json
import re
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from games.text.cards import card_names
from tests.browser.test_buob import Seat, command, deal_and_scart, holder, next_deal, settle, words
from tests.browser.test_table import (
    APP,
    PLAYERS,
    act,
    click_card,
    join_and_sit,
    shot,
    sign_up,
    version,
    wait_version,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
TURN_SECONDS = 15  # the shortest turn timer a room may have (games/engine/options.py)
MAX_DEALS = 12

# Every toast's text, kept after the toast itself has gone.
RECORD_TOASTS = """
window.__toasts = [];
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n instanceof HTMLElement && n.classList.contains("toast")) {
      window.__toasts.push(n.textContent);
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


def pattern(template: str) -> re.Pattern[str]:
    """A ui_strings sentence with its %(name)s fields as wildcards."""
    parts = re.split(r"%\(\w+\)s", template)
    return re.compile(".+?".join(re.escape(p) for p in parts))


def shown(seat: int) -> str:
    """The display name `open_room` gave the player of `seat` (sign_up capitalizes it)."""
    return f"t{PLAYERS[seat][0]}".capitalize()


def toasts(page: Any) -> list[str]:
    return list(page.evaluate("() => window.__toasts"))


def wait_toast(page: Any, template: str, timeout: float = 20000) -> str:
    rx = pattern(template)
    page.wait_for_function("(src) => window.__toasts.some(t => new RegExp(src).test(t))",
                           arg=rx.pattern, timeout=timeout)
    return next(t for t in toasts(page) if rx.search(t))


def refusal_sentence(view: dict[str, Any], language: str) -> str:
    """What the page says of the view's refusal (static/js/views/hand.js `refusalText`), put
    together here from the same words: the code's sentence, the named cards' names, the suit."""
    S = words(language)
    with translation.override(language):
        names = card_names()
    r = view["refusal"]
    named = [names[c] for c in r["cards"]]
    cards = (S["cards_and"] % {"cards": ", ".join(named[:-1]), "last": named[-1]}
             if len(named) > 1 else "".join(named))
    text = S[f"refusal_{r['code']}"] % {"cards": cards,
                                         "suit": S[f"suit_{r['suit']}"] if r["suit"] else ""}
    if r["cards"] and "NARR" in view["legal_cards"]:
        text += " " + S["refusal_narr"]
    return text


def check_refused_card(pages: list[Any], seats: list[Seat], artifacts: Path) -> bool:
    """If a player with a page (seat 0, desktop, or seat 2, phone) is on turn and holds cards
    the rule refuses: the card and a click on it say why, naming that player's cards; a
    waiting player's card says it is not their turn. Whether it was checked."""
    turn = seats[0].view["turn"]
    if turn not in (0, 2):
        return False
    view = seats[turn].view
    refusal = view["refusal"]
    if refusal is None or not refusal["cards"]:
        return False
    page, language = pages[turn], PLAYERS[turn][1]
    wait_version(page, seats[turn].version)
    expected = refusal_sentence(view, language)
    with translation.override(language):
        names = card_names()
    for card in refusal["cards"]:
        assert names[card] in expected and card in view["hand"], (card, expected)
    refused = next(c for c in view["hand"] if c not in view["legal_cards"])
    card = page.locator(f".hand .card[data-card='{refused}']")
    assert card.get_attribute("data-reason") == expected
    before = version(page)
    click_card(card)
    assert wait_toast(page, expected) == expected
    assert version(page) == before  # nothing was sent, nothing changed
    shot(page, artifacts, f"refused-card-{'phone' if turn == 2 else 'desktop'}")
    other = 2 - turn
    wait_version(pages[other], seats[turn].version)
    waiting = pages[other].locator(".hand .card").first.get_attribute("data-reason")
    assert waiting == words(PLAYERS[other][1])["refusal_NOT_YOUR_TURN"], waiting
    return True


def open_room(browser: Any, base: str, turn_seconds: int) -> tuple[list[Any], list[Any], str]:
    """Four players sign up and sit; seat 0 (desktop) and seat 2 (phone) keep their pages."""
    contexts, pages = [], []
    for i, (name, language, _team) in enumerate(PLAYERS):
        context = browser.new_context(viewport=PHONE if i == 2 else DESKTOP, locale=language,
                                      has_touch=i == 2, bypass_csp=True)
        context.add_init_script(RECORD_TOASTS)
        contexts.append(context)
        pages.append(sign_up(context, base, f"t{name}", language))
    owner = pages[0]
    owner.goto(f"{base}/en/rooms/new/")
    owner.fill("#id_name", "Stiva dil temps")
    owner.fill("#id_reveal_seconds", "2")
    owner.fill("#id_turn_seconds", str(turn_seconds))
    owner.select_option("#id_match_deals", "0")
    owner.click(".room-form [type=submit]")
    owner.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
    owner.wait_for_selector(f"{APP}[data-state=live]")
    code = owner.url.rstrip("/").rsplit("/", 1)[-1]
    join_and_sit(pages[1:], owner.input_value("#invite-link"))
    owner.wait_for_function("!document.querySelector('[data-action=start]').disabled")
    latest = act(owner, lambda: owner.click("[data-action=start]"))
    for page in pages:
        wait_version(page, latest)
    return contexts, pages, code


def test_the_turn_timer_plays_for_an_absent_player_and_says_so(
        browser: Any, site_server: str, artifacts: Path) -> None:
    contexts, pages, code = open_room(browser, site_server, TURN_SECONDS)
    stack = ExitStack()
    seats = [Seat(site_server, code, context, stack) for context in contexts]
    deal_and_scart(seats)
    # First a card the rule refuses, shown on a page whose player is on turn.
    for _ in range(24):
        if check_refused_card(pages, seats, artifacts):
            break
        turn = seats[seats[0].view["turn"]]
        command(seats, turn, "play_card", card=turn.view["legal_cards"][0])
    else:
        raise AssertionError("no page's player was refused a card in 24 plays")
    # Play until seat 1 or seat 3 (who have no page to look at) is to play: then that player
    # closes everything and walks away.
    while seats[0].view["turn"] not in (1, 3):
        turn = seats[seats[0].view["turn"]]
        command(seats, turn, "play_card", card=turn.view["legal_cards"][0])
    absent = seats[0].view["turn"]
    hand_before = len(seats[absent].view["hand"])
    pages[absent].close()
    seats[absent].ws.close()
    watchers = [seats[0], seats[2]]
    before = max(s.version for s in watchers)
    # The timer's move arrives as a new version within the turn time (plus the sweep's slack).
    for seat in watchers:
        seat.until(lambda s=seat: s.view["hand_counts"][absent] < hand_before,
                   timeout=TURN_SECONDS + 20)
        assert seat.version > before
    assert seats[0].view["hand_counts"][absent] == hand_before - 1
    for i in (0, 2):
        S = words(PLAYERS[i][1])
        said = wait_toast(pages[i], S["auto_played"])
        assert shown(absent) in said, said
        assert "undefined" not in said and "%(" not in said, said
        shot(pages[i], artifacts, f"timer-played-{'phone' if i == 2 else 'desktop'}")
    stack.close()
    for context in contexts:
        context.close()


def refusable(seats: list[Seat]) -> tuple[int, str] | None:
    """A seat offered a BUOB on a suit whose call will be refused for where its jack lies (with
    the king's player, or out of play in the Scart): every hand is known here, not to players."""
    trick = seats[0].view.get("trick") or {}
    kings = {card[0]: seat for seat, card in trick.get("cards", []) if card.endswith("K")}
    for seat in seats:
        for suit in (seat.view.get("buob") or {}).get("suits", []):
            if holder(seats, f"{suit}J") in (None, kings.get(suit)):
                return int(seat.view["seat"]), suit
    return None


def steer(seats: list[Seat], turn: Seat) -> str:
    """A legal king whose jack its own player holds or nobody does (a refusal to come), else
    the first legal card."""
    legal = turn.view["legal_cards"]
    kings = [c for c in legal if c.endswith("K")
             and holder(seats, f"{c[0]}J") in (None, turn.view["seat"])]
    return (kings or legal)[0]


def send_raw(seat: Seat, type_: str, **fields: Any) -> dict[str, Any]:
    """One command; the server's answer to it (an ack or an error)."""
    action_id = uuid.uuid4().hex
    seat.ws.send(json.dumps({"type": type_, "action_id": action_id,
                             "expected_version": seat.version, **fields}))
    while True:
        msg = seat.receive()
        if msg.get("action_id") == action_id:
            return msg


def test_a_spectator_is_told_of_a_refused_buob_call(browser: Any, site_server: str,
                                                    artifacts: Path) -> None:
    contexts, pages, code = open_room(browser, site_server, 0)
    watcher_context = browser.new_context(viewport=PHONE, locale="de", has_touch=True,
                                          bypass_csp=True)
    watcher_context.add_init_script(RECORD_TOASTS)
    watcher = sign_up(watcher_context, site_server, "tzuschauer", "de")
    watcher.goto(f"{site_server}/de/rooms/{code}/")
    watcher.wait_for_selector(f"{APP}[data-state=live]")
    stack = ExitStack()
    seats = [Seat(site_server, code, context, stack) for context in contexts]
    deal_and_scart(seats)
    found = None
    for deal in range(MAX_DEALS):
        if deal:
            next_deal(seats)
        while seats[0].view["phase"] == "PLAY":
            found = refusable(seats)
            if found is not None:
                break
            turn = seats[seats[0].view["turn"]]
            command(seats, turn, "play_card", card=steer(seats, turn))
        if found is not None:
            break
    if found is None:
        pytest.skip(f"no refusable BUOB call came up in {MAX_DEALS} deals")
    caller, suit = found
    before = max(s.version for s in seats)
    answer = send_raw(seats[caller], "call_buob", suit=suit)
    assert answer["type"] == "error", answer
    # The refusal is a fact of the table: a new version for everyone, the suit no longer offered.
    latest = before + 1
    settle(seats, latest)
    for seat in seats:
        assert suit not in (seat.view.get("buob") or {}).get("suits", []), seat.view["buob"]
    wait_version(watcher, latest)
    S = words("de")
    said = wait_toast(watcher, S["buob_refused_suit"])
    assert S[f"suit_{suit}"] in said and "undefined" not in said, said
    # The sentence says who called and on what, never where the jack lies.
    assert shown(caller) in said, said
    for other in range(4):
        if other != caller:
            assert shown(other) not in said, said
    shot(watcher, artifacts, "buob-refused-spectator-phone")
    stack.close()
    for context in [*contexts, watcher_context]:
        context.close()

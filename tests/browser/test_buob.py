"""BUOB you can follow (issue #14 item 1), in real Chromium at a desktop and a phone size: four
players play through the page until a BUOB call is accepted; the call names its mode in words
in each player's language (never "undefined"), and the trick's note says what the call did (the
card that went back and the jack that came in) while the trick is held and in the last-trick
panel. The moves nobody looks at go over websockets with the players' session cookies: a seat
with a king whose jack another player holds plays it, and the call is made through the page of
a seat that may make it as soon as there is one (nearly always in the first deal; Regame, up to
MAX_DEALS deals, else a skip)."""

from __future__ import annotations

import json
import re
import uuid
from contextlib import ExitStack
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from websockets.sync.client import connect

from games.engine.state import BuobMode
from games.text.table import ui_strings
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

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
# Deals played (over the websocket, quickly) until some seat may call BUOB.
MAX_DEALS = 12


def words(language: str) -> dict[str, str]:
    with translation.override(language):
        return ui_strings()


def open_table(browser: Any, base: str,
               reveal_seconds: int = 2) -> tuple[list[Any], list[Any], str]:
    """Four players sign up and sit down through the page; the owner starts. The room code."""
    contexts, pages = [], []
    for i, (name, language, _team) in enumerate(PLAYERS):
        # Seats 0 and 1 at a desktop size, 2 and 3 on phones.
        context = browser.new_context(viewport=DESKTOP if i < 2 else PHONE, locale=language,
                                      has_touch=i >= 2, bypass_csp=True)
        contexts.append(context)
        pages.append(sign_up(context, base, f"b{name}", language))
    owner = pages[0]
    owner.goto(f"{base}/en/")
    owner.click("a.button[href$='/rooms/new/']")
    owner.fill("#id_name", "Stiva da BUOB")
    owner.fill("#id_reveal_seconds", str(reveal_seconds))
    owner.select_option("#id_match_deals", "0")
    owner.click(".room-form [type=submit]")
    owner.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
    owner.wait_for_selector(f"{APP}[data-state=live]")
    code = owner.url.rstrip("/").rsplit("/", 1)[-1]
    invite = owner.input_value("#invite-link")
    join_and_sit(pages[1:], invite)
    owner.wait_for_function("!document.querySelector('[data-action=start]').disabled")
    latest = act(owner, lambda: owner.click("[data-action=start]"))
    for page in pages:
        wait_version(page, latest)
    return contexts, pages, code


class Seat:
    """A second tab of a signed-in player: a websocket to the live server with the context's
    session cookie, which plays the moves the test does not look at."""

    def __init__(self, base: str, code: str, context: Any, stack: ExitStack) -> None:
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in context.cookies(base))
        url = f"ws{base.removeprefix('http')}/ws/rooms/{code}/?protocol=2"
        self.ws = stack.enter_context(connect(url, origin=base, open_timeout=10,
                                              additional_headers={"Cookie": cookie}))
        self.version = -1
        self.view: dict[str, Any] = {}
        self.until(lambda: self.version >= 0)

    def receive(self, timeout: float = 15) -> dict[str, Any]:
        msg = json.loads(self.ws.recv(timeout=timeout))
        if msg["type"] == "state" and msg["version"] >= self.version:
            self.version, self.view = msg["version"], msg["view"]
        return msg

    def until(self, done: Any, timeout: float = 15) -> None:
        while not done():
            self.receive(timeout)

    def send(self, type_: str, **fields: Any) -> int:
        """One command at the current version; the version it made."""
        action_id = uuid.uuid4().hex
        self.ws.send(json.dumps({"type": type_, "action_id": action_id,
                                 "expected_version": self.version, **fields}))
        while True:
            msg = self.receive()
            if msg.get("action_id") == action_id:
                assert msg["type"] == "ack", msg
                return int(msg["version"])


def settle(seats: list[Seat], at_least: int) -> None:
    for seat in seats:
        seat.until(lambda s=seat: s.version >= at_least)


def command(seats: list[Seat], seat: Seat, type_: str, **fields: Any) -> int:
    latest = seat.send(type_, **fields)
    settle(seats, latest)
    return latest


def deal_and_scart(seats: list[Seat]) -> None:
    """The dealer deals three passes, the reveal window closes by itself, the dealer discards."""
    dealer = seats[seats[0].view["dealer"]]
    for _ in range(3):
        command(seats, dealer, "deal_next_pass")
    for seat in seats:
        seat.until(lambda s=seat: s.view["phase"] == "SCART")
    command(seats, dealer, "discard_scart", cards=dealer.view["actions"]["scart_allowed"][:2])


def next_deal(seats: list[Seat]) -> None:
    phase_now = seats[0].view["phase"]
    if phase_now == "ROUND_OVER":
        command(seats, seats[0], "regame")
    elif phase_now == "MATCH_OVER":  # pragma: no cover - the room plays unlimited deals
        command(seats, seats[0], "new_match")
        command(seats, seats[0], "start_round")
    deal_and_scart(seats)


def holder(seats: list[Seat], card: str) -> int | None:
    return next((s.view["seat"] for s in seats if card in s.view["hand"]), None)


def choose(seats: list[Seat], turn: Seat) -> str:
    """A legal king whose jack another player holds (a BUOB to come), else the first legal
    card."""
    legal = turn.view["legal_cards"]
    kings = [c for c in legal if c.endswith("K")
             and holder(seats, f"{c[0]}J") not in (None, turn.view["seat"])]
    return (kings or legal)[0]


def who_may_call(seats: list[Seat]) -> int | None:
    """A seat whose view offers a BUOB that will be accepted: the king on the table has its
    jack in another player's hand (every hand is known here, not to the players)."""
    trick = seats[0].view.get("trick") or {}
    kings = {card[0]: seat for seat, card in trick.get("cards", []) if card.endswith("K")}
    for seat in seats:
        for suit in (seat.view.get("buob") or {}).get("suits", []):
            if holder(seats, f"{suit}J") not in (None, kings.get(suit)):
                return int(seat.view["seat"])
    return None


def call_in_page(page: Any, latest: int) -> int:
    """The player who may call BUOB calls it through the page; the version it made."""
    wait_version(page, latest)
    button = page.locator("[data-action=buob]").first
    button.wait_for()
    button.click()
    suit = page.locator(".buob-menu [data-suit]")
    if suit.count():
        suit.first.click()
    wait_version(page, latest + 1)
    return version(page)


def test_a_buob_call_and_its_exchange_are_shown_in_words(browser: Any, site_server: str,
                                                         artifacts: Path) -> None:
    contexts, pages, code = open_table(browser, site_server)
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    languages = [language for _n, language, _t in PLAYERS]
    sizes = ["desktop" if i < 2 else "phone" for i in range(4)]
    stack = ExitStack()
    seats = [Seat(site_server, code, context, stack) for context in contexts]
    assert [s.view["seat"] for s in seats] == [0, 1, 2, 3]
    deal_and_scart(seats)
    caller = None
    for deal in range(MAX_DEALS):
        if deal:
            next_deal(seats)
        while seats[0].view["phase"] == "PLAY":
            caller = who_may_call(seats)
            if caller is not None:
                break
            turn = seats[seats[0].view["turn"]]
            command(seats, turn, "play_card", card=choose(seats, turn))
        if caller is not None:
            print(f"BUOB in deal {deal + 1}")
            break
    if caller is None:
        pytest.skip(f"no seat could call BUOB in {MAX_DEALS} deals")

    # The call, made through the page, named in words on every screen.
    latest = call_in_page(pages[caller], max(s.version for s in seats))
    settle(seats, latest)
    for page, language, size in zip(pages, languages, sizes, strict=True):
        wait_version(page, latest)
        note = page.locator(".buob-call").inner_text()
        S = words(language)
        assert "undefined" not in note, note
        assert any(S[f"mode_{m.value}"] in note for m in BuobMode), note
        shot(page, artifacts, f"buob-called-{size}-{language}")

    # The rest of the trick; its last card is played through the page.
    while len(seats[0].view["trick"]["cards"]) < 3:
        turn = seats[seats[0].view["turn"]]
        latest = command(seats, turn, "play_card", card=turn.view["legal_cards"][0])
    last = pages[seats[0].view["turn"]]
    wait_version(last, latest)
    # The pages' clocks stop, so the held trick stays on show for the screenshots.
    for page in pages:
        page.clock.install()
        page.clock.pause_at(datetime.now() + timedelta(seconds=1))
    legal = last.locator(".hand button.card:not([aria-disabled=true])")
    latest = act(last, lambda: click_card(legal.first))

    # The held trick: the call and what it did, on every screen .
    held_texts = []
    for page in pages:
        wait_version(page, latest)
        held = page.locator(".buob-call .buob-exchange")
        held.wait_for(timeout=3000)
        held_texts.append((held.inner_text(), page.locator(".buob-call").inner_text()))
    for i, (held, note) in enumerate(held_texts):
        assert held and "undefined" not in held, held
        S = words(languages[i])
        assert any(S[f"mode_{m.value}"] in note for m in BuobMode), note
    for i, page in enumerate(pages):
        shot(page, artifacts, f"buob-held-{sizes[i]}-{languages[i]}")
        page.clock.resume()

    # And in the last-trick panel.
    for page, language, size in zip(pages, languages, sizes, strict=True):
        page.click("[data-action=last-trick]")
        panel = page.locator(".last-trick .last-buob")
        panel.wait_for()
        assert "undefined" not in panel.inner_text()
        assert page.locator(".last-trick .last-buob .buob-exchange").inner_text()
        shot(page, artifacts, f"buob-last-trick-{size}-{language}")
        page.keyboard.press("Escape")
    assert not errors, errors
    stack.close()
    for context in contexts:
        context.close()

"""The table's feel (issue #14 item 6, and the help of item 4) in real Chromium, with two
players at 1366×800 and two on phones at 390×844 (PLAYERS: en, de desktop; fr, rm phone):

- "Your turn" in the tab's title and a badge favicon while it is a seat's turn to act (the
  dealer's pass, a card to play), and back when it is not; a spectator's tab never changes;
- the quiet sounds are off by default, the switch in the "?" menu saves the choice on the
  account, it survives a reload and then the turn, and a trick won by the player's team, are
  heard (AudioContext is stubbed in the page to count the notes played; nothing is heard where
  the sounds are off);
- with reduced motion emulated nothing on the table animates or transitions, while the same
  table without it does;
- a completed trick on show is gathered by a click (desktop) or a tap (phone) at once: the
  pages' clocks are paused, so only the tap can end the hold;
- the help shows the suit led, must-trump, BUOB and the Narr with links that land on the rules
  page's sections, lists the hand's keys to players and none of them to a spectator.

The moves nobody looks at go over websockets (tests/browser/test_buob.py `Seat`). Screenshots
go to artifacts/screenshots/."""

from __future__ import annotations

import re
from contextlib import ExitStack
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_buob import PLAYERS, Seat, command, deal_and_scart, open_table, words
from tests.browser.test_table import APP, shot, sign_up, wait_version

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

SIZES = ["desktop", "desktop", "phone", "phone"]
LANGUAGES = [language for _n, language, _t in PLAYERS]

# A stand-in for the Web Audio API that counts the notes the page starts.
AUDIO_STUB = """
window.__notes = 0;
class FakeParam { setValueAtTime() {} exponentialRampToValueAtTime() {} }
class FakeNode { connect(next) { return next; } }
class FakeAudioContext {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = new FakeNode(); }
  resume() { return Promise.resolve(); }
  createOscillator() {
    const o = new FakeNode();
    o.frequency = { value: 0 };
    o.start = () => { window.__notes += 1; };
    o.stop = () => {};
    return o;
  }
  createGain() { const g = new FakeNode(); g.gain = new FakeParam(); return g; }
}
window.AudioContext = FakeAudioContext;
"""

# Every element of the table whose animation or transition would run now.
MOVING = """() => [...document.querySelectorAll('#table-app *')].filter((el) => {
  const s = getComputedStyle(el);
  const secs = (v) => Math.max(...v.split(',').map((x) => parseFloat(x) || 0));
  return (s.animationName !== 'none' && secs(s.animationDuration) > 0)
    || secs(s.transitionDuration) > 0;
}).length"""


def title_says_turn(page: Any, language: str) -> bool:
    return page.title().startswith(words(language)["title_your_turn"])


def favicon(page: Any) -> str:
    return page.locator("link[rel~=icon]").get_attribute("href") or ""


def wait_turn_shown(page: Any, language: str, shown: bool) -> None:
    prefix = words(language)["title_your_turn"].replace("\\", "\\\\").replace("'", "\\'")
    page.wait_for_function(f"document.title.startsWith('{prefix}') === {str(shown).lower()}")


def notes(page: Any) -> int:
    return int(page.evaluate("window.__notes"))


def open_help(page: Any) -> Any:
    page.locator(".help-button").click()
    pop = page.locator("#help-pop")
    pop.locator(".help-topic").first.wait_for()
    return pop


def close_help(page: Any) -> None:
    page.locator("#help-pop button[popovertargetaction=hide]").click()
    page.locator("#help-pop .help-topic").first.wait_for(state="hidden")


def play_until_turn(seats: list[Seat], seat: int) -> int:
    """Play the first legal card for every seat before `seat`; the version it is `seat`'s turn."""
    latest = max(s.version for s in seats)
    while seats[0].view["turn"] != seat:
        turn = seats[seats[0].view["turn"]]
        latest = command(seats, turn, "play_card", card=turn.view["legal_cards"][0])
    return latest


def test_turn_sounds_motion_hold_and_help(browser: Any, site_server: str,
                                          artifacts: Path) -> None:
    base = site_server
    contexts, pages, code = open_table(browser, base)
    stack = ExitStack()
    errors: list[str] = []
    try:
        for page in pages:
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.add_init_script(AUDIO_STUB)
            page.reload()
            page.wait_for_selector(f"{APP}[data-state=live]")
        seats = [Seat(base, code, context, stack) for context in contexts]
        latest = max(s.version for s in seats)
        for page in pages:
            wait_version(page, latest)
        base_titles = [re.sub(r"^.*? · (?=.* · )", "", p.title()) for p in pages]

        # The dealer's turn to deal: their tab says so, the others' do not.
        dealer = seats[0].view["dealer"]
        for i, page in enumerate(pages):
            wait_turn_shown(page, LANGUAGES[i], i == dealer)
            assert ("favicon-turn" in favicon(page)) == (i == dealer), (i, favicon(page))
        shot(pages[dealer], artifacts, f"feel-dealer-turn-{SIZES[dealer]}")

        # The sounds are off by default, everywhere.
        for page in pages:
            pop = open_help(page)
            assert pop.locator("[role=switch]").get_attribute("aria-checked") == "false"
            close_help(page)

        # Seat 1 (German, desktop) turns them on from the table's menu; the choice is saved.
        listener = pages[1]
        pop = open_help(listener)
        with listener.expect_response(re.compile(r"/preferences/sounds/$")) as answer:
            pop.locator("[role=switch]").click()
        assert answer.value.status == 200
        assert pop.locator("[role=switch]").get_attribute("aria-checked") == "true"
        shot(listener, artifacts, "feel-help-sounds-on-desktop")
        listener.reload()
        listener.wait_for_selector(f"{APP}[data-state=live]")
        pop = open_help(listener)
        assert pop.locator("[role=switch]").get_attribute("aria-checked") == "true"
        close_help(listener)

        deal_and_scart(seats)
        latest = max(s.version for s in seats)
        for page in pages:
            wait_version(page, latest)
        # Only a page with the sounds on makes any; seat 1 leads after this deal (left of the
        # dealer), so its turn is heard already.
        turn = seats[0].view["turn"]
        assert [notes(p) > 0 for p in pages] == [False, turn == 1, False, False], (
            turn, [notes(p) for p in pages])

        # The player to lead: title and favicon; back to normal once the card is played.
        for i, page in enumerate(pages):
            wait_turn_shown(page, LANGUAGES[i], i == turn)
        leader = seats[turn]
        latest = command(seats, leader, "play_card", card=leader.view["legal_cards"][0])
        wait_version(pages[turn], latest)
        wait_turn_shown(pages[turn], LANGUAGES[turn], False)
        assert "favicon-turn" not in favicon(pages[turn])
        assert pages[turn].title().endswith(base_titles[turn]), pages[turn].title()

        # Seat 1's next turn is heard on its page only (the others have the sounds off).
        heard = notes(listener)
        latest = play_until_turn(seats, 1)
        wait_version(listener, latest)
        wait_turn_shown(listener, LANGUAGES[1], True)
        listener.wait_for_function(f"window.__notes > {heard}")
        for i in (0, 2, 3):
            wait_version(pages[i], latest)
            assert notes(pages[i]) == 0, i

        # The help in context: four topics, each linking to its rules section; the hand's keys.
        pop = open_help(pages[0])
        topics = pop.locator(".help-topic")
        assert [topics.nth(i).get_attribute("data-topic") for i in range(4)] == [
            "led", "trump", "buob", "narr"]
        # The led-suit topic speaks of this moment only while a trick has a suit led (seat 1
        # may be about to lead a new trick).
        led_now = bool((seats[0].view.get("trick") or {}).get("cards"))
        led_class = pop.locator(".help-topic[data-topic=led]").get_attribute("class") or ""
        assert ("now" in led_class.split()) == led_now, (led_class, seats[0].view.get("trick"))
        assert pop.locator("kbd", has_text="←").count() == 1
        assert pages[0].locator(".hand").get_attribute("aria-describedby") == "hand-help"
        links = [a.get_attribute("href") or "" for a in pop.locator(".help-topic a").all()]
        shot(pages[0], artifacts, "feel-help-desktop")
        close_help(pages[0])
        rules = contexts[0].new_page()
        for href in links:
            anchor = href.split("#", 1)[1]
            rules.goto(f"{base}{href}")
            assert rules.locator(f"[id='{anchor}']").count() == 1, href
            assert rules.locator(f"[id='{anchor}']").is_visible(), href
        rules.close()

        # The figures (before any clock is faked): applying a state with the title, favicon
        # and help hooks in place, as received and rebuilt from scratch 30 times.
        print("apply", pages[0].evaluate("window.__troccasMetrics.summary()"),
              "bench", pages[0].evaluate("window.__troccasMetrics.bench(30)"))

        # Reduced motion: nothing on the table moves on the phone that asks for it.
        pages[0].wait_for_function(MOVING.replace("() =>", "() => (") + ") > 0")
        pages[3].emulate_media(reduced_motion="reduce")
        assert pages[3].evaluate(MOVING) == 0
        shot(pages[3], artifacts, "feel-reduced-motion-phone")

        # A completed trick on show, with every clock paused: a click (desktop) and a tap
        # (phone) gather it at once.
        while len(seats[0].view["trick"]["cards"]) < 3:
            mover = seats[seats[0].view["turn"]]
            latest = command(seats, mover, "play_card", card=mover.view["legal_cards"][0])
        for page in pages:
            wait_version(page, latest)
            page.clock.install()
            page.clock.pause_at(datetime.now() + timedelta(seconds=1))
        heard = notes(listener)
        mover = seats[seats[0].view["turn"]]
        latest = command(seats, mover, "play_card", card=mover.view["legal_cards"][0])
        # The trick's sound on seat 1's page when its team (seats 1 and 3) won it, else none.
        wait_version(listener, latest)
        winner = seats[0].view["last_trick"]["winner"]
        assert (notes(listener) > heard) == (winner % 2 == 1), (winner, heard, notes(listener))
        for i in (0, 2):
            page = pages[i]
            wait_version(page, latest)
            held = page.locator(".trick.held")
            held.wait_for(timeout=5000)
            shot(page, artifacts, f"feel-held-trick-{SIZES[i]}")
            if i == 0:
                held.click()
            else:
                held.tap()
            page.locator(".trick.held").wait_for(state="detached", timeout=3000)
        # A page nobody tapped keeps the trick on show while its clock stands still.
        assert pages[1].locator(".trick.held").count() == 1
        for page in pages:
            page.clock.resume()

        # A spectator: no turn in the tab, the four topics, none of the hand's keys.
        watcher_context = browser.new_context(viewport={"width": 390, "height": 844},
                                              locale="en", has_touch=True, bypass_csp=True)
        contexts.append(watcher_context)
        watcher = sign_up(watcher_context, base, "watcher", "en")
        watcher.goto(f"{base}/en/rooms/{code}/")
        watcher.wait_for_selector(f"{APP}[data-state=live] .table")
        assert not title_says_turn(watcher, "en")
        pop = open_help(watcher)
        assert pop.locator(".help-topic").count() == 4
        assert pop.locator("kbd", has_text="←").count() == 0
        assert words("en")["key_arrows"] not in pop.inner_text()
        assert pop.locator("kbd", has_text="L").count() == 1
        assert watcher.locator(".hand").get_attribute("aria-describedby") is None
        assert watcher.locator("#hand-help").is_hidden()
        shot(watcher, artifacts, "feel-help-spectator-phone")
        assert not errors, errors
    finally:
        stack.close()
        for context in contexts:
            context.close()

"""One screen (issue #14 items 2 and 4) in real Chromium: one table of four is driven through
every phase of a match — the lobby, dealing, the reveal window, the Scart, a trick in play
with an error toast on show, the score sheet and the match's end — and in each phase two of
its pages (the dealer's and a waiting player's) are set to five viewport sizes, one for each
combination of table.css's breakpoints: a phone upright (390×844) and held sideways (844×390,
the short landscape), a small phone sideways (640×360), a tablet (768×1024) and a laptop
(1366×800). At each size the bounding boxes show that the table's essential parts are on
screen, that the document does not scroll, that the trick, the hand, the action bar, the
toasts and the reveal countdown never overlap, and that no name is cut ("Mario Caveng" whole
at 390 wide). The drawer with the invite link and the house rules, and
the folded site menu, are opened by touch and by keyboard.

The moves the test does not look at go over websockets (tests/browser/test_buob.py's Seat).
Screenshots of every phase at 390×844 and 1366×800 go to artifacts/screenshots/."""

from __future__ import annotations

import json
import re
from contextlib import ExitStack
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_buob import Seat, command, settle
from tests.browser.test_table import APP, PLAYERS, act, click_card, sign_up, wait_version

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

# (width, height): one size for each combination of table.css's breakpoints (30rem, 40rem and
# 64rem wide; landscape at most 34rem high): a phone upright, a phone sideways, a small phone
# sideways (narrow and short at once), a tablet, a laptop. Sizes within one combination share
# their rules, so the ten sizes measured before (360×640 to 1080×1920) repeated most layouts.
SIZES = [(390, 844), (844, 390), (640, 360), (768, 1024), (1366, 800)]
SHOT_SIZES = [(390, 844), (1366, 800), (640, 360)]
# Twelve characters each: the longest names the plates must show whole.
NAMES = ["Ursina Casty", "Mario Caveng", "Gion Cadruvi", "Flurina Tuor"]
# Long enough to measure the reveal at every size on a loaded machine, no longer: the test
# waits the rest of it out.
REVEAL_SECONDS = 15

# What the page reports at one size: each selector's boxes (only those shown), the document's
# scroll size, and the plates' names that do not fit their box.
MEASURE = """(selectors) => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.left, y: r.top, w: r.width, h: r.height, text: el.textContent.trim()}; };
  const shown = (el) => el.checkVisibility({visibilityProperty: true, opacityProperty: false})
    && el.getBoundingClientRect().width > 0;
  const out = {};
  for (const [key, sel] of Object.entries(selectors)) {
    out[key] = [...document.querySelectorAll(sel)].filter(shown).map(box);
  }
  const d = document.documentElement;
  const cut = [...document.querySelectorAll('#table-app .plate .nm')].filter(shown)
    .filter((n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)
    .map((n) => n.textContent);
  return {boxes: out, scrollW: d.scrollWidth, scrollH: d.scrollHeight,
          innerW: window.innerWidth, innerH: window.innerHeight, cut};
}"""

SELECTORS = {
    "plates": "#table-app .seat .plate",
    "names": "#table-app .plate .nm",
    "scorebar": "#table-app .scorebar",
    "status": "#table-app .status",
    "trick": "#table-app .center .trick",
    "center": "#table-app .center",
    "reveal_cards": "#table-app .trick.reveal .slot-card",
    "trick_cards": "#table-app .trick .slot-card",
    "led": "#table-app .center-note.small",
    "hand": "#table-app .hand",
    "hand_cards": "#table-app .hand .card",
    "actions": "#table-app .actions",
    "action_buttons": "#table-app .actions button",
    "toasts": "#toasts .toast",
    "countdown": "#table-app [data-countdown=reveal_countdown]",
    "overlay": "#table-app .overlay",
    "result": "#table-app .overlay .result",
    "sheet_buttons": "#table-app .overlay-actions button",
    "match_over": "#table-app .overlay .match-over",
    "slots": "#table-app .lobby .slot",
    "start": "#table-app [data-action=start]",
    "invite": "#invite-link",
    "menu": ".nav-toggle",
    "drawer": "#drawer-toggle",
    "header": ".site-header",
}
# The figures of the play phase at each size, written to artifacts/layout.json.
FIGURES: dict[str, dict[str, float]] = {}


def inside(b: dict[str, Any], w: int, h: int) -> bool:
    return b["x"] >= -1 and b["y"] >= -1 and b["x"] + b["w"] <= w + 1 and b["y"] + b["h"] <= h + 1


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two boxes share more than a pixel's sliver."""
    return (min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"]) > 1
            and min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"]) > 1)


def check(page: Any, phase: str, need: dict[str, int], where: str) -> dict[str, Any]:
    """Measure the page at its current size and assert the one-screen rules; the figures."""
    m = page.evaluate(MEASURE, SELECTORS)
    w, h = m["innerW"], m["innerH"]
    at = f"{where} {phase} {w}x{h}"
    assert m["scrollH"] <= h + 1 and m["scrollW"] <= w + 1, (at, m["scrollW"], m["scrollH"])
    boxes = m["boxes"]
    for key, count in need.items():
        assert len(boxes[key]) >= count, (at, key, boxes[key])
        for b in boxes[key]:
            assert inside(b, w, h), (at, key, b)
    assert not m["cut"], (at, m["cut"])
    # Never on top of each other: the trick, the hand, the action bar, toasts, the countdown.
    layers = {"trick": boxes["trick"], "hand": boxes["hand"],
              "actions": boxes["actions"] if boxes["action_buttons"] else [],
              "toast": boxes["toasts"], "countdown": boxes["countdown"]}
    names = list(layers)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            for a in layers[first]:
                for b in layers[second]:
                    assert not overlap(a, b), (at, first, a, second, b)
    # The trick's note (its number, the led suit) covers none of its cards.
    for note in boxes["led"]:
        for card in boxes["trick_cards"]:
            assert not overlap(note, card), (at, "the trick's note on a card", note, card)
    for card in boxes["reveal_cards"]:
        for countdown in boxes["countdown"]:
            assert not overlap(card, countdown), (at, "countdown on a reveal card", card)
    return m


def short_landscape(width: int, height: int) -> bool:
    """A phone held sideways (table.css: landscape, at most 34rem high)."""
    return width > height and height <= 544


def every_size(page: Any, artifacts: Path, phase: str, need: dict[str, int], where: str,
               short_need: dict[str, int] | None = None) -> None:
    """`short_need`, if given, replaces `need` on short landscape screens."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        # A moment for the page's resize handler (a paused page clock stops its frames, so
        # this waits on the test's clock), then a layout forced before measuring.
        page.wait_for_timeout(60)
        page.evaluate("() => document.body.offsetHeight")
        short = short_need is not None and short_landscape(width, height)
        m = check(page, phase, short_need if short and short_need is not None else need, where)
        if phase == "play":
            b = m["boxes"]
            FIGURES[f"{width}x{height}"] = {
                "header_px": round(b["header"][0]["h"]),
                "felt_middle_px": round(b["center"][0]["h"]),
                "trick_card_px": round(min(c["w"] for c in b["trick_cards"])),
                "hand_px": round(b["hand"][0]["h"]), "hand_bottom_gap_px": round(
                    height - b["hand"][0]["y"] - b["hand"][0]["h"])}
        if short:
            # The lobby scrolls inside the table's box here: the seats are in it, reachable.
            reach = page.evaluate("""() => { const box = document.getElementById('table-app');
              const r = box.getBoundingClientRect();
              return {overflowY: getComputedStyle(box).overflowY, bottom: r.bottom,
                      seats: box.querySelectorAll('.lobby .slot').length}; }""")
            assert reach["overflowY"] == "auto" and reach["seats"] == 4, reach
            assert reach["bottom"] <= height + 1, reach
        if (width, height) in SHOT_SIZES:
            page.screenshot(path=str(artifacts / "screenshots"
                                     / f"layout-{phase}-{where}-{width}x{height}.png"))


def table_needs(page: Any, *, deal: bool = False, hand: bool = True) -> dict[str, int]:
    need = {"plates": 4, "names": 4, "scorebar": 1, "status": 1, "center": 1,
            "menu": 1, "drawer": 1}
    if hand:
        need["hand"] = 1
        need["hand_cards"] = 1
    if deal:
        need["action_buttons"] = 1
    return need


def test_the_table_fits_one_screen_in_every_phase(browser: Any, site_server: str,
                                                  artifacts: Path) -> None:
    base = site_server
    contexts, pages = [], []
    for (name, language, _team), display in zip(PLAYERS, NAMES, strict=True):
        context = browser.new_context(viewport={"width": 1366, "height": 800}, locale=language,
                                      has_touch=True, bypass_csp=True)
        contexts.append(context)
        pages.append(sign_up(context, base, f"l{name}", language, display_name=display))
    owner, mario = pages[0], pages[1]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    stack = ExitStack()
    try:
        owner.goto(f"{base}/en/")
        owner.click("a.button[href$='/rooms/new/']")
        owner.fill("#id_name", "Stiva da la fanestra")
        owner.fill("#id_reveal_seconds", str(REVEAL_SECONDS))
        owner.fill("#id_turn_seconds", "0")
        owner.select_option("#id_match_deals", "0")
        owner.click(".room-form [type=submit]")
        owner.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
        owner.wait_for_selector(f"{APP}[data-state=live]")
        code = owner.url.rstrip("/").rsplit("/", 1)[-1]
        invite = owner.input_value("#invite-link")
        for page, (_n, language, team) in zip(pages[1:], PLAYERS[1:], strict=True):
            page.goto(invite)
            page.wait_for_url(re.compile(rf"/{language}/rooms/"))
            page.wait_for_selector(f"{APP}[data-state=live] .lobby")
            act(page, lambda p=page, t=team: p.click(
                f".team-col.team-{t.lower()} [data-action=take-seat] >> nth=0"))
        owner.wait_for_function("!document.querySelector('[data-action=start]').disabled")
        seats = [Seat(base, code, context, stack) for context in contexts]

        # The lobby: the seats, the start button and the invite link in sight.
        lobby = {"slots": 4, "invite": 1, "menu": 1, "drawer": 1}
        # The owner's seats carry their controls: on a phone held sideways the lobby scrolls
        # inside its box under the start button and the invite link.
        every_size(owner, artifacts, "lobby", {**lobby, "start": 1}, "owner",
                   short_need={"invite": 1, "menu": 1, "drawer": 1, "start": 1})
        every_size(mario, artifacts, "lobby", lobby, "player")

        # Dealing: the dealer's "deal the next pass" button and the cards dealt so far.
        latest = act(owner, lambda: owner.click("[data-action=start]"))
        latest = act(owner, lambda: owner.click("[data-action=deal]"))
        settle(seats, latest)
        every_size(owner, artifacts, "dealing", table_needs(owner, deal=True), "dealer")
        every_size(mario, artifacts, "dealing", table_needs(mario), "player")
        # While a match runs the invite link is in the drawer, out of the way; any player
        # opens it, over the table, and closes it with Escape.
        assert not owner.locator("#invite-link").is_visible()
        for width, height in ((390, 844), (844, 390)):
            mario.set_viewport_size({"width": width, "height": height})
            mario.locator("#drawer-toggle").tap()
            link = mario.locator("#room-drawer #invite-link")
            link.wait_for()
            box = link.bounding_box()
            assert box and inside({"x": box["x"], "y": box["y"], "w": box["width"],
                                   "h": box["height"]}, width, height), box
            assert mario.locator("#room-drawer #rules-table").count() == 1
            mario.keyboard.press("Escape")
            link.wait_for(state="hidden")

        # The reveal window: four reveal cards, the countdown beside none of them.
        latest = act(owner, lambda: owner.click("[data-action=deal]"))
        act(owner, lambda: owner.click("[data-action=deal]"))
        owner.wait_for_function(f"document.querySelector('{APP}').dataset.phase === 'REVEAL'")
        reveal = {**table_needs(owner), "reveal_cards": 4, "countdown": 1}
        every_size(owner, artifacts, "reveal", reveal, "dealer")
        assert owner.locator(APP).get_attribute("data-phase") == "REVEAL", (
            "the reveal window closed before it was measured")

        # The Scart: the dealer's two cards chosen, the confirm button in sight.
        for page in (owner, mario):
            page.wait_for_function(f"document.querySelector('{APP}').dataset.phase === 'SCART'",
                                   timeout=(REVEAL_SECONDS + 10) * 1000)
        allowed = owner.locator(".hand button.card:not([aria-disabled=true])")
        click_card(allowed.nth(0))
        click_card(allowed.nth(1))
        every_size(owner, artifacts, "scart", table_needs(owner, deal=True), "dealer")
        every_size(mario, artifacts, "scart", table_needs(mario), "player")
        latest = act(owner, lambda: owner.click("[data-action=scart]"))
        settle(seats, latest)

        # A trick in progress (two cards), the led suit shown, and a toast on show: a waiting
        # player clicks a card out of turn (it is chosen early, and the first time says so).
        for _ in range(2):
            turn = seats[seats[0].view["turn"]]
            latest = command(seats, turn, "play_card", card=turn.view["legal_cards"][0])
        waiting = [p for p, s in zip(pages[:2], seats[:2], strict=True)
                   if s.view["turn"] != s.view["seat"]]
        assert waiting
        for page in waiting:
            wait_version(page, latest)
            page.locator(".trick .slot-card >> nth=1").wait_for()
            # The page's clock stops first, so the toast stays on show for every size.
            page.clock.install()
            page.clock.pause_at(datetime.now() + timedelta(seconds=1))
            click_card(page.locator(".hand .card").first)
            page.locator("#toasts .toast").wait_for()
            # Measured once it has slid in.
            page.wait_for_function("""() => [...document.querySelectorAll('#toasts .toast')]
              .every((t) => t.getAnimations().every((a) => a.playState === 'finished'))""")
            play = {**table_needs(page), "trick_cards": 2, "led": 1, "toasts": 1}
            every_size(page, artifacts, "play", play, "waiting")
            page.clock.resume()
            # That click chose the card early (issue #24 item 15): a second one cancels it,
            # so the page plays nothing by itself when the sockets play its seat's turn.
            card = page.locator(".hand .card").first
            click_card(card)
            page.wait_for_function("() => document.querySelector('.hand .card')"
                                   ".getAttribute('aria-pressed') === 'false'")

        # The deal is played out over the websockets; the score sheet and its buttons.
        while seats[0].view["phase"] == "PLAY":
            turn = seats[seats[0].view["turn"]]
            latest = command(seats, turn, "play_card", card=turn.view["legal_cards"][0])
        assert seats[0].view["phase"] == "ROUND_OVER"
        sheet = {**table_needs(owner, hand=False), "overlay": 1, "result": 1,
                                                  "sheet_buttons": 1}
        for page, where in ((owner, "owner"), (mario, "player")):
            wait_version(page, latest)
            page.locator(".overlay .sheet").wait_for()
            every_size(page, artifacts, "round-over", sheet, where)

        # The owner ends the match: the final result and the new-match button.
        latest = act(owner, lambda: owner.click("[data-action=end-match]"))
        owner.locator(".overlay .match-over").wait_for()
        over = {**table_needs(owner, hand=False), "overlay": 1, "match_over": 1, "sheet_buttons": 1}
        every_size(owner, artifacts, "match-over", over, "owner")
        (artifacts / "layout.json").write_text(json.dumps(FIGURES, indent=2))
        print(json.dumps(FIGURES))
        assert not errors, errors
    finally:
        stack.close()
        for context in contexts:
            context.close()


def test_the_drawer_and_the_menu_open_by_touch_and_by_keyboard(browser: Any, site_server: str,
                                                              artifacts: Path) -> None:
    """Anyone may open the drawer (invite link, house rules) and the folded site menu; both
    close with Escape; the 12-character name of the lobby is shown whole on a phone."""
    base = site_server
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en",
                                  has_touch=True, bypass_csp=True)
    try:
        page = sign_up(context, base, "drawer", "en", display_name="Mario Caveng")
        page.goto(f"{base}/en/")
        page.click("a.button[href$='/rooms/new/']")
        page.fill("#id_name", "Stiva cun tenda")
        page.click(".room-form [type=submit]")
        page.wait_for_url(re.compile(r"/rooms/[a-z0-9]+/$"))
        page.wait_for_selector(f"{APP}[data-state=live]")
        drawer = page.locator("#room-drawer")
        toggle = page.locator("#drawer-toggle")
        assert not drawer.is_visible()
        assert toggle.get_attribute("aria-expanded") == "false"

        # By touch: the drawer opens over the page, with the house rules.
        toggle.tap()
        drawer.wait_for()
        assert toggle.get_attribute("aria-expanded") == "true"
        assert page.locator("#room-drawer #rules-table").is_visible()
        box = drawer.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844 + 1, box
        assert page.evaluate("document.documentElement.scrollHeight") <= 845
        page.screenshot(path=str(artifacts / "screenshots" / "layout-drawer-390x844.png"))
        page.locator("#drawer-close").tap()
        drawer.wait_for(state="hidden")
        # The dialog's close event comes a moment after it closed.
        page.wait_for_selector("#drawer-toggle[aria-expanded=false]", timeout=3000)

        # By keyboard: Enter opens it, Escape closes it and gives the focus back.
        toggle.focus()
        page.keyboard.press("Enter")
        drawer.wait_for()
        page.keyboard.press("Escape")
        drawer.wait_for(state="hidden")
        assert page.evaluate("document.activeElement.id") == "drawer-toggle"

        # The site's navigation is folded into the menu; Escape folds it again.
        nav = page.locator(".site-nav")
        menu = page.locator(".nav-toggle")
        assert not nav.is_visible()
        menu.tap()
        nav.wait_for()
        assert menu.get_attribute("aria-expanded") == "true"
        assert page.locator(".site-nav a[href$='/rules/']").is_visible()
        page.keyboard.press("Escape")
        nav.wait_for(state="hidden")
        assert menu.get_attribute("aria-expanded") == "false"

        # The lobby's own seat shows the whole name.
        page.click(".team-col.team-a [data-action=take-seat] >> nth=0")
        name = page.locator(".lobby .slot.me strong")
        name.wait_for()
        assert name.inner_text() == "Mario Caveng"
    finally:
        context.close()

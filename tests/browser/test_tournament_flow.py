"""A small tournament from the first click to the Rangliste, in real Chromium (issue #26): a
director creates it through the site's form (individuals, one Swiss round, a Partie of four
deals); four players register and check in with the tournament page's buttons; the start
comes (its time moved into the past in the server's database, and the site's own timer, the
embedded sweep, starts it); a player sees "your table is ready" and follows the link to the
room; the four play the Partie out over their websockets (each plays its first legal card:
the real services, as at any table); the standings page and the desk open in the director's
tabs and a player's tournament page change without a reload — the site socket's `tournament`
frames (docs/protocol.md "The site socket") —; and the Rangliste downloads as PDF and CSV."""

from __future__ import annotations

import csv
import io
import re
import sqlite3
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings

from tests.browser.test_buob import Seat, command, deal_and_scart
from tests.browser.test_table import shot, sign_up
from tests.support.logs import ServerLog

# The Partie alone is some 180 moves over four websockets: a minute on a quiet machine; the
# bound is for a hang on a loaded one, not for speed.
pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

DESKTOP = {"width": 1280, "height": 860}
PLAYERS = ("Mengia", "Gion", "Ursina", "Flurin")
WAIT_MS = 30_000
# The longest the push may take: the sweep copies a finished Partie's result within
# TROCCAS_TOURNAMENT_SWEEP_SECONDS (5 s), its frame follows at once. The pages' fallback poll
# is 30 s; a push that never came would fail the check that the page was redrawn by one.
PUSHED_MS = 25_000
ROOM = re.compile(r"/en/rooms/([a-z0-9]+)/$")


def _site_time(moment: datetime) -> str:
    """A moment as the form's datetime-local field takes it, in the site's time zone."""
    return moment.astimezone(ZoneInfo(settings.TIME_ZONE)).strftime("%Y-%m-%dT%H:%M")


def _context(browser: Any) -> Any:
    # Playwright's wait_for_function is an eval, which the site's CSP forbids: bypassed here,
    # tests/browser/test_csp.py checks the policy.
    context = browser.new_context(viewport=DESKTOP, locale="en", bypass_csp=True,
                                  accept_downloads=True)
    context.set_default_timeout(WAIT_MS)
    return context


def _create(director: Any, base: str) -> str:
    """The director fills in the site's form; the new tournament's page address."""
    director.goto(f"{base}/en/tournaments/new/")
    soon = datetime.now(UTC) + timedelta(minutes=20)
    director.fill("#id_name", "Turnier da Mustér")
    director.fill("#id_registration_closes", _site_time(soon))
    director.fill("#id_starts_at", _site_time(soon))
    director.fill("#id_stage1_rounds", "1")
    director.select_option("#id_stage1_format", "swiss")
    director.select_option("#id_match_deals", "4")
    director.fill("#id_reveal_seconds", "2")
    # No turn timer, no stand-in: nothing but the four players moves the table (a loaded
    # machine must not let a timer play between two of the test's moves).
    director.fill("#id_turn_seconds", "0")
    director.fill("#id_stand_in_seconds", "600")
    director.click(".room-form [type=submit]")
    director.wait_for_url(re.compile(r"/en/tournaments/\d+/$"))
    assert "Your tournament has been created." in director.inner_text("main")
    return str(director.url)


def _register_and_check_in(page: Any, url: str) -> None:
    page.goto(url)
    page.click("[data-tournament-register]")
    page.wait_for_selector("[data-tournament-check-in]")
    page.click("[data-tournament-check-in]")
    page.wait_for_selector("[data-my-state]:has-text('You have checked in.')")


def _start_now(server_db: Path, tournament: int) -> None:
    """The tournament's start, and its first round's, moved into the past in the server's own
    database: the embedded timer loop's tournament sweep does the rest, as at any start."""
    past = (datetime.now(UTC) - timedelta(seconds=1)).strftime("%Y-%m-%d %H:%M:%S.%f")
    with sqlite3.connect(server_db, timeout=20) as conn:
        moved = conn.execute("UPDATE games_tournament SET starts_at = ?, registration_closes = ?"
                             " WHERE id = ? AND status = 'registration'",
                             (past, past, tournament)).rowcount
        rounds = conn.execute("UPDATE games_tournamentround SET starts_at = ?"
                              " WHERE tournament_id = ? AND number = 1",
                              (past, tournament)).rowcount
    assert (moved, rounds) == (1, 1)


def _play_the_partie(seats: list[Seat]) -> None:
    """Four deals, each card the first legal one of the player on turn; the room's owner (seat
    0) starts each next deal. Through the players' websockets, so through the services."""
    for _ in range(400):
        phase = seats[0].view["phase"]
        if phase == "MATCH_OVER":
            return
        if phase == "DEALING":
            deal_and_scart(seats)
        elif phase == "PLAY":
            turn = seats[seats[0].view["turn"]]
            command(seats, turn, "play_card", card=turn.view["legal_cards"][0])
        elif phase == "ROUND_OVER":
            command(seats, seats[0], "regame")
        else:  # the reveal window closes by itself: wait for the table's next state
            seats[0].receive()
    raise AssertionError("the Partie did not end")


def _parties(page: Any) -> int:
    """The Parties column of the standings table, added up."""
    return int(page.evaluate("""() => [...document.querySelectorAll(
        '[data-standings] tbody tr[data-entrant]')].reduce(
        (n, tr) => n + Number(tr.children[5].textContent), 0)"""))


def test_a_tournament_from_its_form_to_the_rangliste(browser: Any, site_server: str,
                                                     site_server_log: ServerLog,
                                                     artifacts: Path) -> None:
    base = site_server
    contexts: list[Any] = []
    errors: list[str] = []
    with ExitStack() as sockets:
        try:
            director_context = _context(browser)
            contexts.append(director_context)
            director = sign_up(director_context, base, "director", "en", "Director")
            url = _create(director, base)
            pk = int(url.rstrip("/").rsplit("/", 1)[-1])
            shot(director, artifacts, "tournament-created")

            pages = []
            for name in PLAYERS:
                context = _context(browser)
                contexts.append(context)
                page = sign_up(context, base, name.lower(), "en", name)
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                _register_and_check_in(page, url)
                pages.append(page)

            # The director's live pages, open before anything happens: the standings, the
            # desk (a scheduled round, not paired yet) and, a player's, the tournament page.
            standings = director_context.new_page()
            standings.on("pageerror", lambda exc: errors.append(str(exc)))
            standings.goto(f"{base}/en/tournaments/{pk}/standings/")
            assert standings.locator("[data-standings] tbody tr[data-entrant]").count() == 4
            assert _parties(standings) == 0
            desk = director_context.new_page()
            desk.goto(f"{base}/en/tournaments/{pk}/desk/")
            assert desk.locator("[data-desk-tables] tbody tr[data-table]").count() == 0
            watcher = pages[1]
            watcher.goto(url)
            assert watcher.locator("[data-entrant]").count() == 4
            # A marker a reload would lose: every page below must still hold it.
            for page in (standings, desk, watcher):
                page.evaluate("window.troccasNotReloaded = true")

            # The start: the sweep starts the tournament, pairs round 1 and opens its table.
            _start_now(site_server_log.path.parent / "site.sqlite3", pk)
            banner = pages[0].locator("#table-ready a")
            banner.wait_for(timeout=WAIT_MS)
            assert ROOM.search(banner.get_attribute("href") or "")
            assert "Your tournament table" in banner.inner_text()
            shot(pages[0], artifacts, "tournament-table-ready")
            banner.click()
            pages[0].wait_for_url(ROOM)
            pages[0].wait_for_selector("#table-app[data-state=live]")
            match = ROOM.search(pages[0].url)
            assert match is not None
            code = match.group(1)
            # The desk and the tournament page moved on by themselves.
            desk.locator("[data-desk-tables] tbody tr[data-table]").first.wait_for()
            watcher.wait_for_selector("[data-tournament-status=running]")

            # The four play the Partie out.
            seats = sorted((Seat(base, code, context, sockets) for context in contexts[1:]),
                           key=lambda seat: int(seat.view["seat"]))
            assert [seat.view["seat"] for seat in seats] == [0, 1, 2, 3]
            _play_the_partie(seats)

            # The standings redraw themselves: a push, no reload.
            standings.wait_for_function(
                """() => [...document.querySelectorAll(
                    '[data-standings] tbody tr[data-entrant]')].reduce(
                    (n, tr) => n + Number(tr.children[5].textContent), 0) === 4
                  && document.querySelector('[data-watch-tournament]').dataset.redrawn
                     === 'push'""", timeout=PUSHED_MS)
            assert _parties(standings) == 4
            standings.wait_for_selector("[data-round-status='1']:has-text('Closed')",
                                        timeout=PUSHED_MS)
            shot(standings, artifacts, "tournament-standings-live")
            # The one round closed, so the tournament is over: the desk and the page say so.
            desk.wait_for_selector("[data-desk-tables] tbody tr[data-table]:has-text('Played')",
                                   timeout=PUSHED_MS)
            watcher.wait_for_selector("[data-tournament-status=finished]", timeout=PUSHED_MS)
            for page in (standings, desk, watcher):
                assert page.evaluate("window.troccasNotReloaded === true")

            # The Rangliste, as a PDF and as a CSV.
            with standings.expect_download(timeout=WAIT_MS) as pdf:
                standings.click("[data-rangliste-pdf]")
            assert Path(pdf.value.path()).read_bytes().startswith(b"%PDF")
            with standings.expect_download(timeout=WAIT_MS) as table:
                standings.click("a[href$='rangliste.csv']")
            text = Path(table.value.path()).read_text(encoding="utf-8-sig")
            rows = list(csv.reader(io.StringIO(text)))
            listed = {cell for row in rows[1:] for cell in row}
            assert set(PLAYERS) <= listed, rows
            assert len(rows) == 1 + len(PLAYERS)
            assert not errors, errors
        finally:
            for context in contexts:
                context.close()

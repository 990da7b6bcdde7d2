"""Tables that bots play for ever (issue #25 item 1): stand-ins never start a deal while no
person is connected to the room; a running match nobody is at for
TROCCAS_IDLE_MATCH_MINUTES ends abandoned, recorded as such, with no rating changed — but a
paused practice table waits for its person; an account's open bot tables are capped.

Time is driven by back-dating rows (the away clock's Connection rows, the match's start),
never by sleeping.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import PLAY, ROUND_OVER
from games.models import Match, MatchStatus, PlayerRating, Room, RoundAction
from tests.support import bots as helpers
from tests.support import tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120),
              pytest.mark.usefixtures("no_worker_threads")]



def _two_people_two_bots(owner: Any, partner: Any, until: str) -> str:
    """The owner (0) and a partner (2) against two bots (1, 3), unlimited deals, driven to
    `until`."""
    code = services.create_room(owner, {"match_deals": 0}).code
    tables.must(code, partner, "take_seat", team="A")  # seat 2
    helpers.seat_bots(code, owner, "easy", (1, 3))
    tables.must(code, owner, "start_round")
    helpers.play_out(code, {0: owner, 2: partner}, until=until)
    return code


def _started_ago(code: str, minutes: float) -> Match:
    match = helpers.current_match(code)
    Match.objects.filter(pk=match.pk).update(
        started=timezone.now() - timedelta(minutes=minutes))
    return match


# --- (a) stand-ins start no deal with nobody there ------------------------------------------

def test_stand_ins_start_no_deal_while_no_person_is_connected(owner: Any, players: list[Any],
                                                              outsider: Any) -> None:
    code = _two_people_two_bots(owner, players[0], ROUND_OVER)
    # Both people left long ago: every seat is a bot or a stand-in, and nobody is there.
    helpers.away(owner, code, 3600)
    helpers.away(players[0], code, 3600)
    before = tables.fingerprint(code)
    assert helpers.wake(code) is False
    assert tables.fingerprint(code) == before and tables.phase(code) == ROUND_OVER
    # A person watching: the stand-ins deal on for them, as before.
    Room.objects.filter(code=code).update(allow_spectators=True)
    services.connect(code, outsider, "watching")
    assert helpers.wake(code) is True
    assert tables.phase(code) != ROUND_OVER


# --- (b) a match nobody is at ends abandoned -------------------------------------------------

def test_a_match_nobody_is_at_for_ten_minutes_ends_abandoned(owner: Any,
                                                            players: list[Any]) -> None:
    code = _two_people_two_bots(owner, players[0], PLAY)
    match = _started_ago(code, 30)
    # Gone for nine minutes: not yet.
    helpers.away(owner, code, 9 * 60)
    helpers.away(players[0], code, 11 * 60)
    assert services.sweep_idle_matches() == 0
    # Both gone for eleven: ended, abandoned, the room back in its lobby, and logged.
    helpers.away(owner, code, 11 * 60)
    version = tables.version(code)
    assert services.sweep_idle_matches() == 1
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED and match.finished is not None
    room = Room.objects.get(code=code)
    assert room.current_match_id is None and room.closed is None
    assert tables.version(code) == version + 1
    row = RoundAction.objects.filter(room=room).order_by("-version").first()
    assert (row.kind, row.payload) == ("abandon_match", {"match": match.pk, "idle_minutes": 10})
    assert not PlayerRating.objects.filter(user__in=[owner, players[0]]).exists()
    assert services.sweep_idle_matches() == 0  # nothing left to end
    # The history says so.
    client = Client()
    client.force_login(owner)
    page = client.get(reverse("games:matches")).content.decode()
    assert '<span class="result result-abandoned">Abandoned</span>' in page


def test_a_person_connected_or_a_longer_setting_keeps_the_match(owner: Any, players: list[Any],
                                                                outsider: Any,
                                                                settings: Any) -> None:
    code = _two_people_two_bots(owner, players[0], PLAY)
    _started_ago(code, 60)
    helpers.away(owner, code, 40 * 60)
    helpers.away(players[0], code, 40 * 60)
    settings.TROCCAS_IDLE_MATCH_MINUTES = 45
    assert services.sweep_idle_matches() == 0
    settings.TROCCAS_IDLE_MATCH_MINUTES = 10
    Room.objects.filter(code=code).update(allow_spectators=True)
    services.connect(code, outsider, "watching")  # a person watching is a person there
    assert services.sweep_idle_matches() == 0
    services.disconnect(code, "watching")  # left just now
    assert services.sweep_idle_matches() == 0
    assert helpers.current_match(code).status == MatchStatus.RUNNING


def test_a_match_no_person_ever_came_to_ends_from_its_start(owner: Any,
                                                           players: list[Any]) -> None:
    code = _two_people_two_bots(owner, players[0], PLAY)
    _started_ago(code, 5)
    assert services.sweep_idle_matches() == 0
    _started_ago(code, 11)
    assert services.sweep_idle_matches() == 1


def test_a_paused_practice_table_waits_for_its_person(owner: Any) -> None:
    code = services.create_practice_table(owner, "easy").code
    services.connect(code, owner, "tab")
    services.disconnect(code, "tab")
    assert helpers.current_match(code).paused_at is not None
    _started_ago(code, 24 * 60)
    helpers.away(owner, code, 23 * 3600)
    assert services.sweep_idle_matches() == 0
    assert helpers.current_match(code).status == MatchStatus.RUNNING


# --- (c) an account's open bot tables are capped --------------------------------------------

def test_an_accounts_open_bot_tables_are_capped(owner: Any, settings: Any) -> None:
    assert settings.TROCCAS_MAX_BOT_TABLES == 3
    lobby = services.create_room(owner).code
    helpers.seat_bots(lobby, owner, "easy", (1,))
    first = services.create_practice_table(owner, "easy")
    services.create_practice_table(owner, "strong")
    rooms = Room.objects.count()
    with pytest.raises(services.ServiceError) as err:
        services.create_practice_table(owner, "easy")
    assert err.value.code == "BOT_TABLES_CAPPED" and err.value.status == 409
    assert Room.objects.count() == rooms  # no empty room left behind
    # seat_bot in a fourth room is refused and changes nothing; a bot room takes more bots.
    fourth = services.create_room(owner).code
    before = tables.fingerprint(fourth)
    out = tables.submit(fourth, owner, "seat_bot", index=1, level="easy")
    assert (out.ok, out.code) == (False, "BOT_TABLES_CAPPED")
    assert tables.fingerprint(fourth) == before
    helpers.seat_bots(lobby, owner, "easy", (2, 3))
    # One closed: Play now again.
    tables.must(first.code, owner, "close_room")
    services.create_practice_table(owner, "easy")

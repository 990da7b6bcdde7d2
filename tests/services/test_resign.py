"""Giving a match up (issue #24 item 2): the RESIGN command ends the running match, won by the
other team; the match row names who resigned, and it counts as not finished by them alone."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.engine import MATCH_OVER, PLAY
from games.history.reliability import finished_record
from games.models import Match, Room, RoundAction
from games.services.bots.turns import create_practice_table
from games.services.writer import table_snapshot
from tests.support.tables import advance, fingerprint, must, phase, seat_table, state, submit

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(120)]

OPTIONS = {"reveal_seconds": 2, "turn_seconds": 0}


def playing(owner: Any, players: list[Any]) -> tuple[str, dict[int, Any]]:
    room = seat_table(owner, players, OPTIONS)
    by_seat = {0: owner, 1: players[0], 2: players[1], 3: players[2]}
    advance(room.code, by_seat, PLAY)
    return room.code, by_seat


def test_a_resignation_ends_the_match_won_by_the_other_team(owner: Any,
                                                            players: list[Any]) -> None:
    code, by_seat = playing(owner, players)
    anna = by_seat[1]  # Team B
    must(code, anna, "resign")
    match = Match.objects.get(room__code=code)
    assert match.status == "finished" and match.winner == "A"
    assert match.resigned_by_id == anna.pk and match.finished is not None
    assert phase(code) == MATCH_OVER
    st = state(code)
    assert st is not None and st.winner == "A"
    # Stored in the log, under the resigning seat, for the history.
    row = RoundAction.objects.filter(room__code=code).order_by("-version").first()
    assert row is not None and row.kind == "resign" and row.actor_seat == 1
    # The table says who resigned.
    snap = table_snapshot(code)
    assert snap.match is not None
    assert snap.match["resigned"] == {"seat": 1, "name": anna.public_name}
    assert snap.events == [] or all(e.kind == "match_over" for e in snap.events)


def test_it_counts_as_not_finished_by_the_resigner_alone(owner: Any,
                                                         players: list[Any]) -> None:
    code, by_seat = playing(owner, players)
    must(code, by_seat[2], "resign")
    quitter, stayer = finished_record(by_seat[2]), finished_record(by_seat[1])
    assert (quitter.started, quitter.finished, quitter.resigned, quitter.by_bot) == (1, 0, 1, 0)
    assert (stayer.started, stayer.finished, stayer.resigned) == (1, 1, 0)


def test_a_spectator_cannot_resign(owner: Any, players: list[Any], spectator: Any) -> None:
    code, _ = playing(owner, players)
    before = fingerprint(code)
    out = submit(code, spectator, "resign")
    assert not out.ok and out.code == "NOT_SEATED"
    assert fingerprint(code) == before


def test_nobody_resigns_a_match_that_is_over(owner: Any, players: list[Any]) -> None:
    code, by_seat = playing(owner, players)
    must(code, by_seat[0], "resign")
    before = fingerprint(code)
    out = submit(code, by_seat[3], "resign")
    assert not out.ok and out.code == "MATCH_OVER"
    assert fingerprint(code) == before
    assert Match.objects.get(room__code=code).resigned_by_id == by_seat[0].pk


def test_there_is_nothing_to_resign_in_the_lobby(owner: Any, players: list[Any]) -> None:
    room = seat_table(owner, players, OPTIONS)
    before = fingerprint(room.code)
    out = submit(room.code, owner, "resign")
    assert not out.ok and out.code == "WRONG_PHASE"
    assert fingerprint(room.code) == before


def test_a_bot_never_resigns(owner: Any) -> None:
    room = create_practice_table(owner, "easy")
    bot = next(s.user for s in Room.objects.get(pk=room.pk).seats.select_related("user")
               if s.user.is_bot)
    before = fingerprint(room.code)
    out = services.submit(room.code, bot, _resign(room.code))
    assert not out.ok and out.code == "BOT_CANNOT_RESIGN"
    assert fingerprint(room.code) == before
    assert Match.objects.get(room=room).status == "running"


def _resign(code: str) -> Any:
    from tests.support.tables import cmd, version

    return cmd("resign", version(code))


def test_the_match_page_of_the_history_says_who_resigned(owner: Any, players: list[Any]) -> None:
    from django.test import Client
    from django.urls import reverse

    code, by_seat = playing(owner, players)
    must(code, by_seat[3], "resign")
    match = Match.objects.get(room__code=code)
    web = Client()
    web.force_login(owner)
    page = web.get(reverse("games:match", kwargs={"pk": match.pk})).content.decode()
    assert f"{by_seat[3].public_name} resigned." in page and "data-resigned" in page

"""Rounds run themselves (issue #26 item 5; games/clubs/rounds.py): the tournament's start
drops who did not check in, each round is paired (Swiss, rotating partners, a round robin's
circle, a final stage seeded from the one before), its rooms are opened with the tournament's
rules and seats and each player told, the round closes when every table has its result or
the clock ends, and each transition happens exactly once — with workers racing, and with a
worker killed in the middle of one."""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from itertools import combinations
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone

from games import services, tasks
from games.clubs import rounds
from games.engine import ROUND_OVER
from games.models import (
    Entrant,
    Match,
    MatchStatus,
    NoticeKind,
    Notification,
    Room,
    RoundStatus,
    TableOutcome,
    TournamentBye,
    TournamentRound,
    TournamentStatus,
    TournamentTable,
    Unfinished,
    after_commit,
)
from games.services.errors import ServiceError
from tests.clubs.tournament_helpers import (
    make_tournament,
    people_of,
    play_round,
    play_table,
    rooms_of,
    round_of,
)
from tests.support import bots, tables

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(300)]


@pytest.fixture
def director(make_user: Callable[..., Any]) -> Any:
    return make_user("director")


def crowd(make_user: Callable[..., Any], count: int, stem: str = "player") -> list[Any]:
    return [make_user(f"{stem}{n}") for n in range(count)]


# --- the start -------------------------------------------------------------------------------

def test_nothing_happens_before_the_start(director: Any, make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(director, crowd(make_user, 4),
                                 starts_at=timezone.now() + timedelta(hours=1))
    assert rounds.advance_tournament(tournament.pk) == 0
    assert rounds.sweep_tournaments() == 0
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTRATION
    assert not TournamentRound.objects.filter(tournament=tournament).exists()


def test_who_did_not_check_in_is_out_of_round_one(director: Any,
                                                 make_user: Callable[..., Any]) -> None:
    people = crowd(make_user, 5)
    tournament = make_tournament(director, people, stages=(("swiss", 2, None, False),))
    late = Entrant.objects.get(tournament=tournament, player=people[4])
    late.checked_in = None
    late.save()
    # A transition per step: the start, the pairing, the round's start.
    assert rounds.advance_tournament(tournament.pk) == 3
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    late.refresh_from_db()
    assert late.out_from_round == 1
    [table] = TournamentTable.objects.filter(round=round_of(tournament, 1))
    assert sorted(table.seat_players) == sorted(p.pk for p in people[:4])
    assert not TournamentBye.objects.exists()  # the fifth is out, not sitting out
    assert [r.number for r in TournamentRound.objects.filter(tournament=tournament)] == [1, 2]


def test_a_pair_needs_both_players_checked_in(director: Any,
                                             make_user: Callable[..., Any]) -> None:
    people = crowd(make_user, 6)
    tournament = make_tournament(director, people, pairs=True)
    half = Entrant.objects.get(tournament=tournament, player=people[4])
    half.partner_checked_in = None
    half.save()
    rounds.advance_tournament(tournament.pk)
    half.refresh_from_db()
    assert half.out_from_round == 1
    assert TournamentTable.objects.filter(round=round_of(tournament, 1)).count() == 1


# --- pairing, rooms and the word to the players ----------------------------------------------

def test_pairs_sit_opposite_and_rooms_follow_the_tournament(director: Any,
                                                           make_user: Callable[..., Any]
                                                           ) -> None:
    people = crowd(make_user, 8)
    tournament = make_tournament(director, people, pairs=True, talk="silent",
                                 options={"match_deals": 4, "bock": False})
    rounds.advance_tournament(tournament.pk)
    rnd = round_of(tournament, 1)
    assert rnd.status == RoundStatus.RUNNING
    assert rnd.clock_ends_at == rnd.started_at + timedelta(minutes=tournament.round_minutes)
    pairs = {e.pk: (e.player_id, e.partner_id) for e in Entrant.objects.filter(
        tournament=tournament)}
    tables_ = list(TournamentTable.objects.filter(round=rnd).order_by("number"))
    assert len(tables_) == 2
    for table in tables_:
        a, b = table.seat_entrants[0], table.seat_entrants[1]
        assert table.seat_entrants == [a, b, a, b] and a != b
        assert (table.seat_players[0], table.seat_players[2]) == pairs[a]
        assert (table.seat_players[1], table.seat_players[3]) == pairs[b]
        room = table.room
        assert room is not None
        assert room.owner_id == table.seat_players[0]
        assert not room.allow_spectators and room.visibility == "private"
        assert room.options["table_talk"] == "silent" and room.options["bock"] is False
        assert ({s.index: s.user_id for s in room.seats.all()}
                == dict(enumerate(table.seat_players)))
        match = Match.objects.get(room=room)
        assert match.status == MatchStatus.RUNNING
        assert match.rounds.get(number=1).dealer == 0  # seat 0 deals first
    told = Counter(Notification.objects.filter(kind=NoticeKind.TABLE_READY)
                   .values_list("user_id", flat=True))
    assert told == Counter(p.pk for p in people)


def test_table_ready_reaches_the_site_socket_and_the_mail(director: Any,
                                                         make_user: Callable[..., Any],
                                                         settings: Any,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         django_capture_on_commit_callbacks: Any
                                                         ) -> None:
    settings.TROCCAS_SITE_URL = "https://troccas.example"
    people = crowd(make_user, 4)
    mailed = people[0]
    mailed.invite_emails = True
    mailed.confirmed_email = mailed.email
    mailed.save()
    sent: list[tuple[int, dict[str, Any]]] = []
    effects = after_commit.effects()
    assert effects is not None
    monkeypatch.setattr(after_commit, "_effects", dataclasses.replace(
        effects, publish_site_frames=sent.extend))
    tournament = make_tournament(director, people)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.advance_tournament(tournament.pk)
    [room] = rooms_of(round_of(tournament, 1))
    # Each player hears their unread count (the new notice counted) before the frame.
    assert [f["type"] for _, f in sent] == ["notices", "table_ready"] * 4
    assert all(f["unread"] == 1 for _, f in sent if f["type"] == "notices")
    assert [u for u, _ in sent[0::2]] == [u for u, _ in sent[1::2]]
    frames = [(u, f) for u, f in sent if f["type"] == "table_ready"]
    assert sorted(u for u, _ in frames) == sorted(p.pk for p in people)
    assert all(f["type"] == "table_ready" and f["url"] == room.get_absolute_url()
               and f["text"] == f"Your tournament table {room.name} is ready."
               and f["round"] == 1 for _, f in frames)
    [message] = mail.outbox
    assert message.to == [mailed.email]
    assert f"https://troccas.example{room.get_absolute_url()}" in message.body


def test_a_finished_round_closes_and_the_next_is_paired_without_repeats(
        director: Any, make_user: Callable[..., Any]) -> None:
    people = crowd(make_user, 8)
    tournament = make_tournament(director, people, stages=(("swiss", 2, None, False),))
    rounds.advance_tournament(tournament.pk)
    play_round(tournament, 1)
    first = round_of(tournament, 1)
    assert first.status == RoundStatus.CLOSED
    for table in TournamentTable.objects.filter(round=first):
        match = Match.objects.get(room=table.room)
        assert table.outcome == TableOutcome.PLAYED
        assert (table.card_points_a, table.card_points_b) == (match.total_a, match.total_b)
        assert len(table.deal_scores) == 4 and table.bot_seats == []
        assert sum(a for a, _ in table.deal_scores) == match.total_a
    second = round_of(tournament, 2)
    assert second.status == RoundStatus.RUNNING  # its start had come: paired and started
    partners_before = {frozenset((s[0], s[2])) for s in TournamentTable.objects.filter(
        round=first).values_list("seat_entrants", flat=True)} | {
        frozenset((s[1], s[3])) for s in TournamentTable.objects.filter(
            round=first).values_list("seat_entrants", flat=True)}
    for seats in TournamentTable.objects.filter(round=second).values_list("seat_entrants",
                                                                          flat=True):
        assert frozenset((seats[0], seats[2])) not in partners_before
        assert frozenset((seats[1], seats[3])) not in partners_before
    play_round(tournament, 2)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED


def test_the_bye_rotates(director: Any, make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(director, crowd(make_user, 6), pairs=True,
                                 stages=(("swiss", 3, None, False),))
    rounds.advance_tournament(tournament.pk)
    for number in (1, 2, 3):
        play_round(tournament, number)
    byes = list(TournamentBye.objects.filter(round__tournament=tournament)
                .values_list("entrant_id", flat=True))
    assert len(byes) == 3 and len(set(byes)) == 3
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED


def test_a_final_seeds_the_top_of_the_stage_before(director: Any,
                                                   make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(director, crowd(make_user, 8), pairs=True,
                                 stages=(("swiss", 1, None, False), ("swiss", 1, 2, False)))
    rounds.advance_tournament(tournament.pk)
    play_round(tournament, 1)
    winners = set()
    for table in TournamentTable.objects.filter(round=round_of(tournament, 1)):
        a, b = table.card_points_a, table.card_points_b
        assert a != b  # a draw would make the top two a matter of tiebreaks; none here
        winners.add(table.seat_entrants[0] if a > b else table.seat_entrants[1])
    [final] = TournamentTable.objects.filter(round=round_of(tournament, 2))
    assert set(final.seat_entrants) == winners
    play_round(tournament, 2)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED


def test_a_round_robin_meets_everyone_once(director: Any, make_user: Callable[..., Any]
                                           ) -> None:
    tournament = make_tournament(director, crowd(make_user, 8), pairs=True,
                                 stages=(("round_robin", 3, None, False),))
    rounds.advance_tournament(tournament.pk)
    for number in (1, 2, 3):
        play_round(tournament, number)
    met = Counter(frozenset((s[0], s[1])) for s in TournamentTable.objects.filter(
        round__tournament=tournament).values_list("seat_entrants", flat=True))
    entrants = Entrant.objects.filter(tournament=tournament).values_list("pk", flat=True)
    assert met == Counter(frozenset(p) for p in combinations(entrants, 2))


def test_repair_before_the_start_and_not_after(director: Any, make_user: Callable[..., Any]
                                              ) -> None:
    start = timezone.now() + timedelta(seconds=30)
    tournament = make_tournament(director, crowd(make_user, 8), starts_at=start)
    # Round 1 is to start ten minutes after the tournament (its rounds made beforehand).
    stage = tournament.stages.get()
    rnd = TournamentRound.objects.create(stage=stage, tournament=tournament, number=1,
                                         starts_at=start + timedelta(minutes=10))
    # At the start the tournament runs; a minute before its own start, round 1 is paired.
    assert rounds.advance_tournament(tournament.pk, now=start) == 1
    assert rounds.advance_tournament(tournament.pk, now=rnd.starts_at - timedelta(
        seconds=59)) == 1
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PAIRED
    before = set(TournamentTable.objects.filter(round=rnd).values_list("pk", flat=True))
    assert rounds.pair_round(rnd, repair=True)
    after = set(TournamentTable.objects.filter(round=rnd).values_list("pk", flat=True))
    assert len(after) == 2 and not before & after
    rounds.advance_tournament(tournament.pk, now=rnd.starts_at)
    with pytest.raises(ServiceError) as refused:
        rounds.pair_round(rnd, repair=True)
    assert refused.value.code == "ROUND_ALREADY_STARTED"
    assert set(TournamentTable.objects.filter(round=rnd).values_list("pk", flat=True)) == after


# --- the clock -------------------------------------------------------------------------------

def _one_deal_then_the_clock(tournament: Any) -> tuple[TournamentRound, TournamentTable]:
    rounds.advance_tournament(tournament.pk)
    rnd = round_of(tournament, 1)
    [table] = TournamentTable.objects.filter(round=rnd)
    play_table(table, until=ROUND_OVER)
    assert rnd.clock_ends_at is not None
    rounds.advance_tournament(tournament.pk, now=rnd.clock_ends_at + timedelta(seconds=1))
    rnd.refresh_from_db()
    table.refresh_from_db()
    return rnd, table


def test_at_the_clock_a_table_is_scored_as_it_stands(director: Any,
                                                     make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(director, crowd(make_user, 4))
    rnd, table = _one_deal_then_the_clock(tournament)
    match = Match.objects.get(room=table.room)
    assert match.status == MatchStatus.ABANDONED  # ended through the services
    assert table.outcome == TableOutcome.AS_STANDS
    assert (table.card_points_a, table.card_points_b) == (match.total_a, match.total_b)
    assert len(table.deal_scores) == 1
    assert rnd.status == RoundStatus.CLOSED


def test_at_the_clock_the_director_decides_never_silently(director: Any,
                                                         make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(director, crowd(make_user, 4), unfinished=Unfinished.DIRECTOR)
    rnd, table = _one_deal_then_the_clock(tournament)
    assert Match.objects.get(room=table.room).status == MatchStatus.ABANDONED
    assert table.outcome == TableOutcome.PENDING and table.card_points_a is None
    assert rnd.status == RoundStatus.RUNNING
    later = rnd.clock_ends_at + timedelta(hours=1)  # type: ignore[operator]
    assert rounds.advance_tournament(tournament.pk, now=later) == 0
    # The director's adjudication (games/clubs/desk.py) is what lets the round close.
    TournamentTable.objects.filter(pk=table.pk).update(
        outcome=TableOutcome.ADJUDICATED, card_points_a=100, card_points_b=80)
    assert rounds.advance_tournament(tournament.pk, now=later) == 2  # closed, then finished
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED


def test_a_stand_in_bot_is_flagged(director: Any, make_user: Callable[..., Any]) -> None:
    # The longest grace period: the players who never came count as away since the round
    # started, and on a loaded machine playing the Partie out can outlast a minute.
    tournament = make_tournament(director, crowd(make_user, 4),
                                 options={"match_deals": 4, "stand_in_seconds": 600})
    rounds.advance_tournament(tournament.pk)
    [table] = TournamentTable.objects.filter(round=round_of(tournament, 1))
    assert table.room is not None
    people = people_of(table)
    bots.away(people[3], table.room.code, 3600)  # past the grace period: a bot stands in
    bots.play_out(table.room.code, people)
    rounds.advance_tournament(tournament.pk)
    table.refresh_from_db()
    assert table.outcome == TableOutcome.PLAYED
    assert table.bot_seats == [3]


# --- tournament rooms are locked -------------------------------------------------------------

def test_lobby_commands_are_refused_at_a_tournament_table(director: Any,
                                                         make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(director, crowd(make_user, 4))
    rounds.advance_tournament(tournament.pk)
    [table] = TournamentTable.objects.filter(round=round_of(tournament, 1))
    assert table.room is not None
    code = table.room.code
    people = people_of(table)
    owner = people[0]
    outsider = make_user("outsider")
    for user, kind, fields in (
            (owner, "kick", {"player": people[1].pk}),
            (owner, "set_options", {"options": {"bock": False}}),
            (owner, "move_player", {"player": people[1].pk, "index": 3}),
            (owner, "transfer_owner", {"player": people[1].pk}),
            (owner, "close_room", {}),
            (people[2], "leave_seat", {}),
            (outsider, "take_seat", {"team": "A"}),
            (owner, "end_match", {})):
        before = tables.fingerprint(code)
        out = tables.submit(code, user, kind, **fields)
        assert (out.ok, out.code) == (False, "TOURNAMENT_TABLE_LOCKED"), kind
        assert tables.fingerprint(code) == before
    play_table(table)
    match = Match.objects.get(room=table.room)
    for kind, fields in (("new_match", {}), ("rematch", {"match": match.pk})):
        out = tables.submit(code, owner, kind, **fields)
        assert (out.ok, out.code) == (False, "TOURNAMENT_TABLE_LOCKED"), kind
    assert Match.objects.filter(room=table.room).count() == 1


# --- exactly once ----------------------------------------------------------------------------

def test_a_worker_killed_mid_transition_leaves_nothing(director: Any,
                                                      make_user: Callable[..., Any],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    tournament = make_tournament(director, crowd(make_user, 12))
    opened = rounds.open_table
    calls = []

    def dies_on_the_third(*args: Any) -> Room:
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("the worker was killed")
        return opened(*args)

    monkeypatch.setattr(rounds, "open_table", dies_on_the_third)
    with pytest.raises(RuntimeError):
        rounds.advance_tournament(tournament.pk)
    rnd = round_of(tournament, 1)
    assert rnd.status == RoundStatus.PAIRED and rnd.started_at is None  # the pairing held
    assert not Room.objects.exists() and not Match.objects.exists()
    assert not TournamentTable.objects.filter(round=rnd, room__isnull=False).exists()
    assert not Notification.objects.filter(kind=NoticeKind.TABLE_READY).exists()
    monkeypatch.setattr(rounds, "open_table", opened)
    assert rounds.advance_tournament(tournament.pk) == 1
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.RUNNING
    assert Room.objects.count() == 3 and Match.objects.count() == 3
    assert TournamentTable.objects.filter(round=rnd, room__isnull=False).count() == 3
    assert Notification.objects.filter(kind=NoticeKind.TABLE_READY).count() == 12
    assert rounds.advance_tournament(tournament.pk) == 0


def test_the_sweep_is_the_task_and_the_loop(director: Any, make_user: Callable[..., Any],
                                            settings: Any) -> None:
    tournament = make_tournament(director, crowd(make_user, 4))
    assert tasks.sweep_tournaments_task() == 3
    assert rounds.sweep_tournaments() == 0
    assert round_of(tournament, 1).status == RoundStatus.RUNNING
    import inspect

    from games.live import timer_loop
    assert "rounds.sweep_tournaments" in inspect.getsource(timer_loop.EmbeddedTimers)
    if settings.TROCCAS_MODE == "distributed":
        beat = settings.CELERY_BEAT_SCHEDULE["sweep-tournaments"]
        assert beat["task"] == tasks.sweep_tournaments_task.name


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="races need concurrent writers: PostgreSQL only (SQLite "
                           "serialises them)")
def test_workers_racing_make_each_transition_once(director: Any,
                                                 make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(director, crowd(make_user, 8))
    barrier = threading.Barrier(4)

    def worker() -> int:
        try:
            barrier.wait(timeout=30)
            return rounds.advance_tournament(tournament.pk)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=4) as pool:
        made = list(pool.map(lambda _: worker(), range(4)))
    assert sum(made) == 3  # the start, the pairing, the round's start: once each
    rnd = round_of(tournament, 1)
    assert rnd.status == RoundStatus.RUNNING
    assert TournamentTable.objects.filter(round=rnd).count() == 2
    assert Room.objects.count() == 2 and Match.objects.count() == 2
    assert services.connected_users(rooms_of(rnd)[0].code) == []
    assert Notification.objects.filter(kind=NoticeKind.TABLE_READY).count() == 8


def test_a_player_who_never_comes_is_away_from_the_start(
        director: Any, make_user: Callable[..., Any], time_machine: Any) -> None:
    """Nobody of the table ever opens it: each counts as away since the room opened, so a
    stand-in plays the dealer's seat once the grace period is over, not the clock."""
    tournament = make_tournament(director, crowd(make_user, 4))
    rounds.advance_tournament(tournament.pk)
    [table] = TournamentTable.objects.filter(round=round_of(tournament, 1))
    assert table.room is not None
    code = table.room.code
    assert bots.bot_to_act(code) is None  # within the grace period
    time_machine.move_to(timezone.now() + timedelta(seconds=61), tick=False)
    turn = bots.bot_to_act(code)
    assert turn is not None and turn.seat == 0
    assert turn.stand_in_for == people_of(table)[0].pk


def test_the_idle_sweep_leaves_a_tournament_table_to_its_clock(
        director: Any, make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(director, crowd(make_user, 4))
    rounds.advance_tournament(tournament.pk)
    [table] = TournamentTable.objects.filter(round=round_of(tournament, 1))
    later = timezone.now() + timedelta(hours=1)
    assert services.sweep_idle_matches(now=later) == 0
    assert Match.objects.get(room=table.room).status == MatchStatus.RUNNING

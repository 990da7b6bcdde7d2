"""Find a game (issue #24 item 15; games/services/matchmaking.py): joining, forming a table of
four people with compatible house rules, "any", the bots offer, leaving, the sweep, and the
site-socket frames each change sends after commit."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from games import services
from games.engine.errors import ErrorCode
from games.models import (
    Block,
    MatchStatus,
    QueueEntry,
    QueueStatus,
    Room,
    Seat,
    SitePresence,
    after_commit,
)
from games.services import matchmaking
from games.services.errors import ServiceError
from games.services.rooms import DEFAULT_TURN_SECONDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name) for name in
            ("mengia", "gion", "ursina", "flurin", "seraina", "duri", "ladina", "reto")]


@pytest.fixture
def frames() -> Iterator[list[tuple[int, dict[str, Any]]]]:
    """Every site-socket frame the queue sends, as (user id, frame), recorded at commit."""
    sent: list[tuple[int, dict[str, Any]]] = []
    before = after_commit.effects()
    assert before is not None
    after_commit.register(dataclasses.replace(
        before, publish_queue=lambda user_id, frame: sent.append((user_id, frame))))
    yield sent
    after_commit.register(before)


def _status(user: Any) -> str:
    return str(QueueEntry.objects.get(user=user).status)


def _refused(code: ErrorCode, call: Callable[[], Any]) -> None:
    with pytest.raises(ServiceError) as caught:
        call()
    assert caught.value.code == code


def _backdate(user: Any, seconds: int, field: str = "joined") -> None:
    QueueEntry.objects.filter(user=user).update(
        **{field: timezone.now() - timedelta(seconds=seconds)})


# --- compatibility -----------------------------------------------------------------------------

def test_any_is_compatible_with_every_value_and_named_values_must_agree() -> None:
    assert matchmaking.compatible({}, {"match_deals": 8})
    assert matchmaking.compatible({"match_deals": 8}, {})
    assert matchmaking.compatible({"match_deals": 8, "bock": True}, {"match_deals": 8})
    assert not matchmaking.compatible({"match_deals": 8}, {"match_deals": 4})
    assert not matchmaking.compatible({"bock": True, "regame_by": "any"},
                                      {"bock": True, "regame_by": "owner"})


def test_bock_triggers_are_a_set_whatever_their_order() -> None:
    a = matchmaking.normalize_rules({"bock_triggers": ["all_tricks", "tie"]})
    b = matchmaking.normalize_rules({"bock_triggers": ["tie", "all_tricks", "tie"]})
    assert a == b == {"bock_triggers": ["tie", "all_tricks"]}


def test_pick_four_skips_a_conflicting_player_and_keeps_join_order(people: list[Any]) -> None:
    rules = [{"match_deals": 4}, {"match_deals": 8}, {}, {"match_deals": 4}, {}]
    entries = [QueueEntry(user=u, rules=r) for u, r in zip(people, rules, strict=False)]
    found = matchmaking.pick_four(entries)
    assert found is not None
    group, merged = found
    assert [e.user for e in group] == [people[0], people[2], people[3], people[4]]
    assert merged == {"match_deals": 4}


# --- forming -----------------------------------------------------------------------------------

def test_four_compatible_people_get_a_rated_table_at_once(people: list[Any]) -> None:
    four = people[:4]
    matchmaking.join(four[0], {"scart_forbidden": "none"}, 300)
    matchmaking.join(four[1], {}, None)
    matchmaking.join(four[2], {"scart_forbidden": "none", "match_deals": 8}, None)
    assert {_status(u) for u in four[:3]} == {QueueStatus.WAITING}
    matchmaking.join(four[3], {"bock": False}, 60)

    entries = list(QueueEntry.objects.filter(user__in=four))
    assert {e.status for e in entries} == {QueueStatus.SEATED}
    room = entries[0].room
    assert room is not None and all(e.room == room for e in entries)
    match = room.current_match
    assert match is not None and match.status == MatchStatus.RUNNING and match.rated
    # The longest-waiting owns the table and deals first; the others sit in join order.
    assert room.owner == four[0]
    assert [match.player_0, match.player_1, match.player_2, match.player_3] == four
    # What they named, the standard for the rest, and the people's turn timer.
    options = services.rules_of(room).to_json()
    assert options["scart_forbidden"] == "none" and options["match_deals"] == 8
    assert options["bock"] is False and options["reveal_seconds"] == 5
    assert options["turn_seconds"] == DEFAULT_TURN_SECONDS


def test_players_whose_rules_conflict_wait_until_a_compatible_fourth_comes(
        people: list[Any]) -> None:
    for user in people[:3]:
        matchmaking.join(user, {"match_deals": 4}, None)
    matchmaking.join(people[3], {"match_deals": 8}, None)
    assert Room.objects.count() == 0
    view = matchmaking.view_of(people[0])
    assert view is not None and view.waiting == 3
    other = matchmaking.view_of(people[3])
    assert other is not None and other.waiting == 1
    matchmaking.join(people[4], {}, None)  # "any": completes the table of the three
    assert _status(people[3]) == QueueStatus.WAITING
    room = QueueEntry.objects.get(user=people[4]).room
    assert room is not None and services.rules_of(room).match_deals == 4
    assert {e.user_id for e in QueueEntry.objects.filter(room=room)} == {
        u.pk for u in (*people[:3], people[4])}


def test_two_people_of_whom_one_blocked_the_other_never_share_a_table(
        people: list[Any]) -> None:
    Block.objects.create(blocker=people[0], blocked=people[1])
    for user in people[:4]:
        matchmaking.join(user, {}, None)
    assert Room.objects.count() == 0
    matchmaking.join(people[4], {}, None)
    room = QueueEntry.objects.get(user=people[0]).room
    assert room is not None
    assert _status(people[1]) == QueueStatus.WAITING


def test_someone_seated_in_a_running_match_cannot_queue(people: list[Any]) -> None:
    services.create_practice_table(people[0], "easy")
    before = QueueEntry.objects.count()
    _refused(ErrorCode.QUEUE_SEATED_IN_MATCH, lambda: matchmaking.join(people[0], {}, None))
    assert QueueEntry.objects.count() == before


def test_bad_input_is_refused_and_changes_nothing(people: list[Any]) -> None:
    user = people[0]
    _refused(ErrorCode.INVALID_OPTIONS, lambda: matchmaking.join(user, {"match_deals": 5}, None))
    _refused(ErrorCode.INVALID_OPTIONS, lambda: matchmaking.join(user, {"colour": 1}, None))
    _refused(ErrorCode.INVALID_OPTIONS, lambda: matchmaking.join(user, ["bock"], None))
    _refused(ErrorCode.INVALID_FIELD, lambda: matchmaking.join(user, {}, 7))
    _refused(ErrorCode.INVALID_FIELD, lambda: matchmaking.join(user, {}, True))
    assert not QueueEntry.objects.filter(user=user).exists()
    _refused(ErrorCode.QUEUE_NOT_WAITING, lambda: matchmaking.leave(user))
    _refused(ErrorCode.QUEUE_NOT_WAITING, lambda: matchmaking.play_with_bots(user, "easy"))
    matchmaking.join(user, {"bock": True}, 60)
    _refused(ErrorCode.QUEUE_ALREADY_WAITING, lambda: matchmaking.join(user, {}, None))
    entry = QueueEntry.objects.get(user=user)
    assert entry.rules == {"bock": True} and entry.bots_after == 60


def test_leave_and_join_again(people: list[Any]) -> None:
    user = people[0]
    matchmaking.join(user, {}, None)
    matchmaking.leave(user)
    assert _status(user) == QueueStatus.LEFT
    _refused(ErrorCode.QUEUE_NOT_WAITING, lambda: matchmaking.leave(user))
    matchmaking.join(user, {"bock": True}, None)
    assert _status(user) == QueueStatus.WAITING
    assert QueueEntry.objects.filter(user=user).count() == 1


# --- the bots offer ----------------------------------------------------------------------------

def test_bots_only_after_the_chosen_wait_and_only_when_pressed(people: list[Any]) -> None:
    asker, never, other = people[:3]
    matchmaking.join(asker, {"match_deals": 8}, 60)
    matchmaking.join(never, {}, None)
    matchmaking.join(other, {}, 120)
    _refused(ErrorCode.QUEUE_BOTS_NOT_YET, lambda: matchmaking.play_with_bots(asker, "easy"))
    view = matchmaking.view_of(asker)
    assert view is not None and not view.bots_offered
    for user in (asker, never, other):
        _backdate(user, 200)
    # However long they wait, the sweep never seats anyone with bots (200 s: past both
    # offers, within TROCCAS_QUEUE_MAX_WAIT).
    matchmaking.sweep()
    assert Room.objects.count() == 0
    _refused(ErrorCode.QUEUE_BOTS_NOT_YET, lambda: matchmaking.play_with_bots(never, "easy"))
    _refused(ErrorCode.BOT_LEVEL_UNKNOWN, lambda: matchmaking.play_with_bots(asker, "wizard"))
    view = matchmaking.view_of(asker)
    assert view is not None and view.bots_offered

    room = matchmaking.play_with_bots(asker, "strong")
    entry = QueueEntry.objects.get(user=asker)
    assert entry.status == QueueStatus.BOTS and entry.room == room
    match = room.current_match
    assert match is not None and match.status == MatchStatus.RUNNING and not match.rated
    assert sum(s.user.is_bot for s in room.seats.select_related("user")) == 3
    assert services.rules_of(room).match_deals == 8
    assert services.rules_of(room).turn_seconds == 0
    # The others keep waiting.
    assert {_status(never), _status(other)} == {QueueStatus.WAITING}


# --- the sweep -------------------------------------------------------------------------------

# After commit: a transaction of its own, as a request's.
@pytest.mark.django_db(transaction=True)
@override_settings(TROCCAS_QUEUE_MAX_WAIT=1800)
def test_the_sweep_ends_a_wait_older_than_the_maximum(people: list[Any],
                                                     frames: list[Any]) -> None:
    old, new = people[:2]
    for user in (old, new):
        matchmaking.join(user, {}, None)
        SitePresence.objects.create(user=user, channel_name=f"c-{user.pk}")
    _backdate(old, 1801)
    frames.clear()
    matchmaking.sweep()
    assert _status(old) == QueueStatus.EXPIRED and _status(new) == QueueStatus.WAITING
    assert (old.pk, {"type": "queue_left", "reason": "expired"}) in frames
    view = matchmaking.view_of(old)
    assert view is not None and view.status == QueueStatus.EXPIRED


# After commit: a transaction of its own, as a request's.
@pytest.mark.django_db(transaction=True)
@override_settings(TROCCAS_QUEUE_GRACE_SECONDS=60)
def test_a_dropped_socket_keeps_the_place_for_the_grace_period(people: list[Any],
                                                              frames: list[Any]) -> None:
    away, here = people[:2]
    for user in (away, here):
        matchmaking.join(user, {}, None)
    SitePresence.objects.create(user=here, channel_name="c-here")
    matchmaking.sweep()
    entry = QueueEntry.objects.get(user=away)
    assert entry.status == QueueStatus.WAITING and entry.away_since is not None
    assert QueueEntry.objects.get(user=here).away_since is None
    matchmaking.sweep()  # still within the grace period
    assert _status(away) == QueueStatus.WAITING
    # Back within the grace period: the place is kept and the mark cleared.
    SitePresence.objects.create(user=away, channel_name="c-away")
    matchmaking.sweep()
    assert QueueEntry.objects.get(user=away).away_since is None
    SitePresence.objects.filter(user=away).delete()
    matchmaking.sweep()
    _backdate(away, 61, "away_since")
    frames.clear()
    matchmaking.sweep()
    assert _status(away) == QueueStatus.GONE and _status(here) == QueueStatus.WAITING
    assert (away.pk, {"type": "queue_left", "reason": "gone"}) in frames


def test_the_sweep_forms_a_table_a_join_left_unformed(people: list[Any],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    form = matchmaking.form_tables
    monkeypatch.setattr(matchmaking, "form_tables", lambda: [])
    for user in people[:4]:
        matchmaking.join(user, {}, None)
        SitePresence.objects.create(user=user, channel_name=f"c-{user.pk}")
    assert Room.objects.count() == 0
    monkeypatch.setattr(matchmaking, "form_tables", form)
    matchmaking.sweep()
    assert {_status(u) for u in people[:4]} == {QueueStatus.SEATED}


# --- frames ----------------------------------------------------------------------------------

# After commit: a transaction of its own, as a request's.
@pytest.mark.django_db(transaction=True)
def test_frames_tell_the_count_the_table_and_the_leave(people: list[Any],
                                                       frames: list[Any]) -> None:
    matchmaking.join(people[0], {}, 300)
    assert frames[-1] == (people[0].pk, {"type": "queue", "status": "waiting", "waiting": 1,
                                         "waited": 0, "bots_after": 300,
                                         "bots_offered": False})
    matchmaking.join(people[1], {"match_deals": 8}, None)
    latest = {uid: f for uid, f in frames if f["type"] == "queue"}
    assert latest[people[0].pk]["waiting"] == 2 and latest[people[1].pk]["waiting"] == 2
    matchmaking.join(people[5], {"match_deals": 4}, None)
    latest = {uid: f for uid, f in frames if f["type"] == "queue"}
    assert latest[people[5].pk]["waiting"] == 2 and latest[people[1].pk]["waiting"] == 2
    assert latest[people[0].pk]["waiting"] == 3

    matchmaking.leave(people[5])
    assert (people[5].pk, {"type": "queue_left", "reason": "left"}) in frames
    frames.clear()
    matchmaking.join(people[2], {}, None)
    matchmaking.join(people[3], {}, None)
    tables = [(uid, f) for uid, f in frames if f["type"] == "queue_table"]
    room = QueueEntry.objects.get(user=people[0]).room
    assert room is not None
    assert sorted(uid for uid, _ in tables) == sorted(u.pk for u in people[:4])
    assert all(f == {"type": "queue_table", "room": room.code, "bots": False}
               for _, f in tables)


# After commit: a transaction of its own, as a request's.
@pytest.mark.django_db(transaction=True)
def test_a_refused_join_sends_nothing(people: list[Any], frames: list[Any]) -> None:
    matchmaking.join(people[0], {}, None)
    frames.clear()
    _refused(ErrorCode.QUEUE_ALREADY_WAITING, lambda: matchmaking.join(people[0], {}, None))
    assert frames == []


# --- races -------------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_formers_racing_in_threads_never_seat_anyone_twice(people: list[Any]) -> None:
    """Eight people wait (their rows written as joins left them, before any forming); four
    threads — four processes' requests or sweeps — form at once, each on its own database
    connection. Two tables of four come out, and nobody sits at both (PostgreSQL's row locks in
    the distributed run, SQLite's one writer in the embedded)."""
    import threading

    from django.db import connection

    now = timezone.now()
    for n, user in enumerate(people):
        QueueEntry.objects.create(user=user, status=QueueStatus.WAITING, rules={},
                                  bots_after=None, joined=now - timedelta(seconds=10 - n))
    start = threading.Barrier(4)
    formed: list[Any] = []
    failures: list[Exception] = []

    def former() -> None:
        try:
            start.wait(timeout=30)
            formed.extend(matchmaking.form_tables())
        except Exception as exc:  # noqa: BLE001 - reported below, not lost in the thread
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=former) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    assert not failures, failures
    assert len(formed) == 2
    seated = [s.user_id for room in formed for s in Seat.objects.filter(room=room)]
    assert sorted(seated) == sorted(p.pk for p in people)
    assert set(QueueEntry.objects.values_list("status", flat=True)) == {QueueStatus.SEATED}

"""Find a game's forming under concurrency, on PostgreSQL (issue #24 item 15): several
processes (ASGI workers joining, Celery's sweep) forming at the same moment never seat one
person twice, never at two tables, and leave nobody who could be seated waiting.

Threads, each on its own database connection, are released together by a barrier, as
tests/services/test_writer_races.py does. (SQLite serialises writers and is not raced here.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games.models import QueueEntry, QueueStatus, Room, Seat
from games.services import matchmaking
from tests.support.races import race

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="races need concurrent writers: PostgreSQL only"),
]




def assert_each_person_seated_once(people: list[Any], tables: int) -> None:
    seats = Counter(Seat.objects.filter(user__in=people).values_list("user_id", flat=True))
    assert all(n == 1 for n in seats.values()), seats
    assert len(seats) == 4 * tables
    assert Room.objects.count() == tables
    entries = QueueEntry.objects.filter(user__in=people)
    assert sum(e.status == QueueStatus.SEATED for e in entries) == 4 * tables
    for room in Room.objects.all():
        assert room.seats.count() == 4
        assert room.current_match is not None and room.current_match.rated


def test_eight_people_joining_at_once_fill_two_tables(make_user: Callable[..., Any]) -> None:
    people = [make_user(f"racer{n}") for n in range(8)]
    def joiner(user: Any) -> Callable[[], Any]:
        return lambda: matchmaking.join(user, {}, None)

    race([joiner(u) for u in people])
    assert_each_person_seated_once(people, 2)


def test_formers_racing_over_the_same_waiting_people(make_user: Callable[..., Any]) -> None:
    # Seven wait with rules that keep them apart in pairs; the eighth's join makes them
    # formable all at once, and the sweep runs from four other "processes" at that moment.
    people = [make_user(f"waiter{n}") for n in range(9)]
    for user in people[:3]:
        matchmaking.join(user, {"bock": True}, None)
    for user in people[3:7]:
        matchmaking.join(user, {"bock": False, "match_deals": 8}, None)
    # Those four formed a table at once; three wait for a fourth with Bock rounds on.
    assert Room.objects.count() == 1
    calls: list[Callable[[], Any]] = [matchmaking.form_tables] * 4
    calls.append(lambda: matchmaking.join(people[7], {}, None))
    calls.append(lambda: matchmaking.join(people[8], {"bock": True}, None))
    race(calls)
    seated = people[:8] if QueueEntry.objects.get(user=people[7]).status == "seated" else \
        [*people[:7], people[8]]
    assert_each_person_seated_once(seated, 2)
    # Of the last two, one was seated and the other waits: a table needs four.
    assert QueueEntry.objects.filter(user__in=people[7:], status=QueueStatus.WAITING).count() == 1

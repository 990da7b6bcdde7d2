"""Registration under concurrency, on PostgreSQL (issue #26 item 2): players taking the last
places at the same moment never overfill the tournament, and a withdrawal racing
registrations promotes exactly one waiting entrant into the freed place. Threads, each on its
own database connection, are released together by a barrier (as
tests/services/test_matchmaking_races.py does; SQLite serialises writers and is not raced)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games.clubs import tournaments
from games.models import Entrant, EntrantStatus
from tests.support.races import race

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="races need concurrent writers: PostgreSQL only"),
]




def create(director: Any, capacity: int) -> Any:
    now = timezone.now()
    return tournaments.create_tournament(
        director, name="Turnier", language="rm", capacity=capacity,
        registration_closes=now + timedelta(days=1), starts_at=now + timedelta(days=2),
        stages=[{"rounds": 3}])


def registered(t: Any) -> int:
    return Entrant.objects.filter(tournament=t, status=EntrantStatus.REGISTERED).count()


def test_eight_players_racing_for_four_places(make_user: Callable[..., Any]) -> None:
    t = create(make_user("director"), capacity=4)
    people = [make_user(f"racer{n}") for n in range(8)]
    race([(lambda u=u: tournaments.register(u, t)) for u in people])
    assert registered(t) == 4
    assert Entrant.objects.filter(tournament=t, status=EntrantStatus.WAITING).count() == 4


def test_withdrawals_racing_promote_one_waiting_entrant_each(
        make_user: Callable[..., Any]) -> None:
    t = create(make_user("director"), capacity=4)
    people = [make_user(f"p{n}") for n in range(8)]
    for user in people:
        tournaments.register(user, t)
    late = [make_user(f"late{n}") for n in range(2)]
    calls: list[Callable[[], Any]] = [lambda u=u: tournaments.withdraw(u, t)
                                      for u in people[:3]]
    calls += [lambda u=u: tournaments.register(u, t) for u in late]
    race(calls)
    assert registered(t) == 4
    # The first three in line moved up, in registration order.
    promoted = set(Entrant.objects.filter(tournament=t, status=EntrantStatus.REGISTERED)
                   .values_list("player_id", flat=True))
    assert promoted == {people[3].pk, people[4].pk, people[5].pk, people[6].pk}

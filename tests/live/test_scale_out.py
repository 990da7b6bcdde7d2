"""Scale out (issue #16 item 4, docs/operations.md "Capacity and scaling out"): one table whose
sockets are spread over three ASGI processes plays a whole deal, its bot and its reveal timer
run on two Celery workers, and every socket sees the same table.

Distributed mode on PostgreSQL only: three uvicorn processes and two Celery workers on the
test's own database and a Redis database index of their own (broker and channel layer). Seats:
the owner 0, Anna 1 and Benedetg 2 are people, seat 3 is an easy bot; Curdin looks on as a
spectator. The owner and Curdin are on server 1, Anna on server 2, Benedetg on server 3. Every
command is sent over a socket, each person acting from their own seat's view; the bot's turns
and the reveal window's end are Celery tasks, taken by whichever worker is free.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from games import services
from games.models import Connection, Match, RoundAction
from tests.support.remote import Player, session_cookie
from tests.support.servers import Proc, Processes, Server, requires_distributed_postgres

pytestmark = [requires_distributed_postgres, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(150)]

# Reserved for this module: flushed before and after the test (see tests/support/servers.py).
REDIS_INDEX = 13
# A deal is about 80 versions; on a healthy machine it takes well under 20 s.
DEAL_BOUND = 90.0
# The longest the table may wait on a bot or a timer before the test gives up.
STEP_BOUND = 20.0


class Person(Player):
    """A tab that also remembers the version its last command was acknowledged at, so it
    never acts on a view older than its own last move."""

    def __init__(self, name: str, user: Any, cookie: str, code: str) -> None:
        super().__init__(name, user, cookie, code)
        self.acked = -1


class Cluster:
    def __init__(self, servers: list[Server], workers: list[Proc]) -> None:
        self.servers = servers
        self.workers = workers


@pytest.fixture
def cluster(server_procs: Processes) -> Cluster:
    servers = server_procs.servers(3, wait=False)
    workers = [server_procs.worker(f"worker {n}", wait=False) for n in (1, 2)]
    # All five start together (a Django start-up each); then each is waited for.
    server_procs.ready(*servers, *workers)
    return Cluster(servers, workers)


def acted(worker: Proc) -> dict[str, int]:
    """How many tasks of each name this worker ran that changed a table (returned True)."""
    counts: dict[str, int] = {}
    for name in re.findall(r"(games\.\w+)\[[0-9a-f-]+\] succeeded in [0-9.e-]+s: True",
                           worker.output()):
        counts[name] = counts.get(name, 0) + 1
    return counts


async def move(p: Person) -> bool:
    """If this person's own view (at the version they last acknowledged) says they are to
    act, act as it allows; True if they did."""
    view = p.view
    if view is None or p.version < p.acked:
        return False
    actions = view["actions"]
    if actions["deal"]:
        p.acked = await p.send("deal_next_pass")
    elif actions["scart"]:
        p.acked = await p.send("discard_scart", cards=actions["scart_allowed"][:2])
    elif actions["play"]:
        p.acked = await p.send("play_card", card=actions["legal_cards"][0])
    else:
        return False
    return True


async def everyone_at(players: Sequence[Player], version: int) -> None:
    """Each socket receives the table's state at `version`."""
    def at(frame: dict[str, Any]) -> bool:
        return bool(frame["type"] == "state" and frame["version"] == version)

    await asyncio.gather(*(p.wait_for(at) for p in players))


def view_of(p: Player) -> dict[str, Any]:
    assert p.view is not None, p.name
    return p.view


async def settle(players: Sequence[Player], after: int) -> None:
    """Wait until some socket holds a version above `after` (a bot or a timer moved)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + STEP_BOUND
    while max(p.version for p in players) <= after:
        assert loop.time() < end, [(p.name, p.version, p.view and p.view["phase"])
                                   for p in players]
        await asyncio.sleep(0.02)


async def play_deal(cluster: Cluster, players: list[Person]) -> None:
    one, two, three = cluster.servers
    owner, anna, benedetg, curdin = players
    for p, server in zip(players, (one, two, three, one), strict=True):
        await p.connect(server)
    # Seating goes over the sockets too: each move made on one server reaches the others.
    for p, kind, fields in ((anna, "take_seat", {"team": "B"}),
                            (benedetg, "take_seat", {"team": "A"}),
                            (owner, "seat_bot", {"index": 3, "level": "easy"}),
                            (owner, "start_round", {})):
        await everyone_at(players, await p.send(kind, **fields))
    assert [view_of(p)["seat"] for p in players] == [0, 1, 2, None]
    people = [owner, anna, benedetg]
    loop = asyncio.get_running_loop()
    end = loop.time() + DEAL_BOUND
    while view_of(curdin)["phase"] != "ROUND_OVER":
        assert loop.time() < end, view_of(curdin)["phase"]
        before = max(p.version for p in players)
        moved = False
        for p in people:
            if await move(p):
                moved = True
                break
        if moved:
            continue
        if all(p.version == before for p in players):
            # Every socket is up to date and no person may act: the bot's turn or the reveal
            # window, both on a Celery worker.
            await settle(players, before)
        else:
            await asyncio.sleep(0.02)  # a view not yet arrived
    await everyone_at(players, max(p.version for p in players))


def open_channels(code: str) -> list[str]:
    """The channel names of the room's open sockets, read on a thread of asgiref's whose
    connection is closed after (a connection left open would keep the test database from
    being dropped)."""
    try:
        return list(Connection.objects.filter(room__code=code, closed_at__isnull=True)
                    .values_list("channel_name", flat=True))
    finally:
        connection.close()


def check_versions(p: Player) -> None:
    """This socket received every version's state, in order, none skipped (presence changes
    re-send the current version, which is allowed)."""
    seen = [f["version"] for f in p.frames if f["type"] == "state"]
    steps = {b - a for a, b in zip(seen, seen[1:], strict=False)}
    assert steps <= {0, 1}, (p.name, seen)


def test_a_table_spread_over_three_servers_and_two_workers_plays_a_deal(
        cluster: Cluster, make_user: Any) -> None:
    names = ("owner", "anna", "benedetg", "curdin")
    users = [make_user(n) for n in names]
    room = services.create_room(users[0], {"reveal_seconds": 2})
    players = [Person(n, u, session_cookie(u), room.code)
               for n, u in zip(names, users, strict=True)]

    async def scenario() -> None:
        try:
            await play_deal(cluster, players)
            # The four sockets are on three processes (each has a channel layer of its own,
            # whose channel names share one prefix).
            channels = await sync_to_async(open_channels)(room.code)
            assert len(channels) == 4 and len({c.split("!")[0] for c in channels}) == 3, \
                channels
        finally:
            await asyncio.gather(*(p.close() for p in players), return_exceptions=True)

    asyncio.run(scenario())

    for p in players:
        check_versions(p)
    final = {p.version for p in players}
    assert len(final) == 1, [(p.name, p.version) for p in players]
    match = Match.objects.get(room=room)
    assert match.deals_played == 1
    for p in players:
        view = view_of(p)
        assert view["phase"] == "ROUND_OVER"
        assert view["totals"] == {"A": match.total_a, "B": match.total_b}, p.name
        assert view["match"]["deals"][-1]["running"] == [match.total_a, match.total_b], p.name
    assert not [e for p in players for e in p.errors()]
    # The whole deal happened, the bot's 19 cards among it, and every action is persisted.
    log = RoundAction.objects.filter(room=room)
    assert log.filter(kind="play_card").count() == 4 * 19
    assert log.filter(kind="play_card", actor__is_bot=True).count() == 19
    assert log.order_by("-version").values_list("version", flat=True)[0] == final.pop()
    # Both workers did real work: bot turns (and the reveal timer) that moved the table.
    work = [acted(w) for w in cluster.workers]
    assert all(w.get("games.bot_turn", 0) >= 1 for w in work), work
    assert sum(w.get("games.bot_turn", 0) for w in work) >= 19, work
    assert sum(w.get("games.wake_deal", 0) for w in work) == 1, work

"""Two ASGI processes serve one table (ARCHITECTURE.md "Two modes", issue #4): players on
either server see every move, and when one server dies its players reconnect to the other and
play on from the same version.

Distributed mode on PostgreSQL only: two real uvicorn processes on the test's own database and
a Redis database index of their own (the channel layer they share); the players are real
websocket clients with session cookies made for them in the test database.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from games import services
from tests import personas
from tests.support.remote import Player, session_cookie
from tests.support.servers import Processes, Server, requires_distributed_postgres

pytestmark = [requires_distributed_postgres, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(120)]

# Reserved for this module: flushed before and after the test.
REDIS_INDEX = 15


@pytest.fixture
def servers(server_procs: Processes) -> list[Server]:
    return server_procs.servers(2)


async def everyone_sees(players: list[Player], version: int) -> None:
    """Each tab receives the table at `version` (its own seat's view, from its own server)."""
    await asyncio.gather(*(p.wait_for(lambda f: f["type"] == "state"
                                      and f["version"] == version) for p in players))


async def act(players: list[Player], actor: Player, kind: str, **fields: Any) -> int:
    version = await actor.send(kind, **fields)
    await everyone_sees(players, version)
    return version


async def play(servers: list[Server], players: list[Player]) -> None:
    one, two = servers
    owner, anna, benedetg, curdin = players
    # Owner and anna on server 1, benedetg and curdin on server 2.
    for p, server in zip(players, (one, one, two, two), strict=True):
        await p.connect(server)
    assert len({p.version for p in players}) == 1
    # Moves made on server 2 reach the tabs on server 1, and the other way round.
    await act(players, anna, "take_seat", team="B")
    await act(players, benedetg, "take_seat", team="A")
    await act(players, curdin, "take_seat", team="B")
    assert [p.view["seat"] for p in players] == [0, 1, 2, 3]
    await act(players, owner, "start_round")
    assert owner.view["phase"] == "DEALING" and owner.view["dealer"] == 0
    version = await act(players, owner, "deal_next_pass")
    before = {p.name: p.view for p in (owner, anna)}

    # Server 1 dies mid-deal; its players notice and reconnect to server 2.
    one.proc.kill()
    await asyncio.gather(owner.wait_closed(), anna.wait_closed())
    for p in (owner, anna):
        state = await p.connect(two)
        # The full current view of their own seat, at the very version they last saw.
        assert state["version"] == version, (p.name, state["version"], version)
        for key in ("seat", "phase", "dealer", "hand"):
            assert state["view"][key] == before[p.name][key], (p.name, key)
    # And the table plays on: the next pass reaches all four, now all on server 2.
    after = await act(players, owner, "deal_next_pass")
    assert after == version + 1
    assert all(p.view["phase"] == "DEALING" for p in players)
    assert len(owner.view["hand"]) > len(before["owner"]["hand"])
    assert not [e for p in players for e in p.errors()]


def test_two_servers_share_a_table_and_survive_one_dying(
        servers: list[Server], make_user: Any) -> None:
    names = [p.name for p in personas.SEATED]
    users = [make_user(n) for n in names]
    room = services.create_room(users[0], {"reveal_seconds": 2})
    players = [Player(n, u, session_cookie(u), room.code)
               for n, u in zip(names, users, strict=True)]

    async def scenario() -> None:
        try:
            await play(servers, players)
        finally:
            await asyncio.gather(*(p.close() for p in players), return_exceptions=True)

    asyncio.run(scenario())

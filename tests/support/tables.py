"""Service-level helpers for live-table tests: seat a table, drive it to a phase, read its rows.

Everything here is synchronous and goes through `games.services` (the one writer), exactly as a
consumer would; async tests wrap the calls in `sync_to_async`. Seating used throughout is that
of tests/personas.py: owner A/0, anna B/1, benedetg A/2, curdin B/3 — the owner's seat 0 deals
first, seat 1 leads.
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import services
from games.engine import (
    DEALING,
    LOBBY,
    MATCH_OVER,
    PLAY,
    REVEAL,
    ROUND_OVER,
    SCART,
    MatchState,
    from_json,
    legal_actions,
)
from games.live.protocol import Command
from games.models import Room, Round, RoundAction
from tests import personas
from tests.support.live import TableClient

# Phases in the order a deal walks through them.
_ORDER = [LOBBY, DEALING, REVEAL, SCART, PLAY, ROUND_OVER, MATCH_OVER]


def cmd(type_: str, expected_version: int | None = None, action_id: str | None = None,
        **fields: Any) -> Command:
    return Command(type_, action_id or uuid.uuid4().hex, expected_version, fields)


def version(code: str) -> int:
    return Room.objects.get(code=code).version


def action_count(code: str) -> int:
    return RoundAction.objects.filter(room__code=code).count()


def fingerprint(code: str) -> tuple[int, int]:
    """What must not move when a message is refused: the version and the action log."""
    return version(code), action_count(code)


def submit(code: str, user: Any, type_: str, **fields: Any) -> services.Outcome:
    """Submit at the table's current version (a client that is up to date)."""
    return services.submit(code, user, cmd(type_, version(code), **fields))


def must(code: str, user: Any, type_: str, **fields: Any) -> services.Outcome:
    out = submit(code, user, type_, **fields)
    assert out.ok and not out.duplicate, (type_, out)
    return out


def seat_table(owner: Any, players: list[Any], options: dict[str, Any] | None = None,
               **room: Any) -> Room:
    """A room with four seated players, A-B-A-B as in tests/personas.py: the owner 0 (seated
    by create_room), players[0] 1, [1] 2, [2] 3 — each takes the first free seat of its team."""
    r = services.create_room(owner, options, **room)
    for user, persona in zip(players, personas.PLAYERS, strict=True):
        must(r.code, user, "take_seat", team=persona.team)
    return Room.objects.get(pk=r.pk)


def state(code: str) -> MatchState | None:
    rnd = Round.objects.filter(match__room__code=code).order_by("-pk").first()
    room = Room.objects.get(code=code)
    if rnd is None or room.current_match_id is None:
        return None
    return from_json(rnd.engine_state)


def phase(code: str) -> str:
    st = state(code)
    return LOBBY if st is None else st.phase


def current_round(code: str) -> Round:
    return Round.objects.filter(match__room__code=code).order_by("-pk").first()


def expire_deadline(code: str) -> None:
    """Move the running deal's timer into the past (the test's clock jump)."""
    updated = Round.objects.filter(pk=current_round(code).pk, deadline__isnull=False).update(
        deadline=timezone.now() - timedelta(seconds=1))
    assert updated == 1, "the deal has no timer running"


def advance(code: str, by_seat: dict[int, Any], target: str) -> MatchState | None:
    """Drive the table with legal moves until `target` (DEALING … ROUND_OVER) is reached.

    The owner starts; the dealer deals; the reveal window is closed by a sweep after the
    deadline is moved into the past; the dealer discards the lowest allowed cards; the seat on
    turn plays its first legal card. No BUOB calls."""
    owner = Room.objects.get(code=code).owner
    for _ in range(200):
        st = state(code)
        ph = LOBBY if st is None else st.phase
        if ph == target:
            return st
        assert _ORDER.index(ph) < _ORDER.index(target), (ph, target)
        if ph == LOBBY:
            must(code, owner, "start_round")
        elif ph == DEALING:
            must(code, by_seat[st.dealer], "deal_next_pass")
        elif ph == REVEAL:
            expire_deadline(code)
            assert services.sweep_deadlines() == 1
        elif ph == SCART:
            allowed = legal_actions(st, st.dealer)["scart_allowed"]
            must(code, by_seat[st.dealer], "discard_scart", cards=allowed[:2])
        elif ph == PLAY:
            assert st.deal is not None and st.deal.turn is not None
            turn = st.deal.turn
            card = legal_actions(st, turn)["legal_cards"][0]
            must(code, by_seat[turn], "play_card", card=card)
        else:  # pragma: no cover
            raise AssertionError(ph)
    raise AssertionError(f"{target} not reached")


# --- sockets -------------------------------------------------------------------------------

async def open_tab(user: Any, code: str, name: str = "") -> TableClient:
    """A signed-in tab at the table, after its first full `state` frame."""
    c = TableClient(user, code, name or getattr(user, "username", "anonymous"))
    assert await c.connect()
    await c.wait_for(lambda m: m["type"] == "state", timeout=10)
    return c


async def answer(c: TableClient, action_id: str, timeout: float = 10) -> dict[str, Any]:
    """The server's reply (`ack` or `error`) to one command."""
    return await c.wait_for(lambda m: m["type"] in ("ack", "error")
                            and m.get("action_id") == action_id, timeout)


async def refused(c: TableClient, timeout: float = 10, hang_up: bool = True
                  ) -> tuple[dict[str, Any], int]:
    """The error frame and then the close code of a socket the server refuses; then the
    client side hangs up too (unless `hang_up` is false), so no consumer outlives the test."""
    assert c.comm is not None
    error = None
    while True:
        out = await c.comm.receive_output(timeout)
        if out["type"] == "websocket.close":
            assert error is not None, "closed without saying why"
            if hang_up:
                await c.comm.disconnect(timeout=5)
                c.comm = None
            return error, out.get("code", 1000)
        if out["type"] == "websocket.send":
            msg = json.loads(out["text"])
            c.frames.append(msg)
            if msg["type"] == "error":
                error = msg

"""The one write path for a move (games/services/writer.py `move`): read → apply → version
write → announce → write → after, run by the thread (`submit`, over backends.ThreadIO) and by
the sockets' event loop (`run_on_loop`, over a backend of the loop's); a refusal is answered
where it is found, from the table as read — no second run of the engine, no statement of its
own; a stale version, a duplicate action_id and an overdue timer likewise.

Both modes: on SQLite every move is locked; on PostgreSQL a move is first an optimistic write."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import PLAY, REVEAL, apply, legal_actions
from games.engine.cards import ids_of
from games.services import record, sql, writer
from games.services.backends import Read, ThreadIO, Write
from tests import personas
from tests.support import tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]

# What Django logs of a transaction's own markers (not statements of the writer's).
_MARKERS = ("BEGIN", "COMMIT", "ROLLBACK")


@pytest.fixture
def by_seat(owner: Any, players: list[Any]) -> dict[int, Any]:
    return personas.by_seat(owner, players)


@pytest.fixture
def at_play(by_seat: dict[int, Any]) -> tuple[str, Any, int, Any]:
    """A table in PLAY: its code, the seat on turn (user, index) and the state."""
    code = tables.seat_table(by_seat[0], [by_seat[1], by_seat[2], by_seat[3]]).code
    st = tables.advance(code, by_seat, PLAY)
    assert st is not None and st.deal is not None and st.deal.turn is not None
    return code, by_seat[st.deal.turn], st.deal.turn, st


@pytest.fixture
def engine_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The engine actions the writer applied (games/services/record.py `apply_engine`)."""
    runs: list[str] = []
    real = record.apply

    def counted(state: Any, action: dict[str, Any]) -> Any:
        runs.append(action["type"])
        return real(state, action)

    monkeypatch.setattr(record, "apply", counted)
    return runs


def _statements(ctx: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in ctx.captured_queries if q["sql"] not in _MARKERS
            and not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN"))]


class Recorded(ThreadIO):
    """The thread's backend, recording the steps the sequence asked for."""

    def __init__(self) -> None:
        self.steps: list[str] = []

    def read(self, request: Read) -> sql.MoveRead:
        self.steps.append("read")
        return super().read(request)

    def write(self, request: Write) -> bool:
        self.steps.append("write")
        return super().write(request)


def test_an_accepted_card_is_read_once_applied_once_and_written_once(
        at_play: tuple[str, Any, int, Any], engine_runs: list[str]) -> None:
    code, player, turn, st = at_play
    v, n = tables.fingerprint(code)
    card = legal_actions(st, turn)["legal_cards"][0]
    out = services.submit(code, player, tables.cmd("play_card", v, card=card))
    assert out.ok and out.version == v + 1 and not out.duplicate
    assert engine_runs == ["play_card"]
    assert tables.fingerprint(code) == (v + 1, n + 1)


def test_the_sequence_reads_then_writes(at_play: tuple[str, Any, int, Any]) -> None:
    code, player, turn, st = at_play
    v = tables.version(code)
    card = legal_actions(st, turn)["legal_cards"][0]
    io = Recorded()
    with writer.transaction.atomic():
        outcome, written = writer.run(
            writer.move(code, player, tables.cmd("play_card", v, card=card),
                        writer.Attempt(lock=True)), io)
    assert outcome.ok and written is not None and io.steps == ["read", "write"]
    assert tables.version(code) == v + 1


def test_a_card_the_engine_refuses_is_answered_from_the_read(
        at_play: tuple[str, Any, int, Any], engine_runs: list[str]) -> None:
    code, player, turn, st = at_play
    v, n = tables.fingerprint(code)
    other = ids_of(st.deal.hands[(turn + 1) % 4])[0]
    with CaptureQueriesContext(connection) as ctx:
        out = services.submit(code, player, tables.cmd("play_card", v, card=other))
    assert not out.ok and out.code == "CARD_NOT_IN_HAND" and out.version == v
    # One run of the engine, and one statement: the table's read (on PostgreSQL the optimistic
    # read; a refusal is not tried again under the lock, nor looked up in the log).
    assert engine_runs == ["play_card"]
    assert len(_statements(ctx)) == 1, _statements(ctx)
    assert tables.fingerprint(code) == (v, n)


def test_a_stale_version_is_refused_without_the_engine(
        at_play: tuple[str, Any, int, Any], engine_runs: list[str]) -> None:
    code, player, turn, st = at_play
    v, n = tables.fingerprint(code)
    card = legal_actions(st, turn)["legal_cards"][0]
    with CaptureQueriesContext(connection) as ctx:
        out = services.submit(code, player, tables.cmd("play_card", v - 1, card=card))
    assert not out.ok and out.code == "STALE_VERSION" and out.version == v
    assert engine_runs == [] and len(_statements(ctx)) == 1
    assert tables.fingerprint(code) == (v, n)


def test_a_duplicate_action_id_is_answered_as_a_duplicate_from_the_read(
        at_play: tuple[str, Any, int, Any], engine_runs: list[str]) -> None:
    code, player, turn, st = at_play
    v = tables.version(code)
    card = legal_actions(st, turn)["legal_cards"][0]
    first = services.submit(code, player, tables.cmd("play_card", v, "twice", card=card))
    assert first.ok and not first.duplicate
    engine_runs.clear()
    v1, n1 = tables.fingerprint(code)
    # The resend of a client that lost its ack: the same id, the version it acted on.
    with CaptureQueriesContext(connection) as ctx:
        again = services.submit(code, player, tables.cmd("play_card", v, "twice", card=card))
    assert again.ok and again.duplicate and again.version == v1
    assert engine_runs == [] and len(_statements(ctx)) == 1
    assert tables.fingerprint(code) == (v1, n1)


def test_the_same_action_id_of_another_player_is_not_a_duplicate(
        at_play: tuple[str, Any, int, Any], by_seat: dict[int, Any]) -> None:
    code, player, turn, st = at_play
    v = tables.version(code)
    card = legal_actions(st, turn)["legal_cards"][0]
    assert services.submit(code, player, tables.cmd("play_card", v, "id-1", card=card)).ok
    nxt = (turn + 1) % 4
    st = tables.state(code)
    card = legal_actions(st, nxt)["legal_cards"][0]
    out = services.submit(code, by_seat[nxt], tables.cmd("play_card", v + 1, "id-1", card=card))
    assert out.ok and not out.duplicate and out.version == v + 2


def test_an_overdue_timer_is_fired_before_the_move(by_seat: dict[int, Any]) -> None:
    code = tables.seat_table(by_seat[0], [by_seat[1], by_seat[2], by_seat[3]]).code
    st = tables.advance(code, by_seat, REVEAL)
    assert st is not None
    v = tables.version(code)
    tables.expire_deadline(code)
    cards = legal_actions(apply(st, {"type": "end_reveal"})[0], 0)["scart_allowed"][:2]
    out = services.submit(code, by_seat[0], tables.cmd("discard_scart", v, cards=cards))
    assert out.ok and out.version == v + 2


def test_a_session_that_ended_is_answered_before_anything_is_applied(
        at_play: tuple[str, Any, int, Any], engine_runs: list[str]) -> None:
    code, player, turn, st = at_play
    v, n = tables.fingerprint(code)
    card = legal_actions(st, turn)["legal_cards"][0]
    never = ("SELECT 1 WHERE 1 = 0", [])
    out = services.submit(code, player, tables.cmd("play_card", v, card=card), session=never)
    assert not out.ok and out.code == "NOT_AUTHENTICATED"
    assert engine_runs == [] and tables.fingerprint(code) == (v, n)


def test_a_room_that_does_not_exist(owner: Any) -> None:
    out = services.submit("nosuchroom", owner, tables.cmd("play_card", 1, card="C1"))
    assert not out.ok and out.code == "ROOM_NOT_FOUND"


class OnLoop:
    """A loop backend over the thread's connection: the same sequence, driven by
    `run_on_loop` (the loop's own connection is PostgreSQL's; tests/services/test_backends.py
    runs that one)."""

    def __init__(self) -> None:
        self.io = Recorded()

    async def read(self, request: Read) -> sql.MoveRead:
        return self.io.read(request)

    async def write(self, request: Write) -> bool:
        return self.io.write(request)


def test_the_loops_driver_runs_the_same_sequence(
        at_play: tuple[str, Any, int, Any], engine_runs: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Django refuses its sync calls under a running loop; this backend calls them on purpose.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    code, player, turn, st = at_play
    v = tables.version(code)
    other = ids_of(st.deal.hands[(turn + 1) % 4])[0]
    card = legal_actions(st, turn)["legal_cards"][0]
    backend = OnLoop()

    async def both() -> tuple[Any, Any]:
        refused = await writer.run_on_loop(writer.move(
            code, player, tables.cmd("play_card", v, card=other),
            writer.Attempt(lock=True, on_loop=True)), backend)
        accepted = await writer.run_on_loop(writer.move(
            code, player, tables.cmd("play_card", v, card=card),
            writer.Attempt(lock=True, on_loop=True)), backend)
        return refused, accepted

    # No transaction around it: the loop's context may hold a connection of its own, and
    # SQLite would lock one out for the other.
    (refused, nothing), (accepted, written) = asyncio.run(both())
    assert refused.code == "CARD_NOT_IN_HAND" and nothing is None
    assert accepted.ok and accepted.version == v + 1 and written is not None
    # The refusal: a read alone; the card: a read and a write. After the write the loop's
    # work (the broadcast, wake-ups) is collected in the table, not handed to a transaction.
    assert backend.io.steps == ["read", "read", "write"]
    assert written.hooks
    assert engine_runs == ["play_card", "play_card"]

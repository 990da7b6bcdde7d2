"""The writer's statements (games/services/sql.py): the table's one read, with the sender's
session and the log's answer for an action_id in it; the compare-and-set of an optimistic write
that fails (another writer first), which writes nothing and makes the move run locked.

Both modes for the read; PostgreSQL for the optimistic write (data-modifying WITH)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import PLAY, legal_actions
from games.models import Room
from games.models.presence import PRESENCE_TIMEOUT
from games.services import sql, writer
from games.services.backends import Read, ThreadIO, Write
from games.services.record import REFUSAL_KIND
from tests import personas
from tests.support import tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]

postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql",
                                     reason="optimistic writes are PostgreSQL's")


@pytest.fixture
def by_seat(owner: Any, players: list[Any]) -> dict[int, Any]:
    return personas.by_seat(owner, players)


@pytest.fixture
def code(by_seat: dict[int, Any]) -> str:
    return tables.seat_table(by_seat[0], [by_seat[1], by_seat[2], by_seat[3]]).code


def _read(code: str, **kw: Any) -> sql.MoveRead:
    return sql.read_table(code, online_since=timezone.now() - PRESENCE_TIMEOUT, **kw)


def test_the_table_is_read_by_one_statement(code: str, by_seat: dict[int, Any]) -> None:
    tables.advance(code, by_seat, PLAY)
    with CaptureQueriesContext(connection) as ctx, transaction.atomic():
        read = _read(code, lock=True)
    statements = [q for q in ctx.captured_queries if not q["sql"].startswith("BEGIN")
                  and q["sql"] not in ("COMMIT",)]
    assert len(statements) == 1
    assert read.table is not None and read.checked is None and read.logged is None
    loaded = read.table
    assert loaded.room.code == code and loaded.match is not None and loaded.round is not None
    assert [s.index for s in loaded.seats] == [0, 1, 2, 3]
    assert loaded.room.version == tables.version(code)


def test_no_such_room() -> None:
    assert _read("nosuchroom", lock=False) == sql.MoveRead(None, None, None)
    checked = _read("nosuchroom", lock=False, check=("SELECT 1", []))
    assert checked.table is None and checked.checked is True


def test_the_session_check_is_answered_by_the_read(code: str) -> None:
    assert _read(code, lock=False, check=("SELECT 1", [])).checked is True
    assert _read(code, lock=False, check=("SELECT 1 WHERE 1 = 0", [])).checked is False


def test_the_log_answers_an_action_id_applied_before(code: str, by_seat: dict[int, Any]
                                                     ) -> None:
    owner = by_seat[0]
    out = writer.submit(code, owner, tables.cmd("start_round", tables.version(code), "go"))
    assert out.ok
    cmd = tables.cmd("start_round", None, "go")
    assert _read(code, lock=False, logged=writer.key_tail(owner, cmd)).logged == "start_round:"
    # Keyed by room and player: another player's id "go" is not this one.
    other = writer.key_tail(by_seat[1], cmd)
    assert _read(code, lock=False, logged=other).logged is None
    assert writer.logged_outcome("start_round:", 7) == writer.Outcome(True, 7, duplicate=True)
    assert writer.logged_outcome(f"{REFUSAL_KIND}:BUOB_REFUSED", 7) == writer.Outcome(
        False, 7, "BUOB_REFUSED", duplicate=True)


def test_update_statement_compares_and_sets_the_version(code: str) -> None:
    room = Room.objects.get(code=code)
    was = room.version
    room.version = was + 1
    assert sql.write_all([sql.update_statement(room, ["version"], version_was=was - 1)]) == 0
    assert sql.write_all([sql.update_statement(room, ["version"], version_was=was)]) == 1
    assert tables.version(code) == was + 1


class Overtaken(ThreadIO):
    """The thread's backend, with another writer moving the table between read and write."""

    def write(self, request: Write) -> bool:
        # The other writer has a connection of its own (this one may only read until its
        # checked write, sql.unlocked_block).
        def other() -> None:
            try:
                Room.objects.filter(code=self.code).update(version=self.version + 5)
            finally:
                connections.close_all()

        thread = threading.Thread(target=other)
        thread.start()
        thread.join(10)
        return super().write(request)

    def read(self, request: Read) -> sql.MoveRead:
        self.code = request.code
        read = super().read(request)
        assert read.table is not None
        self.version = read.table.room.version
        return read


@postgresql_only
def test_a_failed_compare_and_set_writes_nothing_and_needs_the_lock(
        code: str, by_seat: dict[int, Any]) -> None:
    st = tables.advance(code, by_seat, PLAY)
    assert st is not None and st.deal is not None and st.deal.turn is not None
    turn = st.deal.turn
    card = legal_actions(st, turn)["legal_cards"][0]
    v, n = tables.fingerprint(code)
    steps = writer.move(code, by_seat[turn], tables.cmd("play_card", v, card=card),
                        writer.Attempt(lock=False))
    with pytest.raises(sql.NeedsLock), sql.unlocked_block():
        writer.run(steps, Overtaken())
    # The other writer's version; none of the move's rows.
    assert tables.fingerprint(code) == (v + 5, n)


@postgresql_only
def test_the_unlocked_block_lets_no_other_write_through(code: str) -> None:
    room = Room.objects.get(code=code)
    with pytest.raises(sql.NeedsLock), sql.unlocked_block():
        sql.update_row(room, ["name"])
    # The checked write alone may write, and a stale one is refused.
    with sql.unlocked_block():
        room.version += 1
        assert not sql.write_checked([], sql.update_statement(
            room, ["version"], version_was=room.version + 3))

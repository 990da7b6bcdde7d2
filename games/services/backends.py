"""The two I/O backends of the one write path for a move (games/services/writer.py `move`).

The sequence is written once, as a generator that yields what it needs from the database — the
table's one read (`Read`), then its one write (`Write`) — and is handed the answers. Two
backends answer them:

- `ThreadIO`: the thread's Django connection (games/services/sql.py), for every command: inside
  the writer's transaction (locked) or its `sql.unlocked_block` (an optimistic write);
- `LoopIO`: a connection of the sockets' event loop's own (psycopg's asyncio connection with
  Django's adapters; PostgreSQL, issue #16), for a player's move sent over a socket, so the loop
  waits for PostgreSQL as it waits for a socket, with no hand-over to a thread and back (most of
  an action's median on the benchmark machine was spent in those hand-overs: bench/ws_load.py,
  docs/operations.md). Everything between the read and the write runs on the loop then and must
  not reach the database through Django (SynchronousOnlyOperation, answered by the thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from django.db import connection

from games.models.presence import PRESENCE_TIMEOUT
from games.services import sql
from games.services.tables import Table

log = logging.getLogger(__name__)

Statement = tuple[str, Sequence[Any]]

# Connections a loop keeps; a move that finds them all busy goes to a thread.
MAX_CONNECTIONS = 4


@dataclass(frozen=True)
class Read:
    """The table's one read: its rows and seats, read as committed (`lock` False) or locked
    for this transaction; with `session`, whether the sender's sign-in holds; with `logged`
    (writer.key_tail), the answer the log holds for the command's action_id already."""

    code: str
    now: datetime
    session: Statement | None
    logged: str | None
    lock: bool


@dataclass(frozen=True)
class Write:
    """The one write: the deferred statements and the version's compare-and-set `cas`;
    `checked` (an optimistic write): the compare-and-set first, nothing written if it fails.
    True if written; False if the compare-and-set matched nothing (another writer came
    first)."""

    statements: list[Statement]
    cas: Statement
    checked: bool


class ThreadBackend(Protocol):
    def read(self, request: Read) -> sql.MoveRead: ...

    def write(self, request: Write) -> bool: ...


class LoopBackend(Protocol):
    async def read(self, request: Read) -> sql.MoveRead: ...

    async def write(self, request: Write) -> bool: ...


class ThreadIO:
    """The thread's Django connection: inside the writer's transaction or unlocked block."""

    def read(self, request: Read) -> sql.MoveRead:
        return sql.read_table(request.code, online_since=request.now - PRESENCE_TIMEOUT,
                              check=request.session, lock=request.lock, logged=request.logged)

    def write(self, request: Write) -> bool:
        if request.checked:
            return sql.write_checked(request.statements, request.cas)
        # Under the room's lock the compare-and-set cannot fail; if it ever did, the caller
        # answers STALE_VERSION and the transaction rolls back whole.
        return sql.write_all([*request.statements, request.cas]) == 1


class LoopIO:
    """One connection of the loop's own, used by one move at a time (`loop_connections`)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def read(self, request: Read) -> sql.MoveRead:
        assert not request.lock  # the loop writes optimistically only
        statement, params = sql.load_statement(request.code, request.now - PRESENCE_TIMEOUT,
                                               request.session, False, request.logged)
        cur = await self.conn.execute(statement, params, prepare=True)
        row = await cur.fetchone()
        if row is None:
            checked = None
            if request.session is not None:  # no room: the check alone, for the right answer
                cur = await self.conn.execute(request.session[0], list(request.session[1]))
                checked = await cur.fetchone() is not None
            return sql.MoveRead(None, checked, None)
        return sql.loaded_from_row(row, request.session is not None, request.logged is not None)

    async def write(self, request: Write) -> bool:
        from psycopg import errors

        statement, params = sql.checked_statement(request.statements, request.cas)
        try:
            await self.conn.execute(statement, params, prepare=True)
        except errors.DivisionByZero as exc:
            if sql.is_stale_write(exc):
                return False
            raise
        return True


class _LoopConnections:
    """The connections of one event loop, each used by one move at a time."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.idle: list[Any] = []
        self.open: set[Any] = set()
        self.closed = False

    async def take(self) -> Any | None:
        while self.idle:
            conn = self.idle.pop()
            if not conn.closed:
                return conn
            self.open.discard(conn)
        if self.closed or len(self.open) >= MAX_CONNECTIONS:
            return None
        conn = await _connect()
        self.open.add(conn)
        if self._closed_meanwhile():
            self.give_back(conn, healthy=False)
            return None
        return conn

    def _closed_meanwhile(self) -> bool:
        # `close` may have run while this task waited for a new connection.
        return self.closed

    def give_back(self, conn: Any, healthy: bool) -> None:
        if healthy and not conn.closed and not self.closed:
            self.idle.append(conn)
            return
        self.open.discard(conn)
        _finish(conn)

    def close(self) -> None:
        """Close every connection, those in use too (their move then goes to a thread)."""
        self.closed = True
        for conn in self.open:
            _finish(conn)
        self.open.clear()
        self.idle.clear()


def _finish(conn: Any) -> None:
    # Synchronous, and possible after the connection's loop has closed (a test's).
    with contextlib.suppress(Exception):  # gone already
        conn.pgconn.finish()


async def _connect() -> Any:
    from psycopg import AsyncConnection

    params = dict(connection.get_connection_params())
    params.pop("cursor_factory", None)  # Django's cursors are synchronous
    context = params.pop("context", None)
    params.pop("prepare_threshold", None)
    # Statements are prepared when asked (`prepare=True`), never by psycopg on its own.
    return await AsyncConnection.connect(autocommit=True, context=context,
                                         prepare_threshold=2**31 - 1, **params)


_loops: dict[int, _LoopConnections] = {}


def loop_connections() -> _LoopConnections:
    loop = asyncio.get_running_loop()
    found = _loops.get(id(loop))
    if found is None or found.loop is not loop:
        for key, old in list(_loops.items()):
            if old.loop.is_closed():
                old.close()
                del _loops[key]
        found = _loops[id(loop)] = _LoopConnections(loop)
    return found


def close_all() -> None:
    """Close every loop's idle connections (a test's loops end with the test)."""
    for conns in _loops.values():
        conns.close()
    _loops.clear()


def after_write_on_loop(t: Table) -> None:
    """The work after the write: the broadcast here on the loop (it only queues frames), the
    rest (a Celery message, a bot's wake-up) on a thread, not waited for."""
    loop = asyncio.get_running_loop()
    for work, on_loop in t.hooks or ():
        if on_loop:
            try:
                work()
            except Exception:
                log.exception("after-write work of table %s failed", t.room.code)
        else:
            loop.run_in_executor(None, _logged(work, t.room.code))


def _logged(work: Any, code: str) -> Any:
    def run() -> None:
        try:
            work()
        except Exception:
            log.exception("after-write work of table %s failed", code)
    return run


def is_integrity_error(exc: BaseException) -> bool:
    """A unique key broken on the loop's connection (a duplicate's log row, raced)."""
    from psycopg import errors

    return isinstance(exc, errors.IntegrityError)


def is_database_error(exc: BaseException) -> bool:
    from psycopg import Error

    return isinstance(exc, Error)


def usable(conn: Any) -> bool:
    """Whether a connection whose statement failed may serve the next move."""
    from psycopg.pq import TransactionStatus

    return not conn.closed and conn.info.transaction_status == TransactionStatus.IDLE

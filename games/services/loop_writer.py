"""A player's move written from the sockets' event loop (PostgreSQL; issue #16).

The ordinary door (`writer.submit`) runs in a worker thread: the socket's loop hands the command
to a thread, the thread sends its statements and waits for each answer, then hands the result
back. On the benchmark machine each of those hand-overs is a wake-up of an idle thread (and a
wait for the GIL behind the busy loop): most of an action's median was spent there, not in
PostgreSQL or in Python (bench/ws_load.py, docs/operations.md).

Here the same optimistic write (`sql.unlocked_block`: the table read as committed, then one
statement that compare-and-sets the version first) is sent over a connection of the loop's own
(psycopg's asyncio connection, with Django's adapters), and the loop waits for PostgreSQL as it
waits for a socket. Everything between the two statements is the writer's own code
(`writer.apply_command`, `announce.announce`), the same as in the thread; it must not reach the
database through Django, which raises SynchronousOnlyOperation on a loop. Whatever cannot be
done here — a refusal (answered with the log's help), a write before the compare-and-set (a
new deal's row, a score, a Narr debt), another writer first, the loop's connections all busy —
returns None, having written nothing, and the caller sends the command the ordinary way.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connection
from django.utils import timezone

from games.engine import RuleError
from games.models.presence import PRESENCE_TIMEOUT
from games.services import sql
from games.services.announce import announce
from games.services.commands import Command
from games.services.errors import ServiceError
from games.services.record import version_write
from games.services.tables import Table, table_of
from games.services.writer import Outcome, Overdue, apply_command, outcome_of

log = logging.getLogger(__name__)

# The commands tried here: a player's moves (as the thread's optimistic write).
TYPES = frozenset({"play_card", "call_buob", "deal_next_pass", "discard_scart"})
# Connections a loop keeps; a command that finds them all busy goes to a thread.
MAX_CONNECTIONS = 4


class _LoopConnections:
    """The connections of one event loop, each used by one command at a time."""

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
        """Close every connection, those in use too (their command then goes to a thread)."""
        self.closed = True
        for conn in self.open:
            _finish(conn)
        self.open.clear()
        self.idle.clear()


def _finish(conn: Any) -> None:
    # Synchronous, and possible after the connection's loop has closed (a test's).
    try:
        conn.pgconn.finish()
    except Exception:  # noqa: BLE001 - gone already
        pass


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


def _connections() -> _LoopConnections:
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


def eligible(cmd: Command, session: tuple[str, list[Any]] | None) -> bool:
    return (cmd.type in TYPES and session is not None and connection.vendor == "postgresql"
            and settings.TROCCAS_OPTIMISTIC_WRITES and settings.TROCCAS_LOOP_WRITES)


async def try_submit(code: str, user: Any, cmd: Command,
                     session: tuple[str, list[Any]] | None) -> Outcome | None:
    """`writer.submit(code, user, cmd, session=session)` done on this loop, or None: nothing
    was written, send it the ordinary way. NOT_AUTHENTICATED when the session has ended."""
    if not eligible(cmd, session):
        return None
    assert session is not None
    conns = _connections()
    try:
        conn = await conns.take()
    except Exception:  # noqa: BLE001 - PostgreSQL unreachable from here: the thread's way
        log.warning("no connection for a move on the event loop", exc_info=True)
        return None
    if conn is None:
        return None
    healthy = False
    try:
        t = await _read(conn, code, session)
        if t is None or isinstance(t, Outcome):
            healthy = True
            return t
        try:
            apply_command(t, user, cmd)
            if not t.changed:
                healthy = True
                return None
            cas = version_write(t)
            # The snapshot and what follows the write are made before it: anything here that
            # would reach the database is found now, while nothing is written yet.
            announce(t)
        except (ServiceError, RuleError, Overdue, sql.NeedsLock, SynchronousOnlyOperation):
            healthy = True
            return None
        written = await _write(conn, t, cas)
        healthy = True
        if not written:
            return None
    except Exception as exc:  # noqa: BLE001 - a broken rule or connection: the thread's way
        from psycopg import Error as PgError

        if not isinstance(exc, PgError):
            raise
        if not isinstance(exc, _integrity()):
            log.warning("a move on the event loop failed; sent the ordinary way", exc_info=True)
        healthy = not conn.closed and conn.info.transaction_status == _idle()
        return None
    finally:
        conns.give_back(conn, healthy)
    _after(t)
    return outcome_of(t)


async def _read(conn: Any, code: str, session: tuple[str, list[Any]]
                ) -> Table | Outcome | None:
    now = timezone.now()
    statement, params = sql.load_statement(code, now - PRESENCE_TIMEOUT, session, lock=False)
    cur = await conn.execute(statement, params, prepare=True)
    row = await cur.fetchone()
    if row is None:
        return None  # no such room: answered the ordinary way
    loaded, checked = sql.loaded_from_row(row, True)
    if checked is False:
        return Outcome(False, 0, "NOT_AUTHENTICATED")
    t = table_of(loaded, now, optimistic=True)
    t.hooks = []
    return t


async def _write(conn: Any, t: Table, cas: tuple[str, list[Any]]) -> bool:
    from psycopg import errors

    statement, params = sql.checked_statement(t.deferred, cas)
    try:
        await conn.execute(statement, params, prepare=True)
    except errors.DivisionByZero as exc:
        if sql.is_stale_write(exc):
            return False
        raise
    t.deferred.clear()
    return True


def _after(t: Table) -> None:
    """The work after the write: the broadcast here on the loop (it only queues frames), the
    rest (a Celery message, a bot's wake-up) on a thread, not waited for."""
    loop = asyncio.get_running_loop()
    for work, on_loop in t.hooks or ():
        if on_loop:
            try:
                work()
            except Exception:  # noqa: BLE001 - a lost broadcast is healed by a resync
                log.exception("after-write work of table %s failed", t.room.code)
        else:
            loop.run_in_executor(None, _logged(work, t.room.code))


def _logged(work: Any, code: str) -> Any:
    def run() -> None:
        try:
            work()
        except Exception:  # noqa: BLE001 - the sweep heals a lost wake-up
            log.exception("after-write work of table %s failed", code)
    return run


def _integrity() -> type[BaseException]:
    from psycopg import errors

    return errors.IntegrityError


def _idle() -> Any:
    from psycopg.pq import TransactionStatus

    return TransactionStatus.IDLE

"""A database cursor for the few fixed statements every table action runs (issue #16).

Django binds parameters on the client and never prepares a statement (its default, kept for the
ORM: the ORM's SQL varies, and poolers in transaction mode lose prepared statements). For the
hot path's own statements (games/services/sql.py, accounts/sessions.py), always the same text,
that costs on every action: psycopg quotes every parameter into the text in Python (the deal's
JSON state among them), and PostgreSQL parses and plans each statement again. This cursor binds
on the server and prepares each statement once per connection (psycopg keeps prepared
statements with the connection, pooled ones included): measured on a played table, the load
statement cost the server 230 µs of CPU unprepared and 50 µs prepared.

It is wrapped like Django's own cursors, so query logging, execute wrappers and Django's error
classes see its statements as any other. TROCCAS_PREPARED_STATEMENTS (env
DB_PREPARED_STATEMENTS) turns it off for a pooler that cannot keep prepared statements
(PgBouncer before 1.21 in transaction mode); SQLite has nothing to prepare.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper

# psycopg prepares a statement on its own after this many executions; a threshold of None
# (Django's setting) disables preparing altogether, an explicit `prepare=True` included. A
# threshold no statement reaches keeps the ORM's cursors as they are (they bind on the client
# and never prepare anyway) and lets this cursor prepare when it asks.
_NEVER_BY_ITSELF = 2**31 - 1

try:
    # django-stubs 5.2 does not declare Django's server-binding cursor class.
    from django.db.backends.postgresql.base import (  # type: ignore[attr-defined]
        ServerBindingCursor,
    )
except ImportError:  # pragma: no cover - without psycopg there is only SQLite
    ServerBindingCursor = None


if ServerBindingCursor is not None:
    # Its base is Any to mypy (undeclared in the stubs, above): subclassing it is allowed.
    class _PreparedCursor(ServerBindingCursor):  # type: ignore[misc]
        """Server-side parameters; every statement prepared on first use."""

        def execute(self, query: Any, params: Any = None, *, prepare: bool | None = None,
                    binary: bool | None = None) -> Any:
            return super().execute(query, params, prepare=True, binary=binary)


class _DebugWrapper(CursorDebugWrapper):
    """Logs the statement as written: psycopg keeps no text of a prepared execution for
    Django's `last_executed_query` to read (the parameters go in the log record apart)."""

    def execute(self, sql: Any, params: Any = None) -> Any:
        with self.debug_sql(sql, params, use_last_executed_query=False):
            return self._execute_with_wrappers(sql, params, many=False,
                                               executor=self._execute)


def prepared_cursor() -> Any:
    """A cursor whose statements are prepared (PostgreSQL), else Django's own cursor."""
    if connection.vendor != "postgresql" or not settings.TROCCAS_PREPARED_STATEMENTS:
        return connection.cursor()
    connection.ensure_connection()
    pg = connection.connection
    if pg.prepare_threshold is None:
        pg.prepare_threshold = _NEVER_BY_ITSELF
    with connection.wrap_database_errors:
        raw = _PreparedCursor(pg)
    return (_DebugWrapper(raw, connection) if connection.queries_logged
            else connection.make_cursor(raw))

"""The writer's hot path in SQL compiled once: the few statements of every table action.

Django compiles every ORM query anew, and for a room with its match and deal, or the seats
with their players, compiling cost more CPU than anything else an action does (bench/ws_load.py
with a CPU profiler: over half of an ASGI process). Here those statements are built once per
database vendor from the models' own metadata (table and column names, quoting), and values
go through the fields' own converters and adapters, so the rows come back as the same model
instances the ORM would build and go in as the ORM would write them. Everything else in
`games/services/` stays ORM.

On PostgreSQL the statements are prepared (troccas_site/prepared.py), and an action needs
fewer of them: the sender's session is checked by a column of the statement that locks the
table, and the deal's row, the log row and the version's compare-and-set are one statement
(`write_all`: data-modifying WITH clauses; games/services/record.py defers the first two until
the third). A card played is five round trips with BEGIN and COMMIT, where it was eight.
(psycopg's pipeline mode would send several statements in one round trip too, but it waits for
their results by polling a socket that is always writable: measured, it cost more CPU than
the round trips it saved.) JSON columns are read and written with orjson (the same JSON,
several times faster than the standard library's).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

import orjson
from django.db import DataError, connection, transaction
from django.db.models import Field, JSONField, Model
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from accounts.models import User
from games.models import Connection, Match, Room, Round, RoundAction, Seat
from games.models.presence import PRESENCE_TIMEOUT
from troccas_site.prepared import prepared_cursor


@dataclass(frozen=True)
class SeatRow:
    """A seat as the writer and the snapshot need it (lobby commands use Seat rows)."""

    index: int | None
    team: str
    user_id: int
    name: str
    joined: datetime
    online: bool
    # Without a live socket: since when (sql.away_since), None if online or unknown.
    away_since: datetime | None = None
    # A bot's seat (accounts.User.is_bot) and its level; a bot is always at the table.
    is_bot: bool = False
    bot_level: str = ""
    # The player's choice of how long bots pause at their tables (accounts.User.bot_speed;
    # games/services/bots/pace.py takes the slowest of the people seated).
    bot_speed: str = "normal"


class _Columns:
    """The concrete columns of one model under a table alias, and their row converters."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        q = connection.ops.quote_name
        self.sql = ", ".join(f"{alias}.{q(f.column)}" for f in self.fields)
        self.converters = []
        for f in self.fields:
            col = f.get_col(alias)
            if isinstance(f, JSONField) and f.decoder is None:
                # What JSONField.from_db_value does with the text, with orjson.
                self.converters.append((col, [_json_from_db]))
                continue
            convs = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            self.converters.append((col, convs))

    def build(self, values: tuple[Any, ...] | list[Any]) -> Any:
        out = []
        for value, (col, convs) in zip(values, self.converters, strict=True):
            for conv in convs:
                value = conv(value, col, connection)
            out.append(value)
        # None: every column is given, so Django never reads the names (Model.from_db).
        return self.model.from_db(connection.alias, None, out)  # type: ignore[arg-type]


def _json_from_db(value: Any, expression: Any, conn: Any) -> Any:
    if value is None or not isinstance(value, str | bytes):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return value  # as JSONField: text that is not JSON comes back as it is


_ORJSON = orjson.OPT_NON_STR_KEYS  # int keys as text, as json.dumps writes them


def _json_text(value: Any) -> bytes:
    return orjson.dumps(value, option=_ORJSON)


def _prep(f: Field[Any, Any], value: Any) -> Any:
    """A value as the field writes it; JSON through orjson (psycopg's Jsonb on PostgreSQL)."""
    if isinstance(f, JSONField) and f.encoder is None and value is not None:
        if connection.vendor == "postgresql":
            from psycopg.types.json import Jsonb

            return Jsonb(value, dumps=_json_text)
        return _json_text(value).decode()
    return f.get_db_prep_save(value, connection)


_cache: dict[str, dict[str, Any]] = {}


def _compiled() -> dict[str, Any]:
    vendor = connection.vendor
    found = _cache.get(vendor)
    if found is not None:
        return found
    q = connection.ops.quote_name
    room, match, rnd = _Columns(Room, "r"), _Columns(Match, "m"), _Columns(Round, "d")
    t_room, t_match, t_round = (q(Room._meta.db_table), q(Match._meta.db_table),
                                q(Round._meta.db_table))
    table_columns = f"SELECT {room.sql}, {match.sql}, {rnd.sql}"
    table_from = (
        f" FROM {t_room} r "
        f"LEFT JOIN {t_match} m ON m.{q('id')} = r.{q('current_match_id')} "
        f"LEFT JOIN {t_round} d ON d.{q('id')} = (SELECT d2.{q('id')} FROM {t_round} d2 "
        f"WHERE d2.{q('match_id')} = r.{q('current_match_id')} "
        f"ORDER BY d2.{q('number')} DESC LIMIT 1) "
        f"WHERE r.{q('code')} = %s"
    )
    table = table_columns + table_from
    lock_clause = " FOR UPDATE OF r" if connection.vendor == "postgresql" else ""
    # The room's version as the statement's snapshot saw it. A row lock that had to wait for
    # another writer (or found the row updated since the snapshot) hands back the room row as
    # that writer left it, but the joined match, deal and seats as the snapshot saw them
    # (PostgreSQL's EvalPlanQual re-checks only the locked row): the two versions then differ
    # and `load_table_with` reads the table again, under the lock it now holds.
    seen = f"(SELECT r2.{q('version')} FROM {t_room} r2 WHERE r2.{q('id')} = r.{q('id')})"
    seat, user, conn = (q(Seat._meta.db_table), q(User._meta.db_table),
                        q(Connection._meta.db_table))
    seat_columns = (
        f"s.{q('index')}, s.{q('team')}, s.{q('user_id')}, s.{q('joined')}, "
        f"u.{q('username')}, u.{q('display_name')}, u.{q('anonymised_at')}, "
        f"u.{q('is_bot')}, u.{q('bot_level')}, u.{q('bot_speed')}, "
        f"EXISTS(SELECT 1 FROM {conn} c "
        f"WHERE c.{q('room_id')} = s.{q('room_id')} AND c.{q('user_id')} = s.{q('user_id')} "
        f"AND c.{q('last_seen')} >= %s AND c.{q('closed_at')} IS NULL), "
        # The away clock (presence.py): the newest open row's last_seen, the newest close
        # (ORDER BY … LIMIT 1: an index walk, and no MAX, which the log's counter must avoid).
        f"(SELECT c.{q('last_seen')} FROM {conn} c WHERE c.{q('room_id')} = s.{q('room_id')} "
        f"AND c.{q('user_id')} = s.{q('user_id')} AND c.{q('closed_at')} IS NULL "
        f"ORDER BY c.{q('last_seen')} DESC LIMIT 1), "
        f"(SELECT c.{q('closed_at')} FROM {conn} c WHERE c.{q('room_id')} = s.{q('room_id')} "
        f"AND c.{q('user_id')} = s.{q('user_id')} AND c.{q('closed_at')} IS NOT NULL "
        f"ORDER BY c.{q('closed_at')} DESC LIMIT 1)"
    )
    seat_from = f"FROM {seat} s JOIN {user} u ON u.{q('id')} = s.{q('user_id')} "
    seats = (f"SELECT {seat_columns} {seat_from}"
             f"WHERE s.{q('room_id')} = %s ORDER BY s.{q('index')}")
    # The same rows as one JSON column of the table's own statement (one round trip less on
    # every action): an array of arrays, in seat order.
    if connection.vendor == "postgresql":
        seats_json = (f"(SELECT json_agg(json_build_array({seat_columns}) "
                      f"ORDER BY s.{q('index')}) {seat_from}"
                      f"WHERE s.{q('room_id')} = r.{q('id')})")
    else:
        # SQLite (3.40) has no ORDER BY in an aggregate: the rows come ordered from a
        # subquery, each as JSON text (its JSON subtype does not cross the subquery).
        seats_json = (f"(SELECT json_group_array(x.j) FROM (SELECT json_array({seat_columns}) "
                      f"AS j {seat_from}WHERE s.{q('room_id')} = r.{q('id')} "
                      f"ORDER BY s.{q('index')}) x)")
    # A command's answer if its action_id is logged already: "kind:code" (the code of a public
    # refusal, RULES §8; empty for an action), found by the log's unique key (room id, user,
    # the client's id; writer.key_of) in the table's own statement: a duplicate is answered
    # without a statement of its own, and without running the command again.
    t_action = q(RoundAction._meta.db_table)
    code_of = (f"a.{q('payload')} ->> 'code'" if connection.vendor == "postgresql"
               else f"json_extract(a.{q('payload')}, '$.code')")
    logged = (f"(SELECT a.{q('kind')} || ':' || COALESCE({code_of}, '') FROM {t_action} a "
              f"WHERE a.{q('action_id')} = CAST(r.{q('id')} AS TEXT) || %s)")
    found = _cache[vendor] = {
        "columns": (room, match, rnd),
        "table": table,
        # Only the room row is locked (the writer's one lock per room, ARCHITECTURE §5);
        # SQLite needs no clause: its transactions are IMMEDIATE.
        "table_for_update": table + lock_clause,
        # The locked table with its seats and, optionally, a check's EXISTS
        # (`load_table_with`).
        # The table with its seats, read by the writer (`load_table_with`, `table_statement`).
        "table_parts": (table_columns + ", " + seen, seats_json + table_from, lock_clause),
        "logged": logged,
        "seats": seats,
    }
    return found


def load_table(code: str, *, lock: bool) -> tuple[Room, Match | None, Round | None] | None:
    """The room (locked for update if `lock`), its current match and that match's last deal."""
    c = _compiled()
    with prepared_cursor() as cur:
        cur.execute(c["table_for_update" if lock else "table"], [code])
        row = cur.fetchone()
    return _table_rows(row)


@dataclass
class LoadedTable:
    room: Room
    match: Match | None
    round: Round | None
    seats: list[SeatRow]


@dataclass
class MoveRead:
    """What the writer's one read found: the table (None: no such room), whether the sender's
    session holds (None: not checked), and the answer logged for the command's action_id
    already (None: not logged; else "kind:code", `load_statement`)."""

    table: LoadedTable | None
    checked: bool | None
    logged: str | None


def load_table_with(code: str, *, online_since: datetime,
                    check: tuple[str, Sequence[Any]] | None = None, lock: bool = True
                    ) -> tuple[LoadedTable | None, bool | None]:
    """The table locked as `load_table(lock=True)` (or as committed, without the lock: an
    optimistic write), with its seats (`seat_rows`), and whether the optional `check` (a
    statement: passed if it returns a row) passed, all read by one statement: the table
    (None: no such room) and the check's answer (None: no check given)."""
    read = read_table(code, online_since=online_since, check=check, lock=lock)
    return read.table, read.checked


def read_table(code: str, *, online_since: datetime,
               check: tuple[str, Sequence[Any]] | None = None, lock: bool = True,
               logged: str | None = None) -> MoveRead:
    """`load_table_with`, and with `logged` (the end of an action_id's key, `key_tail`) the
    answer the log holds for it, in the same statement."""
    c = _compiled()
    statement, params = load_statement(code, online_since, check, lock, logged)
    with prepared_cursor() as cur:
        cur.execute(statement, params)
        row = cur.fetchone()
        if lock and row is not None and row[_room_version_at(c)] != _seen_version(row, c):
            # Locked after another writer: read again, now that the lock is held.
            cur.execute(statement, params)
            row = cur.fetchone()
        if row is None:
            checked = None
            if check is not None:  # no room: the check alone, for the right answer
                cur.execute(check[0], check[1])
                checked = cur.fetchone() is not None
            return MoveRead(None, checked, None)
    return loaded_from_row(row, check is not None, logged is not None)


def load_statement(code: str, online_since: datetime,
                   check: tuple[str, Sequence[Any]] | None, lock: bool,
                   logged: str | None = None) -> tuple[str, list[Any]]:
    """The table's one statement: its rows, the room's version as seen, the check's EXISTS
    (with `check`), the log's answer for an action_id (with `logged`), the seats."""
    c = _compiled()
    head, tail, lock_clause = c["table_parts"]
    columns, params = head, []
    if check is not None:
        columns += f", EXISTS({check[0]})"
        params += list(check[1])
    if logged is not None:
        columns += ", " + c["logged"]
        params.append(logged)
    return (columns + ", " + tail + (lock_clause if lock else ""),
            [*params, _when(online_since), code])


def loaded_from_row(row: Any, checked_too: bool, logged_too: bool = False) -> MoveRead:
    """The table, the check's answer and the log's from a row of `load_statement`'s."""
    seats = row[-1]
    row = row[:-1]
    logged = None
    if logged_too:
        logged = row[-1]
        row = row[:-1]
    checked = None
    if checked_too:
        checked = bool(row[-1])
        row = row[:-1]
    row = row[:-1]  # the version the snapshot saw
    rows = _table_rows(row)
    assert rows is not None
    if isinstance(seats, str | bytes):
        seats = orjson.loads(seats)
    seats = [orjson.loads(one) if isinstance(one, str) else one for one in seats or []]
    return MoveRead(LoadedTable(*rows, seats=_seat_rows(seats)), checked, logged)


def _room_version_at(c: dict[str, Any]) -> int:
    return [f.name for f in c["columns"][0].fields].index("version")


def _seen_version(row: Any, c: dict[str, Any]) -> Any:
    room, match, rnd = c["columns"]
    return row[len(room.fields) + len(match.fields) + len(rnd.fields)]


def _table_rows(row: Any) -> tuple[Room, Match | None, Round | None] | None:
    if row is None:
        return None
    c = _compiled()
    room_cols, match_cols, round_cols = c["columns"]
    a, b = len(room_cols.fields), len(room_cols.fields) + len(match_cols.fields)
    room = room_cols.build(row[:a])
    match = match_cols.build(row[a:b]) if row[a] is not None else None
    rnd = round_cols.build(row[b:]) if row[b] is not None else None
    if match is not None:
        room.current_match = match  # the FK's cache: no query when the writer reads it
        if rnd is not None:
            rnd.match = match
    return room, match, rnd


def _aware(value: Any) -> datetime:
    if isinstance(value, str):
        value = parse_datetime(value)
    if timezone.is_naive(value):
        value = value.replace(tzinfo=UTC)  # the database stores UTC (USE_TZ)
    return value


def away_since(last_open: Any, last_closed: Any) -> datetime | None:
    """Since when a user without a live socket is away, from the newest of their rows at the
    room: a closed row's `closed_at`, a silent open row's last_seen + PRESENCE_TIMEOUT (when
    it turned away). None with no row at all (never came, or gone longer than CLOSED_KEPT)."""

    times = []
    if last_closed is not None:
        times.append(_aware(last_closed))
    if last_open is not None:
        times.append(_aware(last_open) + PRESENCE_TIMEOUT)
    return max(times) if times else None


def _when(moment: datetime) -> Any:
    return connection.ops.adapt_datetimefield_value(moment)


def seat_rows(room_id: int, online_since: datetime) -> list[SeatRow]:
    """The room's seats with their players' names, whether each has a live socket and, if
    not, since when the player is away: one statement (the per-card hot path)."""
    c = _compiled()
    with prepared_cursor() as cur:
        cur.execute(c["seats"], [_when(online_since), room_id])
        rows = cur.fetchall()
    return _seat_rows(rows)


def _seat_rows(rows: list[Any]) -> list[SeatRow]:
    # A bot has no socket and is never away: it counts as online.
    return [SeatRow(index, team, user_id,
                    public_name(username, display, anonymised, bool(is_bot), bot_level),
                    _aware(joined), bool(online) or bool(is_bot),
                    None if online or is_bot else away_since(last_open, last_closed),
                    bool(is_bot), bot_level, bot_speed)
            for (index, team, user_id, joined, username, display, anonymised, is_bot,
                 bot_level, bot_speed, online, last_open, last_closed) in rows]


def public_name(username: str, display_name: str, anonymised_at: Any, is_bot: bool = False,
                bot_level: str = "") -> str:
    """User.public_name from the row's columns: a deleted account is "Former player" at the
    table as on the pages, never its placeholder username (`deleted-<id>`). A bot's own name
    alone: the table's views carry its level apart (`player.bot`), and each page says "bot"
    in its reader's language (static/js/views/bots.js), which one broadcast cannot."""
    if anonymised_at is not None:
        return gettext("Former player")
    return display_name or username


_update_sql: dict[tuple[str, type[Model], tuple[str, ...], bool], tuple[str, list[Any]]] = {}


def update_statement(obj: Model, fields: Sequence[str], *, version_was: int | None = None
                     ) -> tuple[str, list[Any]]:
    """The UPDATE of these fields of obj's row (the fields' own adapters; JSON via orjson);
    with `version_was`, only if the row's version is still that (a compare-and-set)."""
    meta = obj._meta
    key = (connection.vendor, type(obj), tuple(fields), version_was is not None)
    found = _update_sql.get(key)
    if found is None:
        q = connection.ops.quote_name
        columns = [cast("Field[Any, Any]", meta.get_field(name)) for name in fields]
        where = f"{q(meta.pk.column)} = %s"
        if version_was is not None:
            where += f" AND {q('version')} = %s"
        sql = (f"UPDATE {q(meta.db_table)} SET "
               f"{', '.join(f'{q(f.column)} = %s' for f in columns)} WHERE {where}")
        found = _update_sql[key] = (sql, columns)
    sql, columns = found
    params = [_prep(f, getattr(obj, f.attname)) for f in columns]
    params.append(obj.pk)
    if version_was is not None:
        params.append(version_was)
    return sql, params


def room_code_of_round(round_id: int) -> str | None:
    """The code of the room a deal is played in (a timer's wake-up names the deal)."""
    q = connection.ops.quote_name
    sql = (f"SELECT r.{q('code')} FROM {q(Round._meta.db_table)} d "
           f"JOIN {q(Match._meta.db_table)} m ON m.{q('id')} = d.{q('match_id')} "
           f"JOIN {q(Room._meta.db_table)} r ON r.{q('id')} = m.{q('room_id')} "
           f"WHERE d.{q('id')} = %s")
    with prepared_cursor() as cur:
        cur.execute(sql, [round_id])
        row = cur.fetchone()
    return row[0] if row is not None else None


@dataclass(frozen=True)
class RoundTimer:
    """What a deal's wake-up reads first, without a lock (games/services/deadlines.py)."""

    version: int
    deadline: datetime | None


def round_timer(round_id: int) -> RoundTimer | None:
    """A deal's version and deadline as committed (None: no such deal)."""
    q = connection.ops.quote_name
    sql = (f"SELECT {q('version')}, {q('deadline')} FROM {q(Round._meta.db_table)} "
           f"WHERE {q('id')} = %s")
    with prepared_cursor() as cur:
        cur.execute(sql, [round_id])
        row = cur.fetchone()
    if row is None:
        return None
    return RoundTimer(row[0], _aware(row[1]) if row[1] is not None else None)


def rearm_wakeup(round_id: int, at: datetime) -> datetime | None:
    """If the deal's armed wake-up is still the one for `at`, arm it for the deal's deadline
    as it stands (one statement: the row as the last writer left it) and return that time;
    None if another wake-up was armed since, or no deadline stands."""
    q = connection.ops.quote_name
    sql = (f"UPDATE {q(Round._meta.db_table)} SET {q('wakeup_at')} = {q('deadline')} "
           f"WHERE {q('id')} = %s AND {q('wakeup_at')} = %s AND {q('deadline')} IS NOT NULL "
           f"RETURNING {q('deadline')}")
    with prepared_cursor() as cur:
        cur.execute(sql, [round_id, _when(at)])
        row = cur.fetchone()
    return _aware(row[0]) if row is not None else None


def touch_connection_statement(channel_name: str, now: datetime) -> tuple[str, list[Any]]:
    """The heartbeat of one socket's Connection row (last_seen)."""
    q = connection.ops.quote_name
    sql = (f"UPDATE {q(Connection._meta.db_table)} SET {q('last_seen')} = %s "
           f"WHERE {q('channel_name')} = %s")
    return sql, [_when(now), channel_name]


def update_row(obj: Model, fields: list[str], *, version_was: int | None = None) -> int:
    """UPDATE these fields of obj's row now (see `update_statement`). Returns the number of
    rows updated."""
    sql, params = update_statement(obj, fields, version_was=version_was)
    with prepared_cursor() as cur:
        cur.execute(sql, params)
        return cur.rowcount


_insert_sql: dict[tuple[str, type[Model]], tuple[str, list[Any]]] = {}


def insert_statement(model: type[Model], values: dict[str, Any]) -> tuple[str, list[Any]]:
    """The INSERT of one row of `model` from its field values by attname (defaults for the
    others), with no instance built: for rows the writer never reads back (the log, tricks)."""
    found = _insert_sql.get((connection.vendor, model))
    if found is None:
        q = connection.ops.quote_name
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        sql = (f"INSERT INTO {q(model._meta.db_table)} "
               f"({', '.join(q(f.column) for f in fields)}) "
               f"VALUES ({', '.join(['%s'] * len(fields))})")
        found = _insert_sql[(connection.vendor, model)] = (sql, fields)
    sql, fields = found
    params = []
    for f in fields:
        value = values[f.attname] if f.attname in values else f.get_default()
        params.append(_prep(f, value))
    return sql, params


def insert_action_statement(**values: Any) -> tuple[str, list[Any]]:
    """The INSERT of one RoundAction row (the log is append-only)."""
    return insert_statement(RoundAction, values)


def write_all(statements: Sequence[tuple[str, Sequence[Any]]]) -> int:
    """Run writes in order as one statement where the database allows it (PostgreSQL: all
    but the last in WITH clauses, which run whatever the last one does), else one after the
    other. Returns the number of rows the last one changed. A failing write raises as it
    would alone, and nothing of the statement is done."""
    if not statements:
        return 0
    if connection.vendor != "postgresql" or len(statements) == 1:
        count = 0
        for sql, params in statements:
            with prepared_cursor() as cur:
                cur.execute(sql, params)
                count = cur.rowcount
        return count
    *first, last = statements
    text = ("WITH " + ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(first))
            + " " + last[0])
    params = [p for _, ps in first for p in ps] + list(last[1])
    with prepared_cursor() as cur:
        cur.execute(text, params)
        return cur.rowcount


class NeedsLock(Exception):
    """An optimistic write cannot be finished as one statement without the room's lock: it
    would write before its compare-and-set (a new deal's row, a score, a Narr debt), or the
    table changed since it was read. Nothing was written; the command runs again, locked."""


_writing = threading.local()


def _reads_only(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    if not getattr(_writing, "allowed", False) and sql.lstrip()[:6].lower() != "select":
        raise NeedsLock(sql.split(None, 1)[0])
    return execute(sql, params, many, context)


@contextmanager
def unlocked_block() -> Iterator[None]:
    """An optimistic write (PostgreSQL): the table read as committed, without BEGIN or the
    room's lock, then everything written by one statement that first compare-and-sets the
    version (`write_checked`) — two round trips where a locked transaction takes four (BEGIN,
    the locked read, the write, COMMIT). Each statement commits on its own; the block is still
    Django's atomic block, so what is sent after commit (`transaction.on_commit`) waits for
    its successful end, and nothing is sent when it fails. Any write other than that last
    statement raises NeedsLock before it reaches the database."""
    with transaction.atomic():
        raw = connection.connection
        raw.autocommit = True  # no statement was sent yet: psycopg's BEGIN stays unsent
        try:
            with connection.execute_wrapper(_reads_only):
                yield
        finally:
            raw.autocommit = False  # as Django set it: its commit at the block's end is a no-op


def write_checked(statements: Sequence[tuple[str, Sequence[Any]]],
                  cas: tuple[str, Sequence[Any]]) -> bool:
    """The version's compare-and-set `cas` (an UPDATE) and the writes that go with it, as one
    statement of an `unlocked_block`: the compare-and-set runs first (the statement's last
    line reads it), and when it matched no row the last line divides by zero, so the statement
    fails and none of it is written. False then (the table moved since it was read)."""
    text, params = checked_statement(statements, cas)
    _writing.allowed = True
    try:
        with prepared_cursor() as cur:
            cur.execute(text, params)
    except DataError as exc:
        if exc.__cause__ is not None and is_stale_write(exc.__cause__):
            return False
        raise
    finally:
        _writing.allowed = False
    return True


_DIVISION_BY_ZERO = "22012"


def checked_statement(statements: Sequence[tuple[str, Sequence[Any]]],
                      cas: tuple[str, Sequence[Any]]) -> tuple[str, list[Any]]:
    """`write_checked`'s one statement: the compare-and-set first (the last line reads it and
    divides by the rows it matched), then the writes it guards."""
    text = "WITH cas AS (" + cas[0] + " RETURNING 1)"
    for i, (sql, _) in enumerate(statements):
        text += f", w{i} AS ({sql})"
    text += " SELECT 1 / (SELECT count(*) FROM cas)::int"
    return text, [*cas[1], *(p for _, ps in statements for p in ps)]


def is_stale_write(exc: BaseException) -> bool:
    """Whether a failed `checked_statement` failed on its compare-and-set (the table moved)."""
    return getattr(exc, "sqlstate", None) == _DIVISION_BY_ZERO


def touch_and_check(channel_name: str, now: datetime, check: tuple[str, Sequence[Any]]
                    ) -> bool:
    """A socket's heartbeat and a check (a statement: passed if it returns a row) in one
    statement (RETURNING); True if the check passed. A socket without its row (purged) has
    the check run alone."""
    q = connection.ops.quote_name
    sql = (f"UPDATE {q(Connection._meta.db_table)} SET {q('last_seen')} = %s "
           f"WHERE {q('channel_name')} = %s RETURNING EXISTS({check[0]})")
    with prepared_cursor() as cur:
        cur.execute(sql, [_when(now), channel_name, *check[1]])
        row = cur.fetchone()
        if row is None:
            cur.execute(check[0], check[1])
            return cur.fetchone() is not None
        return bool(row[0])

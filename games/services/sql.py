"""The writer's hot path in SQL compiled once: the few statements of every table action.

Django compiles every ORM query anew, and for a room with its match and deal, or the seats
with their players, compiling cost more CPU than anything else an action does (bench/ws_load.py
with a CPU profiler: over half of an ASGI process). Here those statements are built once per
database vendor from the models' own metadata (table and column names, quoting), and values
go through the fields' own converters and adapters, so the rows come back as the same model
instances the ORM would build and go in as the ORM would write them. Everything else in
`games/services/` stays ORM.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from django.db import connection
from django.db.models import Field, Model
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from accounts.models import User
from games.models import Connection, Match, Room, Round, RoundAction, Seat


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
    table = (
        f"SELECT {room.sql}, {match.sql}, {rnd.sql} FROM {t_room} r "
        f"LEFT JOIN {t_match} m ON m.{q('id')} = r.{q('current_match_id')} "
        f"LEFT JOIN {t_round} d ON d.{q('id')} = (SELECT d2.{q('id')} FROM {t_round} d2 "
        f"WHERE d2.{q('match_id')} = r.{q('current_match_id')} "
        f"ORDER BY d2.{q('number')} DESC LIMIT 1) "
        f"WHERE r.{q('code')} = %s"
    )
    seat, user, conn = (q(Seat._meta.db_table), q(User._meta.db_table),
                        q(Connection._meta.db_table))
    seats = (
        f"SELECT s.{q('index')}, s.{q('team')}, s.{q('user_id')}, s.{q('joined')}, "
        f"u.{q('username')}, u.{q('display_name')}, u.{q('anonymised_at')}, "
        f"u.{q('is_bot')}, u.{q('bot_level')}, "
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
        f"ORDER BY c.{q('closed_at')} DESC LIMIT 1) "
        f"FROM {seat} s JOIN {user} u ON u.{q('id')} = s.{q('user_id')} "
        f"WHERE s.{q('room_id')} = %s ORDER BY s.{q('index')}"
    )
    found = _cache[vendor] = {
        "columns": (room, match, rnd),
        "table": table,
        # Only the room row is locked (the writer's one lock per room, ARCHITECTURE §5);
        # SQLite needs no clause: its transactions are IMMEDIATE.
        "table_for_update": table + (" FOR UPDATE OF r" if connection.vendor == "postgresql"
                                     else ""),
        "seats": seats,
    }
    return found


def load_table(code: str, *, lock: bool) -> tuple[Room, Match | None, Round | None] | None:
    """The room (locked for update if `lock`), its current match and that match's last deal."""
    c = _compiled()
    with connection.cursor() as cur:
        cur.execute(c["table_for_update" if lock else "table"], [code])
        row = cur.fetchone()
    if row is None:
        return None
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
    from games.services.table import PRESENCE_TIMEOUT  # table imports this module

    times = []
    if last_closed is not None:
        times.append(_aware(last_closed))
    if last_open is not None:
        times.append(_aware(last_open) + PRESENCE_TIMEOUT)
    return max(times) if times else None


def seat_rows(room_id: int, online_since: datetime) -> list[SeatRow]:
    """The room's seats with their players' names, whether each has a live socket and, if
    not, since when the player is away: one statement (the per-card hot path)."""
    c = _compiled()
    with connection.cursor() as cur:
        cur.execute(c["seats"], [connection.ops.adapt_datetimefield_value(online_since), room_id])
        rows = cur.fetchall()
    # A bot has no socket and is never away: it counts as online.
    return [SeatRow(index, team, user_id,
                    public_name(username, display, anonymised, bool(is_bot), bot_level),
                    _aware(joined), bool(online) or bool(is_bot),
                    None if online or is_bot else away_since(last_open, last_closed),
                    bool(is_bot), bot_level)
            for (index, team, user_id, joined, username, display, anonymised, is_bot,
                 bot_level, online, last_open, last_closed) in rows]


def public_name(username: str, display_name: str, anonymised_at: Any, is_bot: bool = False,
                bot_level: str = "") -> str:
    """User.public_name from the row's columns: a deleted account is "Former player" at the
    table as on the pages, never its placeholder username (`deleted-<id>`). A bot's own name
    alone: the table's views carry its level apart (`player.bot`), and each page says "bot"
    in its reader's language (static/js/views/bots.js), which one broadcast cannot."""
    if anonymised_at is not None:
        return gettext("Former player")
    return display_name or username


def update_row(obj: Model, fields: list[str], *, version_was: int | None = None) -> int:
    """UPDATE these fields of obj's row (the fields' own adapters); with `version_was`, only if
    the row's version is still that (a compare-and-set). Returns the number of rows updated."""
    q = connection.ops.quote_name
    meta = obj._meta
    cols, params = [], []
    for name in fields:
        f = cast("Field[Any, Any]", meta.get_field(name))  # callers name concrete columns
        cols.append(f"{q(f.column)} = %s")
        params.append(f.get_db_prep_save(getattr(obj, f.attname), connection))
    where = f"{q(meta.pk.column)} = %s"
    params.append(obj.pk)
    if version_was is not None:
        where += f" AND {q('version')} = %s"
        params.append(version_was)
    sql = f"UPDATE {q(meta.db_table)} SET {', '.join(cols)} WHERE {where}"
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.rowcount


def insert_action(**values: Any) -> None:
    """Append one RoundAction row (the log is append-only: no instance is needed back)."""
    q = connection.ops.quote_name
    obj = RoundAction(**values)
    fields = [f for f in RoundAction._meta.concrete_fields if not f.primary_key]
    sql = (f"INSERT INTO {q(RoundAction._meta.db_table)} "
           f"({', '.join(q(f.column) for f in fields)}) "
           f"VALUES ({', '.join(['%s'] * len(fields))})")
    params = [f.get_db_prep_save(f.pre_save(obj, add=True), connection) for f in fields]
    with connection.cursor() as cur:
        cur.execute(sql, params)

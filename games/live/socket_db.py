"""The sockets' database calls (RoomConsumer, SiteConsumer, the talk handlers): every call of a
socket into the services goes through `db_call`, and the calls a frame makes carry the session
re-check (accounts/sessions.py) in the same thread hop.

On PostgreSQL the calls run in the thread pool, not on Channels' default single thread: with one
thread every table of the process waited for every other table's database round trips
(bench/ws_load.py found 1 s medians at 25 actions/s while the process used a third of a core).
One room's writes still run one at a time in a process, in arrival order (the consumer's room
lock), so its after-commit broadcasts leave in version order; other rooms proceed in parallel.
Each pool thread has its own database connection (kept between calls with DB_CONN_MAX_AGE).
SQLite keeps the single thread: it has one writer anyway, and its shared-cache in-memory test
database refuses concurrent connections ("database table is locked") instead of waiting.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from typing import Final, ParamSpec, TypeAlias, TypeVar, cast

from channels.db import database_sync_to_async
from django.conf import settings

from accounts.sessions import still_signed_in

P = ParamSpec("P")
R = TypeVar("R")

# What a socket's handshake session is checked against: (user id, password hash, session key).
Auth: TypeAlias = tuple[int, str, str | None]


class SignedOut(enum.Enum):
    """The answer of a call whose socket's session has ended (a log-out, a new password)."""

    SIGNED_OUT = "signed out"


SIGNED_OUT: Final = SignedOut.SIGNED_OUT


def db_call(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`func` as a coroutine function run on a database thread (see the module's note)."""
    sqlite = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    return cast("Callable[P, Awaitable[R]]",
                database_sync_to_async(func, thread_sensitive=sqlite))


def if_signed_in(auth: Auth, func: Callable[P, R], *args: P.args, **kwargs: P.kwargs
                 ) -> R | SignedOut:
    """`func(*args)` if the socket's session still holds, else SIGNED_OUT: the check rides the
    thread hop the frame needs anyway, one indexed query. Run it through `db_call`."""
    if not still_signed_in(*auth):
        return SIGNED_OUT
    return func(*args, **kwargs)


def signed_in(auth: Auth) -> bool:
    """Whether the socket's session still holds (accounts/sessions.py). Through `db_call`."""
    return still_signed_in(*auth)

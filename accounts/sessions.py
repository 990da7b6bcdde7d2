"""Is a signed-in session still what it was when a long-lived connection opened? (websockets)

A page request re-reads its session every time; a websocket authenticates once, at the
handshake. So the live table (games/live/consumers.py) re-checks on every frame, with
`still_signed_in`, and listens for `credentials_changed` to close its sockets at once.

A session stays valid while its row exists and has not expired, the account is active, and the
account's password hash is the one the session was signed in with: Django's session auth hash is
an HMAC of that hash (AbstractBaseUser.get_session_auth_hash), so comparing the stored hash is
the same test as Django's own, without decoding the session. One statement, two primary-key
lookups.
"""

from __future__ import annotations

import hashlib
from importlib import import_module
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.dispatch import Signal
from django.utils import timezone

from troccas_site.prepared import prepared_cursor

if TYPE_CHECKING:
    from django.contrib.sessions.backends.base import SessionBase

# Sent (after commit) when an account's password changes or the account is deleted: every
# session signed in with the old credentials is over. Arguments: `user`.
credentials_changed = Signal()

_DB_ENGINES = ("django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cached_db")
_sql: dict[str, str] = {}


def session_tag(session_key: str | None) -> str:
    """A digest that names a session without carrying its key (a bearer secret) around."""
    return hashlib.sha256((session_key or "").encode()).hexdigest()[:32]


def _statement() -> str:
    found = _sql.get(connection.vendor)
    if found is None:
        from django.contrib.sessions.models import Session

        q = connection.ops.quote_name
        user = get_user_model()
        found = _sql[connection.vendor] = (
            f"SELECT 1 FROM {q(user._meta.db_table)} u WHERE u.{q('id')} = %s "
            f"AND u.{q('is_active')} AND u.{q('password')} = %s AND EXISTS (SELECT 1 FROM "
            f"{q(Session._meta.db_table)} s WHERE s.{q('session_key')} = %s "
            f"AND s.{q('expire_date')} > %s)"
        )
    return found


def signed_in_statement(user_id: int, password: str, session_key: str | None
                        ) -> tuple[str, list[Any]] | None:
    """`still_signed_in` as one statement that returns a row while the session holds, for a
    caller that sends it along with its own statements (games/services/writer.py: in the same
    round trip as the table it locks). None when the sessions are not in the database (the
    caller then calls `still_signed_in`); a missing session key never matches."""
    if settings.SESSION_ENGINE not in _DB_ENGINES:
        return None
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    return _statement(), [user_id, password, session_key or "", now]


def still_signed_in(user_id: int, password: str, session_key: str | None) -> bool:
    """True while the session `session_key` may still act for the account `user_id` that
    held the password hash `password` when the session was checked at the handshake."""
    if not session_key:
        return False
    if settings.SESSION_ENGINE in _DB_ENGINES:
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with prepared_cursor() as cur:
            cur.execute(_statement(), [user_id, password, session_key, now])
            return cur.fetchone() is not None
    store: SessionBase = import_module(settings.SESSION_ENGINE).SessionStore()
    return store.exists(session_key) and get_user_model().objects.filter(
        pk=user_id, is_active=True, password=password).exists()

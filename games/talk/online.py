"""Who is on the site (issue #17): a user is online while any of their sockets is live — a
site socket (/ws/me/, opened by every page) or a table socket (/ws/rooms/<code>/) — that is,
a row of either kind that is open and heartbeat within PRESENCE_TIMEOUT.

Rows live in the database, so every process sees every other's sockets; a user with several
tabs has several rows and is counted once (distinct user ids); a process killed without
cleaning up leaves rows whose last_seen stops moving, and those stop counting after
PRESENCE_TIMEOUT (and are purged later with the table's stale rows).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Connection, Room, SitePresence, Visibility
from games.models.presence import PRESENCE_TIMEOUT, STALE_AFTER

__all__ = ["MAX_SITE_SOCKETS_PER_USER", "connect", "disconnect", "online_count",
           "online_ids", "public_tables", "purge_stale", "touch"]

# Site sockets one account may hold: one per tab; many tabs are fine, hundreds are not.
MAX_SITE_SOCKETS_PER_USER = 30


def connect(user: Any, channel_name: str) -> str | None:
    """Register an open site socket; "TOO_MANY_SOCKETS" (and nothing written) past the cap."""
    now = timezone.now()
    with transaction.atomic():
        mine = SitePresence.objects.filter(user=user, last_seen__gte=now - PRESENCE_TIMEOUT)
        if mine.exclude(channel_name=channel_name).count() >= MAX_SITE_SOCKETS_PER_USER:
            return "TOO_MANY_SOCKETS"
        SitePresence.objects.update_or_create(channel_name=channel_name,
                                              defaults={"user": user, "last_seen": now})
    return None


def touch(channel_name: str) -> None:
    SitePresence.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())


def disconnect(channel_name: str) -> None:
    SitePresence.objects.filter(channel_name=channel_name).delete()


def purge_stale() -> int:
    """Remove the site rows of sockets silent for STALE_AFTER (their process died)."""
    deleted, _ = SitePresence.objects.filter(
        last_seen__lt=timezone.now() - STALE_AFTER).delete()
    return deleted


def _live_rows(user_ids: Iterable[int] | None) -> tuple[Any, Any]:
    since = timezone.now() - PRESENCE_TIMEOUT
    site = SitePresence.objects.filter(last_seen__gte=since)
    tables = Connection.objects.filter(last_seen__gte=since, closed_at__isnull=True)
    if user_ids is not None:
        ids = list(user_ids)
        site, tables = site.filter(user_id__in=ids), tables.filter(user_id__in=ids)
    return site, tables


def online_ids(user_ids: Iterable[int] | None = None) -> set[int]:
    """The online users among `user_ids` (all users if None)."""
    site, tables = _live_rows(user_ids)
    return (set(site.values_list("user_id", flat=True))
            | set(tables.values_list("user_id", flat=True)))


def online_count() -> int:
    """How many people are online: distinct users, bots never (they hold no socket)."""
    return len(online_ids())


def public_tables(user_ids: Iterable[int]) -> dict[int, Room]:
    """For each of `user_ids` at an open public table now (a live table socket), that room
    (the one heard from last). Private tables are never named."""
    _, tables = _live_rows(user_ids)
    rows = (tables.filter(room__visibility=Visibility.PUBLIC, room__closed__isnull=True)
            .select_related("room").order_by("last_seen"))
    return {row.user_id: row.room for row in rows}

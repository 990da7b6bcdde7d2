"""Keeping the talk civil: mutes (per user, at every table), one-click reports, and the staff's
hide and suspend (the admin's actions, games/admin.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from accounts.validators import is_plain_text
from games.models import ReportReason, TalkMessage, TalkMute, TalkReport, TalkSuspension
from games.models.talk import MAX_REPORT_NOTE
from games.talk import hooks
from games.talk.errors import TalkError
from games.talk.frames import audiences_for

# How many messages on each side of a reported one the admin shows as its context.
CONTEXT = 5
# Mutes and unmutes one player may make per window (issue #25 item 5: 1,800 in 10 s made
# every socket of the account re-read its talk each time). Counted on the cache (Redis in the
# distributed mode), so the limit holds across processes.
MUTES_PER_WINDOW = 20
MUTE_WINDOW = 60


def _mute_key(user: Any) -> str:
    # The id and the instant the account joined: an id a fresh database hands out again is
    # another account, whose count the cache must not carry.
    joined = getattr(user, "date_joined", None)
    return f"talk-mutes:{user.pk}:{joined.timestamp() if joined else 0}"


def _count_mute(user: Any) -> None:
    """Count one mute of `user`; TOO_MANY_MUTES past the window's limit (a fixed window)."""
    key = _mute_key(user)
    cache.add(key, 0, timeout=MUTE_WINDOW)
    try:
        count = int(cache.incr(key))
    except ValueError:  # the window ended between add() and incr()
        cache.set(key, 1, timeout=MUTE_WINDOW)
        count = 1
    if count > MUTES_PER_WINDOW:
        raise TalkError("TOO_MANY_MUTES")


def set_mute(user: Any, other_id: int, muted: bool) -> None:
    """`user` mutes (or unmutes) `other_id` everywhere; their sockets refilter at once.
    PLAYER_NOT_FOUND (and nothing written) for an id that names no account: the mute row's
    foreign key would fail at commit, and the socket with it (issue #25 item 13)."""
    if other_id == user.pk:
        raise TalkError("CANNOT_TARGET_SELF")
    if not User.objects.filter(pk=other_id).exists():
        raise TalkError("PLAYER_NOT_FOUND")
    _count_mute(user)
    with transaction.atomic():
        if muted:
            TalkMute.objects.get_or_create(user_id=user.pk, muted_id=other_id)
        else:
            TalkMute.objects.filter(user_id=user.pk, muted_id=other_id).delete()
        hooks.mutes_changed(user.pk)


def muted_by(user: Any) -> list[Any]:
    """The players `user` muted, by name (the friends page lists them, each with Unmute)."""
    return list(User.objects.filter(pk__in=TalkMute.objects.filter(user_id=user.pk)
                                    .values("muted_id")).order_by("display_name", "username"))


def report(user: Any, code: str, message_id: int, seat: int | None, *,
           reason: str, note: str | None = None) -> TalkReport:
    """`user` reports a message they could read at table `code`, for one of the listed
    reasons, with an optional note; a second report of the same message by the same user is
    the same report (its first reason kept)."""
    if reason not in ReportReason.values:
        raise TalkError("REPORT_REASON_UNKNOWN")
    note = (note or "").strip()
    if len(note) > MAX_REPORT_NOTE:
        raise TalkError("TALK_TOO_LONG")
    if note and not is_plain_text(note):
        raise TalkError("INVALID_FIELD")
    message = (TalkMessage.objects
               .filter(pk=message_id, room__code=code, hidden__isnull=True,
                       audience__in=audiences_for(seat)).first())
    if message is None:
        raise TalkError("TALK_MESSAGE_NOT_FOUND")
    if message.author_id == user.pk:
        raise TalkError("CANNOT_TARGET_SELF")
    try:
        with transaction.atomic():
            return TalkReport.objects.create(message=message, reporter_id=user.pk,
                                             reason=reason, note=note)
    except IntegrityError:
        return TalkReport.objects.get(message=message, reporter_id=user.pk)


def hide(message: TalkMessage, staff: Any) -> bool:
    """Hide a message for everyone: gone from every socket at once and from the replay.
    Returns False if it was hidden already."""
    with transaction.atomic():
        changed = TalkMessage.objects.filter(pk=message.pk, hidden__isnull=True).update(
            hidden=timezone.now(), hidden_by=staff)
        TalkReport.objects.filter(message_id=message.pk).update(resolved=True)
        if changed:
            hooks.hidden(message.room.code, message.pk)
    return bool(changed)


def suspend(user_id: int, days: float, reason: str = "") -> TalkSuspension:
    """No talk from `user_id` at any table for `days`."""
    return TalkSuspension.objects.create(user_id=user_id, reason=reason[:200],
                                         until=timezone.now() + timedelta(days=days))


def context(message: TalkMessage) -> list[TalkMessage]:
    """The messages around `message` in its room and audience, hidden ones included (staff
    judge a report by what was said), `message` among them."""
    same = TalkMessage.objects.filter(room_id=message.room_id, audience=message.audience)
    before = list(same.filter(pk__lt=message.pk).order_by("-pk")[:CONTEXT])
    after = list(same.filter(pk__gt=message.pk).order_by("pk")[:CONTEXT])
    return [*reversed(before), message, *after]

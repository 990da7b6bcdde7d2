"""The newcomers' funnel (issue #28 item 5): counters of how far new accounts get — a lesson,
a first deal, a first match — and of illegal attempts over a player's first ten deals. Only
counts are stored: no row names an account, and an attempt waits in the cache (keyed by deal
and seat, gone within a day) only until its deal is scored.

Called by those who see the moments: the sign-up (accounts), a finished lesson (teaching),
a scored deal, a finished match and a refused card (the services). Each is one or two
indexed updates in a savepoint of its own: a counter's failure never fails what it counts.
"""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db import DatabaseError, transaction
from django.db.models import F

from games.models.teaching import FunnelWeek, IllegalByDeal

log = logging.getLogger(__name__)

STEPS = ("lesson", "first_deal", "first_match")
FIRST_DEALS = 10  # illegal attempts are counted over a player's first ten deals
_KEY = "troccas:illegal:{round}:{seat}"
_KEEP_S = 24 * 3600
# The refusals that mean "a card the rules do not allow" (RULES.md §7, §8), not a table that
# moved on.
ILLEGAL_CODES = frozenset({"MUST_FOLLOW_SUIT", "MUST_PLAY_TRUMP", "BUOB_FORCED_JACK",
                           "CARD_NOT_IN_HAND"})


def week_of(joined: datetime | date) -> date:
    day = joined.date() if isinstance(joined, datetime) else joined
    return day - timedelta(days=day.weekday())


def signed_up(user: Any) -> None:
    """A new account (the sign-up form): its week's first count."""
    try:
        with transaction.atomic():  # a savepoint: a failed count undoes only itself
            row, _ = FunnelWeek.objects.get_or_create(week=week_of(user.date_joined))
            FunnelWeek.objects.filter(pk=row.pk).update(signed_up=F("signed_up") + 1)
    except DatabaseError:
        log.exception("funnel: sign-up not counted")


def reached(user: Any, step: str) -> None:
    """An account got to `step` for the first time (the caller knows it is the first).
    Counted in the week it signed up, if that week is counted (accounts made by the sign-up
    form since the funnel exists)."""
    assert step in STEPS
    if getattr(user, "is_bot", False):
        return
    try:
        with transaction.atomic():
            FunnelWeek.objects.filter(week=week_of(user.date_joined)).update(
                **{step: F(step) + 1})
    except DatabaseError:
        log.exception("funnel: %s not counted", step)


def illegal(round_id: int, seat: int) -> None:
    """A card of this seat the rules refused in this deal."""
    key = _KEY.format(round=round_id, seat=seat)
    try:
        if not cache.add(key, 1, _KEEP_S):
            cache.incr(key)
    except Exception:
        log.exception("funnel: an illegal attempt not counted")


def deal_played(round_id: int, seat: int, nth: int) -> None:
    """The player of `seat` finished their `nth` deal (this one): its attempts counted."""
    key = _KEY.format(round=round_id, seat=seat)
    try:
        attempts = int(cache.get(key) or 0)
        cache.delete(key)
    except Exception:  # the cache is down: the deal counts without its attempts
        log.exception("funnel: a deal's attempts not read")
        attempts = 0
    if nth > FIRST_DEALS:
        return
    try:
        with transaction.atomic():
            row, _ = IllegalByDeal.objects.get_or_create(deal=nth)
            IllegalByDeal.objects.filter(pk=row.pk).update(deals=F("deals") + 1,
                                                           illegal=F("illegal") + attempts)
    except DatabaseError:
        log.exception("funnel: a deal not counted")


__all__ = ["FIRST_DEALS", "ILLEGAL_CODES", "STEPS", "deal_played", "illegal", "reached",
           "signed_up", "week_of"]

"""The services' part of the newcomers' funnel (issue #28 item 5; games/models/funnel.py): a
scored deal and a finished match, counted for the people at the table who are new here.

Only accounts that joined in the last NEW_DAYS are looked at (one query, often empty): their
first deal and first match, and the illegal attempts of their first ten deals. Called inside
the writer's transaction, once per deal and once per match — never on a card.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q

from accounts.models import User
from games.models import Match, MatchStatus, Round, funnel
from games.services.tables import Table, seats_of

NEW_DAYS = 90


def _newcomers(t: Table) -> list[tuple[User, int]]:
    seats = {s.user_id: s.index for s in seats_of(t) if s.index is not None and not s.is_bot}
    if not seats:
        return []
    users = User.objects.filter(pk__in=seats, is_bot=False,
                                date_joined__gte=t.now - timedelta(days=NEW_DAYS))
    return [(u, seats[u.pk]) for u in users]


def _theirs(user: User) -> Q:
    return (Q(match__player_0=user) | Q(match__player_1=user) | Q(match__player_2=user)
            | Q(match__player_3=user))


def deal_scored(t: Table, rnd: Round) -> None:
    for user, seat in _newcomers(t):
        nth = Round.objects.filter(_theirs(user), points_a__isnull=False).count()
        if nth == 1:
            funnel.reached(user, "first_deal")
        funnel.deal_played(rnd.pk, seat, nth)


def match_finished(t: Table) -> None:
    for user, _seat in _newcomers(t):
        if Match.objects.for_user(user).filter(status=MatchStatus.FINISHED).count() == 1:
            funnel.reached(user, "first_match")


__all__ = ["NEW_DAYS", "deal_scored", "match_finished"]

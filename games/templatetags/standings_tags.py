"""`{% rating_panel user %}`: a player's rating and its chart over time (issue #7), for the
profile page (accounts/templates/accounts/profile.html), with how many of their matches they
finished (issue #17; games/history/reliability.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import template

from games.history.reliability import finished_record
from games.history.replay import rating_chart
from games.models import PlayerRating, RatingHistory

if TYPE_CHECKING:
    from accounts.models import User

register = template.Library()


@register.inclusion_tag("games/history/rating_panel.html")
def rating_panel(user: User, own: bool = True) -> dict[str, Any]:
    """`own`: the panel of the viewer's own profile (with links to their matches); False on
    another player's public page."""
    row = PlayerRating.objects.filter(user=user, matches__gt=0).first()
    points = list(RatingHistory.objects.filter(user=user).order_by("at", "match_id")
                  .values_list("at", "rating"))
    return {"row": row, "chart": rating_chart(points), "record": finished_record(user),
            "own": own}

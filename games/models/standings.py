"""Standings (issue #7): per-player and per-pair statistics and ratings, and each player's
rating history for the profile chart.

Everything here is derived from finished matches: `games.standings.record_match` updates it in
the transaction that ends a match, and `manage.py recompute_standings` rebuilds it from history
with the same result. Imported by games/models/table.py so Django sees these models.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# The rating scale the rows start from and are judged by (games/history/rating.py rates on it):
# a new player's skill belief N(MU, SIGMA^2), shown as the cautious mu - 3 sigma. Here, with the
# columns whose defaults they are, so the models need nothing of the layers above them.
MU = 25.0
SIGMA = MU / 3
# A rating is provisional until the player has this many rated matches, or while its
# uncertainty is still high.
PROVISIONAL_MATCHES = 5
PROVISIONAL_SIGMA = 7.0


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown in the standings: mu - 3 sigma."""
    return mu - 3 * sigma


def is_provisional(matches: int, sigma: float) -> bool:
    return matches < PROVISIONAL_MATCHES or sigma > PROVISIONAL_SIGMA


class StatsFields(models.Model):
    """Counters shared by a player's and a pair's row (all from finished matches)."""

    matches = models.PositiveIntegerField(_("matches"), default=0, db_index=True)
    wins = models.PositiveIntegerField(_("wins"), default=0, db_index=True)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    deals = models.PositiveIntegerField(_("deals played"), default=0)
    deals_won = models.PositiveIntegerField(_("deals won"), default=0, db_index=True)
    points = models.PositiveIntegerField(
        _("card points"), default=0, help_text=_("The team's card points over all deals."))
    avg_points = models.FloatField(_("average points per deal"), default=0.0, db_index=True)
    buob_calls = models.PositiveIntegerField(_("BUOB calls"), default=0, db_index=True)
    buob_won = models.PositiveIntegerField(
        _("BUOB calls won"), default=0,
        help_text=_("Calls after which the caller's team won the trick."))
    mu = models.FloatField(_("skill (mu)"), default=MU)
    sigma = models.FloatField(_("uncertainty (sigma)"), default=SIGMA)
    rating = models.FloatField(_("rating"), default=ordinal(MU, SIGMA), db_index=True)
    # The last match counted, in the canonical order (finished, id): record_match keeps every
    # player's matches in that order, so a rebuild from history gives the same numbers.
    last_finished = models.DateTimeField(_("last match finished"), null=True, blank=True)
    last_match_id_seen = models.PositiveIntegerField(_("last match"), null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def provisional(self) -> bool:
        return is_provisional(self.matches, self.sigma)


class PlayerRating(StatsFields):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, verbose_name=_("player"), on_delete=models.CASCADE,
        related_name="rating",
    )

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        ordering = ["-rating", "pk"]

    def __str__(self) -> str:
        return f"{self.user} ({self.rating:.1f})"


class PairStats(StatsFields):
    """A fixed pair of partners; player_low has the lower user id."""

    player_low = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("player"), on_delete=models.CASCADE,
        related_name="+",
    )
    player_high = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("partner"), on_delete=models.CASCADE,
        related_name="+",
    )

    class Meta:
        verbose_name = _("pair statistics")
        verbose_name_plural = _("pair statistics")
        ordering = ["-rating", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["player_low", "player_high"],
                                    name="pairstats_unique_pair"),
            models.CheckConstraint(condition=Q(player_low__lt=models.F("player_high")),
                                   name="pairstats_low_below_high"),
        ]

    def __str__(self) -> str:
        return f"{self.player_low} & {self.player_high}"


class RatingHistory(models.Model):
    """A player's rating after one match: the points of the profile's chart."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("player"), on_delete=models.CASCADE,
        related_name="rating_history",
    )
    match = models.ForeignKey(
        "games.Match", verbose_name=_("match"), on_delete=models.CASCADE, related_name="+",
    )
    at = models.DateTimeField(_("time"))
    mu = models.FloatField(_("skill (mu)"))
    sigma = models.FloatField(_("uncertainty (sigma)"))
    rating = models.FloatField(_("rating"))
    matches = models.PositiveIntegerField(_("matches"))

    class Meta:
        verbose_name = _("rating history entry")
        verbose_name_plural = _("rating history")
        ordering = ["user", "at", "match"]
        indexes = [models.Index(fields=["user", "at"], name="ratinghistory_user_at")]
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="ratinghistory_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.at:%Y-%m-%d} {self.rating:.1f}"

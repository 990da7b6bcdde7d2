"""Teaching's rows (issue #28): the lessons a player finished, with their stars.

An anonymous learner's progress lives in their session until they sign up or sign in
(games/teaching/progress.py moves it here then); the lessons themselves are files
(games/teaching/lessons/), so a row names its lesson by the file's slug.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class LessonProgress(models.Model):
    """A lesson a player finished: the best stars so far and when they first finished it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="lessons", verbose_name=_("player"))
    lesson = models.CharField(_("lesson"), max_length=64)
    stars = models.PositiveSmallIntegerField(_("stars"))
    finished = models.DateTimeField(_("finished"), default=timezone.now)

    class Meta:
        verbose_name = _("lesson finished")
        verbose_name_plural = _("lessons finished")
        constraints = [models.UniqueConstraint(fields=["user", "lesson"],
                                               name="one_progress_per_lesson")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.lesson} ({self.stars})"


class ReviewStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class DealReview(models.Model):
    """A player's review of their own seat in one finished deal (issue #28 item 3): each of
    their decisions judged again by the strong bot from what they knew then. Kept with the
    deal; shown to that player alone. `result` holds only the player's own cards."""

    round = models.ForeignKey("games.Round", on_delete=models.CASCADE, related_name="reviews",
                              verbose_name=_("deal"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="deal_reviews", verbose_name=_("player"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    status = models.CharField(_("status"), max_length=8, choices=ReviewStatus.choices,
                              default=ReviewStatus.QUEUED)
    done = models.PositiveSmallIntegerField(_("decisions judged"), default=0)
    total = models.PositiveSmallIntegerField(_("decisions"), default=0)
    result = models.JSONField(_("result"), default=list, blank=True)
    created = models.DateTimeField(_("asked"), default=timezone.now)
    updated = models.DateTimeField(_("last progress"), default=timezone.now)

    class Meta:
        verbose_name = _("deal review")
        verbose_name_plural = _("deal reviews")
        constraints = [models.UniqueConstraint(fields=["round", "user"],
                                               name="one_review_per_deal_and_player")]

    def __str__(self) -> str:
        return f"review of round {self.round_id} for {self.user_id} ({self.status})"


class PracticePosition(models.Model):
    """Where a practice table's first deal starts (issue #28 item 3, "try again from here"):
    the deck, the dealer and the engine actions already played, seats as at the new table.
    Read once, by the writer, when the table's match starts (games/services/writer.py)."""

    room = models.OneToOneField("games.Room", on_delete=models.CASCADE,
                                related_name="practice_position", verbose_name=_("room"))
    deck = models.JSONField(_("deck order"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    actions = models.JSONField(_("actions"), default=list)
    source = models.ForeignKey("games.Round", on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+", verbose_name=_("from the deal"))

    class Meta:
        verbose_name = _("practice position")
        verbose_name_plural = _("practice positions")

    def __str__(self) -> str:
        return f"position for room {self.room_id}"


class FunnelWeek(models.Model):
    """How far the accounts that signed up in one week got (issue #28 item 5): counts only,
    no account named. A step counts an account once, the first time it gets there
    (games/models/funnel.py)."""

    week = models.DateField(_("week of sign-up"), unique=True,
                            help_text=_("The Monday of the week the accounts signed up."))
    signed_up = models.PositiveIntegerField(_("signed up"), default=0)
    lesson = models.PositiveIntegerField(_("finished a lesson"), default=0)
    first_deal = models.PositiveIntegerField(_("finished a first deal"), default=0)
    first_match = models.PositiveIntegerField(_("finished a first match"), default=0)

    class Meta:
        verbose_name = _("newcomers by week")
        verbose_name_plural = _("newcomers by week")
        ordering = ["-week"]

    def __str__(self) -> str:
        return str(self.week)


class IllegalByDeal(models.Model):
    """Illegal attempts (a card the rules refuse) in the players' first ten deals: for each
    deal number, how many such deals were played and how many attempts were made in them —
    counts only (issue #28 item 5)."""

    deal = models.PositiveSmallIntegerField(_("the player's deal"), unique=True)
    deals = models.PositiveIntegerField(_("deals played"), default=0)
    illegal = models.PositiveIntegerField(_("illegal attempts"), default=0)

    class Meta:
        verbose_name = _("illegal attempts by deal")
        verbose_name_plural = _("illegal attempts by deal")
        ordering = ["deal"]

    def __str__(self) -> str:
        return str(self.deal)

    @property
    def per_deal(self) -> float:
        return round(self.illegal / self.deals, 2) if self.deals else 0.0

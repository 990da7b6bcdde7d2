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

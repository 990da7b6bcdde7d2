"""Find a game (issue #24 item 15): one row per player who has ever queued for a table of four
people. games/services/matchmaking.py alone writes it.

The row is the player's, not the wait's (a OneToOne on the user): joining again reuses it, so
the database itself holds "one wait per person". Forming a table moves four rows from WAITING
to SEATED with one compare-and-set UPDATE (`status = waiting` in its WHERE, under a row lock on
PostgreSQL): two processes forming at once can never seat one person twice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.table import Room


class QueueStatus(models.TextChoices):
    WAITING = "waiting", _("waiting")
    # A table of four people formed: `room` is it.
    SEATED = "seated", _("seated at a table")
    # The player pressed "Play with bots": `room` is their table with bots.
    BOTS = "bots", _("playing with bots")
    LEFT = "left", _("left the queue")
    # Nobody compatible came within TROCCAS_QUEUE_MAX_WAIT.
    EXPIRED = "expired", _("no table formed")
    # No socket of theirs for TROCCAS_QUEUE_GRACE_SECONDS.
    GONE = "gone", _("went away")


class QueueEntry(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                                on_delete=models.CASCADE, related_name="queue_entry")
    status = models.CharField(_("status"), max_length=8, choices=QueueStatus.choices,
                              default=QueueStatus.WAITING, db_index=True)
    # The house rules the player accepts: option -> its JSON value (RULES.md §14); an option
    # left out is "any". Checked by the services (the engine's Options).
    rules = models.JSONField(_("accepted house rules"), default=dict, blank=True)
    # After how many seconds of waiting "Play with bots" is offered; null: never.
    bots_after = models.PositiveIntegerField(_("offer bots after (seconds)"), null=True,
                                             blank=True)
    joined = models.DateTimeField(_("joined"), default=timezone.now)
    # When the sweep first found none of the player's sockets open (cleared when one is back).
    away_since = models.DateTimeField(_("away since"), null=True, blank=True)
    ended = models.DateTimeField(_("ended"), null=True, blank=True)
    room = models.ForeignKey(Room, verbose_name=_("room"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("queue entry")
        verbose_name_plural = _("queue entries")
        ordering = ["joined", "pk"]

    def __str__(self) -> str:
        return f"{self.user_id} {self.status}"

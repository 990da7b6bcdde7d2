"""Table talk (issue #17): what players and spectators say at a table, the quick-phrase palette,
and the moderation around it (mutes, reports, suspensions, blocked words).

These are not game rows: games/talk/ writes them (the write guard covers the table's rows only).
A message remembers the table version, deal and trick it was said at, so a replay shows it at
that moment; a hidden message stays stored (for the report that led to it) but is never sent.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.social import blocked_either_way
from games.models.table import Match, Room

# The longest message a player may say (games/talk/speech.py refuses longer; the panel's counter
# shows it, games/text/talk.py).
MAX_CHARS = 200


class TalkAudience(models.TextChoices):
    # The seated players' talk reaches everyone at the table; the spectators' chat only them.
    TABLE = "table", _("table talk")
    SPECTATORS = "spectators", _("spectator chat")


class QuickPhrase(models.Model):
    """One phrase of the palette; its text is translated in the admin (modeltranslation), and
    every reader sees it in their own language."""

    key = models.SlugField(_("key"), max_length=40, unique=True)
    text = models.CharField(_("text"), max_length=120)
    order = models.PositiveIntegerField(_("order"), default=0, db_index=True)
    active = models.BooleanField(_("in the palette"), default=True)

    # Declared: modeltranslation swaps in a manager class built at run time, which the type
    # checker cannot name (it is a Manager of this model all the same).
    objects: ClassVar[models.Manager[QuickPhrase]]

    class Meta:
        verbose_name = _("quick phrase")
        verbose_name_plural = _("quick phrases")
        ordering = ["order", "pk"]

    def __str__(self) -> str:
        return self.text

    def texts(self) -> dict[str, str]:
        """The phrase in every language (the English one where a translation is missing)."""
        english = getattr(self, "text_en", None) or self.text
        return {code: getattr(self, f"text_{code}", None) or english
                for code, _name in settings.LANGUAGES}

    @classmethod
    def palette(cls, language: str) -> list[dict[str, str]]:
        """The active phrases, in `language`, in the palette's order."""
        return [{"key": p.key, "text": p.texts()[language]}
                for p in cls.objects.filter(active=True)]


class TalkMessage(models.Model):
    room = models.ForeignKey(Room, verbose_name=_("room"), on_delete=models.CASCADE,
                             related_name="talk")
    # Kept with the match it was said in (null in the lobby before a first match).
    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              null=True, blank=True, related_name="talk")
    audience = models.CharField(_("audience"), max_length=12, choices=TalkAudience.choices,
                                default=TalkAudience.TABLE)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("author"),
                               on_delete=models.CASCADE, related_name="talk")
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    text = models.CharField(_("text"), max_length=MAX_CHARS, blank=True)
    phrase = models.ForeignKey(QuickPhrase, verbose_name=_("quick phrase"), null=True,
                               blank=True, on_delete=models.PROTECT, related_name="+")
    version = models.PositiveIntegerField(_("table version"))
    deal = models.PositiveIntegerField(_("deal"), null=True, blank=True)
    trick = models.PositiveSmallIntegerField(_("trick"), null=True, blank=True)
    created = models.DateTimeField(_("said"), default=timezone.now, db_index=True)
    hidden = models.DateTimeField(_("hidden"), null=True, blank=True)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("hidden by"),
                                  null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")

    class Meta:
        verbose_name = _("talk message")
        verbose_name_plural = _("talk messages")
        ordering = ["pk"]
        indexes = [models.Index(fields=["room", "audience", "id"]),
                   models.Index(fields=["author", "created"])]

    def __str__(self) -> str:
        phrase = self.phrase
        return f"{self.author}: {phrase.text if phrase is not None else self.text}"


class TalkMute(models.Model):
    """`user` does not want to read `muted` (at any table), until they unmute."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="talk_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")
        constraints = [models.UniqueConstraint(fields=["user", "muted"],
                                               name="talk_mute_once")]

    def __str__(self) -> str:
        return f"{self.user} ⊘ {self.muted}"


# The longest note a reporter may add to the reason they chose (games/talk/moderation.py).
MAX_REPORT_NOTE = 300


class ReportReason(models.TextChoices):
    # Why a message is reported (issue #24 item 14): staff sort the reports by it.
    ABUSE = "abuse", _("insults or harassment")
    SPAM = "spam", _("spam or advertising")
    CHEATING = "cheating", _("telling the cards or the plan")
    OTHER = "other", _("something else")


class TalkReport(models.Model):
    message = models.ForeignKey(TalkMessage, verbose_name=_("message"),
                                on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("reported by"),
                                 on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(_("reported"), default=timezone.now, db_index=True)
    resolved = models.BooleanField(_("resolved"), default=False, db_index=True)
    # Reports made before reasons were asked for are "something else".
    reason = models.CharField(_("reason"), max_length=16, choices=ReportReason.choices,
                              default=ReportReason.OTHER)
    note = models.CharField(_("note"), max_length=MAX_REPORT_NOTE, blank=True, default="")

    class Meta:
        verbose_name = _("talk report")
        verbose_name_plural = _("talk reports")
        ordering = ["resolved", "-created"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"],
                                               name="talk_report_once")]

    def __str__(self) -> str:
        return f"#{self.message_id} ← {self.reporter}"


class TalkSuspension(models.Model):
    """The user may not talk at any table until `until`."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="talk_suspensions")
    until = models.DateTimeField(_("until"), db_index=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("talk suspension")
        verbose_name_plural = _("talk suspensions")
        ordering = ["-until"]

    def __str__(self) -> str:
        return f"{self.user} → {self.until:%Y-%m-%d %H:%M}"


class BlockedWord(models.Model):
    """A word refused in the talk of one language (matched as a whole word, any case)."""

    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    word = models.CharField(_("word"), max_length=60)

    class Meta:
        verbose_name = _("blocked word")
        verbose_name_plural = _("blocked words")
        ordering = ["language", "word"]
        constraints = [models.UniqueConstraint(fields=["language", "word"],
                                               name="blocked_word_once")]

    def __str__(self) -> str:
        return f"{self.language}: {self.word}"


def hidden_speakers(user_id: int) -> set[int]:
    """The speakers whose talk `user_id` does not see: those they muted, those they blocked
    and those who blocked them (issue #17: "talk to you is hidden"). Here, below the talk and
    history packages, so the table (games/talk/readers.py) and the replay
    (games/history/replay.py) hide the same words (issue #25 item 8)."""
    muted = set(TalkMute.objects.filter(user_id=user_id).values_list("muted_id", flat=True))
    return muted | blocked_either_way(user_id)

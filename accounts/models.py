"""The player account: Django's user plus a display name and a preferred language.

Accounts are never hard-deleted once they have played: deleting an account anonymises the row,
so seats, matches and the action log keep pointing at it and history stays intact.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# The bots' level names, translated where a bot's name is shown (games.bots.LEVELS holds the
# codes; a level not listed here is shown as its code).
BOT_LEVEL_NAMES = {"beginner": _("beginner"), "easy": _("easy"), "medium": _("medium"),
                   "strong": _("strong")}


def bot_name(name: str, level: str) -> str:
    """A bot's public name: its own name with the word "bot" and its level, in the active
    language, so every page, export and the admin label it as one."""
    return gettext("%(name)s (bot, %(level)s)") % {
        "name": name, "level": str(BOT_LEVEL_NAMES.get(level, level))}


class UsernameValidator(UnicodeUsernameValidator):
    # Our own msgid, so the message is in the catalogs of every site language (Django has no
    # Romansh catalog of its own).
    message = _("Enter a valid username: letters, digits and @ . + - _ only.")


class User(AbstractUser):
    username = models.CharField(
        _("username"),
        max_length=150,
        unique=True,
        help_text=_("At most 150 characters: letters, digits and @ . + - _ only."),
        validators=[UsernameValidator()],
        error_messages={"unique": _("This username is already taken.")},
    )
    # Redeclared only for the label: our catalogs then translate it in every site language.
    email = models.EmailField(_("email address"), blank=True)
    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("The name other players see at the table. Leave empty to show your username."),
    )
    preferred_language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("The site switches to this language whenever you are signed in."),
    )
    # Off by default: a table that suddenly beeps in an office or on a train is rude.
    table_sounds = models.BooleanField(
        _("table sounds"),
        default=False,
        help_text=_("A quiet sound when it is your turn and when your team wins a trick."),
    )
    # Off by default: a friend's invitation reaches the inbox only when the player asked for it.
    invite_emails = models.BooleanField(
        _("invitations by email"),
        default=False,
        help_text=_("Also send an email when a friend invites you to a table."),
    )
    # How long bots wait before their move reaches the table, so a person can follow the
    # trick (issue #24 item 14); the pause is also what keeps a bot's thinking time from
    # telling its hand (issue #25 item 11: games/services/bots/pace.py). At a table with
    # several people the slowest choice among them holds.
    bot_speed = models.CharField(
        _("bot speed"),
        max_length=8,
        choices=[("fast", _("Fast")), ("normal", _("Normal")), ("slow", _("Slow"))],
        default="normal",
        help_text=_("How long bots pause before they play, so you can follow the trick."),
    )
    # Off by default: playing a card for the player, even the only legal one, is their say.
    play_single_card = models.BooleanField(
        _("play a single legal card by itself"),
        default=False,
        help_text=_("When only one card can be played, play it for you when your turn comes."),
    )
    # The address the player proved they read (a signed link, accounts/email_confirm.py): no
    # mail but the confirmation itself goes to an address that differs from it (issue #25
    # item 2). Blank: none confirmed yet.
    confirmed_email = models.EmailField(_("confirmed email address"), blank=True,
                                        editable=False)
    anonymised_at = models.DateTimeField(_("anonymised at"), null=True, blank=True, editable=False)
    # A computer player (games/services/bots/turns.py): made on demand, never able to log in
    # (accounts/backends.py), its level one of games.bots.LEVELS.
    is_bot = models.BooleanField(_("bot"), default=False, editable=False)
    bot_level = models.CharField(_("bot level"), max_length=8, blank=True, editable=False)

    # Set by AbstractBaseUser.set_password() and read in save(); django-stubs does not declare it.
    _password: str | None

    objects: ClassVar[UserManager[Self]] = UserManager()

    # django-stubs declares no Meta on AbstractUser; Django's own docs inherit it like this.
    class Meta(AbstractUser.Meta):  # type: ignore[name-defined,misc]
        swappable = "AUTH_USER_MODEL"
        verbose_name = _("user")
        verbose_name_plural = _("users")

    @property
    def is_anonymised(self) -> bool:
        return self.anonymised_at is not None

    @property
    def email_confirmed(self) -> bool:
        """The current address is the one its owner confirmed."""
        return bool(self.email) and self.email == self.confirmed_email

    @property
    def mail_address(self) -> str:
        """Where mail for this account may go: its address once confirmed, else "" (nothing
        but the confirmation link goes to an unconfirmed one; accounts/email_confirm.py)."""
        return self.email if self.email_confirmed and self.is_active else ""

    @property
    def public_name(self) -> str:
        """The name shown to other players, in the language active when it is rendered."""
        if self.is_anonymised:
            return gettext("Former player")
        if self.is_bot:
            return bot_name(self.display_name or self.username, self.bot_level)
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.public_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # set_password() leaves the new password in `_password` until the row is saved: then
        # every session signed in with the old one is over, websockets included (they are
        # told after commit; accounts/sessions.py).
        password_changed = self._password is not None and not self._state.adding
        super().save(*args, **kwargs)
        if password_changed:
            self._credentials_changed()

    def _credentials_changed(self) -> None:
        from .sessions import credentials_changed

        transaction.on_commit(lambda: credentials_changed.send(sender=User, user=self))

    def anonymise(self) -> None:
        """Delete the account's personal data but keep the row for match history.

        The username becomes ``deleted-<id>`` (unique, and no one can sign up with it because
        sign-up refuses that prefix), the password becomes unusable and the account inactive.
        """
        with transaction.atomic():
            self.username = f"deleted-{self.pk}"
            self.email = ""
            self.first_name = ""
            self.last_name = ""
            self.display_name = ""
            self.preferred_language = ""
            self.table_sounds = False
            self.play_single_card = False
            self.invite_emails = False
            self.confirmed_email = ""
            self.is_active = False
            self.is_staff = False
            self.is_superuser = False
            self.set_unusable_password()
            self.anonymised_at = timezone.now()
            self.save()
            self.groups.clear()
            self.user_permissions.clear()
            self._credentials_changed()

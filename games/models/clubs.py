"""Clubs (issue #26 item 1): a club, its members with their roles, and the open requests to
join and invitations. Written only through games/clubs/membership.py; the constraints are the
database's own guarantee of what the services keep (one owner per club, one membership and one
open request or invitation per player and club, a name unique whatever its case)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

NAME_MAX = 40
DESCRIPTION_MAX = 200
REGION_MAX = 40


class Admission(models.TextChoices):
    OPEN = "open", _("Open: anyone may join")
    REQUEST = "request", _("By request: a director accepts each member")


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    DIRECTOR = "director", _("Director")
    MEMBER = "member", _("Member")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=NAME_MAX)
    # The name casefolded (games/clubs/membership.py name_key): what must be unique. Not the
    # database's lower(), which SQLite applies to ASCII letters only ("MUSTÉR" vs "Mustér").
    name_key = models.CharField(_("name key"), max_length=NAME_MAX * 3, unique=True,
                                editable=False)
    description = models.CharField(_("short description"), max_length=DESCRIPTION_MAX,
                                   blank=True)
    region = models.CharField(_("region"), max_length=REGION_MAX, blank=True)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    admission = models.CharField(_("admission"), max_length=8, choices=Admission.choices,
                                 default=Admission.OPEN)
    created = models.DateTimeField(_("created"), default=timezone.now, db_index=True)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(admission__in=["open", "request"]),
                                   name="club_admission_known"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:club", kwargs={"pk": self.pk})


class Membership(models.Model):
    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                             on_delete=models.CASCADE, related_name="club_memberships")
    role = models.CharField(_("role"), max_length=8, choices=Role.choices, default=Role.MEMBER)
    joined = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["club", "joined"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user"),
            # One owner per club: a hand-over demotes the old owner and promotes the new one in
            # one transaction, the old row first.
            models.UniqueConstraint(fields=["club"], condition=Q(role="owner"),
                                    name="membership_one_owner"),
            models.CheckConstraint(condition=Q(role__in=["owner", "director", "member"]),
                                   name="membership_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.club} · {self.user} ({self.role})"


class ClubInviteKind(models.TextChoices):
    REQUEST = "request", _("Request to join")
    INVITATION = "invitation", _("Invitation")


class ClubInvite(models.Model):
    """An open request to join (`kind` request: `user` asked) or an invitation (`kind`
    invitation: `by` invited `user`). Deleted once answered."""

    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="invites")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                             on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=10, choices=ClubInviteKind.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("invited by"),
                           on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    created = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("club request or invitation")
        verbose_name_plural = _("club requests and invitations")
        ordering = ["created"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "kind"],
                                    name="club_invite_unique"),
            models.CheckConstraint(condition=Q(kind__in=["request", "invitation"]),
                                   name="club_invite_kind_known"),
        ]

    def __str__(self) -> str:
        return f"{self.club} · {self.user} ({self.kind})"

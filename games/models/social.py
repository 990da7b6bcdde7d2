"""How players find each other (issue #17): friend requests, friendships, blocks, in-site
notifications and the per-user presence of the site socket (/ws/me/).

These are not game rows: games/talk/ writes them itself. The admin shows them read-only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.table import Room


class FriendRequest(models.Model):
    """An open request from `sender` to `recipient`; it goes when answered or withdrawn."""

    sender = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("sender"),
                               on_delete=models.CASCADE, related_name="friend_requests_sent")
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("recipient"),
                                  on_delete=models.CASCADE,
                                  related_name="friend_requests_received")
    created = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["sender", "recipient"],
                                    name="friendrequest_unique_pair"),
            models.CheckConstraint(condition=~Q(sender=F("recipient")),
                                   name="friendrequest_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.sender_id} → {self.recipient_id}"


class Friendship(models.Model):
    """One direction of a friendship: an accepted request writes both rows in one transaction
    (and unfriending or a block deletes both), so "my friends" is one indexed filter."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                             on_delete=models.CASCADE, related_name="friendships")
    friend = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("friend"),
                               on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["user", "friend"], name="friendship_unique_pair"),
            models.CheckConstraint(condition=~Q(user=F("friend")), name="friendship_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} ♥ {self.friend_id}"


class Block(models.Model):
    """`blocker` blocked `blocked`: no requests or invitations between them, no joining the
    blocker's private rooms, and table talk between them hidden."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                                on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("blocked player"),
                                on_delete=models.CASCADE, related_name="blocked_by")
    created = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} ⊘ {self.blocked_id}"


class NoticeKind(models.TextChoices):
    INVITE = "invite", _("Invitation")
    FRIEND_REQUEST = "friend_request", _("Friend request")
    FRIEND_ACCEPTED = "friend_accepted", _("Friend request accepted")
    CLUB_INVITE = "club_invite", _("Invitation to a club")
    CLUB_REQUEST = "club_request", _("Request to join a club")
    # Tournaments (issue #26 item 2): entered as someone's partner, moved up from the waiting
    # list.
    TOURNAMENT_PARTNER = "tour_partner", _("Entered as a partner in a tournament")
    TOURNAMENT_PLACE = "tour_place", _("A place in a tournament")
    TABLE_READY = "table_ready", _("Tournament table ready")


class Notification(models.Model):
    """Something for `user` to see in the site's notification list. The sentence is built
    when shown (in the reader's language), from the kind, the actor and the room. The rows are
    also what the request and invitation rate limits count (by actor and kind)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                             on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(_("kind"), max_length=16, choices=NoticeKind.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("actor"),
                              on_delete=models.CASCADE, related_name="+")
    room = models.ForeignKey(Room, verbose_name=_("room"), on_delete=models.CASCADE,
                             null=True, blank=True, related_name="+")
    # The club of a club invitation or request to join (issue #26 item 1).
    club = models.ForeignKey("Club", verbose_name=_("club"), on_delete=models.CASCADE,
                             null=True, blank=True, related_name="+")
    # The tournament of a partner's entry or a place from the waiting list (issue #26).
    tournament = models.ForeignKey("Tournament", verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="+")
    # The table of a round played at a hall's real tables (its "your table is ready" names
    # the table, as there is no room to link).
    table = models.ForeignKey("TournamentTable", verbose_name=_("tournament table"),
                              on_delete=models.CASCADE, null=True, blank=True,
                              related_name="+")
    created = models.DateTimeField(_("created"), default=timezone.now, db_index=True)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created", "-pk"]
        indexes = [
            models.Index(fields=["user", "read_at"], name="notification_unread_idx"),
            models.Index(fields=["actor", "kind", "created"], name="notification_sent_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class SitePresence(models.Model):
    """An open site socket (/ws/me/, one per tab of any page): the user is on the site. Like
    a table's Connection row it is refreshed by heartbeats and removed on close; the row of a
    killed process stops moving and stops counting after PRESENCE_TIMEOUT."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                             on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(_("channel"), max_length=200, unique=True)
    last_seen = models.DateTimeField(_("last seen"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("site presence")
        verbose_name_plural = _("site presences")
        indexes = [models.Index(fields=["user", "last_seen"], name="sitepresence_user_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} on the site"


def blocked_either_way(user_id: int) -> set[int]:
    """The users `user_id` blocked and the users who blocked `user_id`: table talk and its
    replay hide their words from each other."""
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id")
    return {other for pair in rows for other in pair if other != user_id}

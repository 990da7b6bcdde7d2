"""The in-site notification list (issue #17): friend requests, accepted requests and
invitations to a table. A new notification is pushed after commit to the user's site sockets
(/ws/me/, every open page), which update the header's unread badge."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.db.models import Count
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from games.models import Club, NoticeKind, Notification, Room, Tournament, TournamentTable
from games.talk import hooks

__all__ = ["RECENT_SHOWN", "link_of", "mark_all_read", "notify", "recent", "sent_recently",
           "text_of", "unread_count", "unread_counts"]

RECENT_SHOWN = 50


def notify(user_id: int, kind: str, actor: Any, room: Room | None = None,
           club: Club | None = None, tournament: Tournament | None = None, *,
           table: TournamentTable | None = None, announce: bool = True) -> Notification:
    """Write a notification for `user_id`; its sockets hear of it once the transaction
    commits (never of one rolled back). `announce=False`: the caller tells many users at
    once itself (unread_counts, after commit)."""
    notice = Notification.objects.create(user_id=user_id, kind=kind, actor=actor, room=room,
                                         club=club, tournament=tournament, table=table)
    if announce:
        hooks.notices_changed(user_id, lambda: unread_count(user_id))
    return notice


def unread_counts(user_ids: Iterable[int]) -> dict[int, int]:
    """Each user's unread count, in one query (0 for one with none)."""
    wanted = set(user_ids)
    counts = dict(Notification.objects.filter(user_id__in=wanted, read_at__isnull=True)
                  .values("user_id").annotate(n=Count("id")).values_list("user_id", "n"))
    return {u: counts.get(u, 0) for u in wanted}


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def sent_recently(actor: Any, kinds: tuple[str, ...], within: timedelta) -> int:
    """How many notifications of `kinds` `actor` caused within `within`: the rate limit of
    friend requests and invitations counts these rows, in any process."""
    return Notification.objects.filter(actor=actor, kind__in=kinds,
                                       created__gte=timezone.now() - within).count()


def recent(user: Any) -> list[Notification]:
    return list(Notification.objects.filter(user=user).select_related("actor", "room", "club",
                                                                         "tournament",
                                                                         "table__round")
                [:RECENT_SHOWN])


def mark_all_read(user: Any) -> int:
    """The user saw the list: every notification is read. The sockets' badges go to 0."""
    changed = Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now())
    if changed:
        hooks.notices_changed(user.pk, lambda: 0)
    return changed


def text_of(notice: Notification) -> str:
    """The notification's sentence in the active language."""
    name = notice.actor.public_name
    if notice.kind == NoticeKind.INVITE:
        room = notice.room
        return gettext("%(name)s invites you to the table %(room)s.") % {
            "name": name, "room": str(room) if room is not None else "?"}
    if notice.kind == NoticeKind.CLUB_INVITE:
        return gettext("%(name)s invites you to join the club %(club)s.") % {
            "name": name, "club": str(notice.club) if notice.club is not None else "?"}
    if notice.kind == NoticeKind.CLUB_REQUEST:
        return gettext("%(name)s asks to join the club %(club)s.") % {
            "name": name, "club": str(notice.club) if notice.club is not None else "?"}
    if notice.kind == NoticeKind.TOURNAMENT_PARTNER:
        return gettext("%(name)s entered you as their partner in the tournament "
                       "%(tournament)s.") % {
            "name": name, "tournament": str(notice.tournament or "?")}
    if notice.kind == NoticeKind.TOURNAMENT_PLACE:
        return gettext("A place has become free: you are now entered in the tournament "
                       "%(tournament)s.") % {"tournament": str(notice.tournament or "?")}
    if notice.kind == NoticeKind.TABLE_READY and notice.table is not None:
        return gettext("Tournament round %(round)s of %(tournament)s is starting: your place "
                       "is at table %(table)s, at the real tables.") % {
            "round": notice.table.round.number, "tournament": str(notice.tournament or "?"),
            "table": notice.table.number}
    if notice.kind == NoticeKind.TABLE_READY:
        room = notice.room
        return gettext("Your tournament table %(room)s is ready.") % {
            "room": str(room) if room is not None else "?"}
    if notice.kind == NoticeKind.FRIEND_REQUEST:
        return gettext("%(name)s sent you a friend request.") % {"name": name}
    return gettext("%(name)s accepted your friend request.") % {"name": name}


def link_of(notice: Notification) -> str | None:
    """Where the notification leads: its room while the room is open; the round's page for a
    table at the real tables; the tournament's page for an entry or a place."""
    if notice.room is not None:
        return notice.room.get_absolute_url() if notice.room.is_open else None
    if notice.table is not None and notice.tournament is not None:
        return reverse("games:tournament_round",
                       kwargs={"pk": notice.tournament.pk, "number": notice.table.round.number})
    if notice.tournament is not None:
        return notice.tournament.get_absolute_url()
    return None

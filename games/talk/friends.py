"""Friends (issue #17): finding a player by name, friend requests and their answers, the
friends list. A request needs neither player to have blocked the other; accepting writes both
directions of the friendship at once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.db.models.functions import Lower

from accounts.models import User
from games.models import FriendRequest, Friendship, NoticeKind
from games.talk import hooks, notifications
from games.talk.blocks import is_blocked_either_way
from games.talk.errors import TalkError

__all__ = ["SENT_PER_HOUR", "accept", "are_friends", "cancel", "check_rate", "decline",
           "friend_ids", "friends_of", "requests_in", "requests_out", "search_players",
           "send_request", "unfriend"]

# Friend requests and invitations one player may send in an hour, together: far beyond
# finding three friends for a table, and a ceiling on what one account can push into other
# people's notification lists.
SENT_PER_HOUR = 30
SEARCH_MIN_LENGTH = 2


def friend_ids(user_id: int) -> set[int]:
    """The ids of `user_id`'s friends (the talk modules show their words in every case)."""
    return set(Friendship.objects.filter(user_id=user_id).values_list("friend_id", flat=True))


def are_friends(a_id: int, b_id: int) -> bool:
    return Friendship.objects.filter(user_id=a_id, friend_id=b_id).exists()


def friends_of(user: Any) -> list[User]:
    """`user`'s friends, by name; a deleted account is no one's friend any more."""
    friends = User.objects.filter(pk__in=Friendship.objects.filter(user=user)
                                  .values("friend_id"), anonymised_at__isnull=True)
    return sorted(friends, key=lambda u: u.public_name.casefold())


def requests_in(user: Any) -> list[FriendRequest]:
    return list(FriendRequest.objects.filter(recipient=user).select_related("sender"))


def requests_out(user: Any) -> list[FriendRequest]:
    return list(FriendRequest.objects.filter(sender=user).select_related("recipient"))


def search_players(query: str, viewer: Any) -> QuerySet[User]:
    """Players whose shown name contains `query` (any case), those starting with it first: the
    display name, or the username of an account without one (then it is the shown name). A
    login username behind a display name is found only when typed whole (a friend told it),
    so the search never spells out the logins it hides (issue #25 item 6). Bots, deleted
    accounts and the viewer are left out; an empty or one-letter query finds no one (it would
    list the whole site)."""
    query = query.strip()
    if len(query) < SEARCH_MIN_LENGTH:
        return User.objects.none()
    return (User.objects.filter(is_active=True, is_bot=False, anonymised_at__isnull=True)
            .exclude(pk=viewer.pk)
            .filter(Q(display_name__icontains=query) | Q(username__iexact=query)
                    | Q(display_name="", username__icontains=query))
            .annotate(prefix=Case(
                When(Q(display_name__istartswith=query) | Q(username__iexact=query)
                     | Q(display_name="", username__istartswith=query), then=Value(0)),
                default=Value(1), output_field=IntegerField()))
            .order_by("prefix", Lower("display_name"), Lower("username"), "pk"))


def check_rate(user: Any) -> None:
    """TOO_MANY_INVITATIONS once `user` sent SENT_PER_HOUR requests and invitations within
    the last hour."""
    sent = notifications.sent_recently(
        user, (NoticeKind.FRIEND_REQUEST, NoticeKind.INVITE, NoticeKind.CLUB_INVITE),
        timedelta(hours=1))
    if sent >= SENT_PER_HOUR:
        raise TalkError("TOO_MANY_INVITATIONS")


def _player(user: Any, target_id: int) -> User:
    if target_id == user.pk:
        raise TalkError("CANNOT_TARGET_SELF")
    target = User.objects.filter(pk=target_id, is_active=True, is_bot=False,
                                 anonymised_at__isnull=True).first()
    if target is None:
        raise TalkError("PLAYER_NOT_FOUND")
    return target


def send_request(user: Any, target_id: int) -> bool:
    """`user` asks `target_id` to be friends. If `target_id` had already asked `user`, this
    accepts their request instead. True if the two are friends now."""
    target = _player(user, target_id)
    if is_blocked_either_way(user.pk, target.pk):
        raise TalkError("PLAYER_BLOCKED")
    if are_friends(user.pk, target.pk):
        raise TalkError("ALREADY_FRIENDS")
    if FriendRequest.objects.filter(sender=target, recipient=user).exists():
        accept(user, target.pk)
        return True
    if FriendRequest.objects.filter(sender=user, recipient=target).exists():
        raise TalkError("FRIEND_REQUEST_PENDING")
    check_rate(user)
    with transaction.atomic():
        _, created = FriendRequest.objects.get_or_create(sender=user, recipient=target)
        if created:
            notifications.notify(target.pk, NoticeKind.FRIEND_REQUEST, user)
    return False


def accept(user: Any, sender_id: int) -> User:
    """`user` accepts the request of `sender_id`: friends both ways, the request gone."""
    with transaction.atomic():
        request = (FriendRequest.objects.select_for_update()
                   .filter(sender_id=sender_id, recipient=user).select_related("sender")
                   .first())
        if request is None:
            raise TalkError("NO_FRIEND_REQUEST")
        sender = request.sender
        if is_blocked_either_way(user.pk, sender.pk):
            raise TalkError("PLAYER_BLOCKED")
        FriendRequest.objects.filter(Q(sender=sender, recipient=user)
                                     | Q(sender=user, recipient=sender)).delete()
        Friendship.objects.bulk_create(
            [Friendship(user=user, friend=sender), Friendship(user=sender, friend=user)],
            ignore_conflicts=True)
        notifications.notify(sender.pk, NoticeKind.FRIEND_ACCEPTED, user)
        # Friends' links in table talk become links: both users' sockets read their sets again.
        hooks.mutes_changed(user.pk)
        hooks.mutes_changed(sender.pk)
    return sender


def decline(user: Any, sender_id: int) -> None:
    deleted, _ = FriendRequest.objects.filter(sender_id=sender_id, recipient=user).delete()
    if not deleted:
        raise TalkError("NO_FRIEND_REQUEST")


def cancel(user: Any, recipient_id: int) -> None:
    deleted, _ = FriendRequest.objects.filter(sender=user, recipient_id=recipient_id).delete()
    if not deleted:
        raise TalkError("NO_FRIEND_REQUEST")


def unfriend(user: Any, friend_id: int) -> None:
    deleted, _ = Friendship.objects.filter(Q(user=user, friend_id=friend_id)
                                           | Q(user_id=friend_id, friend=user)).delete()
    if not deleted:
        raise TalkError("NOT_FRIENDS")
    hooks.mutes_changed(user.pk)
    hooks.mutes_changed(friend_id)

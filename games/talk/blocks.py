"""Blocking a player (issue #17): a blocked player cannot send you friend requests or
invitations, cannot join your private rooms, and table talk between you is hidden. A block
ends a friendship, withdraws every open request between the two and removes the blocked
player's notifications from the blocker's list."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q

from accounts.models import User
from games.models import Block, FriendRequest, Friendship, Notification
from games.models.social import blocked_either_way
from games.talk import hooks
from games.talk.errors import TalkError

__all__ = ["block", "blocked_by_me", "blocked_either_way", "is_blocked_either_way", "unblock"]


def is_blocked_either_way(a_id: int, b_id: int) -> bool:
    return Block.objects.filter(Q(blocker_id=a_id, blocked_id=b_id)
                                | Q(blocker_id=b_id, blocked_id=a_id)).exists()


def blocked_by_me(user: Any) -> list[User]:
    """The players `user` blocked, the latest first."""
    return [b.blocked for b in Block.objects.filter(blocker=user).select_related("blocked")]


def _target(user: Any, target_id: int) -> User:
    if target_id == user.pk:
        raise TalkError("CANNOT_TARGET_SELF")
    target = User.objects.filter(pk=target_id, is_bot=False, anonymised_at__isnull=True).first()
    if target is None:
        raise TalkError("PLAYER_NOT_FOUND")
    return target


def block(user: Any, target_id: int) -> User:
    """`user` blocks the player `target_id` (blocking twice is no error)."""
    target = _target(user, target_id)
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=target)
        Friendship.objects.filter(Q(user=user, friend=target) | Q(user=target, friend=user)
                                  ).delete()
        FriendRequest.objects.filter(Q(sender=user, recipient=target)
                                     | Q(sender=target, recipient=user)).delete()
        # Their invitations and requests leave the blocker's list too.
        Notification.objects.filter(user=user, actor=target).delete()
        # Talk between the two is hidden from now on, on every open socket of either.
        hooks.mutes_changed(user.pk)
        hooks.mutes_changed(target.pk)
        # The blocked player's open sockets at the blocker's private rooms close.
        hooks.blocked(user.pk, target.pk)
    return target


def unblock(user: Any, target_id: int) -> User:
    target = _target(user, target_id)
    Block.objects.filter(blocker=user, blocked=target).delete()
    hooks.mutes_changed(user.pk)
    hooks.mutes_changed(target.pk)
    return target

"""Inviting a friend to your table (issue #17): an in-site notification with the room's
invite link, and an e-mail too if the friend asked for them on their profile page."""

from __future__ import annotations

import logging
import re
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from accounts.models import User
from games.models import Membership, NoticeKind, Room, Seat
from games.talk import notifications
from games.talk.blocks import is_blocked_either_way
from games.talk.errors import TalkError
from games.talk.friends import are_friends, check_rate, friends_of
from games.talk.online import online_ids

__all__ = ["invitable_friends", "invite", "invite_link"]

log = logging.getLogger(__name__)


def invite_link(room: Room, base_url: str) -> str:
    """The room's invite link without a language prefix: it opens in the invitee's own
    language (as the table's own invite link does)."""
    return f"{base_url.rstrip('/')}/rooms/{room.code}/"


def _check_inviter(user: Any, room: Room) -> None:
    if not room.is_open:
        raise TalkError("ROOM_CLOSED")
    if not Seat.objects.filter(room=room, user=user).exists():
        raise TalkError("NOT_SEATED")


def _club_members(room: Room, user_ids: list[int]) -> set[int]:
    """Those of `user_ids` who are members of the club whose table `room` is."""
    return set(Membership.objects.filter(club__rooms=room, user_id__in=user_ids)
               .values_list("user_id", flat=True))


def invitable_friends(user: Any, room: Room) -> list[User]:
    """The friends `user` may invite to `room` now: not seated there already."""
    seated = set(Seat.objects.filter(room=room).values_list("user_id", flat=True))
    friends = [f for f in friends_of(user) if f.pk not in seated]
    if room.club_id is not None:  # a club's table: its members alone may come
        members = _club_members(room, [f.pk for f in friends])
        friends = [f for f in friends if f.pk in members]
    online = online_ids(f.pk for f in friends)
    # Online friends first: they can come now.
    return sorted(friends, key=lambda f: f.pk not in online)


def invite(user: Any, room: Room, friend_id: int, base_url: str) -> User:
    """`user`, seated at `room`, invites their friend `friend_id`: a notification now, and an
    e-mail after commit if the friend opted in and has a confirmed address. `base_url` is the
    site's own address (accounts.site_url), never one a client sent."""
    _check_inviter(user, room)
    friend = User.objects.filter(pk=friend_id, is_active=True, is_bot=False).first()
    if friend is None:
        raise TalkError("PLAYER_NOT_FOUND")
    if friend.pk == user.pk:
        raise TalkError("CANNOT_TARGET_SELF")
    if is_blocked_either_way(user.pk, friend.pk):
        raise TalkError("PLAYER_BLOCKED")
    if not are_friends(user.pk, friend.pk):
        raise TalkError("NOT_FRIENDS")
    if room.club_id is not None and not _club_members(room, [friend.pk]):
        raise TalkError("CLUB_TABLE_MEMBERS_ONLY")
    check_rate(user)
    with transaction.atomic():
        notifications.notify(friend.pk, NoticeKind.INVITE, user, room)
        # Only to an address its owner confirmed (issue #25 item 2).
        if friend.invite_emails and friend.mail_address:
            link = invite_link(room, base_url)
            transaction.on_commit(lambda: _send_email(friend, user, room, link))
    return friend


# What a mail program would make a link of: a scheme, "www.", an address, a domain name.
_LINK_LIKE = re.compile(r"(?i)://|www\.|@|[\w-]\.[a-z]{2,}\b")


def mail_name(name: str) -> str:
    """The inviter's name as it may stand in a mail body: plain text, never something a mail
    program turns into a link (only the site's own link may be one); otherwise "One of your
    friends"."""
    return gettext("One of your friends") if _LINK_LIKE.search(name) else name


def _send_email(friend: User, inviter: Any, room: Room, link: str) -> None:
    """The invitation by e-mail, in the friend's own language. A mail server that fails does
    not undo the invitation: the notification is there anyway.

    Its subject is fixed (no name anyone chose; issue #25 item 2), its body names the inviter
    as plain text and links only to this site's room page; the room's own name stays on the
    site, behind the link."""
    address = friend.mail_address
    if not address:  # unconfirmed meanwhile
        return
    language = friend.preferred_language or settings.LANGUAGE_CODE
    with translation.override(language):
        context = {"inviter": mail_name(inviter.public_name), "link": link,
                   "friend": friend.public_name}
        subject = "".join(render_to_string(
            "games/email/invite_subject.txt", context).splitlines()).strip()
        body = render_to_string("games/email/invite.txt", context)
    try:
        send_mail(subject, body, None, [address])
    except Exception:  # logged; the in-site notification stands
        log.exception("invitation e-mail to user %s failed", friend.pk)

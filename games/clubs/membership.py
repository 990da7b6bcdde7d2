"""Who belongs to a club and with which role (issue #26 item 1): creating a club, joining an
open one, asking to join one by request, invitations from a member to a friend (through the
friends and the notifications of games/talk/), leaving, removing a member, roles and the
hand-over of ownership. Each refusal is a ServiceError with a stable code; nothing changes then.

Every change of a club's members locks the club's row first, so two directors answering the
same request, or an owner handing over while a director removes someone, queue on it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from accounts.models import User
from accounts.validators import is_showable, normalise
from games.models import (
    Admission,
    Club,
    ClubInvite,
    ClubInviteKind,
    Membership,
    NoticeKind,
    Role,
)
from games.models.clubs import DESCRIPTION_MAX, NAME_MAX, REGION_MAX
from games.services.errors import ServiceError
from games.talk import notifications
from games.talk.blocks import is_blocked_either_way
from games.talk.friends import are_friends, check_rate

__all__ = ["MAX_OWNED_CLUBS", "accept_invitation", "accept_request", "clean_text",
           "create_club", "hand_over", "invite", "is_director", "join", "leave", "member_role",
           "refuse_invitation", "refuse_request", "remove_member", "request_to_join",
           "set_role"]

# Clubs one account may own at once: a club is a page anyone can find, so an account's
# clubs are capped like its open rooms.
MAX_OWNED_CLUBS = 5
DIRECTING = (Role.OWNER, Role.DIRECTOR)


def clean_text(value: str, limit: int, *, required: bool = False) -> str:
    """A club's name, description or region as stored: plain showable text (no control or
    bidi characters; the talk rules: shown escaped, a link only as its text), normalised,
    one line, at most `limit` characters. INVALID_FIELD otherwise."""
    if not isinstance(value, str) or not is_showable(value):
        raise ServiceError("INVALID_FIELD")
    clean = " ".join(normalise(value).split())
    if len(clean) > limit or (required and not clean):
        raise ServiceError("INVALID_FIELD")
    return clean


def name_key(name: str) -> str:
    """What makes two club names the same: any case, any Unicode form (the stored, normalised
    name casefolded; `normalise` is NFKC)."""
    return normalise(name).casefold()


def _club(club_id: int) -> Club:
    """The club, its row locked for the rest of the transaction."""
    club = Club.objects.select_for_update().filter(pk=club_id).first()
    if club is None:
        raise ServiceError("CLUB_NOT_FOUND")
    return club


def member_role(club: Club | int, user: Any) -> str | None:
    if not getattr(user, "is_authenticated", False):
        return None
    club_id = club if isinstance(club, int) else club.pk
    return (Membership.objects.filter(club_id=club_id, user_id=user.pk)
            .values_list("role", flat=True).first())


def is_director(club: Club | int, user: Any) -> bool:
    return member_role(club, user) in DIRECTING


def _require_director(club: Club, user: Any) -> None:
    if not is_director(club, user):
        raise ServiceError("NOT_CLUB_DIRECTOR")


def _require_owner(club: Club, user: Any) -> None:
    if member_role(club, user) != Role.OWNER:
        raise ServiceError("NOT_CLUB_OWNER")


def create_club(user: Any, name: str, *, description: str = "", region: str = "",
                language: str = "", admission: str = Admission.OPEN) -> Club:
    """A new club; `user` is its owner. TOO_MANY_CLUBS once they own MAX_OWNED_CLUBS,
    CLUB_NAME_TAKEN if the name is taken in any case."""
    name = clean_text(name, NAME_MAX, required=True)
    description = clean_text(description, DESCRIPTION_MAX)
    region = clean_text(region, REGION_MAX)
    if language not in dict(settings.LANGUAGES) or admission not in Admission.values:
        raise ServiceError("INVALID_FIELD")
    try:
        with transaction.atomic():
            # The account's row, locked: two creations at once count one after the other.
            User.objects.select_for_update().filter(pk=user.pk).first()
            owned = Membership.objects.filter(user_id=user.pk, role=Role.OWNER).count()
            if owned >= MAX_OWNED_CLUBS:
                raise ServiceError("TOO_MANY_CLUBS")
            if Club.objects.filter(name_key=name_key(name)).exists():
                raise ServiceError("CLUB_NAME_TAKEN")
            club = Club.objects.create(name=name, name_key=name_key(name),
                                       description=description, region=region,
                                       language=language, admission=admission, creator=user)
            Membership.objects.create(club=club, user=user, role=Role.OWNER)
    except IntegrityError:  # the same name created in another process meanwhile
        raise ServiceError("CLUB_NAME_TAKEN") from None
    return club


def _add_member(club: Club, user_id: int) -> Membership:
    ClubInvite.objects.filter(club=club, user_id=user_id).delete()
    return Membership.objects.create(club=club, user_id=user_id, role=Role.MEMBER)


def join(user: Any, club_id: int) -> Membership:
    """`user` joins an open club (or one that invited them: their invitation is used)."""
    with transaction.atomic():
        club = _club(club_id)
        if member_role(club, user) is not None:
            raise ServiceError("ALREADY_CLUB_MEMBER")
        invited = ClubInvite.objects.filter(club=club, user_id=user.pk,
                                            kind=ClubInviteKind.INVITATION).exists()
        if club.admission != Admission.OPEN and not invited:
            raise ServiceError("CLUB_BY_REQUEST")
        return _add_member(club, user.pk)


def request_to_join(user: Any, club_id: int) -> ClubInvite:
    """`user` asks to join a club by request; its owner and directors are notified."""
    with transaction.atomic():
        club = _club(club_id)
        if member_role(club, user) is not None:
            raise ServiceError("ALREADY_CLUB_MEMBER")
        if club.admission == Admission.OPEN:
            raise ServiceError("INVALID_FIELD")
        if ClubInvite.objects.filter(club=club, user_id=user.pk).exists():
            raise ServiceError("CLUB_REQUEST_PENDING")
        check_rate(user)
        ask = ClubInvite.objects.create(club=club, user=user, kind=ClubInviteKind.REQUEST)
        directors = Membership.objects.filter(club=club, role__in=DIRECTING)
        for director_id in directors.values_list("user_id", flat=True):
            if not is_blocked_either_way(director_id, user.pk):
                notifications.notify(director_id, NoticeKind.CLUB_REQUEST, user, club=club)
    return ask


def _open_request(club: Club, user_id: int) -> ClubInvite:
    ask = ClubInvite.objects.filter(club=club, user_id=user_id,
                                    kind=ClubInviteKind.REQUEST).first()
    if ask is None:
        raise ServiceError("NO_CLUB_REQUEST")
    return ask


def accept_request(director: Any, club_id: int, user_id: int) -> Membership:
    with transaction.atomic():
        club = _club(club_id)
        _require_director(club, director)
        _open_request(club, user_id)
        return _add_member(club, user_id)


def refuse_request(director: Any, club_id: int, user_id: int) -> None:
    with transaction.atomic():
        club = _club(club_id)
        _require_director(club, director)
        _open_request(club, user_id).delete()


def invite(user: Any, club_id: int, friend_id: int) -> ClubInvite:
    """A member invites a friend: a notification with the club's link. The same refusals as
    a table invitation (not friends, blocked either way, too many invitations)."""
    with transaction.atomic():
        club = _club(club_id)
        if member_role(club, user) is None:
            raise ServiceError("NOT_CLUB_MEMBER")
        friend = User.objects.filter(pk=friend_id, is_active=True, is_bot=False).first()
        if friend is None:
            raise ServiceError("PLAYER_NOT_FOUND")
        if friend.pk == user.pk:
            raise ServiceError("CANNOT_TARGET_SELF")
        if is_blocked_either_way(user.pk, friend.pk):
            raise ServiceError("PLAYER_BLOCKED")
        if not are_friends(user.pk, friend.pk):
            raise ServiceError("NOT_FRIENDS")
        if member_role(club, friend) is not None:
            raise ServiceError("ALREADY_CLUB_MEMBER")
        if ClubInvite.objects.filter(club=club, user=friend,
                                     kind=ClubInviteKind.INVITATION).exists():
            raise ServiceError("CLUB_REQUEST_PENDING")
        check_rate(user)
        invitation = ClubInvite.objects.create(club=club, user=friend, by=user,
                                               kind=ClubInviteKind.INVITATION)
        notifications.notify(friend.pk, NoticeKind.CLUB_INVITE, user, club=club)
    return invitation


def accept_invitation(user: Any, club_id: int) -> Membership:
    with transaction.atomic():
        club = _club(club_id)
        if not ClubInvite.objects.filter(club=club, user_id=user.pk,
                                         kind=ClubInviteKind.INVITATION).exists():
            raise ServiceError("NO_CLUB_INVITATION")
        if member_role(club, user) is not None:
            raise ServiceError("ALREADY_CLUB_MEMBER")
        return _add_member(club, user.pk)


def refuse_invitation(user: Any, club_id: int) -> None:
    with transaction.atomic():
        club = _club(club_id)
        deleted, _ = ClubInvite.objects.filter(club=club, user_id=user.pk,
                                               kind=ClubInviteKind.INVITATION).delete()
        if not deleted:
            raise ServiceError("NO_CLUB_INVITATION")


def leave(user: Any, club_id: int) -> None:
    """`user` leaves; the owner hands the club over first (OWNER_MUST_HAND_OVER)."""
    with transaction.atomic():
        club = _club(club_id)
        role = member_role(club, user)
        if role is None:
            raise ServiceError("NOT_CLUB_MEMBER")
        if role == Role.OWNER:
            raise ServiceError("OWNER_MUST_HAND_OVER")
        Membership.objects.filter(club=club, user_id=user.pk).delete()


def _membership(club: Club, user_id: int) -> Membership:
    row = Membership.objects.filter(club=club, user_id=user_id).first()
    if row is None:
        raise ServiceError("NOT_CLUB_MEMBER")
    return row


def remove_member(director: Any, club_id: int, user_id: int) -> None:
    """The owner removes anyone else; a director removes members (not the owner, not
    another director)."""
    with transaction.atomic():
        club = _club(club_id)
        _require_director(club, director)
        row = _membership(club, user_id)
        if row.role == Role.OWNER:
            raise ServiceError("CANNOT_REMOVE_OWNER")
        if user_id == director.pk:
            raise ServiceError("CANNOT_TARGET_SELF")
        if row.role == Role.DIRECTOR and member_role(club, director) != Role.OWNER:
            raise ServiceError("NOT_CLUB_OWNER")
        row.delete()


def set_role(owner: Any, club_id: int, user_id: int, role: str) -> Membership:
    """The owner makes a member a director or a director a member again."""
    if role not in (Role.DIRECTOR, Role.MEMBER):
        raise ServiceError("INVALID_FIELD")
    with transaction.atomic():
        club = _club(club_id)
        _require_owner(club, owner)
        row = _membership(club, user_id)
        if row.role == Role.OWNER:
            raise ServiceError("CANNOT_TARGET_SELF")
        row.role = role
        row.save(update_fields=["role"])
        return row


def hand_over(owner: Any, club_id: int, user_id: int) -> Membership:
    """The owner hands the club to another member, and stays on as a director."""
    with transaction.atomic():
        club = _club(club_id)
        _require_owner(club, owner)
        if user_id == owner.pk:
            raise ServiceError("CANNOT_TARGET_SELF")
        row = _membership(club, user_id)
        # The old owner first: the database holds one owner per club at every statement.
        Membership.objects.filter(club=club, user_id=owner.pk).update(role=Role.DIRECTOR)
        row.role = Role.OWNER
        row.save(update_fields=["role"])
        return row


def members(club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user")

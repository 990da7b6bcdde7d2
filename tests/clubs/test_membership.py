"""Clubs (issue #26 item 1): the membership rules of games/clubs/membership.py, each refusal
with its code and nothing changed, and the club tables' privacy (a non-member neither opens
the socket, nor sits down, nor finds the table listed). Anna owns the club Ligia Grischa;
Benedetg and Curdin join, ask, are invited; the outsider stays out."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from games import services
from games.clubs import club_tables, membership
from games.models import (
    Club,
    ClubInvite,
    Match,
    MatchStatus,
    Membership,
    Notification,
    Role,
    Room,
    Winner,
)
from games.services.errors import ServiceError
from games.talk import blocks, friends, invitations
from games.talk.errors import TalkError
from tests.support.tables import must, submit

pytestmark = pytest.mark.django_db


def refused(code: str, func: Any, *args: Any, **kwargs: Any) -> None:
    before = (Membership.objects.count(), ClubInvite.objects.count(), Club.objects.count(),
              list(Membership.objects.values_list("user_id", "role").order_by("pk")))
    with pytest.raises(ServiceError) as caught:
        func(*args, **kwargs)
    assert caught.value.code == code
    after = (Membership.objects.count(), ClubInvite.objects.count(), Club.objects.count(),
             list(Membership.objects.values_list("user_id", "role").order_by("pk")))
    assert after == before, "a refusal changed nothing"


def club_of(owner: Any, name: str = "Ligia Grischa", **fields: Any) -> Club:
    fields.setdefault("language", "rm")
    return membership.create_club(owner, name, **fields)


def role(club: Club, user: Any) -> str | None:
    return membership.member_role(club, user)


def test_the_creator_owns_the_club_and_names_are_unique_in_any_case(
        players: list[Any]) -> None:
    anna, benedetg, _ = players
    club = club_of(anna, "  Ligia   Grischa ", description="Troccas a Mustér", region="Surselva")
    assert (club.name, club.description, club.region) == ("Ligia Grischa", "Troccas a Mustér",
                                                           "Surselva")
    assert role(club, anna) == Role.OWNER and club.creator == anna
    refused("CLUB_NAME_TAKEN", club_of, benedetg, "LIGIA grischa")
    club_of(benedetg, "Mustér")
    refused("CLUB_NAME_TAKEN", club_of, anna, "MUSTÉR")  # beyond ASCII too
    refused("INVALID_FIELD", club_of, benedetg, "")
    refused("INVALID_FIELD", club_of, benedetg, "Club\u202e")  # a bidi control
    refused("INVALID_FIELD", club_of, benedetg, "x" * 41)
    refused("INVALID_FIELD", club_of, benedetg, "Ok", language="xx")
    refused("INVALID_FIELD", club_of, benedetg, "Ok", admission="secret")
    # The database holds the case-insensitive name and the one owner on its own too.
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.create(name="ligia GRISCHA", name_key="ligia grischa", language="de",
                            creator=benedetg)
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(club=club, user=benedetg, role=Role.OWNER)


def test_an_account_owns_at_most_five_clubs(players: list[Any]) -> None:
    anna = players[0]
    for n in range(membership.MAX_OWNED_CLUBS):
        club_of(anna, f"Club {n}")
    refused("TOO_MANY_CLUBS", club_of, anna, "One too many")


def test_an_open_club_is_joined_and_left_but_the_owner_hands_over_first(
        players: list[Any]) -> None:
    anna, benedetg, _ = players
    club = club_of(anna)
    membership.join(benedetg, club.pk)
    assert role(club, benedetg) == Role.MEMBER
    refused("ALREADY_CLUB_MEMBER", membership.join, benedetg, club.pk)
    refused("CLUB_NOT_FOUND", membership.join, benedetg, club.pk + 99)
    refused("OWNER_MUST_HAND_OVER", membership.leave, anna, club.pk)
    membership.leave(benedetg, club.pk)
    assert role(club, benedetg) is None
    refused("NOT_CLUB_MEMBER", membership.leave, benedetg, club.pk)


def test_a_club_by_request_takes_members_a_director_accepts(players: list[Any]) -> None:
    anna, benedetg, curdin = players
    club = club_of(anna, admission="request")
    refused("CLUB_BY_REQUEST", membership.join, benedetg, club.pk)
    membership.request_to_join(benedetg, club.pk)
    assert Notification.objects.filter(user=anna, kind="club_request", club=club).exists()
    refused("CLUB_REQUEST_PENDING", membership.request_to_join, benedetg, club.pk)
    refused("NOT_CLUB_DIRECTOR", membership.accept_request, curdin, club.pk, benedetg.pk)
    refused("NO_CLUB_REQUEST", membership.accept_request, anna, club.pk, curdin.pk)
    membership.accept_request(anna, club.pk, benedetg.pk)
    assert role(club, benedetg) == Role.MEMBER and not ClubInvite.objects.exists()
    membership.request_to_join(curdin, club.pk)
    refused("NOT_CLUB_DIRECTOR", membership.refuse_request, benedetg, club.pk, curdin.pk)
    membership.set_role(anna, club.pk, benedetg.pk, Role.DIRECTOR)
    membership.refuse_request(benedetg, club.pk, curdin.pk)  # a director answers too
    assert role(club, curdin) is None and not ClubInvite.objects.exists()
    refused("NO_CLUB_REQUEST", membership.refuse_request, anna, club.pk, curdin.pk)
    # Asking an open club is not how one joins it.
    refused("INVALID_FIELD", membership.request_to_join, curdin, club_of(anna, "Open").pk)


def test_a_member_invites_a_friend_through_the_notifications(players: list[Any],
                                                              outsider: Any) -> None:
    anna, benedetg, curdin = players
    club = club_of(anna, admission="request")
    refused("NOT_FRIENDS", membership.invite, anna, club.pk, benedetg.pk)
    refused("NOT_CLUB_MEMBER", membership.invite, curdin, club.pk, benedetg.pk)
    refused("PLAYER_NOT_FOUND", membership.invite, anna, club.pk, 10**9)
    refused("CANNOT_TARGET_SELF", membership.invite, anna, club.pk, anna.pk)
    friends.send_request(anna, benedetg.pk)
    friends.accept(benedetg, anna.pk)
    refused("NO_CLUB_INVITATION", membership.accept_invitation, benedetg, club.pk)
    membership.invite(anna, club.pk, benedetg.pk)
    notice = Notification.objects.get(user=benedetg, kind="club_invite")
    assert notice.club == club and notice.actor == anna
    refused("CLUB_REQUEST_PENDING", membership.invite, anna, club.pk, benedetg.pk)
    # The invitation lets him in although the club takes members by request.
    membership.accept_invitation(benedetg, club.pk)
    assert role(club, benedetg) == Role.MEMBER and not ClubInvite.objects.exists()
    refused("ALREADY_CLUB_MEMBER", membership.invite, anna, club.pk, benedetg.pk)
    # An invitation declined is gone; a block stops the next one.
    friends.send_request(anna, curdin.pk)
    friends.accept(curdin, anna.pk)
    membership.invite(anna, club.pk, curdin.pk)
    membership.refuse_invitation(curdin, club.pk)
    refused("NO_CLUB_INVITATION", membership.refuse_invitation, curdin, club.pk)
    blocks.block(curdin, anna.pk)
    refused("PLAYER_BLOCKED", membership.invite, anna, club.pk, curdin.pk)


def test_removing_members_roles_and_the_hand_over(players: list[Any], outsider: Any) -> None:
    anna, benedetg, curdin = players
    club = club_of(anna)
    for person in (benedetg, curdin, outsider):
        membership.join(person, club.pk)
    refused("NOT_CLUB_OWNER", membership.set_role, benedetg, club.pk, curdin.pk, Role.DIRECTOR)
    refused("INVALID_FIELD", membership.set_role, anna, club.pk, curdin.pk, Role.OWNER)
    refused("CANNOT_TARGET_SELF", membership.set_role, anna, club.pk, anna.pk, Role.MEMBER)
    membership.set_role(anna, club.pk, benedetg.pk, Role.DIRECTOR)
    membership.set_role(anna, club.pk, curdin.pk, Role.DIRECTOR)
    refused("NOT_CLUB_DIRECTOR", membership.remove_member, outsider, club.pk, curdin.pk)
    refused("CANNOT_REMOVE_OWNER", membership.remove_member, benedetg, club.pk, anna.pk)
    refused("NOT_CLUB_OWNER", membership.remove_member, benedetg, club.pk, curdin.pk)
    refused("NOT_CLUB_MEMBER", membership.remove_member, benedetg, club.pk, 10**9)
    membership.remove_member(benedetg, club.pk, outsider.pk)  # a director removes a member
    membership.remove_member(anna, club.pk, curdin.pk)  # the owner removes a director
    assert {m.user_id for m in Membership.objects.filter(club=club)} == {anna.pk, benedetg.pk}
    refused("NOT_CLUB_OWNER", membership.hand_over, benedetg, club.pk, benedetg.pk)
    refused("NOT_CLUB_MEMBER", membership.hand_over, anna, club.pk, curdin.pk)
    refused("CANNOT_TARGET_SELF", membership.hand_over, anna, club.pk, anna.pk)
    membership.hand_over(anna, club.pk, benedetg.pk)
    assert (role(club, benedetg), role(club, anna)) == (Role.OWNER, Role.DIRECTOR)
    assert Membership.objects.filter(club=club, role=Role.OWNER).count() == 1
    membership.leave(anna, club.pk)  # no longer the owner
    refused("OWNER_MUST_HAND_OVER", membership.leave, benedetg, club.pk)


def test_a_club_table_is_the_members_alone(players: list[Any], outsider: Any) -> None:
    anna, benedetg, curdin = players
    club = club_of(anna)
    membership.join(benedetg, club.pk)
    refused("NOT_CLUB_MEMBER", club_tables.open_club_table, outsider, club)
    room = club_tables.open_club_table(anna, club)
    assert room.club == club and room.owner == anna
    assert list(club_tables.open_tables(club)) == [room]
    # Members follow it and sit down; an outsider does neither.
    assert services.may_watch(room.code, benedetg) is None
    must(room.code, benedetg, "take_seat", team="B")
    assert services.may_watch(room.code, outsider) == "CLUB_TABLE_MEMBERS_ONLY"
    out = submit(room.code, outsider, "take_seat", team="A")
    assert (out.ok, out.code) == (False, "CLUB_TABLE_MEMBERS_ONLY")
    # Never in the public lists: not the model's, the home page's, nor the JSON API's.
    assert room not in Room.objects.listed()
    web = Client()
    web.force_login(outsider)
    assert room.code not in web.get(reverse("games:home")).content.decode()
    assert room.code not in web.get("/api/rooms").content.decode()
    page = web.get(room.get_absolute_url(), follow=True).content.decode()
    assert "only the club&#x27;s members" in page and f"/ws/rooms/{room.code}/" not in page
    # The JSON API's view of the table refuses the same way.
    assert web.get(f"/api/rooms/{room.code}").json()["code"] == "CLUB_TABLE_MEMBERS_ONLY"
    # Only a friend who is a member may be invited to the table.
    for friend in (curdin, benedetg):
        friends.send_request(anna, friend.pk)
        friends.accept(friend, anna.pk)
    assert invitations.invitable_friends(anna, room) == []  # Benedetg sits there already
    with pytest.raises(TalkError) as caught:
        invitations.invite(anna, room, curdin.pk, "http://testserver/")
    assert caught.value.code == "CLUB_TABLE_MEMBERS_ONLY"
    assert not Notification.objects.filter(user=curdin, kind="invite").exists()
    membership.join(curdin, club.pk)
    assert invitations.invitable_friends(anna, room) == [curdin]
    invitations.invite(anna, room, curdin.pk, "http://testserver/")
    membership.leave(curdin, club.pk)
    # A member who leaves loses the table, seat and all.
    membership.leave(benedetg, club.pk)
    assert services.may_watch(room.code, benedetg) == "CLUB_TABLE_MEMBERS_ONLY"
    assert services.may_watch(room.code, curdin) == "CLUB_TABLE_MEMBERS_ONLY"


def test_the_season_standings_count_finished_rated_club_matches(players: list[Any],
                                                                 owner: Any) -> None:
    anna, benedetg, curdin = players
    club = club_of(anna)
    for person in (benedetg, curdin, owner):
        membership.join(person, club.pk)
    room = club_tables.open_club_table(anna, club)
    elsewhere = services.create_room(anna)
    seats = {"player_0": anna, "player_1": benedetg, "player_2": curdin, "player_3": owner}

    def finished(at: Room, number: int, winner: str, rated: bool = True) -> None:
        Match.objects.create(room=at, number=number, status=MatchStatus.FINISHED,
                             winner=winner, rated=rated, finished=room.created, **seats)

    finished(room, 1, Winner.A)
    finished(room, 2, Winner.DRAW)
    finished(room, 3, Winner.B, rated=False)  # unrated: not counted
    finished(elsewhere, 1, Winner.B)  # not a club table: not counted
    rows = {r.user.pk: r for r in club_tables.season_standings(club)}
    assert (rows[anna.pk].match_points, rows[anna.pk].played) == (3, 2)  # a win and a draw
    assert (rows[benedetg.pk].match_points, rows[benedetg.pk].wins,
            rows[benedetg.pk].losses) == (1, 0, 1)
    assert rows[curdin.pk].match_points == 3 and rows[owner.pk].match_points == 1
    assert club_tables.season_standings(club, room.created.year - 1)[0].played == 0

"""Trust, issue #13 item 1: private rooms stay private in the history.

Who may see what (games/history/access.py): a public room's matches are open to every signed-in
player, a private room's to its members (the players, anyone seated in the room, its owner) and
staff; everyone else gets the same 404 as for a match that does not exist. Cards are shown only
once a match is finished. An invite code appears on no history page, title or file name.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match, Room
from tests.support.matches import play_match
from tests.support.tables import must, seat_table

pytestmark = pytest.mark.django_db

PAGES = ("games:match", "games:match_replay", "games:match_transcript")


def _get(user: Any, name: str, match: Match) -> Any:
    client = Client()
    client.force_login(user)
    return client.get(reverse(name, kwargs={"pk": match.pk}))


def _private_running(owner: Any, players: list[Any]) -> Match:
    room = seat_table(owner, players, {"turn_seconds": 0}, visibility="private")
    must(room.code, owner, "start_round")
    match = Room.objects.get(pk=room.pk).current_match
    assert match is not None
    return match


def _finished(owner: Any, players: list[Any], visibility: str) -> Match:
    # One deal, then the owner ends the match (match_deals 0: open-ended).
    match = play_match(owner, players, random.Random(13), {"match_deals": 0,
                                                           "reveal_seconds": 2}, end_after=1)
    room = match.room
    must(room.code, owner, "set_options", visibility=visibility)
    return Match.objects.select_related("room").get(pk=match.pk)


@pytest.mark.parametrize("name", PAGES)
def test_private_rooms_leak_through_match_pages_running(owner, players, outsider, name):
    match = _private_running(owner, players)
    assert _get(outsider, name, match).status_code == 404
    # The players see the page; the cards of a running match stay hidden from them too.
    expected = 200 if name == "games:match" else 403
    assert _get(players[0], name, match).status_code == expected


@pytest.mark.parametrize("name", PAGES)
def test_private_rooms_leak_through_match_pages_finished(owner, players, outsider, make_user,
                                                         name):
    match = _finished(owner, players, "private")
    assert _get(outsider, name, match).status_code == 404
    assert _get(players[2], name, match).status_code == 200
    staff = make_user("moderator", is_staff=True)
    assert _get(staff, name, match).status_code == 200


def test_a_room_member_who_did_not_play_sees_the_private_match(owner, players, make_user):
    match = _finished(owner, players, "private")
    must(match.room.code, owner, "new_match")
    newcomer = make_user("newcomer")
    assert _get(newcomer, "games:match", match).status_code == 404
    must(match.room.code, players[0], "leave_seat")
    must(match.room.code, newcomer, "take_seat", team="B")
    assert _get(newcomer, "games:match", match).status_code == 200


@pytest.mark.parametrize("name", PAGES)
def test_public_rooms_finished_matches_are_open_to_everyone_signed_in(owner, players,
                                                                      outsider, name):
    match = _finished(owner, players, "public")
    assert _get(outsider, name, match).status_code == 200
    assert Client().get(reverse(name, kwargs={"pk": match.pk})).status_code == 302


def test_the_invite_code_is_on_no_history_page(owner, players, outsider):
    match = _finished(owner, players, "public")
    room = match.room
    assert room.name == ""  # the title falls back to something that is not the code
    for user in (outsider, players[0]):
        for name in PAGES:
            response = _get(user, name, match)
            assert room.code not in response.content.decode()
            assert room.code not in response.get("Content-Disposition", "")
    assert room.code not in str(room) and room.code not in str(match)

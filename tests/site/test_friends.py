"""Friends, blocks and invitations (issue #17 item 4): the rules of games/talk/ and their
pages. Anna and Curdin become friends; Benedetg is the one who gets blocked; the outsider
looks for players by name."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.bots import bot_account
from games import services
from games.models import Block, FriendRequest, Friendship, Notification, Room
from games.talk import blocks, friends, invitations, notifications
from games.talk.errors import TalkError
from tests.support.tables import must, submit

pytestmark = pytest.mark.django_db
BASE = "http://testserver/"


def refused(code: str, func: Any, *args: Any) -> None:
    with pytest.raises(TalkError) as caught:
        func(*args)
    assert caught.value.code == code


def befriend(a: Any, b: Any) -> None:
    assert friends.send_request(a, b.pk) is False
    friends.accept(b, a.pk)


def test_a_request_accepted_makes_friends_both_ways(players: list[Any]) -> None:
    anna, _benedetg, curdin = players
    assert friends.send_request(anna, curdin.pk) is False
    assert FriendRequest.objects.filter(sender=anna, recipient=curdin).exists()
    assert notifications.unread_count(curdin.pk) == 1
    refused("FRIEND_REQUEST_PENDING", friends.send_request, anna, curdin.pk)
    # Curdin asking back is an answer: the two are friends, the request gone.
    assert friends.send_request(curdin, anna.pk) is True
    assert friends.friend_ids(anna.pk) == {curdin.pk}
    assert friends.friend_ids(curdin.pk) == {anna.pk}
    assert not FriendRequest.objects.exists()
    assert [n.kind for n in Notification.objects.filter(user=anna)] == ["friend_accepted"]
    refused("ALREADY_FRIENDS", friends.send_request, anna, curdin.pk)
    refused("NO_FRIEND_REQUEST", friends.accept, anna, curdin.pk)
    friends.unfriend(curdin, anna.pk)
    assert friends.friend_ids(anna.pk) == set() and not Friendship.objects.exists()
    refused("NOT_FRIENDS", friends.unfriend, curdin, anna.pk)


def test_requests_are_declined_withdrawn_and_refused_with_codes(
        players: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    anna, benedetg, curdin = players
    friends.send_request(anna, curdin.pk)
    friends.decline(curdin, anna.pk)
    refused("NO_FRIEND_REQUEST", friends.decline, curdin, anna.pk)
    friends.send_request(anna, benedetg.pk)
    friends.cancel(anna, benedetg.pk)
    refused("NO_FRIEND_REQUEST", friends.cancel, anna, benedetg.pk)
    assert not FriendRequest.objects.exists() and not Friendship.objects.exists()
    refused("CANNOT_TARGET_SELF", friends.send_request, anna, anna.pk)
    refused("PLAYER_NOT_FOUND", friends.send_request, anna, bot_account("easy", 1).pk)
    refused("PLAYER_NOT_FOUND", friends.send_request, anna, 10**9)
    # Requests and invitations count together against one hourly limit, in the database.
    monkeypatch.setattr(friends, "SENT_PER_HOUR", 2)
    refused("TOO_MANY_INVITATIONS", friends.send_request, anna, curdin.pk)
    assert not FriendRequest.objects.exists()


def test_a_block_ends_the_friendship_and_refuses_requests_invitations_and_private_rooms(
        owner: Any, players: list[Any]) -> None:
    anna, benedetg, curdin = players
    befriend(owner, benedetg)
    friends.send_request(benedetg, anna.pk)
    blocks.block(owner, benedetg.pk)
    assert not Friendship.objects.filter(user=owner).exists()
    assert not Notification.objects.filter(user=owner, actor=benedetg).exists()
    assert blocks.blocked_either_way(owner.pk) == {benedetg.pk}
    assert blocks.blocked_either_way(benedetg.pk) == {owner.pk}
    assert FriendRequest.objects.filter(sender=benedetg).exists()  # another pair's request
    refused("PLAYER_BLOCKED", friends.send_request, benedetg, owner.pk)
    refused("PLAYER_BLOCKED", friends.send_request, owner, benedetg.pk)
    private = services.create_room(owner, visibility="private")
    refused("PLAYER_BLOCKED", invitations.invite, owner, private, benedetg.pk, BASE)
    # The owner's private room: Benedetg can neither sit down nor open its socket...
    out = submit(private.code, benedetg, "take_seat", team="A")
    assert (out.ok, out.code) == (False, "BLOCKED_FROM_ROOM")
    assert services.may_watch(private.code, benedetg) == "BLOCKED_FROM_ROOM"
    web = Client()
    web.force_login(benedetg)
    page = web.get(private.get_absolute_url(), follow=True)
    assert page.redirect_chain and "You cannot join this private room." in page.content.decode()
    must(private.code, anna, "take_seat", team="B")
    # ...but a public room of the owner stays open to everyone.
    public = services.create_room(owner)
    must(public.code, benedetg, "take_seat", team="B")
    # Anna's private room is not the owner's: the block is the owner's alone.
    annas = services.create_room(anna, visibility="private")
    must(annas.code, benedetg, "take_seat", team="B")
    blocks.unblock(owner, benedetg.pk)
    assert blocks.blocked_either_way(benedetg.pk) == set()
    must(private.code, benedetg, "take_seat", team="A")
    refused("CANNOT_TARGET_SELF", blocks.block, owner, owner.pk)
    assert curdin.pk not in blocks.blocked_either_way(owner.pk)


def test_an_invitation_notifies_and_mails_only_a_friend_who_opted_in(
        owner: Any, players: list[Any], django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    anna, benedetg, curdin = players
    room = services.create_room(owner, name="Stiva", visibility="private")
    refused("NOT_FRIENDS", invitations.invite, owner, room, anna.pk, BASE)
    befriend(owner, anna)
    befriend(owner, curdin)
    refused("NOT_SEATED", invitations.invite, curdin, room, owner.pk, BASE)
    with django_capture_on_commit_callbacks(execute=True):
        invitations.invite(owner, room, anna.pk, BASE)
    assert mail.outbox == []  # Anna did not ask for e-mails
    notice = Notification.objects.filter(user=anna, kind="invite").get()
    assert notice.room == room and notice.actor == owner
    assert "Stiva" in notifications.text_of(notice)
    curdin.invite_emails, curdin.preferred_language = True, "de"
    curdin.confirmed_email = curdin.email  # mail goes to confirmed addresses only
    curdin.save()
    with django_capture_on_commit_callbacks(execute=True):
        invitations.invite(owner, room, curdin.pk, BASE)
    (sent,) = mail.outbox
    assert sent.to == [curdin.email]
    assert f"{BASE}rooms/{room.code}/" in sent.body
    # A fixed subject; the room's name stays on the site (issue #25 item 2).
    assert sent.subject == "Eine Einladung an einen Troccas-Tisch" and "Stiva" not in sent.body
    # The list of friends to invite leaves out those already seated.
    must(room.code, anna, "take_seat", team="B")
    assert [f.pk for f in invitations.invitable_friends(owner, room)] == [curdin.pk]
    monkeypatch.setattr(friends, "SENT_PER_HOUR", 4)  # 2 requests + 2 invitations so far
    refused("TOO_MANY_INVITATIONS", invitations.invite, owner, room, curdin.pk, BASE)
    must(room.code, owner, "close_room")
    refused("ROOM_CLOSED", invitations.invite, owner, Room.objects.get(pk=room.pk), curdin.pk,
            BASE)
    assert benedetg.pk not in friends.friend_ids(owner.pk)


def test_search_finds_players_by_part_of_a_name_without_bots_or_addresses(
        client: Client, make_user: Any, outsider: Any) -> None:
    mario = make_user("mario", display_name="Mario Caduff")
    maria = make_user("maria", display_name="Tgesa")
    bot = bot_account("easy", 2)
    client.force_login(outsider)
    url = reverse("games:find_players")
    page = client.get(url, {"q": "CADUFF"}).content.decode()
    assert "Mario Caduff" in page and mario.email not in page
    page = client.get(url, {"q": "mari"}).content.decode()
    # A login behind a display name is not searched by a part of it (issue #25 item 6)...
    assert "Mario Caduff" in page and "Tgesa" not in page
    # ...only when typed whole, and then it is not shown either.
    page = client.get(url, {"q": maria.username.upper()}).content.decode()
    assert "Tgesa" in page and maria.username not in page
    page = client.get(url, {"q": bot.username[:6]}).content.decode()
    assert f'data-player="{bot.pk}"' not in page
    page = client.get(url, {"q": "m"}).content.decode()
    assert "Mario Caduff" not in page
    for n in range(21):
        make_user("caduff", display_name=f"Caduff {n:02}")
    first = client.get(url, {"q": "caduff"}).content.decode()
    second = client.get(url, {"q": "caduff", "page": 2}).content.decode()
    # Prefix matches first ("Caduff 00"…), then contains ("Mario Caduff"), 20 a page.
    assert "Caduff 00" in first and "Mario Caduff" not in first
    assert "Mario Caduff" in second and "Caduff 00" not in second


def test_the_pages_send_requests_accept_and_invite_with_csrf(
        owner: Any, players: list[Any]) -> None:
    anna, _benedetg, _curdin = players
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)
    assert strict.post(reverse("games:friend_request"), {"user": anna.pk}).status_code == 403
    assert not FriendRequest.objects.exists()
    web = Client()
    web.force_login(owner)
    page = web.post(reverse("games:friend_request"), {"user": anna.pk}, follow=True)
    assert "Your friend request has been sent." in page.content.decode()
    page = web.post(reverse("games:friend_request"), {"user": anna.pk}, follow=True)
    assert "already waiting for an answer" in page.content.decode()
    page = web.post(reverse("games:friend_request"), {"user": "x"}, follow=True)
    assert "There is no such player" in page.content.decode()
    guest = Client()
    guest.force_login(anna)
    friends_page = guest.get(reverse("games:friends")).content.decode()
    assert owner.public_name in friends_page and f'data-request-from="{owner.pk}"' in friends_page
    guest.post(reverse("games:friend_accept"), {"user": owner.pk})
    assert friends.friend_ids(anna.pk) == {owner.pk}
    # Invited from the room's drawer; the notification links the table.
    room = services.create_room(owner, name="Stiva", visibility="private")
    drawer = web.get(room.get_absolute_url()).content.decode()
    assert 'data-invite-friend' in drawer and anna.public_name in drawer
    page = web.post(reverse("games:invite_friend", kwargs={"code": room.code}),
                    {"user": anna.pk}, follow=True)
    assert f"{anna.public_name} has been invited" in page.content.decode()
    listed = guest.get(reverse("games:notifications")).content.decode()
    assert f'href="{room.get_absolute_url()}"' in listed and "Stiva" in listed
    assert notifications.unread_count(anna.pk) == 0  # seen
    # A private table is never named on the friends page; a public one is.
    services.connect(room.code, owner, "tab-private")
    assert "at the table" not in guest.get(reverse("games:friends")).content.decode()
    public = services.create_room(owner, name="Ustria")
    services.connect(public.code, owner, "tab-public")
    page = guest.get(reverse("games:friends")).content.decode()
    assert f'href="{public.get_absolute_url()}"' in page and "data-online" in page
    # Block and unblock from the pages too.
    web.post(reverse("games:block"), {"user": anna.pk})
    assert Block.objects.filter(blocker=owner, blocked=anna).exists()
    assert friends.friend_ids(owner.pk) == set()
    web.post(reverse("games:unblock"), {"user": anna.pk, "next": "https://evil.example/"})
    assert not Block.objects.exists()


def test_the_friends_page_lists_muted_players_and_unmutes_them(owner: Any,
                                                               players: list[Any]) -> None:
    """The talk panel mutes a speaker; the friends page keeps the list, with Unmute."""
    from games.models import TalkMute
    from games.talk import moderation

    anna, benedetg, _curdin = players
    moderation.set_mute(owner, anna.pk, True)
    web = Client()
    web.force_login(owner)
    page = web.get(reverse("games:friends")).content.decode()
    assert "Muted players" in page and anna.public_name in page
    assert benedetg.public_name not in page
    page = web.post(reverse("games:unmute"), {"user": anna.pk}, follow=True).content.decode()
    assert "You read this player&#x27;s table talk again." in page
    assert not TalkMute.objects.exists() and "Muted players" not in page
    page = web.post(reverse("games:unmute"), {"user": owner.pk}, follow=True).content.decode()
    assert "You cannot do that to yourself." in page


def test_the_drawers_invite_list_is_read_again_by_the_seated_only(
        owner: Any, players: list[Any], make_user: Any) -> None:
    # Issue #24 item 9: the room page reads "Invite a friend" again when its site socket says
    # the friends changed; the list is the page's own, to the same people.
    anna, benedetg, curdin = players
    room = services.create_room(anna, name="Stiva")  # seats its owner
    url = reverse("games:invitable_friends", kwargs={"code": room.code})
    client = Client()
    client.force_login(anna)
    assert client.get(url).json() == {"friends": []}
    befriend(anna, curdin)
    befriend(benedetg, anna)
    body = client.get(url).json()
    assert sorted(f["name"] for f in body["friends"]) == sorted(
        [curdin.public_name, benedetg.public_name])
    assert all(set(f) == {"id", "name", "online"} for f in body["friends"])
    # Seated friends are not offered; a blocked one is gone with the friendship.
    must(room.code, curdin, "take_seat", team="B")
    blocks.block(anna, benedetg.pk)
    assert client.get(url).json() == {"friends": []}
    # Someone not seated there (a friend of Anna's included) learns nothing.
    befriend(owner, anna)
    outsider = Client()
    outsider.force_login(owner)
    assert outsider.get(url).json() == {"friends": []}
    assert Client().get(url).status_code == 302  # signed out: to the log-in page
    assert client.post(url).status_code == 405

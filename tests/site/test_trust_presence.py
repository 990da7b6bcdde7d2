"""Trust, issue #25 item 6: whether someone is online is for their friends only, never across
a block, and strangers see a player's display name, never the login behind it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import SitePresence
from games.talk import blocks, friends

pytestmark = pytest.mark.django_db


def _online(user: Any) -> None:
    SitePresence.objects.create(user=user, channel_name=f"site-{user.pk}")


def _row(page: str, user: Any) -> str:
    start = page.index(f'data-player="{user.pk}"')
    return page[start:page.index("</li>", start)]


def test_find_players_shows_presence_to_friends_only_and_no_login(make_user: Any) -> None:
    viewer = make_user("viewer", display_name="Gion")
    friend = make_user("friend", display_name="Cadi Friend")
    stranger = make_user("stranger", display_name="Cadi Stranger")
    for user in (friend, stranger):
        _online(user)
    friends.send_request(viewer, friend.pk)
    friends.send_request(friend, viewer.pk)  # accepted: friends now
    client = Client()
    client.force_login(viewer)
    page = client.get(reverse("games:find_players"), {"q": "cadi"}).content.decode()
    assert "is-online" in _row(page, friend)
    assert "presence-dot" not in _row(page, stranger)
    assert stranger.username not in page and friend.username not in page
    assert "Cadi Stranger" in page


def test_a_block_ends_the_presence_either_way(make_user: Any) -> None:
    viewer = make_user("viewer", display_name="Gion")
    friend = make_user("friend", display_name="Cadi Friend")
    friends.send_request(viewer, friend.pk)
    friends.send_request(friend, viewer.pk)
    _online(friend)
    blocks.block(friend, viewer.pk)  # the friend blocks the viewer
    client = Client()
    client.force_login(viewer)
    page = client.get(reverse("games:find_players"), {"q": "cadi"}).content.decode()
    assert "presence-dot" not in _row(page, friend)

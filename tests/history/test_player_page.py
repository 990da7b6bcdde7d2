"""Public player pages (issue #24 item 15): a player's name, rating and its chart, finished N
of M, and recent matches of public rooms — to anyone, signed in or not; never a private room's
match, the login name, or the player's presence; and no page at all for a viewer the player
blocked, for a bot or for a deleted account. The player search links to the pages."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from accounts.bots import bot_account
from games.models import Room, Visibility
from games.talk import blocks
from tests.support.fixtures import seeded_decks  # noqa: F401 - a fixture
from tests.support.matches import play_match, url

pytestmark = pytest.mark.django_db


def _match_in(visibility: str, owner: Any, players: list[Any], seed: int) -> Any:
    match = play_match(owner, players, random.Random(seed))
    Room.objects.filter(pk=match.room_id).update(visibility=visibility)
    return match


def test_the_page_shows_the_public_record_and_no_private_match(
        owner: Any, players: list[Any], make_user: Any, seeded_decks: Any) -> None:  # noqa: F811
    seeded_decks(11)
    shown = _match_in(Visibility.PUBLIC, owner, players, 11)
    hidden = _match_in(Visibility.PRIVATE, owner, players, 12)
    anna = players[0]
    for viewer in (None, make_user("stranger")):
        client = Client()
        if viewer is not None:
            client.force_login(viewer)
        page = client.get(url("games:player", anna.pk, language="rm"))
        assert page.status_code == 200
        text = page.content.decode()
        assert anna.public_name in text
        assert f'data-player-match="{shown.pk}"' in text
        assert f'data-player-match="{hidden.pk}"' not in text
        # The record counts every match; the login name and presence are not shown.
        assert "finished-record" in text
        assert anna.username not in text
        assert "presence-dot" not in text
        # Another player's rating panel has no "Your matches" link (the site's menu has).
        panel = text.split('class="card narrow rating-panel', 1)[1].split("</div>", 1)[0]
        assert f'href="{url("games:matches", language="rm")}"' not in panel


def test_no_page_for_a_viewer_the_player_blocked_a_bot_or_a_deleted_account(
        owner: Any, players: list[Any]) -> None:
    anna, benedetg, curdin = players
    blocks.block(anna, benedetg.pk)
    blocked = Client()
    blocked.force_login(benedetg)
    assert blocked.get(url("games:player", anna.pk)).status_code == 404
    # The blocker still sees the page of the one they blocked; others see Anna's.
    blocker = Client()
    blocker.force_login(anna)
    assert blocker.get(url("games:player", benedetg.pk)).status_code == 200
    other = Client()
    other.force_login(curdin)
    assert other.get(url("games:player", anna.pk)).status_code == 200
    assert Client().get(url("games:player", bot_account("easy", 1).pk)).status_code == 404
    curdin.is_active = False
    curdin.save(update_fields=["is_active"])
    assert Client().get(url("games:player", curdin.pk)).status_code == 404
    assert Client().get("/en/players/999999/").status_code == 404


def test_the_player_search_links_to_the_pages(owner: Any, players: list[Any]) -> None:
    client = Client()
    client.force_login(owner)
    anna = players[0]
    page = client.get(url("games:find_players"), {"q": anna.public_name[:4]}).content.decode()
    assert f'href="{url("games:player", anna.pk)}"' in page

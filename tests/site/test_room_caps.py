"""Rooms per account (issue #25 item 12): open lobbies are capped per account and opening
rooms through the new-room form or the API is rate-limited, with stable codes and a message
on the page; Play now and Find a game make tables that neither count nor are refused."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from django.forms import CheckboxInput
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from games import services
from games.forms import CreateRoomForm
from games.models import Room
from tests.support.tables import must

pytestmark = pytest.mark.django_db
JSON = "application/json"
WIDE_RATE = {"per_hour": 1000, "window_seconds": 3600}


def api_create(client: Client) -> Any:
    return client.post("/api/rooms", json.dumps({}), content_type=JSON)


def form_data() -> dict[str, Any]:
    """The new-room form as it is first shown, submitted unchanged."""
    form = CreateRoomForm()
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(field.widget, CheckboxInput):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value
    return data


def rooms_of(user: Any) -> int:
    return Room.objects.filter(owner=user).count()


@override_settings(TROCCAS_MAX_OPEN_ROOMS=3, TROCCAS_ROOM_CREATION_RATE=WIDE_RATE)
def test_open_lobbies_are_capped_per_account(owner: Any, outsider: Any) -> None:
    client = Client()
    client.force_login(owner)
    for _ in range(3):
        assert api_create(client).status_code == 201
    refused = api_create(client)
    assert refused.status_code == 409 and refused.json()["code"] == "TOO_MANY_OPEN_ROOMS"
    assert rooms_of(owner) == 3  # nothing created
    # Another account is not held by the owner's rooms.
    other = Client()
    other.force_login(outsider)
    assert api_create(other).status_code == 201
    # Closing a lobby makes room for another.
    first = Room.objects.filter(owner=owner).order_by("pk").first()
    assert first is not None
    must(first.code, owner, "close_room")
    assert api_create(client).status_code == 201
    assert api_create(client).json()["code"] == "TOO_MANY_OPEN_ROOMS"


@override_settings(TROCCAS_MAX_OPEN_ROOMS=2, TROCCAS_ROOM_CREATION_RATE=WIDE_RATE)
def test_the_form_says_why_in_the_players_language(owner: Any) -> None:
    client = Client()
    client.force_login(owner)
    with translation.override("fr"):
        page = reverse("games:create_room")
    for _ in range(2):
        assert client.post(page, form_data()).status_code == 302
    answer = client.post(page, form_data())
    assert answer.status_code == 200
    assert "fermez-en une avant d'en ouvrir une autre" in html.unescape(answer.content.decode())
    assert rooms_of(owner) == 2


@override_settings(TROCCAS_MAX_OPEN_ROOMS=100,
                   TROCCAS_ROOM_CREATION_RATE={"per_hour": 4, "window_seconds": 3600})
def test_opening_rooms_is_rate_limited_per_account(owner: Any, outsider: Any) -> None:
    client = Client()
    client.force_login(owner)
    for _ in range(4):
        assert api_create(client).status_code == 201
    refused = api_create(client)
    assert refused.status_code == 429 and refused.json()["code"] == "ROOM_CREATION_RATE_LIMITED"
    assert rooms_of(owner) == 4
    with translation.override("de"):
        page = client.post(reverse("games:create_room"), form_data())
    assert "Du hast in kurzer Zeit viele Räume eröffnet" in page.content.decode()
    other = Client()
    other.force_login(outsider)
    assert api_create(other).status_code == 201


@override_settings(TROCCAS_MAX_OPEN_ROOMS=2, TROCCAS_ROOM_CREATION_RATE=WIDE_RATE)
def test_play_now_tables_neither_count_nor_are_refused(owner: Any) -> None:
    client = Client()
    client.force_login(owner)
    # Two practice tables (each starts its deal at once: no lobby) leave the cap untouched…
    for _ in range(2):
        assert client.post(reverse("games:play_now"), {"level": "easy"}).status_code == 302
    for _ in range(2):
        assert api_create(client).status_code == 201
    assert api_create(client).json()["code"] == "TOO_MANY_OPEN_ROOMS"
    # …and with the lobbies full, Play now still opens a table.
    assert client.post(reverse("games:play_now"), {"level": "easy"}).status_code == 302
    assert rooms_of(owner) == 5


@override_settings(TROCCAS_MAX_OPEN_ROOMS=1, TROCCAS_ROOM_CREATION_RATE=WIDE_RATE)
def test_a_room_whose_match_started_is_no_longer_a_lobby(owner: Any, players: list[Any]
                                                         ) -> None:
    client = Client()
    client.force_login(owner)
    code = api_create(client).json()["code"]
    assert api_create(client).json()["code"] == "TOO_MANY_OPEN_ROOMS"
    for player, team in zip(players, ("B", "A", "B"), strict=True):
        must(code, player, "take_seat", team=team)
    must(code, owner, "start_round")
    assert services.rooms.open_lobby_count(owner) == 0
    assert api_create(client).status_code == 201

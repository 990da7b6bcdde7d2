"""Find a game through its doors (issue #24 item 15): the page in four languages, and the JSON
API a browser uses — four people who join form a rated table of four at once; bad input and
the wrong moment get a stable code and change nothing; signed out, nothing at all."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import MatchStatus, QueueEntry, QueueStatus, Room

pytestmark = pytest.mark.django_db
JSON = "application/json"


def post(client: Client, path: str, body: Any = None) -> Any:
    return client.post(path, json.dumps({} if body is None else body), content_type=JSON)


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_speaks_four_languages_and_signed_out_it_asks_to_sign_in(
        make_user: Any) -> None:
    client = signed_in(make_user("mengia"))
    words = {"en": "Find a game", "de": "Partie finden", "fr": "Trouver une partie",
             "rm": "Chattar ina partida"}
    for language, title in words.items():
        with translation.override(language):
            url = reverse("games:find_game")
        page = client.get(url)
        assert page.status_code == 200 and title in page.content.decode(), language
    with translation.override("en"):
        anonymous = Client().get(reverse("games:find_game")).content.decode()
    assert "Sign in to find a game" in anonymous


def test_four_people_who_join_form_a_rated_table(make_user: Any) -> None:
    people = [make_user(n) for n in ("mengia", "gion", "ursina", "flurin")]
    clients = [signed_in(p) for p in people]
    for client in clients[:3]:
        response = post(client, "/api/queue", {"rules": {"match_deals": 8}, "bots_after": None})
        assert response.status_code == 201 and response.json()["status"] == "waiting"
    assert clients[0].get("/api/queue").json()["waiting"] == 3
    last = post(clients[3], "/api/queue", {"rules": {}, "bots_after": 300})
    assert last.status_code == 201
    body = last.json()
    assert body["status"] == QueueStatus.SEATED and body["room"]
    room = Room.objects.get(code=body["room"])
    assert {s.user_id for s in room.seats.all()} == {p.pk for p in people}
    match = room.current_match
    assert match is not None and match.status == MatchStatus.RUNNING and match.rated
    assert set(QueueEntry.objects.values_list("status", flat=True)) == {QueueStatus.SEATED}


def test_bad_input_and_the_wrong_moment_get_a_code_and_change_nothing(make_user: Any) -> None:
    client = signed_in(make_user("reto"))
    cases = [
        ({"rules": [], "bots_after": None}, "INVALID_OPTIONS"),
        ({"rules": {"match_deals": "many"}, "bots_after": None}, "INVALID_OPTIONS"),
        ({"rules": {"no_such_rule": 1}, "bots_after": None}, "INVALID_OPTIONS"),
        ({"rules": {}, "bots_after": 7}, "INVALID_FIELD"),
        ({"rules": {}, "bots_after": True}, "INVALID_FIELD"),
    ]
    for body, code in cases:
        response = post(client, "/api/queue", body)
        assert response.status_code == 400 and response.json()["code"] == code, body
    assert not QueueEntry.objects.exists()
    assert post(client, "/api/queue/leave").json()["code"] == "QUEUE_NOT_WAITING"
    assert post(client, "/api/queue/bots", {"level": "easy"}).json()["code"] == (
        "QUEUE_NOT_WAITING")
    assert post(client, "/api/queue", {"rules": {}, "bots_after": 60}).status_code == 201
    again = post(client, "/api/queue", {"rules": {}, "bots_after": 60})
    assert again.json()["code"] == "QUEUE_ALREADY_WAITING"
    early = post(client, "/api/queue/bots", {"level": "easy"})
    assert early.json()["code"] == "QUEUE_BOTS_NOT_YET"
    assert not Room.objects.exists()
    # Each refusal reads as a sentence, not a code.
    assert early.json()["message"] and "QUEUE" not in early.json()["message"]
    assert post(client, "/api/queue/leave").json() == {"ok": True}
    assert QueueEntry.objects.get().status == QueueStatus.LEFT


def test_signed_out_nothing_is_read_or_written() -> None:
    anonymous = Client()
    for method, path in (("get", "/api/queue"), ("post", "/api/queue"),
                         ("post", "/api/queue/leave"), ("post", "/api/queue/bots")):
        response = (anonymous.get(path) if method == "get" else post(anonymous, path))
        assert response.status_code == 401 and response.json()["code"] == "NOT_AUTHENTICATED"
    assert not QueueEntry.objects.exists()

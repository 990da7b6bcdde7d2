"""Find a game's doors (issue #24 item 15; games/views/queue.py): /api/queue, /api/queue/leave,
/api/queue/bots and the page /<lang>/find/ — signed out, bad input (a translated error with its
code, nothing changed), the CSRF design of the JSON API, and a table formed through the doors."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from games.models import QueueEntry, QueueStatus, Room
from games.text.errors import message_for

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(60)]

JSON = "application/json"


def post(client: Client, path: str, body: Any = None, **extra: Any) -> Any:
    return client.post(path, json.dumps({} if body is None else body), content_type=JSON,
                       **extra)


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def in_language(code: str, language: str) -> str:
    with translation.override(language):
        return message_for(code)


def test_signed_out_the_doors_refuse_and_the_page_asks_to_sign_in() -> None:
    client = Client()
    for path in ("/api/queue", "/api/queue/leave", "/api/queue/bots"):
        response = post(client, path, {"bots_after": None})
        assert response.json()["code"] == "NOT_AUTHENTICATED", path
    assert client.get("/api/queue").json()["code"] == "NOT_AUTHENTICATED"
    assert not QueueEntry.objects.exists()
    page = client.get("/en/find/")
    assert page.status_code == 200
    assert b"Sign in to find a game" in page.content and b"find.js" not in page.content


def test_join_status_leave_and_the_errors_in_the_requesters_language(make_user: Any) -> None:
    user = make_user("mengia")
    client = signed_in(user)
    assert client.get("/api/queue").json() == {"status": None}
    joined = post(client, "/api/queue", {"rules": {"match_deals": 8}, "bots_after": 60})
    assert joined.status_code == 201
    body = joined.json()
    assert body["status"] == "waiting" and body["waiting"] == 1 and body["room"] is None
    assert client.get("/api/queue").json()["status"] == "waiting"

    again = post(client, "/api/queue", {"bots_after": None}, HTTP_ACCEPT_LANGUAGE="de")
    assert again.status_code == 409
    assert again.json() == {"code": "QUEUE_ALREADY_WAITING",
                            "message": in_language("QUEUE_ALREADY_WAITING", "de")}
    early = post(client, "/api/queue/bots", {"level": "easy"})
    assert early.status_code == 409 and early.json()["code"] == "QUEUE_BOTS_NOT_YET"

    assert post(client, "/api/queue/leave").json() == {"ok": True}
    assert QueueEntry.objects.get(user=user).status == QueueStatus.LEFT
    gone = post(client, "/api/queue/leave", HTTP_ACCEPT_LANGUAGE="fr")
    assert gone.status_code == 409
    assert gone.json() == {"code": "QUEUE_NOT_WAITING",
                           "message": in_language("QUEUE_NOT_WAITING", "fr")}


@pytest.mark.parametrize(("body", "code"), [
    ({"rules": "all", "bots_after": None}, "INVALID_OPTIONS"),
    ({"rules": {"match_deals": 7}, "bots_after": None}, "INVALID_OPTIONS"),
    ({"rules": {}, "bots_after": 45}, "INVALID_FIELD"),
    ({"rules": {}, "bots_after": True}, "INVALID_FIELD"),
    ({"rules": {}, "bots_after": "60"}, "INVALID_FIELD"),
])
def test_bad_input_is_refused_with_its_code_and_queues_nobody(make_user: Any,
                                                                body: Any, code: str) -> None:
    client = signed_in(make_user("gion"))
    response = post(client, "/api/queue", body)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert not QueueEntry.objects.exists()


def test_csrf_json_only_and_same_origin(make_user: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("ursina"))
    form = client.post("/api/queue", {"bots_after": ""})
    assert form.status_code == 415
    evil = post(client, "/api/queue", {"bots_after": None}, HTTP_ORIGIN="https://evil.example")
    assert evil.status_code == 403 and evil.json()["code"] == "CSRF_FAILED"
    assert not QueueEntry.objects.exists()
    ok = post(client, "/api/queue", {"bots_after": None}, HTTP_ORIGIN="http://testserver")
    assert ok.status_code == 201


def test_four_people_through_the_doors_get_one_table_and_bots_only_when_pressed(
        make_user: Any) -> None:
    people = [make_user(name) for name in ("flurin", "seraina", "duri", "ladina", "reto")]
    clients = [signed_in(u) for u in people]
    for client in clients[:3]:
        assert post(client, "/api/queue", {"bots_after": None}).status_code == 201
    assert not Room.objects.exists()
    fourth = post(clients[3], "/api/queue", {"rules": {"bock": True}, "bots_after": 60})
    assert fourth.json()["status"] == "seated"
    rooms = {c.get("/api/queue").json()["room"] for c in clients[:4]}
    assert len(rooms) == 1 and None not in rooms

    # The fifth asks for bots after a minute: refused before, a table with bots after.
    assert post(clients[4], "/api/queue", {"bots_after": 60}).status_code == 201
    QueueEntry.objects.filter(user=people[4]).update(joined=timezone.now() - timedelta(seconds=61))
    unknown = post(clients[4], "/api/queue/bots", {"level": "wizard"})
    assert unknown.json()["code"] == "BOT_LEVEL_UNKNOWN"
    assert post(clients[4], "/api/queue/bots", {"level": 3}).json()["code"] == "INVALID_FIELD"
    pressed = post(clients[4], "/api/queue/bots", {"level": "easy"})
    assert pressed.status_code == 201
    room = Room.objects.get(code=pressed.json()["room"])
    assert pressed.json()["url"] == room.get_absolute_url()
    assert room.current_match is not None and not room.current_match.rated


def test_the_find_page_shows_the_wait_on_reload(make_user: Any) -> None:
    client = signed_in(make_user("mengia"))
    page = client.get("/en/find/")
    assert b"data-find-form" in page.content and b"find-config" in page.content
    post(client, "/api/queue", {"bots_after": None})
    config = client.get("/rm/find/").context["find_config"]
    assert config["queue"]["status"] == "waiting" and config["queue"]["waiting"] == 1

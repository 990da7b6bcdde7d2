"""The JSON API (issue #4 item 3; docs/protocol.md "HTTP API").

Log in (ok, wrong password, rate-limited, not JSON), open a room (defaults, house rules, an
invalid option named by its field, anonymous, the CSRF design of docs/decisions.md), the list of
open public rooms in a constant number of queries, one's own view of a table (a seated player
sees only their own hand, a spectator none), and error sentences in the requester's language.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games import services
from games.engine import PLAY, team_of
from games.models import Room
from games.text.errors import message_for
from tests import personas
from tests.support import tables
from tests.support.live import cards_in

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(60)]

JSON = "application/json"


def address() -> str:
    """A fresh client address per test: the limiter's counters (Redis in the distributed run)
    outlive a test, so no two tests may share one."""
    return f"198.18.{secrets.randbelow(256)}.{secrets.randbelow(254) + 1}"


def post(client: Client, path: str, body: Any = None, **extra: Any) -> Any:
    data = json.dumps({} if body is None else body)
    return client.post(path, data, content_type=JSON, **extra)


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def english(code: str) -> str:
    with translation.override("en"):
        return message_for(code)


# --- log in ------------------------------------------------------------------------------

def test_login_sets_the_session_cookie(make_user: Any, password: str) -> None:
    user = make_user("bot")
    client = Client()
    response = post(client, "/api/login", {"username": user.username, "password": password},
                    REMOTE_ADDR=address())
    assert response.status_code == 200
    assert response.json() == {"user": {"id": user.pk, "username": user.username,
                                         "display_name": "Bot"}}
    assert "sessionid" in response.cookies
    assert client.session["_auth_user_id"] == str(user.pk)
    # The cookie is all a client needs from now on: it may open a room.
    assert post(client, "/api/rooms", {}).status_code == 201


def test_wrong_password(make_user: Any) -> None:
    user = make_user("guesser")
    client = Client()
    response = post(client, "/api/login", {"username": user.username, "password": "nope"},
                    REMOTE_ADDR=address())
    assert response.status_code == 401
    assert response.json() == {"code": "INVALID_CREDENTIALS",
                               "message": english("INVALID_CREDENTIALS")}
    assert "_auth_user_id" not in client.session
    unknown = post(client, "/api/login", {"username": "nobody-" + secrets.token_hex(4),
                                          "password": "x"}, REMOTE_ADDR=address())
    assert unknown.status_code == 401 and unknown.json()["code"] == "INVALID_CREDENTIALS"


def test_login_is_rate_limited_like_the_form(make_user: Any, password: str) -> None:
    user = make_user("target")
    where = address()
    client = Client()
    for _ in range(5):
        assert post(client, "/api/login", {"username": user.username, "password": "bad"},
                    REMOTE_ADDR=where).status_code == 401
    # Even the right password is refused now, before it is checked.
    blocked = post(client, "/api/login", {"username": user.username, "password": password},
                   REMOTE_ADDR=where)
    assert blocked.status_code == 429
    assert blocked.json() == {"code": "RATE_LIMITED", "message": english("RATE_LIMITED")}
    assert "_auth_user_id" not in client.session
    # One limiter: the log-in form refuses this username from this address too.
    form = Client().post("/en/accounts/login/", {"username": user.username,
                                                 "password": password}, REMOTE_ADDR=where)
    assert form.status_code == 200 and "_auth_user_id" not in form.client.session
    # Another address is not punished for this one's failures.
    assert post(Client(), "/api/login", {"username": user.username, "password": password},
                REMOTE_ADDR=address()).status_code == 200


def test_login_takes_only_json(make_user: Any, password: str) -> None:
    user = make_user("former")
    client = Client()
    # A form post is what another site's <form> could send: refused unread.
    form = client.post("/api/login", {"username": user.username, "password": password},
                       REMOTE_ADDR=address())
    assert form.status_code == 415
    assert form.json()["code"] == "UNSUPPORTED_MEDIA_TYPE"
    plain = client.post("/api/login", json.dumps({"username": user.username,
                                                  "password": password}),
                        content_type="text/plain", REMOTE_ADDR=address())
    assert plain.status_code == 415
    assert "_auth_user_id" not in client.session
    for body, code, field in [("{not json", "MALFORMED_MESSAGE", None),
                              ("[1, 2]", "MALFORMED_MESSAGE", None),
                              (json.dumps({"password": "x"}), "MISSING_FIELD", "username"),
                              (json.dumps({"username": user.username, "password": 7}),
                               "INVALID_FIELD", "password")]:
        response = client.post("/api/login", body, content_type=JSON, REMOTE_ADDR=address())
        assert response.status_code == 400, body
        expected = {"code": code, "message": english(code)}
        if field:
            expected["field"] = field
        assert response.json() == expected
    assert client.get("/api/login").status_code == 405


def test_logout_ends_the_session(owner: Any) -> None:
    client = signed_in(owner)
    assert post(client, "/api/logout").json() == {"ok": True}
    assert post(client, "/api/rooms", {}).status_code == 401


# --- create a room ---------------------------------------------------------------------------

def test_create_room_with_defaults(owner: Any) -> None:
    response = post(signed_in(owner), "/api/rooms", {})
    assert response.status_code == 201
    body = response.json()
    room = Room.objects.get(code=body["code"])
    assert body["url"] == f"http://testserver/en/rooms/{room.code}/" == response["Location"]
    assert body["websocket"] == f"ws://testserver/ws/rooms/{room.code}/"
    assert body["room"] == {
        "code": room.code, "name": "", "owner": {"id": owner.pk, "name": "Owner"},
        "visibility": "public", "allow_spectators": True, "options": room.options,
        "seats_taken": 1, "running": False, "created": room.created.isoformat(),
        "url": body["url"], "websocket": body["websocket"]}
    # The owner sits in team A, seat 0, as on the page's "new table" button.
    assert list(room.seats.values_list("user_id", "team", "index")) == [(owner.pk, "A", 0)]


def test_create_room_with_house_rules(owner: Any) -> None:
    options = {"match_deals": 8, "bock": True, "turn_seconds": 30, "scart_forbidden": "none"}
    response = post(signed_in(owner), "/api/rooms", {
        "options": options, "name": " Friday table ", "visibility": "private",
        "allow_spectators": False, "team": "B"})
    assert response.status_code == 201, response.json()
    room = Room.objects.get(code=response.json()["code"])
    assert {k: room.options[k] for k in options} == options
    assert (room.name, room.visibility, room.allow_spectators) == ("Friday table", "private",
                                                                   False)
    assert list(room.seats.values_list("team", "index")) == [("B", 1)]
    unseated = post(signed_in(owner), "/api/rooms", {"team": None})
    assert Room.objects.get(code=unseated.json()["code"]).seats.count() == 0


@pytest.mark.parametrize(("body", "code", "field"), [
    ({"options": {"match_deals": 5}}, "INVALID_OPTIONS", "options.match_deals"),
    ({"options": {"no_such_rule": 1}}, "INVALID_OPTIONS", "options.no_such_rule"),
    ({"options": [1]}, "INVALID_OPTIONS", "options"),
    ({"visibility": "secret"}, "INVALID_FIELD", "visibility"),
    ({"name": "x" * 61}, "INVALID_FIELD", "name"),
    ({"allow_spectators": "yes"}, "INVALID_FIELD", "allow_spectators"),
    ({"team": "C"}, "INVALID_FIELD", "team"),
])
def test_create_room_refuses_invalid_input(owner: Any, body: dict[str, Any], code: str,
                                           field: str) -> None:
    response = post(signed_in(owner), "/api/rooms", body)
    assert response.status_code == 400
    assert response.json() == {"code": code, "message": english(code), "field": field}
    assert not Room.objects.filter(owner=owner).exists()


def test_create_room_needs_a_player() -> None:
    response = post(Client(), "/api/rooms", {})
    assert response.status_code == 401
    assert response.json() == {"code": "NOT_AUTHENTICATED",
                               "message": english("NOT_AUTHENTICATED")}
    assert not Room.objects.exists()


def test_csrf_json_only_and_same_origin(owner: Any, password: str) -> None:
    """docs/decisions.md: no CSRF token; a JSON body, SameSite=Lax and the Origin check."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    # A cross-site <form> can only send form-encoded or text/plain bodies: refused.
    form = client.post("/api/rooms", {"name": "forged"})
    assert form.status_code == 415 and form.json()["code"] == "UNSUPPORTED_MEDIA_TYPE"
    plain = client.post("/api/rooms", "{}", content_type="text/plain")
    assert plain.status_code == 415
    # A browser names the page's origin on every POST: another site's is refused.
    evil = post(client, "/api/rooms", {}, HTTP_ORIGIN="https://evil.example")
    assert evil.status_code == 403
    assert evil.json() == {"code": "CSRF_FAILED", "message": english("CSRF_FAILED")}
    assert not Room.objects.exists()
    # Our own pages (same origin) and non-browser clients (no Origin) need no token.
    assert post(client, "/api/rooms", {}, HTTP_ORIGIN="http://testserver").status_code == 201
    assert post(client, "/api/rooms", {}).status_code == 201
    # The session cookie itself is SameSite=Lax: not sent on another site's POST.
    login = post(Client(), "/api/login", {"username": owner.username,
                                          "password": password},
                 REMOTE_ADDR=address())
    assert login.cookies["sessionid"]["samesite"] == "Lax"


# --- list rooms --------------------------------------------------------------------------

def test_list_shows_only_public_open_rooms(owner: Any, players: list[Any],
                                           outsider: Any) -> None:
    public = services.create_room(owner, {"match_deals": 8}, name="Open")
    services.create_room(owner, visibility="private")
    closed = services.create_room(outsider)
    tables.must(closed.code, outsider, "close_room")
    running = tables.seat_table(outsider, players, name="Busy")
    tables.must(running.code, outsider, "start_round")
    body = Client().get("/api/rooms").json()
    assert body["count"] == 2 and body["page"] == 1 and body["pages"] == 1
    assert body["per_page"] == 50
    by_code = {r["code"]: r for r in body["rooms"]}
    assert set(by_code) == {public.code, running.code}
    assert by_code[public.code]["owner"] == {"id": owner.pk, "name": "Owner"}
    assert by_code[public.code]["options"]["match_deals"] == 8
    assert (by_code[public.code]["seats_taken"], by_code[public.code]["running"]) == (1, False)
    assert (by_code[running.code]["seats_taken"], by_code[running.code]["running"]) == (4, True)
    assert by_code[public.code]["url"] == f"http://testserver/en/rooms/{public.code}/"
    assert by_code[public.code]["websocket"] == f"ws://testserver/ws/rooms/{public.code}/"
    # Newest first.
    assert [r["code"] for r in body["rooms"]] == [running.code, public.code]


def test_list_is_paginated_in_a_constant_number_of_queries(
        make_user: Any, django_assert_num_queries: Any) -> None:
    first = make_user("first")
    services.create_room(first)
    with django_assert_num_queries(2):
        one = Client().get("/api/rooms")
    assert len(one.json()["rooms"]) == 1
    for i in range(54):
        services.create_room(make_user(f"host{i}"), name=f"T{i}", take_seat=team_of(i))
    with django_assert_num_queries(2):
        page1 = Client().get("/api/rooms").json()
    with django_assert_num_queries(2):
        page2 = Client().get("/api/rooms?page=2").json()
    assert (page1["count"], page1["pages"], len(page1["rooms"])) == (55, 2, 50)
    assert len(page2["rooms"]) == 5
    codes = [r["code"] for r in page1["rooms"] + page2["rooms"]]
    assert len(set(codes)) == 55
    assert Client().get("/api/rooms?page=3").json()["rooms"] == []
    bad = Client().get("/api/rooms?page=zero")
    assert bad.status_code == 400 and bad.json()["field"] == "page"


# --- one's own view of a table ---------------------------------------------------------------

def test_room_view_seated_player_sees_own_hand_only(owner: Any, players: list[Any],
                                                    spectator: Any) -> None:
    room = tables.seat_table(owner, players)
    by_seat = personas.by_seat(owner, players)
    tables.advance(room.code, by_seat, PLAY)
    state = tables.state(room.code)
    assert state is not None and state.deal is not None
    snap = services.table_snapshot(room.code)
    hands = {seat: set(snap.view_for(seat)["hand"]) for seat in range(4)}
    for seat, user in by_seat.items():
        response = signed_in(user).get(f"/api/rooms/{room.code}")
        assert response.status_code == 200
        body = response.json()
        # Exactly the websocket's `state` frame for this seat.
        assert body == json.loads(json.dumps(snap.state_message(seat)))
        assert body["type"] == "state" and body["version"] == room_version(room.code)
        assert body["view"]["seat"] == seat and set(body["view"]["hand"]) == hands[seat]
        seen = cards_in(body)
        for other in range(4):
            if other != seat:
                assert not seen & (hands[other] - public_cards(snap)), (seat, other)
    watcher = signed_in(spectator).get(f"/api/rooms/{room.code.upper()}").json()
    assert watcher["view"]["seat"] is None and watcher["view"]["hand"] == []
    assert cards_in(watcher) <= public_cards(snap)


def public_cards(snap: Any) -> set[str]:
    """Cards any spectator may see: what the spectators' view holds."""
    return cards_in(snap.view_for(None))


def room_version(code: str) -> int:
    return Room.objects.get(code=code).version


def test_room_view_refusals(owner: Any, players: list[Any], outsider: Any) -> None:
    assert signed_in(outsider).get("/api/rooms/nosuchroom").json()["code"] == "ROOM_NOT_FOUND"
    assert signed_in(outsider).get("/api/rooms/nosuchroom").status_code == 404
    room = tables.seat_table(owner, players, allow_spectators=False)
    assert Client().get(f"/api/rooms/{room.code}").status_code == 401
    # Between matches anyone with the code may look (as on the socket); during one, not.
    assert signed_in(outsider).get(f"/api/rooms/{room.code}").status_code == 200
    tables.must(room.code, owner, "start_round")
    response = signed_in(outsider).get(f"/api/rooms/{room.code}")
    assert response.status_code == 403
    assert response.json()["code"] == "SPECTATORS_NOT_ALLOWED"
    assert signed_in(players[0]).get(f"/api/rooms/{room.code}").status_code == 200


# --- language ----------------------------------------------------------------------------------

def test_errors_speak_the_requesters_language(make_user: Any) -> None:
    with translation.override("de"):
        german = {code: message_for(code) for code in ("NOT_AUTHENTICATED", "INVALID_OPTIONS",
                                                       "INVALID_CREDENTIALS", "NOT_FOUND")}
    assert all(german[c] != english(c) for c in german)
    # Anonymous: the browser's Accept-Language (or the language cookie).
    anonymous = post(Client(), "/api/rooms", {}, HTTP_ACCEPT_LANGUAGE="de")
    assert anonymous.json()["message"] == german["NOT_AUTHENTICATED"]
    wrong = post(Client(), "/api/login", {"username": "x", "password": "y"},
                 HTTP_ACCEPT_LANGUAGE="de-CH,de;q=0.9", REMOTE_ADDR=address())
    assert wrong.json()["message"] == german["INVALID_CREDENTIALS"]
    assert Client().get("/api/nothing/here", HTTP_ACCEPT_LANGUAGE="de").json() == {
        "code": "NOT_FOUND", "message": german["NOT_FOUND"]}
    # Signed in: the profile's language wins over the header.
    sepp = make_user("sepp", preferred_language="de")
    invalid = post(signed_in(sepp), "/api/rooms", {"options": {"bock": "ja"}},
                   HTTP_ACCEPT_LANGUAGE="fr")
    assert invalid.json() == {"code": "INVALID_OPTIONS", "message": german["INVALID_OPTIONS"],
                              "field": "options.bock"}


# --- the people's default turn timer (issue #14 item 4) --------------------------------------

@pytest.mark.parametrize("body", [{}, {"options": None}, {"options": {"bock": True}},
                                  {"options": {"turn_seconds": None}}])
def test_a_room_opened_without_a_turn_timer_gets_60_seconds(owner: Any,
                                                            body: dict[str, Any]) -> None:
    response = post(signed_in(owner), "/api/rooms", body)
    assert response.status_code == 201
    assert response.json()["room"]["options"]["turn_seconds"] == 60
    assert Room.objects.get(code=response.json()["code"]).options["turn_seconds"] == 60


def test_a_named_turn_timer_is_kept_and_0_means_off(owner: Any) -> None:
    for seconds in (0, 15):
        response = post(signed_in(owner), "/api/rooms", {"options": {"turn_seconds": seconds}})
        assert response.json()["room"]["options"]["turn_seconds"] == seconds
    # The engine and the service keep RULES.md §14's default: no timer.
    assert services.create_room(owner).options["turn_seconds"] == 0


def test_the_create_room_form_offers_60_seconds(owner: Any) -> None:
    from games.forms import CreateRoomForm, HouseRulesForm

    assert CreateRoomForm().fields["turn_seconds"].initial == 60
    # The drawer's form starts from the same standard (it is always bound to the room's rules).
    assert HouseRulesForm().fields["turn_seconds"].initial == 60
    page = signed_in(owner).get("/en/rooms/new/")
    assert page.status_code == 200
    assert b'name="turn_seconds" value="60"' in page.content

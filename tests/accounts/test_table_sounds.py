"""The table sounds preference (issue #14 item 6): off for every new player, saved through a
small CSRF-guarded endpoint by the signed-in player for themselves only, shown and saved on
the profile page, handed to the table's script; anonymous visitors are refused (their choice
stays in the browser). Bad input is a coded, translated refusal that changes nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games.text.errors import message_for
from games.text.table import ui_strings
from games.views.rules import RULES_SUBSECTIONS
from tests.support.tables import seat_table

pytestmark = pytest.mark.django_db
ROOT_JS = Path(__file__).resolve().parents[2] / "static" / "js"

FEEL_KEYS = ("title_your_turn", "sounds", "sounds_hint", "sounds_not_saved", "skip_hold",
             "key_skip_hold", "help_rules_link", "help_led_title", "help_led", "help_led_now",
             "help_trump_title", "help_trump", "help_trump_now", "help_buob", "help_buob_now",
             "help_narr_title", "help_narr", "help_narr_now")


def sounds_url(language: str = "en") -> str:
    with translation.override(language):
        return reverse("games:table_sounds")


def signed_in(user: User, password: str) -> Client:
    """A browser-like client that checks CSRF tokens, signed in as `user`, with its token."""
    client = Client(enforce_csrf_checks=True)
    assert client.login(username=user.username, password=password)
    client.get(reverse("accounts:profile"))  # the page sets the csrftoken cookie
    return client


def post(client: Client, body: Any, *, token: bool = True, language: str = "en",
         content_type: str = "application/json") -> Any:
    headers = {"X-CSRFToken": client.cookies["csrftoken"].value} if token else {}
    data = json.dumps(body) if content_type == "application/json" else body
    return client.post(sounds_url(language), data, content_type=content_type, headers=headers)


def test_sounds_are_off_for_a_new_player(make_user: Any) -> None:
    assert make_user("mia").table_sounds is False


def test_a_player_turns_sounds_on_and_off(make_user: Any, password: str) -> None:
    mia = make_user("mia")
    client = signed_in(mia, password)
    response = post(client, {"table_sounds": True})
    assert response.status_code == 200
    assert response.json() == {"table_sounds": True}
    mia.refresh_from_db()
    assert mia.table_sounds is True
    assert post(client, {"table_sounds": False}).json() == {"table_sounds": False}
    mia.refresh_from_db()
    assert mia.table_sounds is False


def test_a_post_without_the_csrf_token_is_refused(make_user: Any, password: str) -> None:
    mia = make_user("mia")
    client = signed_in(mia, password)
    response = post(client, {"table_sounds": True}, token=False)
    assert response.status_code == 403
    mia.refresh_from_db()
    assert mia.table_sounds is False


def test_a_player_saves_their_own_choice_only(make_user: Any, password: str) -> None:
    mia, ursina = make_user("mia"), make_user("ursina")
    client = signed_in(mia, password)
    # The endpoint names no user: a user id in the body is not read.
    assert post(client, {"table_sounds": True, "user": ursina.pk}).status_code == 200
    mia.refresh_from_db()
    ursina.refresh_from_db()
    assert (mia.table_sounds, ursina.table_sounds) == (True, False)


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_anonymous_visitor_is_refused_in_their_language(language: str) -> None:
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("games:home"))
    token = client.cookies["csrftoken"].value
    response = client.post(sounds_url(language), json.dumps({"table_sounds": True}),
                           content_type="application/json", headers={"X-CSRFToken": token})
    assert response.status_code == 401
    body = response.json()
    assert body["code"] == "NOT_AUTHENTICATED"
    with translation.override(language):
        assert body["message"] == message_for("NOT_AUTHENTICATED")
    if language == "de":
        assert "sign in" not in body["message"]


@pytest.mark.parametrize(("body", "content_type", "status", "code"), [
    ({"table_sounds": "yes"}, "application/json", 400, "INVALID_FIELD"),
    ({"table_sounds": 1}, "application/json", 400, "INVALID_FIELD"),
    ({"sounds": True}, "application/json", 400, "MISSING_FIELD"),
    ([True], "application/json", 400, "MISSING_FIELD"),
    ("{not json", "text/plain", 415, "UNSUPPORTED_MEDIA_TYPE"),
    ({"table_sounds": "1"}, "application/x-www-form-urlencoded", 415, "UNSUPPORTED_MEDIA_TYPE"),
], ids=["string", "number", "missing", "list", "text", "form"])
def test_bad_input_is_a_coded_refusal_that_changes_nothing(
        make_user: Any, password: str, body: Any, content_type: str, status: int,
        code: str) -> None:
    mia = make_user("mia")
    client = signed_in(mia, password)
    if content_type == "application/x-www-form-urlencoded":
        body = "table_sounds=1"
    response = post(client, body, content_type=content_type)
    assert response.status_code == status
    assert response.json()["code"] == code
    assert response.json()["message"]
    mia.refresh_from_db()
    assert mia.table_sounds is False


def test_malformed_json_is_refused(make_user: Any, password: str) -> None:
    mia = make_user("mia")
    client = signed_in(mia, password)
    response = client.post(sounds_url(), "{not json", content_type="application/json",
                           headers={"X-CSRFToken": client.cookies["csrftoken"].value})
    assert response.status_code == 400
    assert response.json()["code"] == "MALFORMED_MESSAGE"


def test_only_post_is_allowed(make_user: Any, password: str) -> None:
    client = signed_in(make_user("mia"), password)
    assert client.get(sounds_url()).status_code == 405


def test_the_profile_page_shows_and_saves_the_choice(make_user: Any, password: str) -> None:
    mia = make_user("mia", preferred_language="de")
    client = signed_in(mia, password)
    page = client.get("/de/accounts/profile/").content.decode()
    assert 'name="table_sounds"' in page
    assert "Tischklänge" in page
    token = client.cookies["csrftoken"].value
    response = client.post("/de/accounts/profile/", {
        "display_name": "Mia", "email": mia.email, "preferred_language": "de",
        "table_sounds": "on", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    mia.refresh_from_db()
    assert mia.table_sounds is True
    page = client.get("/de/accounts/profile/").content.decode()
    assert re.search(r'<input[^>]*name="table_sounds"[^>]*checked', page)


def test_the_room_page_hands_the_choice_to_the_script(owner: Any, players: list[Any],
                                                      password: str) -> None:
    room = seat_table(owner, players, None, name="Stiva")
    owner.table_sounds = True
    owner.save(update_fields=["table_sounds"])
    client = signed_in(owner, password)
    config = table_config(client.get(room.get_absolute_url()).content.decode())
    assert config["sounds"] is True
    assert config["sounds_url"] == reverse("games:table_sounds")
    assert config["csrf"]
    anonymous = table_config(Client().get(room.get_absolute_url()).content.decode())
    assert (anonymous["sounds"], anonymous["sounds_url"], anonymous["csrf"]) == (None, None, None)


def table_config(page: str) -> dict[str, Any]:
    match = re.search(r'<script id="table-config" type="application/json">(.*?)</script>', page)
    assert match, "no table-config on the page"
    return json.loads(match.group(1))


def test_deleting_an_account_forgets_the_choice(make_user: Any) -> None:
    mia = make_user("mia", table_sounds=True)
    mia.anonymise()
    mia.refresh_from_db()
    assert mia.table_sounds is False


@pytest.mark.parametrize("language", ["rm", "de", "fr"])
def test_the_feel_strings_are_translated(language: str) -> None:
    with translation.override("en"):
        en = ui_strings()
    with translation.override(language):
        s = ui_strings()
    for key in FEEL_KEYS:
        assert s[key] and s[key] != en[key], (language, key)
    assert "%(section)s" in s["help_rules_link"] and "%(suit)s" in s["help_led_now"]


@pytest.mark.parametrize("language", ["en", "rm", "de", "fr"])
def test_the_rules_page_has_every_anchor_the_help_links_to(client: Client, language: str) -> None:
    with translation.override(language):
        page = client.get(reverse("games:rules")).content.decode()
    for anchor in (*RULES_SUBSECTIONS, "buob", "narr"):
        assert page.count(f'id="{anchor}"') == 1, (language, anchor)
    helper = (ROOT_JS / "views" / "help.js").read_text()
    for anchor in (*RULES_SUBSECTIONS, "buob", "narr"):
        assert f'"{anchor}"' in helper, anchor

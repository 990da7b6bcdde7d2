"""'Play a single legal card by itself' (issue #24 item 15): off for every new player, saved
through a small CSRF-guarded endpoint by the signed-in player for themselves only, shown and
saved on the profile page next to the table sounds, handed to the table's script and offered
in the room drawer; anonymous visitors are refused. Bad input is a coded, translated refusal
that changes nothing."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.forms import ProfileForm
from accounts.models import User
from games.text.errors import message_for
from games.text.table import early_strings
from tests.accounts.test_table_sounds import signed_in, table_config
from tests.support.tables import seat_table

pytestmark = pytest.mark.django_db


def url(language: str = "en") -> str:
    with translation.override(language):
        return reverse("games:play_single_card")


def post(client: Client, body: Any, *, token: bool = True, language: str = "en",
         content_type: str = "application/json") -> Any:
    headers = {"X-CSRFToken": client.cookies["csrftoken"].value} if token else {}
    data = json.dumps(body) if content_type == "application/json" else body
    return client.post(url(language), data, content_type=content_type, headers=headers)


def test_the_option_is_off_for_a_new_player(make_user: Any) -> None:
    assert make_user("mia").play_single_card is False


def test_a_player_turns_the_option_on_and_off(make_user: Any, password: str) -> None:
    mia = make_user("mia")
    client = signed_in(mia, password)
    response = post(client, {"play_single_card": True})
    assert response.status_code == 200
    assert response.json() == {"play_single_card": True}
    mia.refresh_from_db()
    assert mia.play_single_card is True
    assert post(client, {"play_single_card": False}).json() == {"play_single_card": False}
    mia.refresh_from_db()
    assert mia.play_single_card is False


def test_a_post_without_the_csrf_token_is_refused(make_user: Any, password: str) -> None:
    mia = make_user("mia")
    client = signed_in(mia, password)
    assert post(client, {"play_single_card": True}, token=False).status_code == 403
    mia.refresh_from_db()
    assert mia.play_single_card is False


def test_a_player_saves_their_own_choice_only(make_user: Any, password: str) -> None:
    mia, ursina = make_user("mia"), make_user("ursina")
    client = signed_in(mia, password)
    assert post(client, {"play_single_card": True, "user": ursina.pk}).status_code == 200
    mia.refresh_from_db()
    ursina.refresh_from_db()
    assert (mia.play_single_card, ursina.play_single_card) == (True, False)


def test_the_sounds_endpoint_does_not_change_this_option(make_user: Any, password: str) -> None:
    mia = make_user("mia")
    client = signed_in(mia, password)
    response = client.post(reverse("games:table_sounds"), json.dumps({"play_single_card": True}),
                           content_type="application/json",
                           headers={"X-CSRFToken": client.cookies["csrftoken"].value})
    assert response.status_code == 400
    assert response.json()["code"] == "MISSING_FIELD"
    mia.refresh_from_db()
    assert (mia.play_single_card, mia.table_sounds) == (False, False)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_an_anonymous_visitor_is_refused_in_their_language(language: str) -> None:
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("games:home"))
    response = post(client, {"play_single_card": True}, language=language)
    assert response.status_code == 401
    body = response.json()
    assert body["code"] == "NOT_AUTHENTICATED"
    with translation.override(language):
        assert body["message"] == message_for("NOT_AUTHENTICATED")


@pytest.mark.parametrize(("body", "content_type", "status", "code"), [
    ({"play_single_card": "yes"}, "application/json", 400, "INVALID_FIELD"),
    ({"play_single_card": 1}, "application/json", 400, "INVALID_FIELD"),
    ({"play_single_card": None}, "application/json", 400, "INVALID_FIELD"),
    ({"table_sounds": True}, "application/json", 400, "MISSING_FIELD"),
    ([True], "application/json", 400, "MISSING_FIELD"),
    ("x" * 2000, "application/json", 413, "MESSAGE_TOO_LARGE"),
    ("{not json", "application/json", 400, "MALFORMED_MESSAGE"),
    ("play_single_card=1", "application/x-www-form-urlencoded", 415, "UNSUPPORTED_MEDIA_TYPE"),
], ids=["string", "number", "null", "missing", "list", "large", "malformed", "form"])
def test_bad_input_is_a_coded_refusal_that_changes_nothing(
        make_user: Any, password: str, body: Any, content_type: str, status: int,
        code: str) -> None:
    mia = make_user("mia")
    client = signed_in(mia, password)
    headers = {"X-CSRFToken": client.cookies["csrftoken"].value}
    data = json.dumps(body) if isinstance(body, dict | list) else body
    response = client.post(url(), data, content_type=content_type, headers=headers)
    assert response.status_code == status
    assert response.json()["code"] == code
    assert response.json()["message"]
    mia.refresh_from_db()
    assert mia.play_single_card is False


def test_only_post_is_allowed(make_user: Any, password: str) -> None:
    client = signed_in(make_user("mia"), password)
    assert client.get(url()).status_code == 405


def test_the_profile_form_has_it_next_to_the_sounds() -> None:
    fields = list(ProfileForm.base_fields)
    assert fields.index("play_single_card") == fields.index("table_sounds") + 1


def test_the_profile_page_shows_and_saves_the_choice(make_user: Any, password: str) -> None:
    mia = make_user("mia", preferred_language="de")
    client = signed_in(mia, password)
    page = client.get("/de/accounts/profile/").content.decode()
    assert 'name="play_single_card"' in page
    assert "Eine einzige erlaubte Karte von selbst spielen" in page
    token = client.cookies["csrftoken"].value
    response = client.post("/de/accounts/profile/", {
        "display_name": "Mia", "email": mia.email, "preferred_language": "de",
        "play_single_card": "on", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    mia.refresh_from_db()
    assert (mia.play_single_card, mia.table_sounds) == (True, False)
    page = client.get("/de/accounts/profile/").content.decode()
    assert re.search(r'<input[^>]*name="play_single_card"[^>]*checked', page)


def test_the_room_page_hands_the_choice_to_the_script_and_the_drawer(
        owner: Any, players: list[Any], password: str) -> None:
    room = seat_table(owner, players, None, name="Stiva")
    owner.play_single_card = True
    owner.save(update_fields=["play_single_card"])
    client = signed_in(owner, password)
    page = client.get(room.get_absolute_url()).content.decode()
    config = table_config(page)
    assert config["single_card"] is True
    assert config["single_card_url"] == reverse("games:play_single_card")
    box = re.search(r'<input[^>]*id="play-single-card"[^>]*>', page)
    assert box and "checked" in box.group(0)
    anonymous_page = Client().get(room.get_absolute_url()).content.decode()
    anonymous = table_config(anonymous_page)
    assert (anonymous["single_card"], anonymous["single_card_url"]) == (None, None)
    assert 'id="play-single-card"' not in anonymous_page
    german = client.get(f"/de/rooms/{room.code}/").content.decode()
    assert "Eine einzige erlaubte Karte von selbst spielen" in german
    assert "Dein Spiel" in german


def test_deleting_an_account_forgets_the_choice(make_user: Any) -> None:
    mia: User = make_user("mia", play_single_card=True)
    mia.anonymise()
    mia.refresh_from_db()
    assert mia.play_single_card is False


@pytest.mark.parametrize("language", ["rm", "de", "fr"])
def test_the_early_choice_strings_are_translated(language: str) -> None:
    with translation.override("en"):
        en = early_strings()
    with translation.override(language):
        s = early_strings()
    for key, text in s.items():
        assert text and text != en[key], (language, key)
        assert ("%(card)s" in text) == ("%(card)s" in en[key]), (language, key)

"""Trust, issue #13 item 11: names shown to other players are plain text — no NUL (which
PostgreSQL cannot store), no lone surrogate (a SERVER_ERROR before), no bidi override — through
every door that takes one: the websocket, the API, the forms and the services."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.forms import ProfileForm
from accounts.validators import is_plain_text
from games import services
from games.forms import CreateRoomForm
from games.live.protocol import ProtocolError, parse

pytestmark = pytest.mark.django_db

BAD = ["Stiva\x00", "Stiva\ud800", "\u202eavitS", "a\u2066b", "tab\there"]
GOOD = ["Stiva da Glion", "Chasa Cadi 🂡", "Sut-Sassiala", "Mustér (2)", "👩‍👩‍👧 table"]


@pytest.mark.parametrize("name", GOOD)
def test_ordinary_names_are_plain_text(name):
    assert is_plain_text(name)


@pytest.mark.parametrize("name", BAD)
def test_a_lone_surrogate_nul_or_bidi_override_in_a_room_name_over_the_socket(name):
    frame = json.dumps({"type": "set_options", "action_id": "n-1", "expected_version": 0,
                        "name": name})
    with pytest.raises(ProtocolError) as refused:
        parse(frame)
    assert refused.value.code == "INVALID_FIELD"


@pytest.mark.parametrize("name", BAD)
def test_a_bad_room_name_through_the_api_is_invalid_field(owner, password, name):
    client = Client()
    client.force_login(owner)
    body = json.dumps({"name": name})
    response = client.post("/api/rooms", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "INVALID_FIELD"


@pytest.mark.parametrize("name", BAD)
def test_a_bad_name_is_refused_by_the_forms_and_the_services(owner, name):
    form = CreateRoomForm(data={"name": name, "visibility": "public", "team": "A"})
    assert not form.is_valid() and "name" in form.errors
    profile = ProfileForm(data={"display_name": name, "preferred_language": "rm"},
                          instance=owner)
    assert not profile.is_valid() and "display_name" in profile.errors
    with pytest.raises(services.ServiceError) as refused:
        services.create_room(owner, name=name)
    assert refused.value.code == "INVALID_FIELD"

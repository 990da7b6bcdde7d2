"""Trust, issue #25 item 10: the blocked-word list is not bypassed by invisible or look-alike
characters, a message or a name of invisible characters is refused, and a character may carry
only a few combining marks. Text is NFKC-normalised and loses its default-ignorable characters
before it is matched and stored (accounts/validators.py)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.forms import ProfileForm
from accounts.validators import has_visible, is_showable, normalise
from games import services
from games.forms import CreateRoomForm
from games.live.protocol import ProtocolError, parse
from games.models import BlockedWord, TalkMessage
from games.talk.errors import TalkError
from games.talk.speech import say

pytestmark = pytest.mark.django_db

# Each of these held "Idiot" and reached the table before.
BYPASSES = ["du I\u200bdiot", "du Idi\u00adot", "du \uff29\uff44\uff49\uff4f\uff54",
            "du I\u2060d\ufeffiot", "du Id\u034fiot", "du Idi\U000e0020ot"]
# Each draws nothing (or only spaces): a zero-width space, a word joiner, Hangul fillers, a
# blank Braille cell, a combining mark on nothing, a tag character.
INVISIBLE = ["\u200b", "\u200b\u200c\u200d\u2060", "\u3164\u3164", "\u2800", "\u115f",
             "\u0300", " \ufeff ", "\U000e0020"]
ZALGO = "Z\u0300\u0301\u0302\u0303\u0304a\u0305\u0306l\u0307go"


@pytest.fixture
def room(owner):
    BlockedWord.objects.create(language="de", word="Idiot")
    return services.create_room(owner)


@pytest.mark.parametrize("text", BYPASSES)
def test_the_blocked_word_list_reads_through_invisible_and_full_width_characters(
        room, owner, text):
    with pytest.raises(TalkError) as refused:
        say(room.code, owner, text=text)
    assert refused.value.code == "TALK_BLOCKED_WORD"
    assert not TalkMessage.objects.exists()


@pytest.mark.parametrize("text", INVISIBLE)
def test_a_message_of_invisible_characters_is_empty(room, owner, text):
    with pytest.raises(TalkError) as refused:
        say(room.code, owner, text=text)
    assert refused.value.code == "TALK_EMPTY"
    assert not TalkMessage.objects.exists()


def test_a_stack_of_combining_marks_is_refused_and_ordinary_accents_are_not(room, owner):
    with pytest.raises(TalkError) as refused:
        say(room.code, owner, text=ZALGO)
    assert refused.value.code == "TEXT_TOO_MANY_MARKS"
    # Romansh, German, French and Vietnamese (two marks on one letter, decomposed) pass.
    said = say(room.code, owner, text="Bun di! Grüezi, ça va? Vie\u0323\u0302t")
    assert said.text == "Bun di! Grüezi, ça va? Việt"


def test_what_is_stored_is_normalised_without_invisible_characters(room, owner):
    said = say(room.code, owner, text="bun\u200b di \uff21 \u2460")
    assert TalkMessage.objects.get(pk=said.pk).text == "bun di A 1"


def test_emoji_keep_their_joiners():
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"
    assert normalise(family) == family
    assert normalise("\u2764\ufe0f") == "\u2764\ufe0f"
    assert normalise("a\u200db") == "ab"  # between letters a joiner is only a hiding place
    assert has_visible(family) and is_showable("👩‍👩‍👧 table")


@pytest.mark.parametrize("name", INVISIBLE + [ZALGO])
def test_an_invisible_or_zalgo_name_is_refused_by_every_door(owner, name):
    form = CreateRoomForm(data={"name": name, "visibility": "public", "team": "A"})
    assert not form.is_valid() and "name" in form.errors
    profile = ProfileForm(data={"display_name": name, "preferred_language": "rm"},
                          instance=owner)
    assert not profile.is_valid() and "display_name" in profile.errors
    with pytest.raises(services.ServiceError) as refused:
        services.create_room(owner, name=name)
    assert refused.value.code == "INVALID_FIELD"
    frame = json.dumps({"type": "set_options", "action_id": "n-1", "expected_version": 0,
                        "name": name})
    with pytest.raises(ProtocolError):
        parse(frame)
    client = Client()
    client.force_login(owner)
    response = client.post("/api/rooms", json.dumps({"name": name}),
                           content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "INVALID_FIELD"


def test_a_display_name_and_a_room_name_are_stored_normalised(owner):
    profile = ProfileForm(data={"display_name": "Men\u200bga \uff21", "preferred_language": "rm",
                                "email": owner.email}, instance=owner)
    assert profile.is_valid(), profile.errors
    profile.save()
    owner.refresh_from_db()
    assert owner.display_name == "Menga A"
    room = services.create_room(owner, name="Stiva\u2060 da Glion")
    assert room.name == "Stiva da Glion"

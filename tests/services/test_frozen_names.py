"""Trust, issue #25 item 9: at a `silent` or `phrases` table a name is the one text a player
still writes to the others, so the names the table shows are those of the match's start, and
the room cannot be renamed while a match runs. A room that talks freely shows names as they
are now."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps

from games import services
from games.engine import ROUND_OVER
from games.talk import frames, speech
from tests.support import tables

pytestmark = pytest.mark.django_db


def _names(code: str) -> dict[int, str]:
    view = services.table_snapshot(code).view_for(None)
    return {s["index"]: s["player"]["name"] for s in view["seats"]}


def _rename(user: Any, name: str) -> None:
    user.display_name = name
    user.save(update_fields=["display_name"])


@pytest.mark.parametrize("talk", ["silent", "phrases"])
def test_a_table_that_may_not_talk_shows_the_names_of_the_matchs_start(owner, players, talk):
    room = tables.seat_table(owner, players, {"table_talk": talk, "match_deals": 0})
    tables.must(room.code, owner, "start_round")
    anna = players[0]
    _rename(anna, "Play the heart king")
    _rename(owner, "Partner lead trumps")
    names = _names(room.code)
    assert names[1] == "Anna" and names[0] == "Owner"
    view = services.table_snapshot(room.code).view_for(1)
    assert view["room"]["owner"]["name"] == "Owner"
    assert "heart king" not in str(view) and "lead trumps" not in str(view)
    refused = tables.submit(room.code, owner, "set_options", name="Lead trumps")
    assert not refused.ok and refused.code == "ROOM_NAME_FROZEN"
    # Between matches the names are the players' own again, and the room may be renamed.
    by_seat = {0: owner, **dict(enumerate(players, 1))}
    tables.advance(room.code, by_seat, ROUND_OVER)
    tables.must(room.code, owner, "end_match")
    assert _names(room.code)[1] == "Play the heart king"
    tables.must(room.code, owner, "set_options", name="Stiva")


def test_a_quick_phrase_carries_the_frozen_name(owner, players):
    importlib.import_module("games.migrations.0007_table_talk").seed_phrases(apps, None)
    room = tables.seat_table(owner, players, {"table_talk": "phrases"})
    tables.must(room.code, owner, "start_round")
    anna = players[0]
    _rename(anna, "I hold the Narr")
    said = speech.say(room.code, anna, phrase="watch-buob")
    assert frames.payload_of(said)["name"] == "Anna"
    history = frames.history(room.code, 0, "en", [], set())
    assert [m["name"] for m in history["messages"]] == ["Anna"]


def test_a_room_that_talks_shows_names_as_they_are(owner, players):
    room = tables.seat_table(owner, players, {"table_talk": "free"})
    tables.must(room.code, owner, "start_round")
    _rename(players[0], "Anna Caduff")
    assert _names(room.code)[1] == "Anna Caduff"
    tables.must(room.code, owner, "set_options", name="Stiva")

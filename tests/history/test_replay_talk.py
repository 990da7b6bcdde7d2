"""Table talk is kept with the match and shown in its replay at the moment it was said
(issue #17 item 1): each message carries the table version, deal and trick; a hidden message
and the spectators' chat are not part of the replay."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.utils import translation

from games.engine import PLAY, ROUND_OVER
from games.history import replay
from games.models import Room, TalkMessage
from games.talk import moderation, speech
from tests.support import tables

pytestmark = [pytest.mark.django_db]


def test_the_replay_shows_the_players_talk_at_its_version(owner, players, spectator, make_user):
    importlib.import_module("games.migrations.0007_table_talk").seed_phrases(apps, None)
    room = tables.seat_table(owner, players, {"match_deals": 0})
    by_seat = {0: owner, **dict(enumerate(players, 1))}
    early = speech.say(room.code, owner, text="good luck, partner")  # in the lobby
    tables.advance(room.code, by_seat, PLAY)
    said_at = tables.version(room.code)
    anna = speech.say(room.code, players[0], phrase="watch-buob")
    spy = speech.say(room.code, spectator, text="Curdin holds the world")
    rude = speech.say(room.code, players[1], text="rude")
    moderation.hide(rude, make_user("staff", is_staff=True))
    tables.advance(room.code, by_seat, ROUND_OVER)
    tables.must(room.code, owner, "end_match")
    match = Room.objects.get(code=room.code).current_match
    assert (anna.version, anna.deal, anna.seat, anna.match_id) == (said_at, 1, 1, match.pk)
    assert spy.audience == "spectators" and spy.seat is None
    # The lobby talk was said before the match: it is the room's, not the match's.
    assert early.match_id is None
    with translation.override("de"):
        data = replay.replay_data(match)
    assert data["talk"] == [{"version": anna.version, "seat": 1,
                             "name": players[0].public_name, "text": "Achtung, BUOB!"}]
    # The frame of that moment: the last action at or before the version it was said at.
    versions = [f["version"] for f in data["frames"]]
    assert versions == sorted(versions)
    at = max(i for i, v in enumerate(versions) if v <= anna.version)
    assert data["frames"][at]["phase"] == PLAY
    assert TalkMessage.objects.filter(match=match).count() == 3  # all kept, one hidden


def test_the_replay_hides_the_words_of_a_muted_or_blocked_player_as_the_table_does(
        owner, players):
    """Issue #25 item 8: the replay applies the reader's mutes and blocks (either way) to the
    talk, as the table does; another reader still sees everything said."""
    from django.test import Client
    from django.urls import reverse

    from games.talk import blocks

    room = tables.seat_table(owner, players, {"match_deals": 0})
    by_seat = {0: owner, **dict(enumerate(players, 1))}
    anna, benedetg, curdin = players
    tables.advance(room.code, by_seat, PLAY)
    for who, text in ((anna, "from anna"), (benedetg, "from benedetg"),
                      (curdin, "from curdin")):
        speech.say(room.code, who, text=text)
    tables.advance(room.code, by_seat, ROUND_OVER)
    tables.must(room.code, owner, "end_match")
    match = Room.objects.get(code=room.code).current_match
    moderation.set_mute(owner, anna.pk, True)  # the owner muted anna
    blocks.block(owner, benedetg.pk)  # the owner blocked benedetg
    blocks.block(curdin, anna.pk)  # curdin blocked anna
    said = {u.pk: [m["text"] for m in replay.replay_data(match, u.pk)["talk"]]
            for u in (owner, anna, benedetg, curdin)}
    assert said[owner.pk] == ["from curdin"]
    assert said[anna.pk] == ["from anna", "from benedetg"]  # curdin blocked her: hidden too
    assert said[benedetg.pk] == ["from anna", "from benedetg", "from curdin"]
    assert said[curdin.pk] == ["from benedetg", "from curdin"]
    # Through the door the replay viewer reads.
    web = Client()
    web.force_login(owner)
    data = web.get(reverse("games:match_replay", args=[match.pk])).json()
    assert [m["text"] for m in data["talk"]] == ["from curdin"]

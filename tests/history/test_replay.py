"""A finished match downloads as `troccas-transcript/1` (TRANSCRIPT.md), built from the action
log; `python -m games.engine replay` reproduces exactly what the database holds (issue #7).

Besides the matches played here, tests/support/fixtures.py replays the transcript of every match
any test in tests/services, tests/live, tests/talk or tests/history plays and compares it with
the database the same way.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.engine import CARD_IDS
from games.history import replay as history
from games.models import Match, MatchStatus, RoundAction
from tests.support.live import cards_in
from tests.support.matches import check_transcript, play_match, url
from tests.support.tables import advance, seat_table

pytestmark = pytest.mark.django_db


# Three whole matches (about 1 s each): the default rules; timers, Bock and a free scart; the
# king_team BUOB rule over 8 deals. Random play for its own sake is tests/engine's.
@pytest.mark.parametrize(("seed", "options"), [
    (1, None),
    (2, {"turn_seconds": 15, "reveal_seconds": 2, "bock": True, "scart_forbidden": "none"}),
    (7, {"turn_seconds": 20, "match_deals": 8, "buob_caller": "king_team"}),
])
def test_a_full_match_replays_to_the_stored_state(owner, players, seeded_decks, seed, options):
    seeded_decks(seed)
    match = play_match(owner, players, random.Random(seed), options)
    assert match.status == MatchStatus.FINISHED
    result = check_transcript(match)  # through `python -m games.engine replay -`
    assert len(result["deals"]) == match.options["match_deals"] == match.deals_played
    doc = history.transcript(match)
    kinds = {a["type"] for a in doc["actions"]}
    # System actions are in the log and in the transcript, without a seat.
    assert "end_reveal" in kinds
    for a in doc["actions"]:
        if a["type"] in ("end_reveal", "turn_timeout", "start_round", "regame"):
            assert "seat" not in a
        if a["type"] in ("start_round", "regame"):
            assert sorted(a["deck"]) == sorted(CARD_IDS)
    assert doc["first_dealer"] == 0  # the owner's seat deals first
    assert doc["options"] == match.options


def test_the_played_matches_exercise_buob_narr_and_timers(owner, players, seeded_decks):
    seeded_decks(2)
    play_match(owner, players, random.Random(2),
               {"turn_seconds": 15, "reveal_seconds": 2}, timeouts=0.1)
    kinds = set(RoundAction.objects.values_list("kind", flat=True))
    assert {"call_buob", "turn_timeout", "end_reveal", "regame"} <= kinds


def test_rejected_actions_are_not_in_the_transcript(owner, players, seeded_decks):
    seeded_decks(3)
    room = seat_table(owner, players)
    advance(room.code, {0: owner, 1: players[0], 2: players[1], 3: players[2]}, "PLAY")
    from tests.support.tables import submit

    # Seat 2 is not on turn: refused, and not logged.
    assert not submit(room.code, players[1], "play_card", card="C1").ok
    match = Match.objects.get(room=room)
    doc = history.transcript(match)
    assert [a["type"] for a in doc["actions"]][:1] == ["start_round"]
    assert not any(a["type"] == "play_card" for a in doc["actions"])
    check_transcript(match)


def test_download_is_a_json_attachment(client: Client, owner, players, outsider, seeded_decks):
    seeded_decks(4)
    match = play_match(owner, players, random.Random(4))
    client.force_login(outsider)  # finished matches are public to signed-in players
    response = client.get(url("games:match_transcript", match.pk))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    doc = json.loads(response.content)
    assert doc["format"] == "troccas-transcript/1"
    assert doc == json.loads(json.dumps(history.transcript(match)))


def test_transcript_needs_a_signed_in_player(client: Client, owner, players, seeded_decks):
    seeded_decks(4)
    match = play_match(owner, players, random.Random(4))
    response = client.get(url("games:match_transcript", match.pk))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_running_match_has_no_transcript(client: Client, owner, players, seeded_decks):
    seeded_decks(5)
    room = seat_table(owner, players)
    advance(room.code, {0: owner, 1: players[0], 2: players[1], 3: players[2]}, "PLAY")
    match = Match.objects.get(room=room)
    check_transcript(match)  # the log replays to the running state too
    client.force_login(owner)
    response = client.get(url("games:match_transcript", match.pk))
    assert response.status_code == 403
    assert cards_in(json.loads(response.content)) == set()


def test_unknown_match_is_404(client: Client, owner):
    client.force_login(owner)
    assert client.get(url("games:match_transcript", 999999)).status_code == 404


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
async def test_the_live_deal_replays_to_the_stored_state(make_user: Any, spectator: Any,
                                                         seeded_decks: Any) -> None:
    """The deal of test_live_deal.py — four tabs over websockets, BUOB and a Narr debt —
    then a regame: the transcript of the (running) match reproduces the database."""
    from tests.live.test_consumers_deal import _open_table, _play_deal

    seeded_decks(1)
    table = await _open_table(make_user, spectator, {"reveal_seconds": 2})
    await table.act(table.clients[0], "start_round")
    await _play_deal(table, random.Random(11))
    await table.act(table.clients[2], "regame")
    for c in table.everyone:
        await c.close()
    match = await sync_to_async(Match.objects.get)()
    result = await sync_to_async(check_transcript)(match)
    assert result["phase"] == "DEALING" and len(result["deals"]) == 2
    assert result["deals"][0]["narr_debt"] is not None
    assert any(t["buob"] for t in result["deals"][0]["tricks"])

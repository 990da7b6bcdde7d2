"""Match history, the match page and the replay (issue #7).

The replay is rebuilt from the action log through the engine and must land exactly on the
stored states; a running match's pages and endpoints carry no card of any hand; every page
renders in every language; list pages run a constant number of queries."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import CARD_IDS, from_json, legal_cards, team_of
from games.engine.cards import ids_of
from games.history import replay as history
from games.models import Match, MatchStatus, Room, Round, RoundAction
from tests import personas
from tests.support.matches import play_match, url
from tests.support.tables import advance, must, seat_table, state

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "rm", "de", "fr"]
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])(?:[CRSB](?:10|[1-9]|J|N|Q|K)|T(?:1[0-9]|2[01]|[1-9])"
                        r"|NARR)(?![A-Za-z0-9_-])")


def _seats(owner: Any, players: list[Any]) -> dict[int, Any]:
    return personas.by_seat(owner, players)


@pytest.fixture
def finished(owner, players, seeded_decks) -> Match:
    seeded_decks(21)
    return play_match(owner, players, random.Random(21))


@pytest.fixture
def running(owner, players, seeded_decks) -> Room:
    """A match in trick play, some tricks done, its first deal not over."""
    seeded_decks(22)
    room = seat_table(owner, players)
    advance(room.code, _seats(owner, players), "PLAY")
    for _ in range(10):  # a few cards more: completed tricks, a trick on the table
        st = state(room.code)
        turn = st.deal.turn
        must(room.code, _seats(owner, players)[turn], "play_card",
             card=legal_cards(st, turn)[0])
    return room


def _hidden_cards(room: Room) -> set[str]:
    """The cards of the running deal nobody outside a hand may see: every hand, the undealt
    rest of the deck and the scart."""
    rnd = Round.objects.filter(match__room=room).order_by("-number").first()
    deal = from_json(rnd.engine_state).deal
    hidden: set[str] = set()
    for h in deal.hands:
        hidden |= set(ids_of(h))
    dealt = {0: 0, 1: 24, 2: 48, 3: 78}[deal.passes]
    hidden |= set(rnd.deck[dealt:])
    if deal.scart is not None:
        hidden |= {CARD_IDS[c] for c in deal.scart}
    return hidden


# --- the replay -------------------------------------------------------------------------------

def test_replay_lands_on_every_stored_state(finished: Match):
    """Replaying the log through the engine reaches, at each deal's last action, exactly the
    engine state stored for that deal."""
    steps = history.replay_states(finished)
    assert len(steps) == RoundAction.objects.filter(round__match=finished).count()
    last_of: dict[int, Any] = {}
    for la, st in steps:
        last_of[la.row.round_id] = st
    for rnd in Round.objects.filter(match=finished):
        assert last_of[rnd.pk] == from_json(rnd.engine_state)
    assert steps[-1][1].phase == "MATCH_OVER"


def test_replay_frames_step_card_by_card(client: Client, finished: Match, outsider):
    client.force_login(outsider)  # finished matches are public to signed-in players
    response = client.get(url("games:match_replay", finished.pk))
    assert response.status_code == 200
    data = json.loads(response.content)
    frames = data["frames"]
    assert data["players"] == [p.public_name for p in finished.players]
    plays = [f for f in frames if f["action"]["type"] in ("play_card", "turn_timeout")
             and f["phase"] != "DEALING" and f["phase"] != "SCART"]
    assert len(plays) >= 4 * 76  # every card of every deal is one step
    first = frames[0]
    assert first["action"]["type"] == "start_round" and first["phase"] == "DEALING"
    assert "deck" not in first["action"]
    assert first["hands"] == [[], [], [], []]
    assert frames[-1]["phase"] == "MATCH_OVER"
    assert frames[-1]["totals"] == [finished.total_a, finished.total_b]
    for f in frames:  # every card is somewhere: a hand, the scart, the trick or a pile
        held = sum(len(h) for h in f["hands"])
        if f["phase"] == "PLAY":
            on_table = len(f["trick"]["cards"]) if f["trick"] and f["trick"]["winner"] is None \
                else 0
            assert held + sum(f["piles"]) + 2 + on_table == 78
        elif f["phase"] in ("ROUND_OVER", "MATCH_OVER"):
            assert held == 0 and sum(f["piles"]) == 78
    # A completed trick stays on show for the step that completed it.
    fourth = next(f for f in frames if f["trick"] and len(f["trick"]["cards"]) == 4)
    assert fourth["trick"]["winner"] is not None


def test_match_page_of_a_finished_match(client: Client, finished: Match, owner):
    client.force_login(owner)
    html = client.get(url("games:match", finished.pk)).content.decode()
    assert 'id="replay"' in html and "js/replay.js" in html
    assert url("games:match_transcript", finished.pk) in html
    assert '<svg class="score-chart"' in html
    assert html.count("<polyline") == 2
    for rnd in Round.objects.filter(match=finished):
        assert f"A {rnd.points_a} : B {rnd.points_b}" in html
    # No external resources: scripts, styles and images are our own static files.
    assert not re.search(r'<(script|img)[^>]* src="(https?:)?//', html)
    assert not re.search(r'<link rel="stylesheet" href="(https?:)?//', html)
    # Seats are numbered 1 to 4, as the table numbers them (issue #24 item 14).
    for n, team in ((1, "A"), (2, "B"), (3, "A"), (4, "B")):
        assert f"Seat {n} (Team {team})" in html
    assert "Seat 0 (" not in html


def test_the_replay_draws_the_tables_cards_and_steps_by_trick_and_deal(
        client: Client, finished: Match, owner):
    client.force_login(owner)
    page = client.get(url("games:match", finished.pk))
    html = page.content.decode()
    # cards.js is mapped to its static URL like the viewer's other imports.
    assert re.search(r'"[^"]*js/cards\.js": "[^"]*js/cards[^"]*\.js"', html)
    cards = json.loads(re.search(r'<script id="replay-cards" type="application/json">(.*?)'
                                 r'</script>', html, re.S).group(1))
    assert cards["sprite"].endswith(".svg") and len(cards["names"]) == 78
    for go in ("prev-deal", "prev-trick", "prev", "next", "next-trick", "next-deal"):
        assert f'data-go="{go}"' in html
    labels = page.context["replay_labels"]
    assert set(labels["mode"]) == {"forced", "deferred", "self"}
    assert "%(caller)s" in labels["buob_called"] and "%(jack)s" in labels["buob_exchange"]


def test_replay_module_has_the_keyboard_controls():
    from pathlib import Path

    js = (Path(__file__).resolve().parents[2] / "static/js/replay.js").read_text()
    for key in ('"ArrowRight"', '"ArrowLeft"', '"Home"', '"End"', '"0", "1", "2", "3"', '"a"',
                '"ArrowUp"', '"ArrowDown"', '"PageUp"', '"PageDown"'):
        assert key in js
    # The table's card drawing, not text chips (issue #14 item 5).
    assert 'import { renderBack, renderCard } from "./cards.js"' in js
    assert "http://" not in js and "https://" not in js
    assert "export class Replay" in js


# --- hidden information ----------------------------------------------------------------------

def test_a_running_match_shows_no_hidden_card(client: Client, running: Room, outsider, owner):
    hidden = _hidden_cards(running)
    assert len(hidden) > 20
    match = Match.objects.get(room=running)
    for who in (outsider, owner):
        client.force_login(who)
        page = client.get(url("games:match", match.pk))
        assert page.status_code == 200
        html = page.content.decode()
        assert 'id="replay"' not in html
        assert not set(CARD_TOKEN.findall(html)) & hidden, set(CARD_TOKEN.findall(html)) & hidden
        for name in ("games:match_replay", "games:match_transcript"):
            response = client.get(url(name, match.pk))
            assert response.status_code == 403
            assert not set(CARD_TOKEN.findall(response.content.decode())) & hidden
        listing = client.get(url("games:matches")).content.decode()
        assert not set(CARD_TOKEN.findall(listing)) & hidden
    assert history.is_public(match) is False
    with pytest.raises(PermissionError):
        history.replay_data(match)


def test_a_running_match_page_summarises_public_facts(client: Client, running: Room, owner):
    match = Match.objects.get(room=running)
    client.force_login(owner)
    html = client.get(url("games:match", match.pk)).content.decode()
    assert "in progress" in html
    assert "No deal has been scored yet." in html


# --- the history list ------------------------------------------------------------------------

def _bulk_matches(owner: Any, players: list[Any], n: int, room: Room | None = None) -> Room:
    room = room or Room.objects.create(owner=owner, name=f"Stiva {n}")
    start = Match.objects.filter(room=room).count()
    now = timezone.now()
    Match.objects.bulk_create([
        Match(room=room, number=start + i + 1, status=MatchStatus.FINISHED,
              player_0=owner, player_1=players[0], player_2=players[1], player_3=players[2],
              total_a=150 + i, total_b=138 - i, winner=team_of(i),
              started=now - timedelta(days=i), finished=now - timedelta(days=i) + timedelta(
                  hours=1))
        for i in range(n)])
    return room


def test_history_list_runs_a_constant_number_of_queries(client: Client, owner, players,
                                                        django_assert_num_queries: Any):
    client.force_login(owner)
    room = _bulk_matches(owner, players, 1)
    client.get(url("games:matches"))
    with CaptureQueriesContext(connection) as one:
        response = client.get(url("games:matches"))
    assert len(response.context["rows"]) == 1
    _bulk_matches(owner, players, 59, room)
    with django_assert_num_queries(len(one)):
        response = client.get(url("games:matches"))
    assert len(response.context["rows"]) == 50  # 60 matches, 50 per page
    with django_assert_num_queries(len(one)):
        response = client.get(url("games:matches") + "?page=2&result=win")
    assert len(response.context["rows"]) == 0 or response.context["page"].number == 1


def test_history_filters(client: Client, owner, players, make_user, seeded_decks):
    other = make_user("gion")
    _bulk_matches(owner, players, 6)  # team A wins every other one
    # A second room with another partner: owner and `other` as team A.
    room2 = Room.objects.create(owner=owner, name="Ustria")
    now = timezone.now()
    Match.objects.create(room=room2, number=1, status=MatchStatus.FINISHED, player_0=owner,
                         player_1=players[0], player_2=other, player_3=players[2],
                         total_a=144, total_b=144, winner="draw", started=now - timedelta(
                             days=40), finished=now - timedelta(days=40))
    client.force_login(owner)
    base = url("games:matches")

    def rows(query: str) -> list[dict[str, Any]]:
        response = client.get(base + query)
        assert response.status_code == 200
        return response.context["rows"]

    assert len(rows("")) == 7
    assert {r["result"] for r in rows("?result=win")} == {"win"} and len(rows("?result=win")) == 3
    assert len(rows("?result=loss")) == 3
    assert [r["result"] for r in rows("?result=draw")] == ["draw"]
    assert {r["partner"].pk for r in rows(f"?partner={other.pk}")} == {other.pk}
    assert len(rows(f"?partner={players[1].pk}")) == 6
    assert {r["match"].room_id for r in rows(f"?room={room2.pk}")} == {room2.pk}
    # Dates as the site's time zone reads them (the filter's): UTC's date is a day off in
    # the hour after midnight there.
    recent = timezone.localdate(now - timedelta(days=2)).isoformat()
    assert len(rows(f"?date_from={recent}")) == 3
    old = timezone.localdate(now - timedelta(days=30)).isoformat()
    assert [r["result"] for r in rows(f"?date_to={old}")] == ["draw"]
    # The partner select offers only this player's partners.
    form = client.get(base).context["form"]
    assert {c[0] for c in form.fields["partner"].choices} == {"", players[1].pk, other.pk}
    # The row is from the player's point of view.
    row = rows("?result=win")[0]
    assert row["ours"] > row["theirs"] and row["partner"] == players[1]
    assert set(row["opponents"]) == {players[0], players[2]}
    # Someone else's list does not show these matches.
    client.force_login(make_user("stranger"))
    assert rows("") == []


def test_seat_b_sees_the_match_from_its_side(client: Client, owner, players):
    _bulk_matches(owner, players, 2)
    client.force_login(players[0])  # seat 1, team B
    response = client.get(url("games:matches"))
    rows = response.context["rows"]
    by_number = {r["match"].number: r for r in rows}
    assert by_number[2]["result"] == "win" and by_number[1]["result"] == "loss"
    assert by_number[2]["partner"] == players[2]


# --- access and languages --------------------------------------------------------------------

@pytest.mark.parametrize("name", ["games:matches", "games:standings"])
def test_pages_need_a_signed_in_player(client: Client, name):
    response = client.get(url(name))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_match_pages_need_a_signed_in_player(client: Client, finished: Match):
    for name in ("games:match", "games:match_replay", "games:match_transcript"):
        response = client.get(url(name, finished.pk))
        assert response.status_code == 302 and "/login/" in response["Location"]


def test_unknown_match_is_404(client: Client, owner):
    client.force_login(owner)
    for name in ("games:match", "games:match_replay"):
        assert client.get(url(name, 987654)).status_code == 404


SKIP_LINK = {"en": "Skip to content", "rm": "Siglir al cuntegn", "de": "Zum Inhalt springen",
             "fr": "Aller au contenu"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_renders_in_every_language(client: Client, language, finished: Match):
    # A player without a profile language follows the URL's language.
    player = finished.player_0
    player.preferred_language = ""
    player.save(update_fields=["preferred_language"])
    client.force_login(player)
    pages = [
        url("games:matches", language=language),
        url("games:matches", language=language) + "?result=win&date_from=2020-01-01",
        url("games:match", finished.pk, language=language),
        url("games:standings", language=language),
        url("games:standings", language=language) + "?view=pairs&sort=buob_calls",
        url("accounts:profile", language=language),
    ]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        html = response.content.decode()
        assert f'<html lang="{language}">' in html
        assert SKIP_LINK[language] in html
    assert len(client.get(pages[0]).context["rows"]) == 1
    assert client.get(url("games:match_replay", finished.pk, language=language)).status_code \
        == 200

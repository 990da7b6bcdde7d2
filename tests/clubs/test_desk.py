"""The director's desk (issue #26 item 6): each action on the rows and on a running table,
the refusals for anyone but the tournament's (or its club's) directors, the audit log's rows
and how the tournament page shows them, the desk's page and JSON doors."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.clubs import desk, membership, results
from games.models import (
    DirectorAction,
    Entrant,
    EntrantStatus,
    Match,
    MatchStatus,
    ResultAdjustment,
    RoundStatus,
    Seat,
    TableOutcome,
    TournamentTable,
)
from games.services.errors import ServiceError
from tests.clubs import tournament_rows as rows
from tests.site.factories import DECK, full_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(make_user: Callable[..., Any]) -> Any:
    return make_user("mengia")


@pytest.fixture
def game(owner: Any, players: list[Any], director: Any) -> dict[str, Any]:
    """A tournament of four individuals over three rounds; round 1 runs at one table, a room
    whose match is under way (trick 2 of deal 1), round 2 is paired, round 3 scheduled."""
    t = rows.tournament(director, rounds=3)
    table = full_table(owner, players)
    seated = [s.user for s in table.seats]  # by seat index
    es = rows.entrants(t, seated)
    r1 = rows.round_of(t, 1, RoundStatus.RUNNING)
    rows.round_of(t, 2, RoundStatus.PAIRED)
    tt = rows.table(r1, 1, es, seated, None, room=table.room)
    return {"t": t, "table": tt, "room": table.room, "match": table.match, "entrants": es,
            "seated": seated}


def _code(call: Callable[[], Any]) -> str:
    with pytest.raises(ServiceError) as caught:
        call()
    return caught.value.code


def test_pause_and_resume_a_table(game: dict[str, Any], director: Any) -> None:
    t, tt, match = game["t"], game["table"], game["match"]
    assert desk.pause(t, director, tt.pk, "Power cut in the hall")
    match.refresh_from_db()
    assert match.paused_at is not None
    snap = services.table_snapshot(game["room"].code)
    assert snap.match is not None and snap.match["paused_at"] is not None
    [row] = desk.desk_tables(tt.round)
    assert row.paused and row.deal == 1
    assert not desk.pause(t, director, tt.pk)  # already paused: nothing new
    assert desk.resume(t, director, tt.pk)
    match.refresh_from_db()
    assert match.paused_at is None
    kinds = list(DirectorAction.objects.filter(tournament=t).values_list("kind", "reason"))
    assert kinds == [("pause", "Power cut in the hall"), ("pause", ""), ("resume", "")]


def test_a_paused_table_lets_no_bot_act(game: dict[str, Any], director: Any) -> None:
    """Anna leads trick 2; a bot takes her seat. Paused, the bot's wake-up plays nothing;
    resumed, it plays."""
    t, tt, room = game["t"], game["table"], game["room"]
    desk.substitute(t, director, tt.pk, 1, bot_level="easy")
    desk.pause(t, director, tt.pk)
    room.refresh_from_db()
    deal = game["match"].rounds.get(number=1)
    assert not services.play_bot_turn(deal.pk, room.version, budget=0.05)
    room.refresh_from_db()
    paused_version = room.version
    desk.resume(t, director, tt.pk)
    room.refresh_from_db()
    assert room.version == paused_version + 1
    assert services.play_bot_turn(deal.pk, room.version, budget=0.05)


def test_substitute_a_person(game: dict[str, Any], director: Any,
                             make_user: Callable[..., Any]) -> None:
    t, tt = game["t"], game["table"]
    newcomer = make_user("gieri")
    away = game["seated"][2]
    desk.substitute(t, director, tt.pk, 2, user=newcomer, reason="Ill")
    assert Seat.objects.get(room=game["room"], index=2).user_id == newcomer.pk
    assert not Seat.objects.filter(room=game["room"], user=away).exists()
    tt.refresh_from_db()
    assert tt.seat_players[2] == newcomer.pk and tt.bot_seats == []
    # The seat keeps its entrant: the newcomer plays for them, and they stay eligible.
    assert tt.seat_entrants[2] == game["entrants"][2].pk
    assert results.prize_eligible(game["entrants"][2])
    assert _code(lambda: desk.substitute(t, director, tt.pk, 1, user=newcomer)) == \
        "ALREADY_SEATED_THERE"


def test_substitute_a_bot_is_flagged(game: dict[str, Any], director: Any) -> None:
    t, tt = game["t"], game["table"]
    desk.substitute(t, director, tt.pk, 3, bot_level="easy")
    tt.refresh_from_db()
    bot = Seat.objects.get(room=game["room"], index=3).user
    assert bot.is_bot and tt.seat_players[3] == bot.pk and tt.bot_seats == [3]
    assert not results.prize_eligible(game["entrants"][3])
    assert _code(lambda: desk.substitute(t, director, tt.pk, 3, bot_level="grandmaster")) == \
        "INVALID_FIELD"


def test_withdraw_an_entrant(game: dict[str, Any], director: Any) -> None:
    t, entrant = game["t"], game["entrants"][1]
    # Round 2 is paired already: the first round they are no longer paired in is 3.
    assert desk.withdraw(t, director, entrant.pk, "Train home") == 3
    entrant.refresh_from_db()
    assert (entrant.status, entrant.out_from_round) == (EntrantStatus.WITHDRAWN, 3)
    assert _code(lambda: desk.withdraw(t, director, entrant.pk)) == "ENTRANT_WITHDRAWN"
    # Still in the standings with what they scored.
    assert entrant.pk in [s.entrant for s in results.standings_of(t)]


def test_repair_refused_once_the_round_started(game: dict[str, Any], director: Any) -> None:
    assert _code(lambda: desk.repair(game["t"], director, 1)) == "ROUND_ALREADY_STARTED"
    assert not DirectorAction.objects.filter(kind="repair").exists()


def test_repair_a_paired_round(game: dict[str, Any], director: Any) -> None:
    rounds = pytest.importorskip("games.clubs.rounds",
                                 reason="the round runner is not installed")
    assert hasattr(rounds, "pair_round")
    desk.repair(game["t"], director, 2, "Late arrival")
    assert DirectorAction.objects.filter(kind="repair", payload={"round": 2}).exists()


def test_adjudicate_ends_the_room_and_scores(game: dict[str, Any], director: Any) -> None:
    t, tt = game["t"], game["table"]
    desk.adjudicate(t, director, tt.pk, 71, 36, "The clock ended")
    tt.refresh_from_db()
    assert (tt.outcome, tt.card_points_a, tt.card_points_b) == (TableOutcome.ADJUDICATED, 71,
                                                                  36)
    assert Match.objects.get(pk=game["match"].pk).status == MatchStatus.ABANDONED
    standing = {s.entrant: s.match_points for s in results.standings_of(t)}
    assert [standing[e.pk] for e in game["entrants"]] == [2, 0, 2, 0]
    assert _code(lambda: desk.adjudicate(t, director, tt.pk, 1, 2)) == \
        "TOURNAMENT_TABLE_FINISHED"
    assert _code(lambda: desk.pause(t, director, tt.pk)) == "TOURNAMENT_TABLE_FINISHED"


def test_enter_a_result_from_a_real_table(game: dict[str, Any], director: Any,
                                          make_user: Callable[..., Any]) -> None:
    t = game["t"]
    people = [make_user(n) for n in ("duri", "flurina", "gion", "ladina")]
    es = rows.entrants(t, people)
    hall = rows.table(t.rounds.get(number=1), 2, es, people, None)
    assert _code(lambda: desk.enter_result(t, director, hall.pk, [[40, "x"]])) == \
        "INVALID_FIELD"
    assert _code(lambda: desk.enter_result(t, director, hall.pk, [])) == "INVALID_FIELD"
    desk.enter_result(t, director, hall.pk, [[45, 33], [20, 58], [61, 17]], "Village hall")
    hall.refresh_from_db()
    assert hall.outcome == TableOutcome.ENTERED
    assert hall.deal_scores == [[45, 33], [20, 58], [61, 17]]
    assert (hall.card_points_a, hall.card_points_b) == (126, 108)
    # A table with no room has nothing to pause.
    other = rows.table(t.rounds.get(number=1), 3, es, people, None)
    assert _code(lambda: desk.pause(t, director, other.pk)) == "TABLE_NOT_RUNNING"


def test_adjust_a_result_needs_a_reason(game: dict[str, Any], director: Any) -> None:
    t, entrant = game["t"], game["entrants"][0]
    assert _code(lambda: desk.adjust(t, director, entrant.pk, 1, 0, "  ")) == "INVALID_FIELD"
    assert _code(lambda: desk.adjust(t, director, entrant.pk, 0, 0, "Nothing")) == \
        "INVALID_FIELD"
    desk.adjust(t, director, entrant.pk, -1, 10, "Slow play")
    adjustment = ResultAdjustment.objects.get(entrant=entrant)
    assert (adjustment.match_points, adjustment.card_points, adjustment.reason) == (
        -1, 10, "Slow play")
    standing = {s.entrant: s for s in results.standings_of(t)}
    assert (standing[entrant.pk].match_points, standing[entrant.pk].card_points) == (-1, 10)


def test_only_directors_may_act(game: dict[str, Any], outsider: Any, players: list[Any],
                                director: Any) -> None:
    t, tt, entrant = game["t"], game["table"], game["entrants"][0]
    for call in (lambda u: desk.pause(t, u, tt.pk), lambda u: desk.resume(t, u, tt.pk),
                 lambda u: desk.substitute(t, u, tt.pk, 0, bot_level="easy"),
                 lambda u: desk.withdraw(t, u, entrant.pk),
                 lambda u: desk.repair(t, u, 2),
                 lambda u: desk.adjudicate(t, u, tt.pk, 1, 0),
                 lambda u: desk.enter_result(t, u, tt.pk, [[1, 0]]),
                 lambda u: desk.adjust(t, u, entrant.pk, 1, 0, "Because")):
        assert _code(lambda: call(outsider)) == "TOURNAMENT_NOT_DIRECTOR"  # noqa: B023
    assert not DirectorAction.objects.exists()
    tt.refresh_from_db()
    assert tt.outcome == TableOutcome.PENDING and tt.bot_seats == []
    # A club's owner directs the club's tournaments too; a plain member does not.
    club = membership.create_club(players[0], "Ligia Grischa", language="rm")
    membership.join(players[1], club.pk)
    t.club = club
    t.save()
    assert desk.is_tournament_director(t, players[0])
    assert not desk.is_tournament_director(t, players[1])
    desk.withdraw(t, players[0], entrant.pk)
    assert DirectorAction.objects.get().actor == players[0]


def test_the_audit_log_in_words(game: dict[str, Any], director: Any) -> None:
    t, tt = game["t"], game["table"]
    desk.pause(t, director, tt.pk, "Power cut")
    desk.substitute(t, director, tt.pk, 3, bot_level="easy")
    desk.adjudicate(t, director, tt.pk, 71, 36)
    desk.adjust(t, director, game["entrants"][0].pk, 0, -5, "Miscount")
    with translation.override("en"):
        html = render_to_string("games/tournaments/_audit_log.html", {"tournament": t})
    assert "Paused table 1 of round 1." in html and "Power cut" in html
    assert "A bot took seat 4 at table 1 of round 1." in html
    assert "Adjudicated table 1 of round 1: 71 to 36 card points." in html
    assert "+0 match points, -5 card points" in html and "Miscount" in html
    assert director.public_name in html
    with translation.override("de"):
        german = render_to_string("games/tournaments/_audit_log.html", {"tournament": t})
    assert "Tisch 1 der Turnierrunde 1 angehalten." in german


def test_the_desk_page(game: dict[str, Any], director: Any, outsider: Any,
                       make_user: Callable[..., Any]) -> None:
    t = game["t"]
    url = reverse("games:tournament_desk", kwargs={"pk": t.pk})
    web = Client()
    web.force_login(outsider)
    refused = web.get(url)
    assert refused.status_code == 403 and b"TOURNAMENT_NOT_DIRECTOR" in refused.content
    web.force_login(director)
    for language in ("en", "rm", "de", "fr"):
        with translation.override(language):
            page = web.get(reverse("games:tournament_desk", kwargs={"pk": t.pk}))
        assert page.status_code == 200 and f'lang="{language}"'.encode() in page.content
    assert b'name="username"' in page.content
    web.post(url, {"action": "substitute", "table": game["table"].pk, "seat": "1",
                   "username": "GIERI", "reason": "Ill"})
    assert DirectorAction.objects.filter(tournament=t, kind="substitute").count() == 0
    gieri = make_user("gieri")
    web.post(url, {"action": "substitute", "table": game["table"].pk, "seat": "1",
                   "username": gieri.username.upper(), "reason": "Ill"})
    assert DirectorAction.objects.filter(tournament=t, kind="substitute").count() == 1
    done = web.post(url, {"action": "adjudicate", "table": game["table"].pk,
                          "card_points_a": "50", "card_points_b": "60", "reason": "Clock"})
    assert done.status_code == 302
    assert TournamentTable.objects.get(pk=game["table"].pk).outcome == TableOutcome.ADJUDICATED


def test_the_desk_json_shows_no_card(game: dict[str, Any], director: Any,
                                     outsider: Any) -> None:
    t = game["t"]
    web = Client()
    web.force_login(outsider)
    refused = web.get(reverse("api_tournament_desk", kwargs={"pk": t.pk}))
    assert refused.status_code == 403 and refused.json()["code"] == "TOURNAMENT_NOT_DIRECTOR"
    web.force_login(director)
    body = web.get(reverse("api_tournament_desk", kwargs={"pk": t.pk})).json()
    [table] = body["tables"]
    assert table["phase"] and table["deal"] == 1 and table["totals"] == [0, 0]
    text = json.dumps(body)
    assert not any(f'"{card}"' in text for card in DECK)


def test_the_desk_api_actions(game: dict[str, Any], director: Any,
                              make_user: Callable[..., Any]) -> None:
    t, tt = game["t"], game["table"]
    web = Client()
    web.force_login(director)

    def post(action: str, body: dict[str, Any]) -> Any:
        return web.post(reverse("api_tournament_desk_action",
                                kwargs={"pk": t.pk, "action": action}),
                        json.dumps(body), content_type="application/json")

    assert post("pause", {"table": tt.pk}).json() == {"ok": True, "action": "pause",
                                                      "changed": True}
    assert post("resume", {"table": tt.pk}).json()["changed"] is True
    newcomer = make_user("gieri")
    assert post("substitute", {"table": tt.pk, "seat": 1, "player": newcomer.pk}).status_code \
        == 200
    assert post("adjust", {"entrant": game["entrants"][0].pk, "match_points": 1,
                           "reason": "Bonus"}).status_code == 200
    assert post("withdraw", {"entrant": game["entrants"][1].pk}).json()["out_from_round"] == 3
    wrong = post("enter_result", {"table": tt.pk, "deal_scores": "nonsense"})
    assert wrong.status_code == 400 and wrong.json()["code"] == "INVALID_FIELD"
    assert post("adjudicate", {"table": tt.pk, "card_points_a": 3,
                               "card_points_b": 4}).status_code == 200
    again = post("adjudicate", {"table": tt.pk, "card_points_a": 3, "card_points_b": 4})
    assert again.status_code == 409 and again.json()["code"] == "TOURNAMENT_TABLE_FINISHED"
    assert post("nonsense", {}).status_code == 404
    assert DirectorAction.objects.filter(tournament=t).count() == 6
    assert Entrant.objects.get(pk=game["entrants"][1].pk).status == EntrantStatus.WITHDRAWN

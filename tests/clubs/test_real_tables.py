"""A tournament played over the real tables of a village hall (issue #26, "online, or with
results entered from the tables of a village hall"): a stage whose venue is the real tables
opens no room; each player is told their table's number (a notification naming it, a
`table_ready` frame with no room); the clock scores nothing there; the director types each
table's deal scores at the desk (its page has a result sheet per table), and the round closes
when every table is in. A hall's preliminary may lead to an online final. Duplicate deals are
online only (DUPLICATE_NOT_AT_REAL_TABLES); the desk's room actions answer REAL_TABLE_NO_ROOM.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.clubs import desk, results, rounds, tournaments
from games.models import (
    NoticeKind,
    Notification,
    Room,
    RoundStatus,
    Stage,
    StageVenue,
    TableOutcome,
    Tournament,
    TournamentTable,
    after_commit,
)
from games.services.errors import ServiceError
from games.talk import notifications
from tests.clubs.tournament_helpers import make_tournament, round_of

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(120)]

DAY = timedelta(days=1)
# Four deals a Partie (make_tournament's house rules): team A's and team B's points.
WON = [[45, 33], [20, 58], [61, 17], [50, 28]]     # A 176 : B 136
LOST = [[10, 68], [30, 48], [40, 38], [25, 53]]    # A 105 : B 207


@pytest.fixture
def director(make_user: Callable[..., Any]) -> Any:
    return make_user("mengia")


def crowd(make_user: Callable[..., Any], count: int) -> list[Any]:
    return [make_user(f"hall{n}") for n in range(count)]


def at_the_hall(director: Any, people: list[Any], *, stages: tuple[Any, ...] = (
        ("swiss", 2, None, False),), hall_stages: tuple[int, ...] = (1,),
                **fields: Any) -> Tournament:
    tournament = make_tournament(director, people, stages=stages, **fields)
    Stage.objects.filter(tournament=tournament, number__in=hall_stages).update(
        venue=StageVenue.REAL_TABLES)
    return tournament


def _code(call: Callable[[], Any]) -> str:
    with pytest.raises(ServiceError) as caught:
        call()
    return caught.value.code


def _tables(tournament: Tournament, number: int) -> list[TournamentTable]:
    return list(TournamentTable.objects.filter(round=round_of(tournament, number))
                .order_by("number"))


# --- the round runner ------------------------------------------------------------------------

def test_a_round_at_the_real_tables_opens_no_room_and_tells_each_their_table(
        director: Any, make_user: Callable[..., Any], settings: Any,
        monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any) -> None:
    settings.TROCCAS_SITE_URL = "https://troccas.example"
    people = crowd(make_user, 8)
    people[0].invite_emails = True
    people[0].confirmed_email = people[0].email
    people[0].save()
    sent: list[tuple[int, dict[str, Any]]] = []
    effects = after_commit.effects()
    assert effects is not None
    monkeypatch.setattr(after_commit, "_effects", dataclasses.replace(
        effects, publish_site_frames=sent.extend))
    tournament = at_the_hall(director, people)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.advance_tournament(tournament.pk)
    first = round_of(tournament, 1)
    assert first.status == RoundStatus.RUNNING and first.clock_ends_at is not None
    tables = _tables(tournament, 1)
    assert len(tables) == 2 and all(t.room_id is None for t in tables)
    assert not Room.objects.exists()
    seat_of = {p: t.number for t in tables for p in t.seat_players}
    # Each player: their unread count, then the frame naming their table, with no room.
    assert [f["type"] for _, f in sent] == ["notices", "table_ready"] * 8
    page = reverse("games:tournament_round", kwargs={"pk": tournament.pk, "number": 1})
    for user, frame in sent[1::2]:
        assert frame["room"] is None and frame["table"] == seat_of[user]
        assert frame["url"] == page and frame["round"] == 1
        assert frame["tournament"] == tournament.pk
        assert f"at table {seat_of[user]}, at the real tables" in frame["text"]
    # The notification names the table and leads to the round's page; nobody is mailed.
    notices = Notification.objects.filter(kind=NoticeKind.TABLE_READY)
    assert sorted(n.user_id for n in notices) == sorted(p.pk for p in people)
    for notice in notices:
        assert notice.room_id is None and notice.table is not None
        assert notice.table.number == seat_of[notice.user_id]
        assert notifications.link_of(notice) == page
    assert mail.outbox == []


def test_the_clock_scores_nothing_and_the_round_closes_when_every_sheet_is_in(
        director: Any, make_user: Callable[..., Any]) -> None:
    people = crowd(make_user, 8)
    tournament = at_the_hall(director, people)
    rounds.advance_tournament(tournament.pk)
    first = round_of(tournament, 1)
    assert first.clock_ends_at is not None
    # Long after the clock: nothing to end, nothing scored, the round waits for the director.
    late = first.clock_ends_at + timedelta(hours=2)
    assert rounds.advance_tournament(tournament.pk, now=late) == 0
    assert all(t.outcome == TableOutcome.PENDING for t in _tables(tournament, 1))
    assert round_of(tournament, 1).status == RoundStatus.RUNNING
    one, two = _tables(tournament, 1)
    # Nothing online to pause, resume or seat a bot at; a reserve may sit down.
    assert _code(lambda: desk.pause(tournament, director, one.pk)) == "REAL_TABLE_NO_ROOM"
    assert _code(lambda: desk.resume(tournament, director, one.pk)) == "REAL_TABLE_NO_ROOM"
    assert _code(lambda: desk.substitute(tournament, director, one.pk, 1, bot_level="easy")) \
        == "REAL_TABLE_NO_ROOM"
    reserve = make_user("reserve")
    desk.substitute(tournament, director, one.pk, 1, user=reserve, reason="Came late")
    one.refresh_from_db()
    assert one.seat_players[1] == reserve.pk and one.bot_seats == []
    desk.enter_result(tournament, director, one.pk, WON, "Sheet of table 1")
    assert rounds.advance_tournament(tournament.pk, now=late) == 0  # table 2 still out
    assert round_of(tournament, 1).status == RoundStatus.RUNNING
    desk.enter_result(tournament, director, two.pk, LOST)
    assert rounds.advance_tournament(tournament.pk, now=late) >= 3  # close, pair, start
    assert round_of(tournament, 1).status == RoundStatus.CLOSED
    second = round_of(tournament, 2)
    assert second.status == RoundStatus.RUNNING and not Room.objects.exists()
    one.refresh_from_db()
    two.refresh_from_db()
    assert (one.outcome, one.card_points_a, one.card_points_b) == (TableOutcome.ENTERED, 176,
                                                                   136)
    assert (two.card_points_a, two.card_points_b) == (105, 207)
    # The standings are the sheets': team A of table 1 and team B of table 2 won.
    winners = {one.seat_entrants[0], one.seat_entrants[2], two.seat_entrants[1],
               two.seat_entrants[3]}
    points = {s.entrant: (s.match_points, s.card_points)
              for s in results.standings_of(tournament, through_round=1)}
    assert {e for e, (mp, _cp) in points.items() if mp == 2} == winners
    assert points[one.seat_entrants[0]] == (2, 176)
    assert points[two.seat_entrants[0]] == (0, 105)
    # Round 2 at the hall too: its players learn their new tables.
    assert Notification.objects.filter(kind=NoticeKind.TABLE_READY,
                                       table__round=second).count() == 8


def test_a_preliminary_at_the_hall_leads_to_an_online_final(
        director: Any, make_user: Callable[..., Any]) -> None:
    people = crowd(make_user, 8)
    tournament = at_the_hall(director, people,
                             stages=(("swiss", 1, None, False), ("swiss", 1, 4, False)))
    rounds.advance_tournament(tournament.pk)
    one, two = _tables(tournament, 1)
    desk.enter_result(tournament, director, one.pk, WON)
    desk.enter_result(tournament, director, two.pk, LOST)
    final = round_of(tournament, 2)
    rounds.advance_tournament(tournament.pk, now=max(timezone.now(), final.starts_at))
    final.refresh_from_db()
    assert final.status == RoundStatus.RUNNING
    [table] = _tables(tournament, 2)
    assert table.room is not None and table.room.seats.filter(user__isnull=False).count() == 4
    # The final's four are the preliminary's winners.
    assert set(table.seat_entrants) == {one.seat_entrants[0], one.seat_entrants[2],
                                        two.seat_entrants[1], two.seat_entrants[3]}
    notice = Notification.objects.get(kind=NoticeKind.TABLE_READY, user_id=table.seat_players[0],
                                      room=table.room)
    assert notice.table is None and notifications.link_of(notice) == \
        table.room.get_absolute_url()


# --- creation --------------------------------------------------------------------------------

def _plan(**fields: Any) -> dict[str, Any]:
    now = timezone.now()
    spec: dict[str, Any] = {"name": "Turnier da Mustér", "language": "rm",
                            "registration_closes": now + DAY, "starts_at": now + 2 * DAY,
                            "stages": [{"rounds": 3, "venue": "real_tables"}],
                            "options": {"match_deals": 8}}
    spec.update(fields)
    return spec


def test_a_stage_at_the_real_tables_is_created_and_duplicate_deals_are_refused(
        director: Any) -> None:
    t = tournaments.create_tournament(director, **_plan())
    assert list(t.stages.values_list("venue", "duplicate")) == [("real_tables", False)]
    for stages, code in (
            ([{"rounds": 2, "duplicate": True, "venue": "real_tables"}],
             "DUPLICATE_NOT_AT_REAL_TABLES"),
            ([{"rounds": 2, "venue": "garden"}], "TOURNAMENT_STAGES_INVALID"),
            ([{"rounds": 2, "venue": 3}], "TOURNAMENT_STAGES_INVALID")):
        assert _code(lambda s=stages: tournaments.create_tournament(
            director, **_plan(stages=s))) == code
    assert Tournament.objects.count() == 1 and Stage.objects.count() == 1
    # The database holds the same rule.
    with pytest.raises(IntegrityError), transaction.atomic():
        Stage.objects.create(tournament=t, number=2, rounds=1, advance=4, duplicate=True,
                             venue=StageVenue.REAL_TABLES)
    # The tournament's JSON says where each stage is played.
    web = Client()
    web.force_login(director)
    body = web.get(reverse("api_tournament", kwargs={"pk": t.pk})).json()
    assert [s["venue"] for s in body["stages"]] == ["real_tables"]


def _form(start: Any, **extra: str) -> dict[str, Any]:
    return {
        "name": "Turnier da Val", "club": "", "language": "rm", "entrant_kind": "individual",
        "capacity": "16", "registration_closes": (start - DAY).strftime("%Y-%m-%dT%H:%M"),
        "starts_at": start.strftime("%Y-%m-%dT%H:%M"), "checkin_minutes": "30",
        "round_minutes": "45", "break_minutes": "15", "talk": "phrases", "spectators": "off",
        "tiebreak": "match_points", "unfinished": "as_stands", "bye_match_points": "2",
        "bye_card_points": "0", "stage1_format": "swiss", "stage1_rounds": "3",
        "final_format": "swiss",
        "stage1_venue": "real_tables", "reveal_seconds": "5", "scart_forbidden": "honours",
        "buob_caller": "any", "regame_by": "any", "match_deals": "8", "turn_seconds": "60",
        "stand_in_seconds": "60", **extra,
    }


def test_the_create_form_offers_the_real_tables(director: Any) -> None:
    web = Client()
    web.force_login(director)
    form = web.get(reverse("games:create_tournament")).content.decode()
    assert 'name="stage1_venue"' in form and "At the real tables" in form
    start = timezone.localtime(timezone.now() + 3 * DAY).replace(second=0, microsecond=0)
    refused = web.post(reverse("games:create_tournament"),
                       _form(start, stage1_duplicate="on")).content.decode()
    assert "Duplicate deals are played online only" in refused
    assert not Tournament.objects.exists()
    made = web.post(reverse("games:create_tournament"), _form(start))
    t = Tournament.objects.get()
    assert made.status_code == 302 and t.stages.get().venue == StageVenue.REAL_TABLES
    page = web.get(t.get_absolute_url()).content.decode()
    assert "at the real tables" in page


# --- the pages -------------------------------------------------------------------------------

def test_the_round_page_shows_each_player_their_table_and_the_desk_takes_the_sheets(
        director: Any, make_user: Callable[..., Any]) -> None:
    people = crowd(make_user, 8)
    tournament = at_the_hall(director, people)
    rounds.advance_tournament(tournament.pk)
    one, two = _tables(tournament, 1)
    player = Client()
    player.force_login(people[0])
    page = player.get(reverse("games:tournament_round",
                              kwargs={"pk": tournament.pk, "number": 1})).content.decode()
    mine = one if people[0].pk in one.seat_players else two
    assert "At the real tables" in page and f'data-my-table="{mine.number}"' in page
    assert 'aria-current="true"' in page
    listed = player.get(reverse("games:notifications")).content.decode()
    assert f"at table {mine.number}, at the real tables" in listed
    assert reverse("games:tournament_round", kwargs={"pk": tournament.pk, "number": 1}) in listed
    # The desk: a sheet per table, no pause or bot for a room that does not exist.
    web = Client()
    web.force_login(director)
    url = reverse("games:tournament_desk", kwargs={"pk": tournament.pk})
    sheet_page = web.get(url).content.decode()
    assert sheet_page.count("data-sheet=") == 2 and 'value="pause"' not in sheet_page
    assert 'name="bot"' not in sheet_page and "Playing at the real table" in sheet_page
    answer = web.post(url, {"action": "enter_result", "table": str(one.pk),
                            "deal_scores": "45 33\n20 58\n61 17\n50 28\n"}, follow=True)
    assert "Done: it is in the audit log." in answer.content.decode()
    one.refresh_from_db()
    assert one.outcome == TableOutcome.ENTERED and one.deal_scores == WON
    after = web.get(url).content.decode()
    assert after.count("data-sheet=") == 1 and f'data-sheet="{two.number}"' in after
    # The desk's JSON says where the round is played.
    body = web.get(reverse("api_tournament_desk", kwargs={"pk": tournament.pk})).json()
    assert body["round"]["venue"] == "real_tables"
    assert [t["room"] for t in body["tables"]] == [None, None]

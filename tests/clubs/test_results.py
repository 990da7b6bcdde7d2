"""A tournament's results (issue #26 item 7): the standings from the finished tables, byes and
the director's adjustments, the tiebreak option, the rounds' results, who may win a prize,
and the Rangliste's files (CSV, PDF) and the schedule's iCalendar feed."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from icalendar import Calendar

from games.clubs import membership, rangliste, results
from games.models import ResultAdjustment, RoundStatus, Tiebreak, TournamentBye
from tests.clubs import tournament_rows as rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(n) for n in ("anna", "benedetg", "curdin", "duri", "flurina", "gieri")]


@pytest.fixture
def director(make_user: Callable[..., Any]) -> Any:
    return make_user("mengia")


@pytest.fixture
def pairs(people: list[Any], director: Any) -> tuple[Any, list[Any]]:
    """Three pairs over two rounds: 1 beats 2 (90:60) while 3 has the bye, then 1 and 3 draw
    (50:50) while 2 has the bye. A bye scores 2 match points and 40 card points."""
    t = rows.tournament(director, pairs=True, bye_card_points=40)
    one, two, three = rows.entrants(t, people, pairs=True)
    r1 = rows.round_of(t, 1, RoundStatus.CLOSED)
    r2 = rows.round_of(t, 2, RoundStatus.CLOSED)
    p = people
    rows.table(r1, 1, [one, two, one, two], [p[0], p[2], p[1], p[3]], (90, 60))
    TournamentBye.objects.create(round=r1, entrant=three)
    rows.table(r2, 1, [one, three, one, three], [p[0], p[4], p[1], p[5]], (50, 50))
    TournamentBye.objects.create(round=r2, entrant=two)
    return t, [one, two, three]


def _table(t: Any, through: int | None = None) -> list[tuple[int, int, int, int, int]]:
    return [(s.rank, s.entrant, s.match_points, s.card_points, s.buchholz)
            for s in results.standings_of(t, through)]


def test_standings_count_parties_and_byes(pairs: tuple[Any, list[Any]]) -> None:
    t, (one, two, three) = pairs
    # 1: win + draw = 3, 140; 3: bye + draw = 3, 40 + 50; 2: loss + bye = 2, 60 + 40.
    # Buchholz: 1 met 2 (2) and 3 (3); 3 met 1 (3); 2 met 1 (3).
    assert _table(t) == [(1, one.pk, 3, 140, 5), (2, three.pk, 3, 90, 3),
                         (3, two.pk, 2, 100, 3)]


def test_standings_through_a_round(pairs: tuple[Any, list[Any]]) -> None:
    t, (one, two, three) = pairs
    assert _table(t, 1) == [(1, one.pk, 2, 90, 0), (2, three.pk, 2, 40, 0),
                            (3, two.pk, 0, 60, 2)]


def test_an_unfinished_table_counts_nothing(pairs: tuple[Any, list[Any]],
                                            people: list[Any]) -> None:
    t, (one, two, three) = pairs
    extra = rows.tournament(t.director, pairs=True, name="Other", rounds=1)
    a, b, _c = rows.entrants(extra, people, pairs=True)
    rows.table(extra.rounds.get(number=1), 1, [a, b, a, b],
               [people[0], people[2], people[1], people[3]], None)
    assert [(s.match_points, s.parties) for s in results.standings_of(extra)] == [
        (0, 0), (0, 0), (0, 0)]


def test_card_points_first(pairs: tuple[Any, list[Any]]) -> None:
    t, (one, two, three) = pairs
    t.tiebreak = Tiebreak.CARD_POINTS_FIRST
    t.save()
    assert [s.entrant for s in results.standings_of(t)] == [one.pk, two.pk, three.pk]


def test_an_adjustment_is_added_to_the_totals(pairs: tuple[Any, list[Any]]) -> None:
    t, (one, two, three) = pairs
    ResultAdjustment.objects.create(tournament=t, entrant=three, match_points=0,
                                    card_points=60, reason="Miscounted Scart")
    ResultAdjustment.objects.create(tournament=t, entrant=one, match_points=-1, card_points=0,
                                    reason="Late")
    assert _table(t)[:2] == [(1, three.pk, 3, 150, 2), (2, one.pk, 2, 140, 5)]


def test_individuals_each_score_their_team(people: list[Any], director: Any) -> None:
    t = rows.tournament(director, rounds=1)
    es = rows.entrants(t, people[:4])
    rnd = rows.round_of(t, 1, RoundStatus.CLOSED)
    rows.table(rnd, 1, es, people[:4], (120, 80), bot_seats=[3])
    standing = {s.entrant: s for s in results.standings_of(t)}
    assert [standing[e.pk].match_points for e in es] == [2, 0, 2, 0]
    assert [standing[e.pk].card_points for e in es] == [120, 80, 120, 80]
    # Buchholz: both opponents' match points.
    assert standing[es[0].pk].buchholz == 0 and standing[es[1].pk].buchholz == 4
    assert results.prize_eligible(es[0]) and not results.prize_eligible(es[3])
    line = {r.entrant: r for r in results.standing_rows(t)}
    assert not line[es[3].pk].prize_eligible and line[es[0].pk].won == 1
    with translation.override("en"):
        assert line[es[0].pk].won_text == "1 of 1 Partie won"
        assert results.won_sentence(11, 14) == "11 of 14 Parties won"
    with translation.override("de"):
        assert results.won_sentence(11, 14) == "11 von 14 Partien gewonnen"


def test_round_results(pairs: tuple[Any, list[Any]], people: list[Any]) -> None:
    t, (one, two, three) = pairs
    [table] = results.round_results(t.rounds.get(number=1))
    assert table.finished and (table.card_points_a, table.card_points_b) == (90, 60)
    assert (table.match_points_a, table.match_points_b) == (2, 0)
    assert [s.player_id for s in table.team_a] == [people[0].pk, people[1].pk]
    assert [s.entrant for s in table.team_b] == [two.pk, two.pk]
    assert not any(s.bot for s in table.seats)


def test_csv_has_the_rangliste_columns(pairs: tuple[Any, list[Any]]) -> None:
    t, (one, two, three) = pairs
    data = list(csv.reader(io.StringIO(rangliste.rangliste_csv(t))))
    # In the tournament's language (German), whatever is active.
    assert data[0] == ["Rang", "Teilnehmer", "Partiepunkte", "Kartenpunkte", "Buchholz",
                       "Partien", "Gewonnen"]
    assert data[1] == ["1", str(one), "3", "140", "5", "2", "1"]
    assert [r[1] for r in data[1:]] == [str(one), str(three), str(two)]


def test_pdf_holds_the_names(pairs: tuple[Any, list[Any]]) -> None:
    t, (one, two, three) = pairs
    pdf = rangliste.rangliste_pdf(t, compress=False)
    assert pdf.startswith(b"%PDF")
    text = pdf.decode("latin-1")
    assert "Rangliste" in text and t.name in text
    for entrant in (one, two, three):
        assert entrant.player.public_name in text


def test_ical_has_one_event_per_round_and_one_for_all(pairs: tuple[Any, list[Any]]) -> None:
    t, _ = pairs
    cal = Calendar.from_ical(rangliste.schedule_ical(t, "https://example.org/t"))
    events = [c for c in cal.walk() if c.name == "VEVENT"]
    assert len(events) == 3
    whole, first, second = events
    assert str(whole["summary"]) == t.name
    r1, r2 = t.rounds.order_by("number")

    def second_of(moment: Any) -> Any:
        return moment.replace(microsecond=0)  # iCalendar times are whole seconds

    assert first.decoded("dtstart") == second_of(r1.starts_at)
    assert first.decoded("dtend") == second_of(r1.clock_ends_at)
    assert second.decoded("dtend") == second_of(r2.clock_ends_at) == whole.decoded("dtend")
    assert "1" in str(first["summary"]) and t.name in str(first["summary"])


def test_the_pages_and_files(pairs: tuple[Any, list[Any]], people: list[Any]) -> None:
    t, (one, two, three) = pairs
    web = Client()
    for language in ("en", "rm", "de", "fr"):
        with translation.override(language):
            page = web.get(reverse("games:tournament_standings", kwargs={"pk": t.pk}))
            rnd = web.get(reverse("games:tournament_round", kwargs={"pk": t.pk, "number": 1}))
        assert page.status_code == 200 and escape(str(one)) in page.content.decode()
        assert f'lang="{language}"' in page.content.decode()
        assert rnd.status_code == 200 and people[0].public_name in rnd.content.decode()
    csv_response = web.get(reverse("games:tournament_rangliste_csv", kwargs={"pk": t.pk}))
    assert csv_response["Content-Type"].startswith("text/csv")
    pdf = web.get(reverse("games:tournament_rangliste_pdf", kwargs={"pk": t.pk}))
    assert pdf.content.startswith(b"%PDF") and "attachment" in pdf["Content-Disposition"]
    ical = web.get(reverse("games:tournament_ical", kwargs={"pk": t.pk}))
    assert Calendar.from_ical(ical.content).walk("VEVENT")


def test_the_json_doors(pairs: tuple[Any, list[Any]], people: list[Any]) -> None:
    t, (one, two, three) = pairs
    web = Client()
    body = web.get(reverse("api_tournament_standings", kwargs={"pk": t.pk})).json()
    assert [r["entrant"] for r in body["standings"]] == [one.pk, three.pk, two.pk]
    # Each round's status, in words too: the standings page's list of rounds follows it.
    assert body["rounds"] and [r["number"] for r in body["rounds"]] == list(
        t.rounds.order_by("number").values_list("number", flat=True))
    assert all(r["status_text"] == RoundStatus(r["status"]).label for r in body["rounds"])
    rnd = web.get(reverse("api_tournament_round", kwargs={"pk": t.pk, "number": 1})).json()
    assert rnd["tables"][0]["card_points"] == [90, 60]
    assert rnd["byes"] == [{"entrant": three.pk, "name": str(three)}]
    missing = web.get(reverse("api_tournament_round", kwargs={"pk": t.pk, "number": 9}))
    assert missing.status_code == 404 and missing.json()["code"] == "NOT_FOUND"


def test_a_replay_link_only_once_the_round_closed(people: list[Any], director: Any,
                                                  owner: Any, players: list[Any]) -> None:
    from tests.site.factories import full_table

    t = rows.tournament(director, rounds=1)
    game = full_table(owner, players)
    seated = [s.user for s in game.seats]
    es = rows.entrants(t, seated)
    rnd = rows.round_of(t, 1, RoundStatus.RUNNING)
    rows.table(rnd, 1, es, seated, (10, 5), room=game.room)
    url = reverse("games:tournament_round", kwargs={"pk": t.pk, "number": 1})
    replay = reverse("games:match", kwargs={"pk": game.match.pk})
    assert replay not in Client().get(url).content.decode()
    rnd.status = RoundStatus.CLOSED
    rnd.save()
    assert replay in Client().get(url).content.decode()


def test_a_tournament_match_in_the_history_list(director: Any, owner: Any,
                                                players: list[Any]) -> None:
    from tests.site.factories import full_table

    t = rows.tournament(director, rounds=1, name="Cup da Mustér")
    game = full_table(owner, players)
    seated = [s.user for s in game.seats]
    rows.table(rows.round_of(t, 1), 1, rows.entrants(t, seated), seated, None, room=game.room)
    web = Client()
    web.force_login(players[0])
    page = web.get(reverse("games:matches")).content.decode()
    assert "Cup da Mustér" in page and "data-tournament" in page
    standings = reverse("games:tournament_standings", kwargs={"pk": t.pk})
    assert standings in page


def test_a_club_tournament_s_results_are_for_its_members(
        pairs: tuple[Any, list[Any]], people: list[Any], director: Any,
        make_user: Callable[..., Any]) -> None:
    """decisions.md: a club's standings are for its members. Every door of a club's
    tournament results (pages, files, feed, JSON, the desk) answers an outsider and a visitor
    as if it did not exist, and a member as usual."""
    t, _entrants = pairs
    club = membership.create_club(director, "Ligia Grischa", language="rm")
    member, outsider = make_user("men"), make_user("ursina")
    membership.join(member, club.pk)
    t.club = club
    t.save()
    doors = [reverse("games:tournament_standings", kwargs={"pk": t.pk}),
             reverse("games:tournament_round", kwargs={"pk": t.pk, "number": 1}),
             reverse("games:tournament_rangliste_pdf", kwargs={"pk": t.pk}),
             reverse("games:tournament_rangliste_csv", kwargs={"pk": t.pk}),
             reverse("games:tournament_ical", kwargs={"pk": t.pk}),
             reverse("games:tournament_desk", kwargs={"pk": t.pk})]
    apis = [reverse("api_tournament_standings", kwargs={"pk": t.pk}),
            reverse("api_tournament_round", kwargs={"pk": t.pk, "number": 1})]
    visitor, stranger, friend = Client(), Client(), Client()
    stranger.force_login(outsider)
    friend.force_login(member)
    for web in (visitor, stranger):
        for url in doors:
            response = web.get(url)
            # The desk sends a visitor to log in first, and then refuses as for anyone else.
            assert response.status_code == (302 if web is visitor and "desk" in url
                                             else 404), url
            assert t.name not in response.content.decode(errors="replace"), url
        for url in apis:
            response = web.get(url)
            assert response.status_code == 404 and response.json()["code"] == "NOT_FOUND"
            assert t.name not in response.content.decode()
    for url in doors[:5] + apis:
        assert friend.get(url).status_code == 200, url
    # A member who is not a director meets the desk's own refusal, which names the
    # tournament they may see.
    refused = friend.get(doors[5])
    assert refused.status_code == 403 and "TOURNAMENT_NOT_DIRECTOR" in refused.content.decode()

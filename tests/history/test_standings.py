"""Standings and ratings (issue #7): the Weng–Lin team update on known cases, symmetry, the
provisional flag; counting in the transaction that ends a match; `recompute_standings` rebuilds
the same table from history; the standings page sorts, paginates and runs a constant number of
queries."""

from __future__ import annotations

import io
import math
import random
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.engine import team_of
from games.history import rating, standings
from games.history.rating import PROVISIONAL_MATCHES, Skill, rate_2v2
from games.models import Match, PairStats, PlayerRating, RatingHistory, Trick
from tests import personas
from tests.support.matches import play_match, url

pytestmark = pytest.mark.django_db

FRESH = [Skill(), Skill()]
QUICK = {"match_deals": 0, "reveal_seconds": 2}  # one deal, then the owner ends the match


# --- the rating update ---------------------------------------------------------------------

def test_two_fresh_teams_known_values():
    """Weng–Lin Bradley–Terry with mu 25, sigma 25/3, beta 25/6, worked by hand: each team
    has variance 2 sigma^2; c = sqrt(4 sigma^2 + 2 beta^2); p = 1/2; Omega = 2 sigma^2 / c * 1/2
    split evenly between the two players; Delta = (sqrt(2) sigma / c) * 2 sigma^2 / c^2 / 4."""
    s, b = 25 / 3, 25 / 6
    c = math.sqrt(4 * s * s + 2 * b * b)
    gain = (2 * s * s / c * 0.5) / 2
    delta = (math.sqrt(2) * s / c) * (2 * s * s / c ** 2) * 0.25
    sigma = math.sqrt(s * s * (1 - delta / 2))
    winners, losers = rate_2v2(FRESH, FRESH, "A")
    for p in winners:
        assert p.mu == pytest.approx(25 + gain) and p.mu == pytest.approx(26.96419, abs=1e-5)
        assert p.sigma == pytest.approx(sigma) and p.sigma == pytest.approx(8.17756, abs=1e-5)
    for p in losers:
        assert p.mu == pytest.approx(25 - gain)
        assert p.sigma == pytest.approx(sigma)


def test_the_update_is_symmetric():
    a = [Skill(27.0, 7.0), Skill(22.0, 5.0)]
    b = [Skill(24.0, 6.0), Skill(26.0, 8.0)]
    a1, b1 = rate_2v2(a, b, "A")
    b2, a2 = rate_2v2(b, a, "B")  # the same match with the teams listed the other way round
    for x, y in zip(a1 + b1, a2 + b2, strict=True):
        assert (x.mu, x.sigma) == pytest.approx((y.mu, y.sigma))
    # Equal uncertainty: what the winners gain, the losers lose, whichever team wins.
    wins_a, loses_b = rate_2v2(FRESH, FRESH, "A")
    loses_a, wins_b = rate_2v2(FRESH, FRESH, "B")
    assert sum(p.mu for p in wins_a) - 50 == pytest.approx(50 - sum(p.mu for p in loses_b))
    assert [p.mu for p in wins_a] == pytest.approx([p.mu for p in wins_b])
    assert [p.mu for p in loses_a] == pytest.approx([p.mu for p in loses_b])


def test_a_draw_between_equals_moves_no_skill_but_narrows_the_uncertainty():
    a, b = rate_2v2(FRESH, FRESH, "draw")
    for p in a + b:
        assert p.mu == pytest.approx(25.0)
        assert p.sigma < rating.SIGMA


def test_beating_a_stronger_team_is_worth_more():
    strong = [Skill(30.0, 4.0), Skill(30.0, 4.0)]
    weak = [Skill(20.0, 4.0), Skill(20.0, 4.0)]
    upset, _ = rate_2v2(weak, strong, "A")
    expected, _ = rate_2v2(strong, weak, "A")
    assert upset[0].mu - 20 > expected[0].mu - 30 > 0


def test_uncertainty_is_shared_by_each_players_variance():
    sure, unsure = Skill(25.0, 2.0), Skill(25.0, 8.0)
    (a, b), _ = rate_2v2([sure, unsure], FRESH, "A")
    assert b.mu - 25 > a.mu - 25 > 0
    assert a.sigma <= 2.0 and b.sigma < 8.0


def test_provisional_flag():
    assert rating.is_provisional(0, rating.SIGMA)
    assert rating.is_provisional(4, 3.0)  # too few matches
    assert rating.is_provisional(12, 7.5)  # still too uncertain
    assert not rating.is_provisional(5, 6.5)
    assert PlayerRating(matches=1, sigma=8.0).provisional
    assert not PlayerRating(matches=9, sigma=5.0).provisional


# --- counting through services ---------------------------------------------------------------

def _match(owner: Any, players: list[Any], seed: int, options: dict[str, Any] | None = None,
           **kw: Any) -> Match:
    return play_match(owner, players, random.Random(seed), options or QUICK, **kw)


def test_a_finished_match_is_counted_in_the_same_transaction(owner, players, seeded_decks):
    seeded_decks(1)
    match = play_match(owner, players, random.Random(3), {"reveal_seconds": 2})
    assert match.status == "finished"
    ids = [p.pk for p in match.players]
    rows = {r.user_id: r for r in PlayerRating.objects.all()}
    assert set(rows) == set(ids)
    rounds = list(match.rounds.all())
    for seat, uid in enumerate(ids):
        r = rows[uid]
        team = team_of(seat)
        assert r.matches == 1
        assert (r.wins, r.draws, r.losses) == (
            (1, 0, 0) if match.winner == team else (0, 1, 0) if match.winner == "draw"
            else (0, 0, 1))
        mine = [(x.points_a if team == "A" else x.points_b) for x in rounds]
        assert r.deals == 4 and r.points == sum(mine)
        assert r.avg_points == pytest.approx(sum(mine) / 4)
        assert r.deals_won == sum(p > 36 for p in mine)
        calls = [t for t in Trick.objects.filter(round__match=match) if t.buob_call
                 and t.buob_call["caller"] == seat]
        assert r.buob_calls == len(calls)
        assert r.buob_won == sum(t.winner % 2 == seat % 2 for t in calls)
        assert r.provisional
        assert r.rating == pytest.approx(r.mu - 3 * r.sigma)
    assert RatingHistory.objects.filter(match=match).count() == 4
    pairs = {(p.player_low_id, p.player_high_id): p for p in PairStats.objects.all()}
    assert set(pairs) == {tuple(sorted((ids[0], ids[2]))), tuple(sorted((ids[1], ids[3])))}
    if match.winner != "draw":
        a = pairs[tuple(sorted((ids[0], ids[2])))]
        assert a.wins == (match.winner == "A")
        assert (a.mu > rating.MU) == (match.winner == "A")
    # Recording again changes nothing (idempotent).
    before = standings.snapshot()
    standings.record_match(match)
    assert standings.snapshot() == before


def test_an_abandoned_match_is_not_counted(owner, players, seeded_decks):
    from tests.support.tables import advance, must, seat_table

    seeded_decks(2)
    room = seat_table(owner, players)
    advance(room.code, personas.by_seat(owner, players), "PLAY")
    must(room.code, owner, "close_room")
    assert Match.objects.get(room=room).status == "abandoned"
    assert not PlayerRating.objects.exists()


def test_recompute_rebuilds_the_same_table(owner, players, make_user, seeded_decks):
    others = [make_user(n) for n in ("gion", "mengia")]
    seeded_decks(5)
    _match(owner, players, 1, end_after=2)
    _match(players[0], [owner, others[0], others[1]], 2)
    _match(others[1], [players[1], owner, players[2]], 3, options={**QUICK, "bock": True})
    _match(owner, players, 4)
    live = standings.snapshot()
    assert len(live["players"]) == 6 and len(live["history"]) == 16
    call_command("recompute_standings", stdout=io.StringIO())
    assert standings.snapshot() == live
    # And again: the rebuild is idempotent.
    standings.recompute()
    assert standings.snapshot() == live
    owner_rows = list(RatingHistory.objects.filter(user=owner).order_by("at"))
    assert [r.matches for r in owner_rows] == [1, 2, 3, 4]


def test_a_match_counted_out_of_order_triggers_a_rebuild(owner, players, seeded_decks):
    seeded_decks(6)
    first = _match(owner, players, 1)
    second = _match(owner, players, 2)
    expected = standings.snapshot()
    # As if the later match had committed first: count it, then the earlier one.
    RatingHistory.objects.all().delete()
    PlayerRating.objects.all().delete()
    PairStats.objects.all().delete()
    standings.record_match(second)
    standings.record_match(first)
    assert standings.snapshot() == expected


# --- the page --------------------------------------------------------------------------------

def _ratings(n: int) -> None:
    users = User.objects.bulk_create([User(username=f"r{i}x{random.random():.8f}",
                                           display_name=f"Rated {i}") for i in range(n)])
    PlayerRating.objects.bulk_create([
        PlayerRating(user=u, matches=i + PROVISIONAL_MATCHES, wins=i, mu=20 + i, sigma=8 - i * 0.1,
                     rating=20 + i - 3 * (8 - i * 0.1), avg_points=30 + i % 7)
        for i, u in enumerate(users)])
    PairStats.objects.bulk_create([
        PairStats(player_low=a, player_high=b, matches=PROVISIONAL_MATCHES, wins=1,
                  rating=float(i))
        for i, (a, b) in enumerate(zip(users[::2], users[1::2], strict=False))
        if a.pk < b.pk])


@pytest.mark.parametrize(("kind", "one", "more"), [("players", 1, 59), ("pairs", 2, 118)])
def test_standings_page_runs_a_constant_number_of_queries(client: Client, owner, kind, one,
                                                          more, django_assert_num_queries: Any):
    client.force_login(owner)
    page = url("games:standings") + f"?view={kind}"
    _ratings(one)  # one row
    client.get(page)  # warm the session
    with CaptureQueriesContext(connection) as few:
        response = client.get(page)
    assert len(response.context["page"].object_list) == 1
    _ratings(more)  # 60 rows
    with django_assert_num_queries(len(few)):
        response = client.get(page)
    assert response.status_code == 200
    assert len(response.context["page"].object_list) == 50


def test_standings_sorts_and_marks_provisional_ratings(client: Client, owner):
    _ratings(60)
    client.force_login(owner)
    html = client.get(url("games:standings")).content.decode()
    assert "Rated 59" in html.split("Rated 58")[0]  # best rating first
    assert 'class="provisional"' not in html  # the 50 best have played enough
    by_avg = client.get(url("games:standings") + "?sort=avg_points")
    rows = list(by_avg.context["page"].object_list)
    assert [r.avg_points for r in rows] == sorted((r.avg_points for r in rows), reverse=True)
    page2 = client.get(url("games:standings") + "?page=2")
    assert len(page2.context["page"].object_list) == 10
    assert page2.content.decode().count('class="provisional"') == 10  # still uncertain
    assert client.get(url("games:standings") + "?sort=nonsense").status_code == 200
    assert client.get(url("games:standings") + "?view=nonsense").status_code == 404


def test_players_without_enough_rated_matches_are_listed_apart_with_the_reason(
        client: Client, owner):
    _ratings(2)
    newcomer = User.objects.create(username="newcomer", display_name="Newcomer Nina")
    PlayerRating.objects.create(user=newcomer, matches=3, wins=1, mu=30, sigma=4, rating=50)
    client.force_login(owner)
    for language, reason in (("en", "3 of 5 rated matches played"),
                             ("de", "3 von 5 gewerteten Partien gespielt")):
        response = client.get(url("games:standings", language=language))
        ranked = [r.user.pk for r in response.context["page"].object_list]
        assert newcomer.pk not in ranked and len(ranked) == 2  # even with the best rating
        assert [r.user.pk for r in response.context["not_ranked"]] == [newcomer.pk]
        html = response.content.decode()
        assert 'id="not-ranked"' in html and reason in html
        assert html.index("Newcomer Nina") > html.index('id="not-ranked"')


def test_standings_needs_a_signed_in_player(client: Client):
    response = client.get(url("games:standings"))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_profile_shows_the_rating_chart(client: Client, owner, players, seeded_decks):
    seeded_decks(8)
    _match(owner, players, 1)
    _match(owner, players, 2)
    client.force_login(owner)
    html = client.get(url("accounts:profile")).content.decode()
    assert '<svg class="rating-chart"' in html
    assert html.count('class="dot"') == 2
    assert "http://" not in html.split('<svg class="rating-chart"')[1].split("</svg>")[0] \
        .replace("http://www.w3.org/2000/svg", "")

"""Tournament Partien and the ratings (issue #26 item 7): a Partie four people play to its end
is rated like any match and shows in history and on the profile under its tournament; one a
bot played a seat of — a stand-in, or a bot the director seated — is not; a person the
director seats plays on for the entrant and the Partie stays rated; a Partie the round's
clock stopped is not rated (the tournament page says so)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.clubs import desk, membership, rounds
from games.engine import ROUND_OVER
from games.models import (
    Match,
    MatchStatus,
    RatingHistory,
    TableOutcome,
    Tournament,
    TournamentTable,
)
from tests.clubs.tournament_helpers import make_tournament, people_of, play_table, round_of
from tests.support import bots

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(300)]


@pytest.fixture
def director(make_user: Callable[..., Any]) -> Any:
    return make_user("mengia")


@pytest.fixture
def started(director: Any, make_user: Callable[..., Any]) -> tuple[Tournament, TournamentTable]:
    """A tournament of four individuals, one round of a 4-deal Partie, its table open."""
    tournament = make_tournament(director, [make_user(f"rated{n}") for n in range(4)])
    rounds.advance_tournament(tournament.pk)
    [table] = TournamentTable.objects.filter(round=round_of(tournament, 1))
    assert table.room is not None
    return tournament, table


def _match(table: TournamentTable) -> Match:
    return Match.objects.get(room_id=table.room_id)


def _finish(tournament: Tournament, table: TournamentTable, people: dict[int, Any]) -> None:
    assert table.room is not None
    bots.play_out(table.room.code, people)
    rounds.advance_tournament(tournament.pk)
    table.refresh_from_db()


def test_a_partie_four_people_finish_is_rated_and_shown(started: tuple[Tournament,
                                                                       TournamentTable],
                                                        client: Client, director: Any,
                                                        make_user: Callable[..., Any]) -> None:
    tournament, table = started
    people = people_of(table)
    _finish(tournament, table, people)
    match = _match(table)
    assert table.outcome == TableOutcome.PLAYED and table.bot_seats == []
    assert match.status == MatchStatus.FINISHED and match.rated
    assert set(RatingHistory.objects.filter(match=match).values_list("user_id", flat=True)) \
        == {p.pk for p in people.values()}
    # History and the profile name the tournament of the Partie, with no "not rated" badge.
    client.force_login(people[0])
    for url in (reverse("games:matches"),
                reverse("games:player", args=[people[0].pk])):
        page = client.get(url).content.decode()
        assert tournament.name in page, url
        assert "data-unrated" not in page, url
    # A stranger reads the Partie on the profile, without a link to a page they may not open
    # (spectators off); a club's tournament stays with its members.
    stranger = make_user("stranger")
    client.force_login(stranger)
    profile = reverse("games:player", args=[people[0].pk])
    page = client.get(profile).content.decode()
    assert f'data-player-match="{match.pk}"' in page
    assert reverse("games:match", args=[match.pk]) not in page
    club = membership.create_club(director, "Cumpignia da Troccas", region="Surselva",
                                  language="rm")
    Tournament.objects.filter(pk=tournament.pk).update(club=club)
    assert f'data-player-match="{match.pk}"' not in client.get(profile).content.decode()
    membership.join(stranger, club.pk)
    assert f'data-player-match="{match.pk}"' in client.get(profile).content.decode()


def test_a_bot_the_director_seats_makes_the_partie_unrated(
        started: tuple[Tournament, TournamentTable], director: Any) -> None:
    tournament, table = started
    people = people_of(table)
    desk.substitute(tournament, director, table.pk, 2, bot_level="easy", reason="Gone home")
    assert not _match(table).rated  # at once, not only once the bot has played
    del people[2]
    _finish(tournament, table, people)
    match = _match(table)
    assert match.status == MatchStatus.FINISHED and not match.rated
    assert not RatingHistory.objects.filter(match=match).exists()
    assert table.bot_seats == [2]


def test_a_person_the_director_seats_plays_on_rated(
        started: tuple[Tournament, TournamentTable], director: Any,
        make_user: Callable[..., Any]) -> None:
    tournament, table = started
    people = people_of(table)
    original = people[1]
    people[1] = make_user("gieri")
    desk.substitute(tournament, director, table.pk, 1, user=people[1], reason="Ill")
    _finish(tournament, table, people)
    match = _match(table)
    assert match.status == MatchStatus.FINISHED and match.rated
    # The Partie names the entrant's player: the rating is theirs, as the result is.
    assert match.player_1_id == original.pk
    assert RatingHistory.objects.filter(match=match).count() == 4
    assert table.bot_seats == []


def test_a_stand_in_bot_makes_the_partie_unrated(
        started: tuple[Tournament, TournamentTable]) -> None:
    tournament, table = started
    people = people_of(table)
    assert table.room is not None
    bots.away(people[3], table.room.code, 3600)  # past the grace period: a bot stands in
    _finish(tournament, table, people)
    match = _match(table)
    assert table.bot_seats == [3] and not match.rated
    assert not RatingHistory.objects.filter(match=match).exists()


def test_a_partie_the_clock_stopped_is_not_rated(
        started: tuple[Tournament, TournamentTable], client: Client) -> None:
    tournament, table = started
    play_table(table, until=ROUND_OVER)
    rnd = round_of(tournament, 1)
    assert rnd.clock_ends_at is not None
    rounds.advance_tournament(tournament.pk, now=rnd.clock_ends_at + timedelta(seconds=1))
    table.refresh_from_db()
    match = _match(table)
    assert table.outcome == TableOutcome.AS_STANDS
    assert match.status == MatchStatus.ABANDONED
    assert not RatingHistory.objects.exists()
    page = client.get(reverse("games:tournament", args=[tournament.pk])).content.decode()
    assert "data-ratings-note" in page

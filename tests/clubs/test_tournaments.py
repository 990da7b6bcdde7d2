"""Tournaments before play (issue #26 item 2): games/clubs/tournaments.py. A director creates
one (each refusal with its code, nothing created); players register, wait in line beyond the
capacity and move up when a place is freed; a pair is two friends; a club's tournament is for
its members; the check-in has its window; a withdrawal before the start frees the place, one
during the tournament takes the entrant out from the next round not yet paired.

Anna directs; Benedetg and Curdin play; the outsider is in no club. Windows are moved by
writing the tournament's schedule relative to now, far from any edge: nothing here waits."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.clubs import membership, tournaments
from games.models import (
    Entrant,
    EntrantStatus,
    NoticeKind,
    Notification,
    RoundStatus,
    Stage,
    Tournament,
    TournamentRound,
    TournamentStatus,
)
from games.services.errors import ServiceError
from games.talk import friends

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def plan(**fields: Any) -> dict[str, Any]:
    """A valid tournament in two days, registration open now until tomorrow."""
    now = timezone.now()
    spec: dict[str, Any] = {
        "name": "Turnier da Mustér", "language": "rm", "registration_closes": now + DAY,
        "starts_at": now + 2 * DAY, "round_minutes": 60, "break_minutes": 10,
        "stages": [{"format": "swiss", "rounds": 3}], "options": {"match_deals": 8},
    }
    spec.update(fields)
    return spec


def create(director: Any, **fields: Any) -> Tournament:
    return tournaments.create_tournament(director, **plan(**fields))


def refused(code: str, func: Any, *args: Any, **kwargs: Any) -> None:
    def counts() -> tuple[Any, ...]:
        return (Tournament.objects.count(), Stage.objects.count(),
                TournamentRound.objects.count(),
                list(Entrant.objects.values_list("pk", "status", "checked_in",
                                                 "partner_checked_in", "out_from_round")
                     .order_by("pk")))
    before = counts()
    with pytest.raises(ServiceError) as caught:
        func(*args, **kwargs)
    assert caught.value.code == code
    assert counts() == before, "a refusal changed nothing"


def befriend(a: Any, b: Any) -> None:
    friends.send_request(a, b.pk)
    friends.accept(b, a.pk)


def status_of(tournament: Tournament, user: Any) -> str:
    return Entrant.objects.get(tournament=tournament, player=user).status


def open_checkin(tournament: Tournament) -> None:
    """The start in ten minutes: the 30-minute check-in window is open."""
    Tournament.objects.filter(pk=tournament.pk).update(
        registration_closes=timezone.now(), starts_at=timezone.now() + timedelta(minutes=10))


# --- creation -----------------------------------------------------------------------------

def test_a_tournament_is_created_with_its_stages_and_every_round_scheduled(
        players: list[Any]) -> None:
    anna = players[0]
    start = timezone.now() + 2 * DAY
    t = create(anna, name="  Turnier   da Mustér ", starts_at=start, entrant_kind="pairs",
               stages=[{"format": "swiss", "rounds": 3},
                       {"format": "round_robin", "rounds": 3, "advance": 4,
                        "duplicate": True}])
    assert (t.name, t.director, t.club, t.status) == ("Turnier da Mustér", anna, None,
                                                      TournamentStatus.REGISTRATION)
    # The Partie's length and the table talk are the tournament's house rules.
    assert t.options["match_deals"] == 8 and t.options["table_talk"] == "phrases"
    assert t.options["turn_seconds"] == 60  # the people's default, as a room a person opens
    stages = list(t.stages.order_by("number").values_list("number", "format", "rounds",
                                                         "advance", "duplicate"))
    assert stages == [(1, "swiss", 3, None, False), (2, "round_robin", 3, 4, True)]
    rounds = list(t.rounds.order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5, 6]
    assert [r.stage.number for r in rounds] == [1, 1, 1, 2, 2, 2]
    assert [r.starts_at for r in rounds] == [start + k * timedelta(minutes=70)
                                            for k in range(6)]
    assert {r.status for r in rounds} == {RoundStatus.SCHEDULED}


@pytest.mark.parametrize(("fields", "code"), [
    ({"name": "   "}, "INVALID_FIELD"),
    ({"name": "Turnier\u202e"}, "INVALID_FIELD"),
    ({"language": "xx"}, "INVALID_FIELD"),
    ({"entrant_kind": "teams"}, "INVALID_FIELD"),
    ({"talk": "free"}, "INVALID_FIELD"),
    ({"capacity": 3}, "INVALID_FIELD"),
    ({"options": {"match_deals": 5}}, "INVALID_OPTIONS"),
    ({"options": {"match_deals": 0}}, "INVALID_OPTIONS"),
    ({"options": {"no_such_rule": 1}}, "INVALID_OPTIONS"),
])
def test_creation_refuses_what_is_not_a_tournament(players: list[Any], fields: dict[str, Any],
                                                   code: str) -> None:
    refused(code, create, players[0], **fields)


def test_the_schedule_must_fit_together(players: list[Any]) -> None:
    anna = players[0]
    now = timezone.now()
    refused("TOURNAMENT_SCHEDULE_INVALID", create, anna, registration_closes=now + 3 * DAY)
    refused("TOURNAMENT_SCHEDULE_INVALID", create, anna, registration_opens=now + DAY,
            registration_closes=now + DAY)
    refused("TOURNAMENT_SCHEDULE_INVALID", create, anna, registration_opens=now - 3 * DAY,
            registration_closes=now - 2 * DAY, starts_at=now - DAY)
    refused("TOURNAMENT_SCHEDULE_INVALID", create, anna, round_minutes=0)
    refused("TOURNAMENT_SCHEDULE_INVALID", create, anna, checkin_minutes=0)
    # Closing at the start itself is fine.
    assert create(anna, registration_closes=now + 2 * DAY, starts_at=now + 2 * DAY).pk


@pytest.mark.parametrize(("kind", "stages"), [
    ("individual", []),
    ("individual", [{"rounds": 1}] * 5),
    ("individual", [{"rounds": 0}]),
    ("individual", [{"rounds": 16}]),
    ("individual", [{"rounds": 3, "advance": 8}]),
    ("individual", [{"rounds": 3}, {"rounds": 1}]),
    ("individual", [{"rounds": 3}, {"rounds": 1, "advance": 2}]),
    ("individual", [{"rounds": 3}, {"rounds": 1, "advance": 500}]),
    ("individual", [{"format": "round_robin", "rounds": 3}]),
    ("pairs", [{"rounds": 3}, {"rounds": 1, "advance": 1}]),
    ("pairs", [{"format": "round_robin", "rounds": 3}]),  # 64 places: too many for one
    ("pairs", [{"format": "knockout", "rounds": 3}]),
    ("pairs", [{"rounds": "3"}]),
    ("pairs", [{"rounds": 3, "seeding": "random"}]),
])
def test_the_stages_must_have_a_shape(players: list[Any], kind: str,
                                      stages: list[Any]) -> None:
    refused("TOURNAMENT_STAGES_INVALID", create, players[0], entrant_kind=kind, stages=stages)


def test_a_round_robin_is_for_few_pairs(players: list[Any]) -> None:
    t = create(players[0], entrant_kind="pairs", capacity=8,
               stages=[{"format": "round_robin", "rounds": 7}])
    assert t.stages.get().format == "round_robin"


def test_a_club_tournament_is_created_by_the_clubs_owner_or_a_director(
        players: list[Any], outsider: Any) -> None:
    anna, benedetg, curdin = players
    club = membership.create_club(anna, "Ligia Grischa", language="rm")
    membership.join(benedetg, club.pk)
    membership.join(curdin, club.pk)
    refused("TOURNAMENT_NOT_DIRECTOR", create, benedetg, club=club)
    refused("TOURNAMENT_NOT_DIRECTOR", create, outsider, club=club)
    assert create(anna, club=club).club == club
    membership.set_role(anna, club.pk, benedetg.pk, "director")
    assert create(benedetg, club=club).director == benedetg
    # An open tournament: anyone signed in.
    assert create(outsider).club is None


# --- registration -------------------------------------------------------------------------

def test_beyond_the_capacity_entrants_wait_and_move_up_in_order(make_user: Any) -> None:
    director = make_user("director")
    t = create(director, capacity=4)
    people = [make_user(f"p{i}") for i in range(7)]
    entries = [tournaments.register(p, t) for p in people]
    assert [e.status for e in entries] == ["registered"] * 4 + ["waiting"] * 3
    assert list(tournaments.waiting_list(t).values_list("player", flat=True)) == [
        p.pk for p in people[4:]]
    # A waiting entrant who withdraws frees no place.
    tournaments.withdraw(people[5], t)
    assert status_of(t, people[4]) == "waiting"
    # A registered one does: the first in line takes it and is told.
    tournaments.withdraw(people[1], t)
    assert status_of(t, people[1]) == "withdrawn"
    assert status_of(t, people[4]) == "registered"
    assert status_of(t, people[6]) == "waiting"
    notice = Notification.objects.get(user=people[4], kind=NoticeKind.TOURNAMENT_PLACE)
    assert notice.tournament == t
    # Withdrawn, one may enter again: at the end of the line.
    assert tournaments.register(people[1], t).status == "waiting"
    assert list(tournaments.waiting_list(t).values_list("player", flat=True)) == [
        people[6].pk, people[1].pk]


def test_one_entry_per_player_and_only_while_registration_is_open(players: list[Any]) -> None:
    anna, benedetg, _ = players
    t = create(anna)
    tournaments.register(benedetg, t)
    refused("TOURNAMENT_ALREADY_ENTERED", tournaments.register, benedetg, t)
    refused("INVALID_FIELD", tournaments.register, anna, t, partner=benedetg)
    Tournament.objects.filter(pk=t.pk).update(registration_closes=timezone.now() - DAY,
                                              registration_opens=timezone.now() - 2 * DAY)
    refused("TOURNAMENT_REGISTRATION_CLOSED", tournaments.register, anna, t)
    Tournament.objects.filter(pk=t.pk).update(registration_opens=timezone.now() + DAY / 2,
                                              registration_closes=timezone.now() + DAY)
    refused("TOURNAMENT_REGISTRATION_CLOSED", tournaments.register, anna, t)


def test_a_pair_is_two_friends_and_the_partner_is_told(players: list[Any],
                                                       outsider: Any) -> None:
    anna, benedetg, curdin = players
    t = create(anna, entrant_kind="pairs")
    refused("TOURNAMENT_PARTNER_NEEDED", tournaments.register, benedetg, t)
    refused("NOT_FRIENDS", tournaments.register, benedetg, t, partner=curdin)
    refused("CANNOT_TARGET_SELF", tournaments.register, benedetg, t, partner=benedetg)
    befriend(benedetg, curdin)
    befriend(curdin, outsider)
    entrant = tournaments.register(benedetg, t, partner=curdin)
    assert (entrant.player, entrant.partner, entrant.status) == (benedetg, curdin,
                                                                 "registered")
    notice = Notification.objects.get(user=curdin, kind=NoticeKind.TOURNAMENT_PARTNER)
    assert (notice.actor, notice.tournament) == (benedetg, t)
    # The partner is entered too: neither enters again, as player or as partner.
    refused("TOURNAMENT_ALREADY_ENTERED", tournaments.register, curdin, t, partner=outsider)
    refused("TOURNAMENT_ALREADY_ENTERED", tournaments.register, outsider, t, partner=curdin)
    assert tournaments.entrant_of(t, curdin) == entrant
    # Either of the two may withdraw the pair.
    tournaments.withdraw(curdin, t)
    assert tournaments.entrant_of(t, benedetg) is None


def test_a_club_tournament_is_for_the_clubs_members(players: list[Any],
                                                    outsider: Any) -> None:
    anna, benedetg, curdin = players
    club = membership.create_club(anna, "Ligia Grischa", language="rm")
    membership.join(benedetg, club.pk)
    t = create(anna, club=club, entrant_kind="pairs")
    befriend(benedetg, curdin)
    befriend(benedetg, outsider)
    refused("TOURNAMENT_MEMBERS_ONLY", tournaments.register, outsider, t, partner=benedetg)
    refused("TOURNAMENT_MEMBERS_ONLY", tournaments.register, benedetg, t, partner=curdin)
    membership.join(curdin, club.pk)
    assert tournaments.register(benedetg, t, partner=curdin).status == "registered"
    # Its page and lists are for members too.
    assert t not in tournaments.visible_tournaments(outsider)
    assert t in tournaments.visible_tournaments(curdin)
    open_one = create(outsider)
    assert open_one in tournaments.visible_tournaments(outsider)


# --- check-in -----------------------------------------------------------------------------

def test_check_in_has_its_window_and_a_pair_needs_both(players: list[Any],
                                                       outsider: Any) -> None:
    anna, benedetg, curdin = players
    t = create(anna, entrant_kind="pairs", checkin_minutes=30)
    befriend(benedetg, curdin)
    tournaments.register(benedetg, t, partner=curdin)
    refused("TOURNAMENT_CHECKIN_CLOSED", tournaments.check_in, benedetg, t)
    open_checkin(t)
    refused("TOURNAMENT_NOT_ENTERED", tournaments.check_in, outsider, t)
    tournaments.check_in(benedetg, t)
    assert list(tournaments.checked_in_entrants(t)) == []
    tournaments.check_in(curdin, t)
    tournaments.check_in(curdin, t)  # twice: nothing more
    entrant = Entrant.objects.get(tournament=t)
    assert entrant.checked_in is not None and entrant.partner_checked_in is not None
    assert tournaments.is_checked_in(entrant)
    assert list(tournaments.checked_in_entrants(t)) == [entrant]
    # At the start the window is shut.
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    refused("TOURNAMENT_CHECKIN_CLOSED", tournaments.check_in, benedetg, t)


def test_round_one_takes_the_registered_entrants_who_checked_in(make_user: Any) -> None:
    director = make_user("director")
    t = create(director, capacity=4)
    people = [make_user(f"p{i}") for i in range(6)]
    for p in people:
        tournaments.register(p, t)
    open_checkin(t)
    for p in (people[0], people[2], people[3], people[5]):
        tournaments.check_in(p, t)  # people[5] waits in line: checked in, not in the field
    assert [e.player for e in tournaments.checked_in_entrants(t)] == [people[0], people[2],
                                                                      people[3]]
    # A withdrawal in the check-in window still promotes: the promoted one checked in.
    tournaments.withdraw(people[1], t)
    assert [e.player for e in tournaments.checked_in_entrants(t)] == [people[0], people[2],
                                                                      people[3]]
    assert status_of(t, people[4]) == "registered"
    tournaments.withdraw(people[0], t)
    assert [e.player for e in tournaments.checked_in_entrants(t)] == [people[2], people[3],
                                                                      people[5]]


# --- withdrawal during the tournament -----------------------------------------------------

def test_a_withdrawal_during_the_tournament_is_out_from_the_next_round_not_paired(
        players: list[Any], outsider: Any) -> None:
    anna, benedetg, curdin = players
    t = create(anna, capacity=4)
    tournaments.register(benedetg, t)
    tournaments.register(curdin, t)
    tournaments.register(outsider, t)
    Tournament.objects.filter(pk=t.pk).update(status=TournamentStatus.RUNNING)
    TournamentRound.objects.filter(tournament=t, number=1).update(status=RoundStatus.RUNNING)
    TournamentRound.objects.filter(tournament=t, number=2).update(status=RoundStatus.PAIRED)
    entrant = tournaments.withdraw(benedetg, t)
    assert (entrant.status, entrant.out_from_round) == (EntrantStatus.WITHDRAWN, 3)
    assert entrant.withdrawn is not None
    # Every round paired: out from one past the last.
    TournamentRound.objects.filter(tournament=t).update(status=RoundStatus.CLOSED)
    assert tournaments.withdraw(curdin, t).out_from_round == 4
    refused("TOURNAMENT_NOT_ENTERED", tournaments.withdraw, curdin, t)
    Tournament.objects.filter(pk=t.pk).update(status=TournamentStatus.FINISHED)
    refused("TOURNAMENT_OVER", tournaments.withdraw, outsider, t)


def test_the_director_of_a_club_tournament_includes_the_clubs_directors(
        players: list[Any], outsider: Any) -> None:
    anna, benedetg, curdin = players
    club = membership.create_club(anna, "Ligia Grischa", language="rm")
    membership.join(benedetg, club.pk)
    membership.set_role(anna, club.pk, benedetg.pk, "director")
    membership.join(curdin, club.pk)
    t = create(benedetg, club=club)
    assert tournaments.may_direct(t, benedetg) and tournaments.may_direct(t, anna)
    assert not tournaments.may_direct(t, curdin) and not tournaments.may_direct(t, outsider)

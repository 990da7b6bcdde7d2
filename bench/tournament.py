"""A whole individual tournament run by the sweep (issue #26 item 9).

    python bench/tournament.py [--mode embedded|distributed] [--players 128] [--rounds 5]
                               [--deals 4] [--seed 1]

The players enter and check in through games.clubs.tournaments; from then on only
games.clubs.rounds.sweep_tournaments runs the tournament, with a moving `now` (a minute a step,
jumping over the quiet stretch to the next round's pairing). Between two sweeps every table
whose Partie runs is played out through games.services.submit: the person on turn plays their
first legal card, deals and discards the first allowed cards, the reveal window is closed by
the deadline sweep; a bot standing in (none is expected) plays by its wake-up
(services.play_bot_turn). Swiss with rotating partners, `--deals` deals a Partie (the house
rules allow 4, 8, 12 or 16).

Measured: each round's start (the wall time of the sweep that starts it: every room of the
round created, its four seated and its first deal dealt when the sweep returns; round 1's
sweep also starts the tournament and pairs it) and its p95 over the rounds; the pairing of
512 entrants with rotating partners (bench/pairing.py's `measure`, the median of 3); the
standings rebuilt from the tables' match transcripts (each exported as a player downloads it
and replayed by the engine alone; who sat where from the pairing) compared with
games.clubs.results.standings_of.

--mode embedded (default): a throwaway SQLite file in a temporary directory, migrated.
--mode distributed: the PostgreSQL database of DATABASE_URL and the Redis of REDIS_URL from
the environment (migrated; the bench's users and tournament stay in it). No Celery worker or
beat is needed: the sweep is the same function the "sweep-tournaments" beat task calls, run
in this process, so what is timed is the database work of the transitions.

The last line: `tournament: P players, R rounds, M matches finished, round start p95 S s,
pairing of 512 entrants T ms, standings from transcripts: equal|DIFFERENT`.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

ALLOWED_DEALS = (4, 8, 12, 16)


@contextmanager
def _django(mode: str) -> Iterator[None]:
    if mode == "embedded":
        from bench.ws_load import backend

        with backend("embedded"):
            yield
        return
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        raise SystemExit("--mode distributed needs DATABASE_URL and REDIS_URL")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troccas_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    yield


def p95(values: list[float]) -> float:
    """The nearest-rank 95th percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def _players(count: int, stem: str) -> list[Any]:
    from accounts.models import User

    users = [User(username=f"{stem}{n}", display_name=f"Player {n}",
                  email=f"{stem}{n}@example.org") for n in range(count)]
    for user in users:
        user.set_unusable_password()  # no password hashing: 512 entrants would take minutes
    User.objects.bulk_create(users)
    return list(User.objects.filter(username__startswith=stem).order_by("pk"))


def _open(players: list[Any], rounds: int, deals: int) -> Any:
    from django.utils import timezone

    from games.clubs import tournaments

    director = players[0]
    start = timezone.now() + timedelta(minutes=10)
    tournament = tournaments.create_tournament(
        director, name="Bench tournament", language="rm", options={"match_deals": deals},
        registration_closes=start, starts_at=start, round_minutes=600, break_minutes=5,
        capacity=max(4, len(players)), stages=[{"format": "swiss", "rounds": rounds}])
    for person in players:
        tournaments.register(person, tournament)
        tournaments.check_in(person, tournament)
    return tournament


# The refusals of an action that came too late, never of a wrong one.
MOVED_MEANWHILE = frozenset({"STALE_VERSION", "WRONG_PHASE", "NOT_YOUR_TURN", "NOT_DEALER"})


def _play_out(room: Any, people: dict[int, Any], limit: int = 20_000) -> None:
    """One table to its match's end, through the services."""
    from django.utils import timezone

    from games import services
    from games.engine import MATCH_OVER, PLAY, REVEAL, from_json, legal_actions
    from games.models import Room, Round
    from games.services.bots.stand_ins import pending_turn
    from games.services.tables import load_code, seats_of

    code = room.code

    def submit(user: Any, kind: str, **fields: Any) -> None:
        version = Room.objects.only("version").get(pk=room.pk).version
        out = services.submit(code, user, services.Command(kind, None, version, fields))
        # The table moved between the read above and this action: in the distributed mode a
        # worker's stand-in or timer may act meanwhile (a loaded machine lets grace periods
        # run out). The refusal changed nothing; the loop reads the table again.
        if not out.ok and out.code not in MOVED_MEANWHILE:
            raise RuntimeError(f"{kind} refused: {out.code}")

    for _ in range(limit):
        rnd = Round.objects.filter(match__room_id=room.pk).order_by("-pk").first()
        assert rnd is not None
        st = from_json(rnd.engine_state)
        if st.phase == MATCH_OVER:
            return
        t = load_code(code, lock=False)
        turn, _due = pending_turn(t.state, seats_of(t), t.room.owner_id, t.now)
        if turn is not None and services.play_bot_turn(
                rnd.pk, Room.objects.get(pk=room.pk).version):
            continue  # a stand-in whose grace period is over played; else the person plays
        if st.phase == REVEAL:
            Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            services.sweep_deadlines()
        elif st.phase == PLAY:
            assert st.deal is not None and st.deal.turn is not None
            seat = st.deal.turn
            submit(people[seat], "play_card", card=legal_actions(st, seat)["legal_cards"][0])
        elif st.phase == "DEALING":
            submit(people[st.dealer], "deal_next_pass")
        elif st.phase == "SCART":
            allowed = legal_actions(st, st.dealer)["scart_allowed"]
            submit(people[st.dealer], "discard_scart", cards=allowed[:2])
        elif st.phase == "ROUND_OVER":
            submit(people[0], "regame")
        else:
            raise RuntimeError(f"unexpected phase {st.phase}")
    raise RuntimeError(f"room {code}: the match did not end")


def _play_running(tournament: Any) -> None:
    from accounts.models import User
    from games.models import MatchStatus, TableOutcome, TournamentTable

    tables = list(TournamentTable.objects.filter(
        round__tournament=tournament, outcome=TableOutcome.PENDING,
        room__matches__status=MatchStatus.RUNNING).select_related("room").distinct())
    users = User.objects.in_bulk({p for t in tables for p in t.seat_players})
    for table in tables:
        _play_out(table.room, {i: users[p] for i, p in enumerate(table.seat_players)})


def run_tournament(tournament: Any) -> list[float]:
    """Sweep until the tournament is finished; each round's start in seconds."""
    from games.clubs import rounds
    from games.models import Match, RoundStatus, TournamentRound, TournamentStatus

    starts: list[float] = []
    now = tournament.starts_at
    for _ in range(100_000):
        running_before = set(TournamentRound.objects.filter(
            tournament=tournament, status__in=[RoundStatus.RUNNING, RoundStatus.CLOSED])
            .values_list("pk", flat=True))
        began = time.perf_counter()
        rounds.sweep_tournaments(now=now)
        took = time.perf_counter() - began
        started = TournamentRound.objects.filter(
            tournament=tournament, status__in=[RoundStatus.RUNNING, RoundStatus.CLOSED]
        ).exclude(pk__in=running_before)
        for rnd in started:
            tables = rnd.tables.count()
            ready = Match.objects.filter(room__tournament_table__round=rnd,
                                         status="running").count()
            if ready != tables:
                raise RuntimeError(f"round {rnd.number}: {ready} of {tables} tables started")
            starts.append(took)
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            return starts
        _play_running(tournament)
        now += timedelta(minutes=1)
        upcoming = TournamentRound.objects.filter(
            tournament=tournament, status=RoundStatus.SCHEDULED).order_by("number").first()
        if (upcoming is not None and not TournamentRound.objects.filter(
                tournament=tournament, status=RoundStatus.RUNNING).exists()):
            now = max(now, upcoming.starts_at - timedelta(minutes=1))
    raise RuntimeError("the tournament did not finish")


def rebuilt_standings(tournament: Any) -> dict[int, tuple[int, int, int]]:
    """(match points, card points, Parties) of each entrant rebuilt from the transcripts: each
    table's match exported as a `troccas-transcript/1` document (what a player downloads),
    sent through JSON and replayed by the engine alone (games.engine.transcript.replay, the
    `replay` command's function); the totals are the replay's, who sat where the pairing's
    (the table's entrants by seat). No result row of the database is read."""
    import json

    from games.engine.transcript import replay
    from games.history.replay import transcript
    from games.models import Entrant, Match, TournamentTable

    totals: dict[int, list[int]] = {e: [0, 0, 0] for e in Entrant.objects.filter(
        tournament=tournament).values_list("pk", flat=True)}
    for table in TournamentTable.objects.filter(round__tournament=tournament,
                                                room__isnull=False):
        match = Match.objects.filter(room_id=table.room_id).order_by("-number").first()
        if match is None:
            continue
        result = replay(json.loads(json.dumps(transcript(match))))
        if result["phase"] != "MATCH_OVER":
            continue  # not finished: the live standings hold it as the clock left it
        team_totals = (result["totals"]["A"], result["totals"]["B"])
        for seat, entrant in enumerate(table.seat_entrants):
            mine, theirs = team_totals[seat % 2], team_totals[1 - seat % 2]
            row = totals[entrant]
            row[0] += 2 if mine > theirs else 1 if mine == theirs else 0
            row[1] += mine
            row[2] += 1
    return {e: (t[0], t[1], t[2]) for e, t in totals.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mode", choices=("embedded", "distributed"), default="embedded")
    p.add_argument("--players", type=int, default=128)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--deals", type=int, default=4, help="deals a Partie: 4, 8, 12 or 16")
    args = p.parse_args(argv)
    if args.deals not in ALLOWED_DEALS:
        p.error(f"--deals must be one of {ALLOWED_DEALS} (the house rules' Partie lengths)")
    if args.players < 4 or args.players % 4:
        p.error("--players must be a multiple of 4 (nobody sits out)")
    from bench.pairing import measure

    pairing_ms = measure(512, 4, 1, 3)["individual"][0]
    with _django(args.mode):
        from games.clubs import results
        from games.models import Match, MatchStatus, TournamentTable

        stem = f"bench{os.getpid()}x{int(time.time())}p"
        tournament = _open(_players(args.players, stem), args.rounds, args.deals)
        began = time.perf_counter()
        starts = run_tournament(tournament)
        wall = time.perf_counter() - began
        rooms = TournamentTable.objects.filter(round__tournament=tournament).values_list(
            "room_id", flat=True)
        finished = Match.objects.filter(room_id__in=rooms, status=MatchStatus.FINISHED).count()
        shown = {s.entrant: (s.match_points, s.card_points, s.parties)
                 for s in results.standings_of(tournament)}
        equal = shown == rebuilt_standings(tournament)
        for number, took in enumerate(starts, start=1):
            print(f"round {number} start: {took:.2f} s")
        print(f"whole tournament: {wall:.1f} s wall ({args.mode})")
    print(f"tournament: {args.players} players, {len(starts)} rounds, {finished} matches "
          f"finished, round start p95 {p95(starts):.2f} s, pairing of 512 entrants "
          f"{pairing_ms:.0f} ms, standings from transcripts: {'equal' if equal else 'DIFFERENT'}")
    return 0 if equal else 1


if __name__ == "__main__":
    raise SystemExit(main())

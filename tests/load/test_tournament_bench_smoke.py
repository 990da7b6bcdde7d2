"""CI exercises the tournament bench (issue #26 item 9): bench/tournament.py on one table in the
embedded mode, in a child process (the bench sets up Django on its own SQLite file), and its
check — the standings rebuilt from the match transcripts alone — against a tournament played
here, where a result changed behind the transcripts' back must be seen. Never the timings."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bench.tournament import rebuilt_standings
from games.clubs import results, rounds
from games.models import TournamentTable
from tests.clubs.tournament_helpers import make_tournament, play_round

ROOT = Path(__file__).resolve().parents[2]
LAST_LINE = re.compile(
    r"^tournament: 4 players, 1 rounds, 1 matches finished, round start p95 [0-9.]+ s, "
    r"pairing of 512 entrants [0-9]+ ms, standings from transcripts: equal$")

pytestmark = [pytest.mark.load, pytest.mark.timeout(240)]


def test_the_bench_runs_a_tournament_and_prints_its_line() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "tournament.py"), "--players", "4",
         "--rounds", "1", "--deals", "4"],
        cwd=ROOT, capture_output=True, text=True, timeout=200)
    assert done.returncode == 0, done.stdout + done.stderr
    assert LAST_LINE.match(done.stdout.strip().splitlines()[-1]), done.stdout


@pytest.mark.django_db
def test_the_transcripts_rebuild_the_standings(make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(make_user("director"),
                                 [make_user(f"bench{n}") for n in range(4)])
    rounds.advance_tournament(tournament.pk)
    play_round(tournament, 1)

    def live() -> dict[int, tuple[int, int, int]]:
        return {s.entrant: (s.match_points, s.card_points, s.parties)
                for s in results.standings_of(tournament)}

    assert live() == rebuilt_standings(tournament)
    # A table's result that its match's transcript does not bear out is caught.
    TournamentTable.objects.filter(round__tournament=tournament).update(card_points_a=999)
    assert live() != rebuilt_standings(tournament)

"""A round's pairing for a large field (issue #26 item 9: pairing 512 entrants <= 1 s).

    python bench/pairing.py [--entrants N] [--rounds R] [--seed S] [--repeat K]

Plays R rounds (default 4) of a Swiss tournament of N pairs and of an individual tournament of
N players with rotating partners, each round paired by games.clubs.pairing from the standings
of games.clubs.ranking and scored with seeded random card points, then times the pairing of
round R + 1 (the median of K runs, wall clock and this process's CPU time, which other
processes on a shared machine do not inflate). Prints one line per kind:
`swiss pairs: pairing of N entrants T ms (cpu C ms)`, the same for `individual`.
bench/tournament.py reuses `measure`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.clubs.pairing import Entrant, pair_individual, pair_swiss
from games.clubs.ranking import Bye, Partie, standings


def _card_points(rng: random.Random) -> tuple[int, int]:
    # A Partie's card points, with a draw now and then.
    a = rng.randrange(0, 300, 10)
    return a, a if rng.random() < 0.08 else rng.randrange(0, 300, 10)


def _field(ids: range, parties: list[Partie], byes: list[Bye]) -> list[Entrant]:
    return [Entrant(s.entrant, s.match_points) for s in standings(ids, parties, byes)]


def swiss_history(count: int, rounds: int, seed: int) -> tuple[
        list[Entrant], list[tuple[int, int]], list[int]]:
    """The field, meetings and byes after `rounds` paired and played rounds."""
    rng = random.Random(seed)
    ids = range(count)
    parties: list[Partie] = []
    byes: list[Bye] = []
    met: list[tuple[int, int]] = []
    for _ in range(rounds):
        result = pair_swiss(_field(ids, parties, byes), met, [b.entrant for b in byes])
        if result.bye is not None:
            byes.append(Bye(result.bye, 2, 0))
        for a, b in result.pairs:
            met.append((a, b))
            parties.append(Partie((a,), (b,), *_card_points(rng)))
    return _field(ids, parties, byes), met, [b.entrant for b in byes]


def individual_history(count: int, rounds: int, seed: int) -> tuple[
        list[Entrant], list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    rng = random.Random(seed)
    ids = range(count)
    parties: list[Partie] = []
    partners: list[tuple[int, int]] = []
    opponents: list[tuple[int, int]] = []
    sat_out: list[int] = []
    for _ in range(rounds):
        result = pair_individual(_field(ids, parties, []), partners, opponents, sat_out)
        sat_out += result.sit_out
        for table in result.tables:
            partners += [table.team_a, table.team_b]
            opponents += [(x, y) for x in table.team_a for y in table.team_b]
            parties.append(Partie(table.team_a, table.team_b, *_card_points(rng)))
    return _field(ids, parties, []), partners, opponents, sat_out


def _timed(pair: Callable[[], object], repeat: int) -> tuple[float, float]:
    """The median wall-clock and CPU milliseconds of `repeat` calls."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        pair()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return 1000 * statistics.median(wall), 1000 * statistics.median(cpu)


def measure(count: int = 512, rounds: int = 4, seed: int = 1,
            repeat: int = 3) -> dict[str, tuple[float, float]]:
    """(wall, CPU) milliseconds to pair round `rounds` + 1, for "swiss pairs" and
    "individual"."""
    field, met, byes = swiss_history(count, rounds, seed)
    players, partners, opponents, sat_out = individual_history(count, rounds, seed)
    return {
        "swiss pairs": _timed(lambda: pair_swiss(field, met, byes), repeat),
        "individual": _timed(lambda: pair_individual(players, partners, opponents, sat_out),
                             repeat),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for kind, (ms, cpu) in measure(args.entrants, args.rounds, args.seed, args.repeat).items():
        print(f"{kind}: pairing of {args.entrants} entrants {ms:.0f} ms (cpu {cpu:.0f} ms)")


if __name__ == "__main__":
    main()

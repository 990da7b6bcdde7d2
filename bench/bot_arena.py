"""Bot against bot, in duplicate: how much stronger one level is than another, and how fast.

    python bench/bot_arena.py --a strong --b easy [--pairs 200] [--seed S] [--budget-ms 200]

Each seeded deck is played twice with the same cards at the same seats, once with level A on
team A (seats 0 and 2) and once with level A on team B: the luck of the cards cancels. Decks
come in matches of four deals (one per dealer, default house rules), so `--pairs` is rounded
up to a multiple of 4. Levels: easy, strong, random (a uniformly random legal card and scart).
Every bot sees only its seat's view and events, as at a real table.

Prints level A's mean points per deal above 36 with its standard error and 95 % interval, the
deal and match win rates, decision times (median, p95, max over the card decisions that had a
choice), the actions the engine rejected (there should be none), the BUOB calls refused for
where a jack lay (a public, legal outcome of a call the view offered, RULES §8), and the load.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import bots
from games.engine import (
    Options,
    PublicRefusal,
    RuleError,
    apply,
    events_for,
    new_match_state,
    view,
)
from games.engine.cards import CARD_IDS
from games.engine.state import (
    DEALING,
    MATCH_OVER,
    PLAY,
    REVEAL,
    ROUND_OVER,
    SCART,
    MatchState,
)

LEVELS = ("easy", "strong", "random")
DEALS_PER_MATCH = 4


@dataclass
class Stats:
    times_ms: dict[str, list[float]] = field(default_factory=dict)
    rejected: int = 0
    refused_calls: int = 0
    calls: int = 0


def _random_action(v: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    acts = v["actions"]
    seat = v["seat"]
    if acts["play"]:
        return {"type": "play_card", "seat": seat, "card": rng.choice(acts["legal_cards"])}
    if acts["scart"]:
        return {"type": "discard_scart", "seat": seat,
                "cards": rng.sample(acts["scart_allowed"], 2)}
    return bots.fallback(v)


def _decide(level: str, v: dict[str, Any], events: list[dict[str, Any]], seed: int,
            budget_ms: float, stats: Stats) -> dict[str, Any]:
    if level == "random":
        return _random_action(v, random.Random(seed))
    t0 = time.perf_counter()
    action = bots.decide(v, events, level=level, seed=seed, budget_ms=budget_ms)
    elapsed = (time.perf_counter() - t0) * 1000
    if v["actions"]["play"] and len(v["actions"]["legal_cards"]) > 1:
        stats.times_ms.setdefault(level, []).append(elapsed)
    return action


def play_match(decks: list[list[str]], seat_levels: tuple[str, str, str, str], seed: int,
               budget_ms: float, stats: Stats) -> list[tuple[int, int]]:
    """One match over `decks` (one deal each); returns each deal's points (A, B)."""
    state: MatchState = new_match_state(Options(match_deals=len(decks)), first_dealer=0)
    state, deal_events = apply(state, {"type": "start_round", "deck": decks[0]})
    points: list[tuple[int, int]] = []
    step = 0
    while True:
        phase = state.phase
        if phase in (ROUND_OVER, MATCH_OVER):
            assert state.deal is not None and state.deal.points is not None
            points.append(state.deal.points)
            if phase == MATCH_OVER:
                return points
            state, deal_events = apply(state, {"type": "regame", "deck": decks[len(points)]})
            continue
        if phase == REVEAL:
            state, evs = apply(state, {"type": "end_reveal"})
            deal_events += evs
            continue
        deal = state.deal
        assert deal is not None
        seat = deal.turn if phase == PLAY else deal.dealer
        assert seat is not None and phase in (DEALING, SCART, PLAY)
        step += 1
        v = view(state, seat)
        action = _decide(seat_levels[seat], v, events_for(deal_events, seat),
                         seed * 10_000 + step, budget_ms, stats)
        try:
            state, evs = apply(state, action)
        except PublicRefusal as refusal:
            stats.refused_calls += 1
            state, evs = refusal.state, list(refusal.events)
        except RuleError as exc:
            stats.rejected += 1
            print(f"rejected {action} ({exc.code})", file=sys.stderr)
            state, evs = apply(state, bots.fallback(v))
        if action["type"] == "call_buob" or action.get("call_buob"):
            stats.calls += 1
        deal_events += evs


def _match_pair(job: tuple[str, str, int, int, float]
                ) -> tuple[list[tuple[int, int]], list[tuple[int, int]], Stats]:
    """Match m both ways round: level A on team A, then on team B, with the same four decks."""
    a, b, seed, m, budget_ms = job
    rng = random.Random(seed * 100_003 + m)
    decks = []
    for _ in range(DEALS_PER_MATCH):
        deck = list(CARD_IDS)
        rng.shuffle(deck)
        decks.append(deck)
    stats = Stats()
    a_team_a = play_match(decks, (a, b, a, b), seed + 2 * m, budget_ms, stats)
    a_team_b = play_match(decks, (b, a, b, a), seed + 2 * m + 1, budget_ms, stats)
    return a_team_a, a_team_b, stats


def run(a: str, b: str, pairs: int, seed: int, budget_ms: float, jobs: int = 1
        ) -> dict[str, Any]:
    stats = Stats()
    diffs: list[float] = []  # level A's points above 36, per deck, mean of both seatings
    deal_wins = deal_ties = deals = 0
    match_wins = match_draws = matches = 0
    n_matches = math.ceil(pairs / DEALS_PER_MATCH)
    work = [(a, b, seed, m, budget_ms) for m in range(n_matches)]
    if jobs > 1:
        pool = multiprocessing.get_context("spawn").Pool(jobs)
        results = pool.imap(_match_pair, work)
    else:
        pool = None
        results = map(_match_pair, work)
    for m, (a_team_a, a_team_b, part) in enumerate(results):
        for level, times in part.times_ms.items():
            stats.times_ms.setdefault(level, []).extend(times)
        stats.rejected += part.rejected
        stats.refused_calls += part.refused_calls
        stats.calls += part.calls
        for pa, pb in zip(a_team_a, a_team_b, strict=True):
            mine = (pa[0], pb[1])
            diffs.append((mine[0] - 36 + mine[1] - 36) / 2)
            for p in mine:
                deals += 1
                deal_wins += p > 36
                deal_ties += p == 36
        for result, team in ((a_team_a, 0), (a_team_b, 1)):
            mine_total = sum(p[team] for p in result)
            theirs = sum(p[1 - team] for p in result)
            matches += 1
            match_wins += mine_total > theirs
            match_draws += mine_total == theirs
        print(f"match {m + 1}/{n_matches}: mean {statistics.fmean(diffs):+.2f}",
              file=sys.stderr, flush=True)
    if pool is not None:
        pool.close()
        pool.join()
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return {"diffs": diffs, "mean": mean, "se": se, "deals": deals, "deal_wins": deal_wins,
            "deal_ties": deal_ties, "matches": matches, "match_wins": match_wins,
            "match_draws": match_draws, "stats": stats}


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", choices=LEVELS, default="strong")
    parser.add_argument("--b", choices=LEVELS, default="easy")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budget-ms", type=float, default=200.0)
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes (each plays whole matches; 1 = this process)")
    args = parser.parse_args()
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    r = run(args.a, args.b, args.pairs, args.seed, args.budget_ms, args.jobs)
    elapsed = time.perf_counter() - t0
    stats: Stats = r["stats"]
    n = len(r["diffs"])
    print(f"{args.a} vs {args.b}: {n} deck pairs in duplicate ({r['deals']} deals per side), "
          f"seed {args.seed}, budget {args.budget_ms:.0f} ms, {args.jobs} process(es)")
    print(f"points per deal above 36 for {args.a}: {r['mean']:+.2f} ± {r['se']:.2f} (SE); "
          f"95 % interval [{r['mean'] - 1.96 * r['se']:+.2f}, {r['mean'] + 1.96 * r['se']:+.2f}]")
    print(f"deals won by {args.a}: {r['deal_wins'] / r['deals']:.1%} "
          f"(ties {r['deal_ties'] / r['deals']:.1%})")
    print(f"matches won by {args.a}: {r['match_wins'] / r['matches']:.1%} of {r['matches']} "
          f"(draws {r['match_draws'] / r['matches']:.1%})")
    for level, times in sorted(stats.times_ms.items()):
        print(f"decision time {level} (card decisions with a choice, n={len(times)}): "
              f"median {statistics.median(times):.1f} ms, p95 {_pct(times, 0.95):.1f} ms, "
              f"max {max(times):.1f} ms")
    print(f"rejected actions: {stats.rejected}; BUOB calls {stats.calls}, "
          f"refused for where a jack lay: {stats.refused_calls}")
    load_after = os.getloadavg()
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"(1 min; {os.cpu_count()} cores); elapsed {elapsed:.0f} s")


if __name__ == "__main__":
    main()

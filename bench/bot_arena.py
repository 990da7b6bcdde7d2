"""Bot against bot, in duplicate: how much stronger one level is than another, and how fast.

    python bench/bot_arena.py --a strong --b baseline [--pairs 200] [--seed S] [--budget-ms 200]
                              [--budget-a MS] [--budget-b MS] [--jobs N]

Each seeded deck is played twice with the same cards at the same seats, once with level A on
team A (seats 0 and 2) and once with level A on team B: the luck of the cards cancels. Decks
come in matches of four deals (one per dealer, default house rules), so `--pairs` is rounded
up to a multiple of 4. Levels: the players' levels (games/bots LEVELS), `baseline` and
`baseline_easy` (the strong and the easy bot frozen before issue #27, bench/baseline_bot/,
never offered to players) and `random` (a
uniformly random legal card and scart). Every bot sees only its seat's view and events, as at
a real table. `--budget-a` / `--budget-b` give one side its own budget (issue #27 item 2: the
new strong at 50 ms against the baseline at 200 ms).

Prints level A's mean points per deal above 36 with its standard error and 95 % interval, the
deal and match win rates; per level: decision times over the card decisions that had a choice
(median, p95, p99, max, both wall-clock and the CPU time of the deciding thread), playouts per
second (of the searching levels: playouts over their decisions' wall time), the BUOB calls made,
accepted and refused publicly for where a jack lay (RULES §8), per deal; the actions the engine
rejected (there should be none), and the load.
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

from bench import baseline_bot
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

LEVELS = (*bots.LEVELS, "baseline", "baseline_easy", "random")
DEALS_PER_MATCH = 4


@dataclass
class LevelStats:
    """One level's figures over a run (summed over its seats and both seatings)."""

    wall_ms: list[float] = field(default_factory=list)  # card decisions with a choice
    cpu_ms: list[float] = field(default_factory=list)
    playouts: int = 0
    search_wall_ms: float = 0.0  # wall time of the decisions that ran playouts
    calls: int = 0
    refused: int = 0

    def add(self, other: LevelStats) -> None:
        self.wall_ms += other.wall_ms
        self.cpu_ms += other.cpu_ms
        self.playouts += other.playouts
        self.search_wall_ms += other.search_wall_ms
        self.calls += other.calls
        self.refused += other.refused


@dataclass
class Stats:
    levels: dict[str, LevelStats] = field(default_factory=dict)
    rejected: int = 0

    def of(self, level: str) -> LevelStats:
        return self.levels.setdefault(level, LevelStats())

    def add(self, other: Stats) -> None:
        for level, part in other.levels.items():
            self.of(level).add(part)
        self.rejected += other.rejected


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
    info: dict[str, Any] = {}
    t0 = time.perf_counter()
    c0 = time.thread_time()
    if level == "baseline":
        action = baseline_bot.decide(v, events, seed=seed, budget_ms=budget_ms, info=info)
    elif level == "baseline_easy":
        action = baseline_bot.decide_easy(v, events, seed=seed)
    else:
        action = bots.decide(v, events, level=level, seed=seed, budget_ms=budget_ms, info=info)
    cpu = (time.thread_time() - c0) * 1000
    elapsed = (time.perf_counter() - t0) * 1000
    mine = stats.of(level)
    if v["actions"]["play"] and len(v["actions"]["legal_cards"]) > 1:
        mine.wall_ms.append(elapsed)
        mine.cpu_ms.append(cpu)
    if info.get("playouts"):
        mine.playouts += info["playouts"]
        mine.search_wall_ms += elapsed
    return action


def play_match(decks: list[list[str]], seat_levels: tuple[str, str, str, str], seed: int,
               budgets: tuple[float, float, float, float], stats: Stats
               ) -> list[tuple[int, int]]:
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
        level = seat_levels[seat]
        action = _decide(level, v, events_for(deal_events, seat), seed * 10_000 + step,
                         budgets[seat], stats)
        if action["type"] == "call_buob" or action.get("call_buob"):
            stats.of(level).calls += 1
        try:
            state, evs = apply(state, action)
        except PublicRefusal as refusal:
            stats.of(level).refused += 1
            state, evs = refusal.state, list(refusal.events)
        except RuleError as exc:
            stats.rejected += 1
            print(f"rejected {action} ({exc.code})", file=sys.stderr)
            state, evs = apply(state, bots.fallback(v))
        deal_events += evs


def _match_pair(job: tuple[str, str, int, int, float, float]
                ) -> tuple[list[tuple[int, int]], list[tuple[int, int]], Stats]:
    """Match m both ways round: level A on team A, then on team B, with the same four decks."""
    a, b, seed, m, budget_a, budget_b = job
    rng = random.Random(seed * 100_003 + m)
    decks = []
    for _ in range(DEALS_PER_MATCH):
        deck = list(CARD_IDS)
        rng.shuffle(deck)
        decks.append(deck)
    stats = Stats()
    a_team_a = play_match(decks, (a, b, a, b), seed + 2 * m,
                          (budget_a, budget_b, budget_a, budget_b), stats)
    a_team_b = play_match(decks, (b, a, b, a), seed + 2 * m + 1,
                          (budget_b, budget_a, budget_b, budget_a), stats)
    return a_team_a, a_team_b, stats


def run(a: str, b: str, pairs: int, seed: int, budget_ms: float, jobs: int = 1,
        budget_b: float | None = None) -> dict[str, Any]:
    """`budget_ms` is level A's budget (and B's, unless `budget_b` is given)."""
    stats = Stats()
    diffs: list[float] = []  # level A's points above 36, per deck, mean of both seatings
    deal_wins = deal_ties = deals = 0
    match_wins = match_draws = matches = 0
    n_matches = math.ceil(pairs / DEALS_PER_MATCH)
    b_budget = budget_ms if budget_b is None else budget_b
    work = [(a, b, seed, m, budget_ms, b_budget) for m in range(n_matches)]
    if jobs > 1:
        pool = multiprocessing.get_context("spawn").Pool(jobs)
        results = pool.imap(_match_pair, work)
    else:
        pool = None
        results = map(_match_pair, work)
    for m, (a_team_a, a_team_b, part) in enumerate(results):
        stats.add(part)
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


def _times(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"median {statistics.median(values):.1f}, p95 {_pct(values, 0.95):.1f}, "
            f"p99 {_pct(values, 0.99):.1f}, max {max(values):.1f} ms")


def report_level(level: str, budget: float, s: LevelStats, deals: int) -> list[str]:
    """The lines of one level's figures (`deals`: the deals it played a side of)."""
    lines = [f"{level} (budget {budget:.0f} ms), card decisions with a choice: "
             f"n={len(s.wall_ms)}",
             f"  wall {_times(s.wall_ms)}",
             f"  CPU  {_times(s.cpu_ms)}"]
    if s.playouts:
        rate = s.playouts / (s.search_wall_ms / 1000) if s.search_wall_ms else 0.0
        lines.append(f"  playouts {s.playouts} ({rate:,.0f} per second of search)")
    accepted = s.calls - s.refused
    share = f"{s.refused / s.calls:.0%}" if s.calls else "-"
    lines.append(f"  BUOB calls {s.calls}: accepted {accepted} ({accepted / deals:.3f} per deal),"
                 f" refused {s.refused} ({share} of calls, {s.refused / deals:.3f} per deal)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", choices=LEVELS, default="strong")
    parser.add_argument("--b", choices=LEVELS, default="easy")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budget-ms", type=float, default=200.0)
    parser.add_argument("--budget-a", type=float, default=None, help="level A's own budget")
    parser.add_argument("--budget-b", type=float, default=None, help="level B's own budget")
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes (each plays whole matches; 1 = this process)")
    args = parser.parse_args()
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    budget_a = args.budget_ms if args.budget_a is None else args.budget_a
    budget_b = args.budget_ms if args.budget_b is None else args.budget_b
    r = run(args.a, args.b, args.pairs, args.seed, budget_a, args.jobs, budget_b)
    elapsed = time.perf_counter() - t0
    stats: Stats = r["stats"]
    n = len(r["diffs"])
    print(f"{args.a} vs {args.b}: {n} deck pairs in duplicate ({r['deals']} deals per side), "
          f"seed {args.seed}, budget {budget_a:.0f} / {budget_b:.0f} ms, "
          f"{args.jobs} process(es)")
    print(f"points per deal above 36 for {args.a}: {r['mean']:+.2f} ± {r['se']:.2f} (SE); "
          f"95 % interval [{r['mean'] - 1.96 * r['se']:+.2f}, {r['mean'] + 1.96 * r['se']:+.2f}]")
    print(f"deals won by {args.a}: {r['deal_wins'] / r['deals']:.1%} "
          f"(ties {r['deal_ties'] / r['deals']:.1%})")
    print(f"matches won by {args.a}: {r['match_wins'] / r['matches']:.1%} of {r['matches']} "
          f"(draws {r['match_draws'] / r['matches']:.1%})")
    sides = [(args.a, budget_a)] + ([(args.b, budget_b)] if args.b != args.a else [])
    for level, budget in sides:
        if level in stats.levels:
            # A level against itself plays both sides of every deal.
            deals = r["deals"] * (2 if args.a == args.b else 1)
            for line in report_level(level, budget, stats.levels[level], deals):
                print(line)
    print(f"rejected actions: {stats.rejected}")
    load_after = os.getloadavg()
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"(1 min; {os.cpu_count()} cores); elapsed {elapsed:.0f} s")


if __name__ == "__main__":
    main()

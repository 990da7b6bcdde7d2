"""Engine throughput on one core: seeded random legal deals with BUOB calls, and views/s.

    python bench/engine.py [--deals N] [--seed S]

Prints figures; the last line is `deals_per_second: N`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import RuleError, apply, new_match_state, view  # noqa: E402
from games.engine.playout import random_action, random_options  # noqa: E402
from games.engine.state import PLAY, SCART  # noqa: E402


def play_deals(n: int, seed: int) -> tuple[int, int, int, list]:
    """Play n complete deals; return (deals, actions applied, rejected calls, sample states)."""
    rng = random.Random(seed)
    state = new_match_state(random_options(rng), rng.randrange(4))
    deals = actions = rejected = 0
    samples = []
    while deals < n:
        action = random_action(state, rng)
        before = state.phase
        try:
            state, _ = apply(state, action)
        except RuleError:
            rejected += 1
            continue
        actions += 1
        if before == PLAY and state.phase != PLAY:
            deals += 1
        elif state.phase in (SCART, PLAY) and len(samples) < 2000 and rng.random() < 0.05:
            samples.append(state)
    return deals, actions, rejected, samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    play_deals(200, args.seed + 1)  # warm-up
    t0 = time.perf_counter()
    deals, actions, rejected, samples = play_deals(args.deals, args.seed)
    elapsed = time.perf_counter() - t0
    t1 = time.perf_counter()
    views = 0
    for _ in range(3):
        for s in samples:
            for seat in (0, 1, 2, 3, None):
                view(s, seat)
                views += 1
    vel = time.perf_counter() - t1
    print(f"deals: {deals}  actions: {actions}  rejected BUOB calls: {rejected}")
    print(f"actions_per_second: {actions / elapsed:,.0f}")
    print(f"views_per_second: {views / vel:,.0f}  (one accepted action sends 5 views)")
    print(f"deals_per_second: {deals / elapsed:.0f}")


if __name__ == "__main__":
    main()

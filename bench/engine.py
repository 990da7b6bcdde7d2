"""Engine throughput on one core: seeded random legal deals with BUOB calls, and views/s.

    python bench/engine.py [--deals N] [--seed S]

Prints figures, among them the playout fast path's playouts/s (games/engine/fast.py) against
the same playouts through `apply`; the last line is `deals_per_second: N`.
Times are this process's CPU time (time.process_time), so that other processes on a shared
machine do not inflate them. bench/engine_compare.py measures this tree's engine against
another revision's, side by side.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import RuleError, apply, legal_cards, new_match_state, view
from games.engine.cards import CARD_IDS, INDEX
from games.engine.fast import playout
from games.engine.playout import random_action, random_options
from games.engine.state import PLAY, SCART


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


def playout_rates(states: list) -> tuple[int, float, float]:
    """Playouts/s from each state to the end of its deal, every seat playing a random legal
    card: games.engine.fast.playout against the same choices through apply."""
    t0 = time.process_time()
    for i, s in enumerate(states):
        playout(s, random.Random(i))
    fast = len(states) / (time.process_time() - t0)
    t0 = time.process_time()
    for i, s in enumerate(states):
        rng = random.Random(i)
        while s.phase == PLAY:
            seat = s.deal.turn
            card = rng.choice(sorted(INDEX[c] for c in legal_cards(s, seat)))
            s, _ = apply(s, {"type": "play_card", "seat": seat, "card": CARD_IDS[card]})
    slow = len(states) / (time.process_time() - t0)
    return len(states), fast, slow


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    play_deals(200, args.seed + 1)  # warm-up
    t0 = time.process_time()
    deals, actions, rejected, samples = play_deals(args.deals, args.seed)
    elapsed = time.process_time() - t0
    t1 = time.process_time()
    views = 0
    for _ in range(3):
        for s in samples:
            for seat in (0, 1, 2, 3, None):
                view(s, seat)
                views += 1
    vel = time.process_time() - t1
    playouts, fast_rate, apply_rate = playout_rates([s for s in samples if s.phase == PLAY])
    print(f"deals: {deals}  actions: {actions}  rejected BUOB calls: {rejected}")
    print(f"playouts_per_second: {fast_rate:,.0f} fast path, {apply_rate:,.0f} through apply"
          f"  ({playouts} playouts from sampled PLAY states to the deal's end)")
    print(f"actions_per_second: {actions / elapsed:,.0f}")
    print(f"views_per_second: {views / vel:,.0f}  (one accepted action sends 5 views)")
    print(f"deals_per_second: {deals / elapsed:.0f}")


if __name__ == "__main__":
    main()

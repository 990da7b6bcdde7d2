"""The strong bot: Perfect Information Monte Carlo over the seat's own knowledge.

For a card decision it draws deals of the unseen cards consistent with everything the seat knows
(sampling.py), builds each as a real table (games/engine/hypothesis.py), and plays every legal
card in it, each followed by a random playout to the end of the deal (playouts.py). The card
with the best mean points for its team is played. Everything else (dealing, the scart, BUOB
calls, a lone legal card) is the easy bot's.

Time and repeatability: the budget is wall-clock, checked after every playout, and a decision
always returns (the easy bot's card if not one playout finished). Sample i is drawn from a
generator seeded with (seed, i) and its playouts from another seeded with (seed, i), the same
for every candidate, and the candidates are tried in canonical order: given the same view,
events, seed and number of playouts, the decision is the same. `samples` fixes that number
(the deterministic mode the tests use); with a budget alone, a loaded machine may finish fewer
playouts and so choose differently.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import PLAY, RuleError, apply
from games.engine.cards import INDEX
from games.engine.hypothesis import hypothetical_state

from . import actions, easy
from .knowledge import Knowledge, build
from .playouts import playout
from .sampling import Sampler

# Stop early once the best card leads the runner-up by this many standard errors (after at
# least MIN_SAMPLES samples): more playouts would not change the choice.
CLEAR_LEAD = 3.0
MIN_SAMPLES = 12


def _sample_seed(seed: int, i: int, salt: int) -> int:
    return (seed * 1_000_003 + i) * 4 + salt


class _Tally:
    __slots__ = ("n", "total", "squares")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def mean(self) -> float:
        return self.total / self.n

    def var_of_mean(self) -> float:
        if self.n < 2:
            return math.inf
        m = self.mean()
        return max(0.0, self.squares / self.n - m * m) / (self.n - 1)


def _clear(tallies: dict[int, _Tally]) -> bool:
    ranked = sorted((t for t in tallies.values() if t.n), key=_Tally.mean, reverse=True)
    if len(ranked) < 2:
        return True
    a, b = ranked[0], ranked[1]
    spread = math.sqrt(a.var_of_mean() + b.var_of_mean())
    return a.mean() - b.mean() > CLEAR_LEAD * spread


def search(view: Mapping[str, Any], know: Knowledge, legal: list[int], *, seed: int,
           budget_ms: float, samples: int | None = None) -> dict[int, _Tally]:
    """Mean points for the seat's team after each legal card, over sampled deals."""
    deadline = time.perf_counter() + budget_ms / 1000.0
    sampler = Sampler(know)
    team = know.seat % 2
    tallies = {c: _Tally() for c in legal}
    i = 0
    while samples is None or i < samples:
        deal = sampler.draw(random.Random(_sample_seed(seed, i, 0)))
        state = hypothetical_state(view, deal.hands, deal.scart, deal.piles, know.tricks,
                                   know.led_suits)
        play_seed = _sample_seed(seed, i, 1)
        for c in legal:
            try:
                after, _ = apply(state, actions.play(know.seat, c))
            except RuleError:  # pragma: no cover - the seat's own legal card in its own trick
                continue
            if after.phase is PLAY:
                points = playout(after, random.Random(play_seed))
            else:
                assert after.deal is not None and after.deal.points is not None
                points = after.deal.points
            tallies[c].add(points[team])
            if samples is None and time.perf_counter() > deadline:
                return tallies
        i += 1
        if samples is None and i >= MIN_SAMPLES and _clear(tallies):
            break
    return tallies


def decide(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], *, seed: int,
           budget_ms: float, samples: int | None = None) -> dict[str, Any]:
    acts = view["actions"]
    seat = view["seat"]
    if view["phase"] != "PLAY" or not acts["play"] or view["trick"] is None:
        return easy.decide(view, events, seed)
    know = build(view, events)
    suit = easy.choose_call(view, know)
    if suit is not None:
        return actions.call(seat, suit)
    legal = [INDEX[c] for c in acts["legal_cards"]]
    if len(legal) == 1:
        card = legal[0]
    else:
        tallies = search(view, know, legal, seed=seed, budget_ms=budget_ms, samples=samples)
        scored = [c for c in legal if tallies[c].n]
        if scored:
            # Ties go to the cheaper card (the choice a player makes when nothing is at stake).
            card = max(scored, key=lambda c: (tallies[c].mean(),
                                              tuple(-k for k in easy._cheap_key(c)), -c))
        else:
            card = easy.choose_card(know, legal)
    return actions.play(seat, card, easy._attached_call(know, card))


__all__ = ["decide", "search"]

"""The strong bot: Perfect Information Monte Carlo over the seat's own knowledge.

For a card decision it draws deals of the unseen cards consistent with everything the seat knows
(sampling.py), builds each as a real table (games/engine/hypothesis.py), and plays every legal
card in it, each followed by a playout to the end of the deal (playouts.py). The card
with the best mean points for its team is played. Beyond plain determinized search (issue #27
item 1): each sampled deal is weighted by how likely the others' plays so far were in it
(inference.py), and a card clearly behind the best stops getting playouts, so the budget goes
to the close choices. BUOB calls are judged on sampled deals (calls.py); everything else
(dealing, the scart, a lone legal card) is the easy bot's.

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

from games.engine import PLAY, apply
from games.engine.cards import ALL_MASK, INDEX, NARR, NUM_CARDS, POINTS_OF, STRENGTH_OF, SUIT_OF
from games.engine.hypothesis import hypothetical_state

from . import actions, calls, easy
from .inference import History
from .knowledge import Knowledge, build
from .playouts import playout
from .sampling import Sampler

# After MIN_SAMPLES samples, a candidate that trails the best by PRUNE standard errors of the
# paired difference gets no more playouts (successive elimination, issue #27 item 1): the
# budget goes to the cards still in question. Once one candidate is left, more playouts would
# not change the choice and the search stops. The check runs on a growing schedule (every
# quarter more samples), so that its cost stays a small part of the search.
PRUNE = 2.5
MIN_SAMPLES = 8
# The easy bot's card is kept unless the search finds a better one by this many standard
# errors: a handful of noisy samples should not overrule a sound rule of thumb.
OVERRULE = 0.5


def _sample_seed(seed: int, i: int, salt: int) -> int:
    return (seed * 1_000_003 + i) * 4 + salt


class Search:
    """The points for the seat's team after each candidate card, sample by sample, and each
    sample's weight (inference.py). In a sample every candidate still in play is played in the
    same sampled deal with the same playout seed, so differences between candidates are paired.
    """

    def __init__(self, legal: list[int]) -> None:
        self.legal = legal
        self.active = list(legal)  # the candidates that still get playouts
        self.rows: list[dict[int, int]] = []  # per complete sample: candidate -> points
        self.weights: list[float] = []
        self.playouts = 0

    def mean(self, c: int) -> float:
        num = den = 0.0
        for w, row in zip(self.weights, self.rows, strict=True):
            v = row.get(c)
            if v is not None:
                num += w * v
                den += w
        return num / den if den else 0.0

    def lead(self, a: int, b: int) -> tuple[float, float]:
        """Weighted mean and standard error of (a − b) over the samples that played both."""
        pairs = [(w, row[a] - row[b]) for w, row in zip(self.weights, self.rows, strict=True)
                 if a in row and b in row]
        total = sum(w for w, _ in pairs)
        if not pairs or total <= 0:
            return 0.0, math.inf
        m = sum(w * d for w, d in pairs) / total
        n_eff = total * total / sum(w * w for w, _ in pairs)
        if n_eff < 2:
            return m, math.inf
        var = sum(w * (d - m) ** 2 for w, d in pairs) / total * n_eff / (n_eff - 1)
        return m, math.sqrt(var / n_eff)

    def best(self) -> int:
        return max(self.active, key=lambda c: (self.mean(c), -self.legal.index(c)))

    def prune(self) -> None:
        """Drop the candidates clearly behind the best."""
        best = self.best()
        keep = []
        for c in self.active:
            m, se = self.lead(best, c)
            if c == best or m <= PRUNE * se:
                keep.append(c)
        self.active = keep


def search(view: Mapping[str, Any], know: Knowledge, legal: list[int], *, seed: int,
           budget_ms: float, samples: int | None = None,
           started: float | None = None, infer: bool = True, cap: int | None = None
           ) -> Search:
    """Play the legal cards in sampled deals until the budget (or `samples`) runs out or one
    candidate is left; the budget counts from `started` (a perf_counter reading; default:
    now). `infer` weighs each sample by the likelihood of the others' plays (inference.py);
    `cap` bounds the number of samples within the budget (the medium level's search)."""
    start = time.perf_counter()
    deadline = (start if started is None else started) + budget_ms / 1000.0
    sampler = Sampler(know)
    history = History(know) if infer else None
    team = know.seat % 2
    result = Search(legal)
    playouts = 0
    slowest = 0.0
    last = start
    check = MIN_SAMPLES
    i = 0
    limit = samples if samples is not None else cap
    while limit is None or i < limit:
        deal = sampler.draw(random.Random(_sample_seed(seed, i, 0)))
        state = hypothetical_state(view, deal.hands, deal.scart, deal.piles, know.tricks,
                                   know.led_suits)
        play_seed = _sample_seed(seed, i, 1)
        row: dict[int, int] = {}
        for c in result.active:
            after, _ = apply(state, actions.play(know.seat, c))
            if after.phase is PLAY:
                points = playout(after, random.Random(play_seed))
            else:
                assert after.deal is not None and after.deal.points is not None
                points = after.deal.points
            row[c] = points[team]
            playouts += 1
            result.playouts = playouts
            if samples is None:
                now = time.perf_counter()
                slowest = max(slowest, now - last)
                last = now
                # Stop when the next playout would likely end past the deadline: the margin is
                # the slowest playout of this decision or twice the mean, whichever is more (a
                # loaded machine runs one now and then much slower, issue #27 item 5).
                if now + max(2 * (now - start) / playouts, slowest) > deadline:
                    return result
        result.rows.append(row)
        result.weights.append(1.0 if history is None else history.weight(deal.hands))
        i += 1
        if i >= check:
            result.prune()
            if len(result.active) == 1:
                break
            check = max(i + 1, i * 5 // 4)
    return result


def choose(result: Search, preferred: int) -> int:
    """The searched best card, if it beats the preferred one clearly enough."""
    if not result.rows:
        return preferred
    best = result.best()
    if best == preferred:
        return best
    m, se = result.lead(best, preferred)
    return best if m > OVERRULE * se else preferred


def equivalents(know: Knowledge, legal: list[int]) -> dict[int, int]:
    """Each legal card's representative: cards of one suit and one point value with no card
    between them that another player could still play (or that lies on the table) win and lose
    the same tricks, so only one of each such group is searched."""
    live = ALL_MASK & ~know.seen
    if know.trick is not None:
        for _, c in know.trick.cards:
            live |= 1 << c
    rep: dict[int, int] = {}
    ordered = sorted(legal, key=lambda c: (str(SUIT_OF[c]), STRENGTH_OF[c]))
    prev: int | None = None
    for c in ordered:
        if (prev is not None and c != NARR and prev != NARR and SUIT_OF[c] == SUIT_OF[prev]
                and POINTS_OF[c] == POINTS_OF[prev]
                and not any(live >> x & 1 and SUIT_OF[x] == SUIT_OF[c]
                            and STRENGTH_OF[prev] < STRENGTH_OF[x] < STRENGTH_OF[c]
                            for x in range(NUM_CARDS))):
            rep[c] = rep[prev]
        else:
            rep[c] = c
        prev = c
    return rep


def decide(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], *, seed: int,
           budget_ms: float, samples: int | None = None,
           info: dict[str, Any] | None = None, infer: bool = True,
           cap: int | None = None) -> dict[str, Any]:
    """The strong bot's action; with `infer=False` and a `cap` on the samples, the medium
    level's (see `search`)."""
    started = time.perf_counter()
    acts = view["actions"]
    seat = view["seat"]
    if view["phase"] != "PLAY" or not acts["play"] or view["trick"] is None:
        return easy.decide(view, events, seed)
    know = build(view, events)
    estimate = calls.sampled(know, _sample_seed(seed, 0, 2))
    suit = calls.choose_call(view, know, estimate)
    if suit is not None:
        return actions.call(seat, suit)
    legal = [INDEX[c] for c in acts["legal_cards"]]
    if len(legal) == 1:
        card = legal[0]
    else:
        rep = equivalents(know, legal)
        candidates = sorted(set(rep.values()))
        preferred = easy.choose_card(know, legal)
        if len(candidates) == 1:
            card = preferred
        else:
            result = search(view, know, candidates, seed=seed, budget_ms=budget_ms,
                            samples=samples, started=started, infer=infer, cap=cap)
            if info is not None:
                info["playouts"] = result.playouts
            best = choose(result, rep[preferred])
            card = preferred if best == rep[preferred] else best
    return actions.play(seat, card, calls.attached_call(know, card, estimate))


__all__ = ["decide", "search"]

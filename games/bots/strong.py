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

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import PLAY, apply
from games.engine.cards import ALL_MASK, INDEX, NARR, NUM_CARDS, POINTS_OF, STRENGTH_OF, SUIT_OF
from games.engine.hypothesis import hypothetical_state

from . import actions, calls, easy, scart
from .inference import History
from .knowledge import Knowledge, build
from .playouts import playout
from .sampling import Sampler
from .search import Search, choose, sample_seed


def search(view: Mapping[str, Any], know: Knowledge, legal: list[int], *, seed: int,
           budget_ms: float, samples: int | None = None,
           started: float | None = None, infer: bool = True, cap: int | None = None,
           exhaust: bool = False) -> Search:
    """Play the legal cards in sampled deals until the budget (or `samples`) runs out, one
    candidate is left or the choice is settled (search.py); the budget counts from `started`
    (a perf_counter reading; default: now). `infer` weighs each sample by the likelihood of
    the others' plays (inference.py); `cap` bounds the number of samples within the budget
    (the medium level's search). `exhaust` spends the whole budget (or `samples`) even once
    the choice is made: advice.py ranks the candidates by their means."""
    start = time.perf_counter()
    deadline = (start if started is None else started) + budget_ms / 1000.0
    sampler = Sampler(know)
    history = History(know) if infer else None
    team = know.seat % 2
    result = Search(legal)
    playouts = 0
    slowest = 0.0
    last = start
    i = 0
    limit = samples if samples is not None else cap
    while limit is None or i < limit:
        deal = sampler.draw(random.Random(sample_seed(seed, i, 0)))
        state = hypothetical_state(view, deal.hands, deal.scart, deal.piles, know.tricks,
                                   know.led_suits)
        play_seed = sample_seed(seed, i, 1)
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
        result.add(row, 1.0 if history is None else history.weight(deal.hands))
        i += 1
        result.after_sample(i)
        if not exhaust and (len(result.active) == 1 or result.settled):
            break
    return result


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
    if acts["scart"] and len(acts["scart_allowed"]) >= 2 and seat is not None:
        return actions.scart(seat, scart.choose(view, events, seed=seed, budget_ms=budget_ms,
                                                samples=samples, cap=cap, info=info))
    if view["phase"] != "PLAY" or not acts["play"] or view["trick"] is None:
        return easy.decide(view, events, seed)
    know = build(view, events)
    estimate = calls.sampled(know, sample_seed(seed, 0, 2))
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

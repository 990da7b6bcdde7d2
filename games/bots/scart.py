"""The strong bot's scart: the dealer's two discards chosen by search (issue #27 item 1).

The scart is the dealer's one decision of the deal made with 21 cards in hand, and it counts
twice: its cards score for the dealer's team at the end (RULES §6), and what is kept decides
which suits the dealer can follow, trump or lead. The easy bot's rule of thumb (easy.py) ranks
single cards; a pair of discards is worth more or less than the sum of its cards (two cards of
one short suit make the dealer void in it). So the strong bot ranks the allowed cards by that
rule, takes the SHORTLIST best of them, and plays every pair of those in sampled deals, each
followed by a playout of the whole deal, as strong.py does for a card: the same paired samples,
the same successive elimination, and the easy bot's pair kept unless another beats it clearly.

A sampled deal gives the 57 cards the dealer cannot see to the three others, 19 each, a card
another seat showed in the reveal window to that seat; nothing else is known before trick 1.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import PLAY
from games.engine.cards import ALL_MASK, INDEX, cards_of
from games.engine.hypothesis import hypothetical_state

from . import easy
from .playouts import playout
from .search import Search, sample_seed
from .search import choose as choose_by

# The allowed cards considered, best first by the easy bot's rule: 6 make 15 pairs.
SHORTLIST = 6
HAND_SIZE = 19


def _reveals(events: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """The cards shown in this deal's reveal window, by seat."""
    shown: dict[int, int] = {}
    for e in events:
        if e.get("type") == "round_started":
            shown = {}
        elif e.get("type") == "reveal_shown":
            shown = {int(s): INDEX[c] for s, c in e["reveal"].items()}
    return shown


def _draw(seat: int, hand: int, shown: Mapping[int, int], rng: random.Random
          ) -> tuple[int, int, int, int]:
    """The others' hands, consistent with the reveal: the unseen cards shuffled out."""
    hands = [0, 0, 0, 0]
    hands[seat] = hand
    pinned = 0
    for s, c in shown.items():
        if s != seat:
            hands[s] |= 1 << c
            pinned |= 1 << c
    rest = cards_of(ALL_MASK & ~hand & ~pinned)
    rng.shuffle(rest)
    i = 0
    for s in range(4):
        if s == seat:
            continue
        need = HAND_SIZE - hands[s].bit_count()
        for c in rest[i:i + need]:
            hands[s] |= 1 << c
        i += need
    return hands[0], hands[1], hands[2], hands[3]


def _play_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """The dealer's view as it will be once the scart lies: PLAY, next(dealer) to lead."""
    lead = (view["dealer"] + 1) % 4
    return dict(view, phase=PLAY, turn=lead,
                trick={"number": 1, "leader": lead, "cards": [], "led": None, "buob": None})


def choose(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], *, seed: int,
           budget_ms: float, samples: int | None = None, cap: int | None = None,
           info: dict[str, Any] | None = None) -> list[int]:
    """The two cards to discard (canonical order), searched until the budget (or `samples`)
    runs out, at most `cap` samples within the budget (the medium level)."""
    pairs, result, preferred = search(view, events, seed=seed, budget_ms=budget_ms,
                                      samples=samples, cap=cap)
    if info is not None:
        info["playouts"] = result.playouts
    if result.rows:
        return pairs[choose_by(result, preferred)]
    return pairs[preferred]


def search(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], *, seed: int,
           budget_ms: float, samples: int | None = None, cap: int | None = None,
           exhaust: bool = False) -> tuple[list[list[int]], Search, int]:
    """The candidate pairs (each in canonical order), their search (candidates are indexes
    into the pairs; the points are the dealer's team's) and the index of the easy bot's
    pair. With a single candidate nothing is searched. `exhaust` spends the whole budget (or
    `samples`) even once one candidate is left (advice.py)."""
    started = time.perf_counter()
    deadline = started + budget_ms / 1000.0
    seat = view["seat"]
    hand_cards = [INDEX[c] for c in view["hand"]]
    allowed = [INDEX[c] for c in view["actions"]["scart_allowed"]]
    preferred = easy.choose_scart(allowed, hand_cards)
    ranked = easy.scart_order(allowed, hand_cards)[:SHORTLIST]
    pairs = [sorted(p) for p in itertools.combinations(ranked, 2)]
    if sorted(preferred) not in pairs:
        pairs.append(sorted(preferred))
    if len(pairs) == 1:
        return pairs, Search([0]), 0
    hand = 0
    for c in hand_cards:
        hand |= 1 << c
    shown = _reveals(events)
    if view.get("reveal"):  # a reveal that persists is in the view too (not every caller
        shown = {int(s): INDEX[c] for s, c in view["reveal"].items()}  # passes events)
    table = _play_view(view)
    team = seat % 2
    result = Search(list(range(len(pairs))))
    last = start = time.perf_counter()
    slowest = 0.0
    i = 0
    limit = samples if samples is not None else cap
    while limit is None or i < limit:
        dealt = _draw(seat, hand, shown, random.Random(sample_seed(seed, i, 0)))
        play_seed = sample_seed(seed, i, 1)
        row: dict[int, int] = {}
        for k in result.active:
            a, b = pairs[k]
            hands = list(dealt)
            hands[seat] &= ~((1 << a) | (1 << b))
            state = hypothetical_state(table, hands, (a, b), (0, 0), (), "")
            row[k] = playout(state, random.Random(play_seed))[team]
            result.playouts += 1
            if samples is None:
                now = time.perf_counter()
                slowest = max(slowest, now - last)
                last = now
                if now + max(2 * (now - start) / result.playouts, slowest) > deadline:
                    break
        else:
            result.add(row)
            i += 1
            result.after_sample(i)
            # Not stopped when `settled`: one decision a deal, for the dealer only, with the
            # deal's points at stake; its budget is spent in full.
            if len(result.active) == 1 and not exhaust:
                break
            continue
        break
    return pairs, result, pairs.index(sorted(preferred))


__all__ = ["SHORTLIST", "choose", "search"]

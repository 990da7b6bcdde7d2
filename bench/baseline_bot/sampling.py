"""Determinization: deals of the unseen cards consistent with everything a seat knows.

Each unseen card goes to one *location*: another seat's hand, the scart (when the seat is not the
dealer), or a pile (only when the events miss part of the deal's history). A card may go only
where the seat's knowledge allows (voids, the Scart rule, refused BUOB calls, reveal cards) and
every location gets exactly as many cards as it holds.

The cards are placed most constrained first, each to an allowed location drawn with weight its
remaining room, which is close to uniform over the consistent deals; a card that finds every
allowed location full moves others along an augmenting path (a bipartite b-matching), so a
consistent deal is found whenever one exists. If the knowledge is contradictory (it never is,
for the facts gathered from a real table), the card's constraints are dropped rather than
failing: a decision always gets its samples.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from games.engine.cards import SUIT_OF, cards_of

from .knowledge import LOCATIONS, PILE_A, PILE_B, SCART, Knowledge


@dataclass(frozen=True)
class Sample:
    hands: tuple[int, int, int, int]
    scart: tuple[int, int]
    piles: tuple[int, int]


class Sampler:
    """Draws samples for one decision; the constraints are worked out once."""

    def __init__(self, know: Knowledge) -> None:
        self.know = know
        cap = [0] * LOCATIONS
        for s in range(4):
            if s != know.seat:
                cap[s] = max(0, know.hand_counts[s] - know.pinned[s].bit_count())
        if know.scart is None:
            cap[SCART] = 2
        cap[PILE_A], cap[PILE_B] = know.pile_unknown
        self.cards = cards_of(know.unseen())
        # The pile sizes are the one figure a view-only knowledge may get slightly wrong (a
        # Narr debt moves a card between piles): make the room match the cards.
        gap = len(self.cards) - sum(cap)
        for loc in (PILE_A, PILE_B):
            if gap < 0:
                take = min(cap[loc], -gap)
                cap[loc] -= take
                gap += take
        if gap > 0:
            cap[PILE_A if know.pile_unknown[0] >= know.pile_unknown[1] else PILE_B] += gap
        self.capacity = cap
        open_mask = sum(1 << loc for loc in range(LOCATIONS) if cap[loc] > 0)
        self.open_mask = open_mask
        allowed: dict[int, int] = {}
        for c in self.cards:
            mask = open_mask
            suit = SUIT_OF[c]
            if suit is not None:
                for s in range(4):
                    if suit in know.voids[s]:
                        mask &= ~(1 << s)
            if know.scart_forbidden >> c & 1:
                mask &= ~(1 << SCART)
            if c in know.only_in:
                mask &= know.only_in[c]
            allowed[c] = mask or open_mask
        self.allowed = allowed
        # The fixed part of the order: most constrained first (the ties are shuffled per draw).
        self.tightness = {c: allowed[c].bit_count() for c in self.cards}

    def draw(self, rng: random.Random) -> Sample:
        know = self.know
        order = list(self.cards)
        rng.shuffle(order)
        order.sort(key=self.tightness.__getitem__)
        left = list(self.capacity)
        where: dict[int, int] = {}
        members: list[list[int]] = [[] for _ in range(LOCATIONS)]
        for c in order:
            mask = self.allowed[c]
            room = [loc for loc in range(LOCATIONS) if mask >> loc & 1 and left[loc] > 0]
            if room:
                total = sum(left[loc] for loc in room)
                pick = rng.randrange(total)
                for loc in room:
                    pick -= left[loc]
                    if pick < 0:
                        break
            else:
                loc = self._augment(c, where, members, left)
            where[c] = loc
            members[loc].append(c)
            left[loc] -= 1
        hands = [know.pinned[s] for s in range(4)]
        hands[know.seat] = know.hand
        piles = list(know.piles)
        scart_cards: list[int] = []
        for c, loc in where.items():
            if loc < 4:
                hands[loc] |= 1 << c
            elif loc == SCART:
                scart_cards.append(c)
            else:
                piles[loc - PILE_A] |= 1 << c
        if know.scart is not None:
            scart_cards = cards_of(know.scart)
        return Sample((hands[0], hands[1], hands[2], hands[3]),
                      (scart_cards[0], scart_cards[1]), (piles[0], piles[1]))

    def _augment(self, card: int, where: dict[int, int], members: list[list[int]],
                 left: list[int]) -> int:
        """Free a place for `card` by moving placed cards along a shortest path of locations;
        returns the location `card` takes (its room is then reserved by the caller)."""
        start = self.allowed[card]
        parent: dict[int, tuple[int, int] | None] = {}
        queue: deque[int] = deque()
        for loc in range(LOCATIONS):
            if start >> loc & 1:
                parent[loc] = None
                queue.append(loc)
        end = -1
        while queue:
            loc = queue.popleft()
            if left[loc] > 0 and parent[loc] is not None:
                end = loc
                break
            for d in members[loc]:
                mask = self.allowed[d]
                for nxt in range(LOCATIONS):
                    if mask >> nxt & 1 and nxt not in parent:
                        parent[nxt] = (loc, d)
                        queue.append(nxt)
        if end < 0:
            # No consistent place: drop this card's constraints (see the module's docstring).
            free = [loc for loc in range(LOCATIONS) if left[loc] > 0]
            if free:
                return free[0]
            raise ValueError("more unseen cards than places for them")
        loc = end
        step = parent[loc]
        while step is not None:
            prev, moved = step
            members[prev].remove(moved)
            members[loc].append(moved)
            where[moved] = loc
            left[loc] -= 1
            left[prev] += 1
            loc = prev
            step = parent[loc]
        return loc

"""How likely the others' plays so far were, in one sampled deal (issue #27 item 1).

A sampled deal is only consistent with the seat's facts (voids, pinned cards); it says nothing
about what the players' choices suggest. This module weighs it by how often the plays made so
far are the ones the playout policy (rollout.py) would have made from the hands the sample
gives: a player who let a rich trick go by while the sample gives them a card that takes it
probably did not hold that card. Each play of another seat that had a choice counts a factor
1 when it is the policy's card and MISS when it is not; a play in a trick with a BUOB call is
not judged (the call changes what may be played, and the exchange what was played).

The hand a seat held before its play in trick t is the sampled hand with every card the seat
played from trick t on put back (the card it played and, when an exchange took the place of
it, the jack that was recorded in its slot). Only the seat's own knowledge and the sample are
read: the weighting peeks at nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import NARR, SUIT_OF
from games.engine.rules import trick_legality

from .knowledge import Knowledge
from .rollout import policy_move

# The likelihood of a play that is not the policy's, against 1 for one that is: real players
# (and other bots) often play another card than the policy would, so a miss lowers a sample's
# weight without ruling it out (measured in bench/bot_arena.py: 0.5 played better than 0.3).
MISS = 0.5


class History:
    """A seat's deal so far, prepared once per decision: every trick's plays (original cards),
    newest first, with the suits led before it and the cards each seat played from it on."""

    def __init__(self, know: Knowledge) -> None:
        self.seat = know.seat
        led_before: list[str] = []
        run = ""
        for t in know.tricks:
            led_before.append(run)
            if t.led and t.led not in run:
                run += t.led
        tricks: list[tuple[int, Sequence[tuple[int, int]], bool, str,
                           Sequence[tuple[int, int]]]] = []
        if len(know.plays) == len(know.tricks):
            for t, (original, called), before in zip(know.tricks, know.plays, led_before,
                                                      strict=True):
                tricks.append((t.number, original, called, before, t.cards))
        if know.trick is not None and know.trick.cards:
            current = know.trick
            tricks.append((current.number, current.cards, current.buob is not None,
                           know.led_suits, current.cards))
        tricks.reverse()
        # From each trick on, the cards each seat played (the trick's own plays included).
        self.steps: list[tuple[int, Sequence[tuple[int, int]], bool, str, tuple[int, ...]]] = []
        later = [0, 0, 0, 0]
        for number, plays, called, before, final in tricks:
            for s, c in plays:
                later[s] |= 1 << c
            for s, c in final:
                later[s] |= 1 << c
            self.steps.append((number, plays, called, before, tuple(later)))

    def weight(self, hands: Sequence[int]) -> float:
        """The likelihood of the others' plays so far if the hands were `hands`."""
        w = 1.0
        me = self.seat
        for number, plays, called, before, later in self.steps:
            if called:
                continue
            led: str | None = None
            for i, (s, c) in enumerate(plays):
                if s != me:
                    hand = hands[s] | later[s]
                    legal = trick_legality(hand, led, None, s)[0]
                    if legal & (legal - 1) and policy_move(
                            s, legal, plays[:i], led, number, before) != c:
                        w *= MISS
                if led is None and c != NARR:
                    led = SUIT_OF[c]
        return w

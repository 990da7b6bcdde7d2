"""The beginner bot: the easy bot with a learner's mistakes (issue #27 item 6).

A practice partner for someone learning the game should lose tricks a learner would lose and
leave points a learner would leave, yet never play an illegal card or stall. So the beginner
plays the easy bot's card most of the time and, on MISTAKE of its card decisions that have a
choice, one of two slips learners make:

* eagerness: the highest card it may play (a trump or a king thrown where a low card would do);
* a loose card: any other legal card, as one who has not yet read the trick.

It makes a BUOB call the easy bot would make only half the time (a learner often forgets) and
never attaches one to its own king. Its scart is the easy bot's, or on a slip two allowed cards
at random. Every choice is drawn from a generator seeded with the decision's seed: the same
view, events and seed give the same action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.cards import INDEX, POINTS_OF, STRENGTH_OF, SUIT_OF

from . import actions, calls, easy
from .knowledge import build

MISTAKE = 0.3
FORGETS_CALL = 0.5


def _height(c: int) -> tuple[int, int, int]:
    return (1 if SUIT_OF[c] == "T" else 0, STRENGTH_OF[c], POINTS_OF[c])


def _slip(legal: list[int], chosen: int, rng: random.Random) -> int:
    others = [c for c in legal if c != chosen]
    if rng.random() < 0.5:
        high = max(legal, key=_height)
        if high != chosen:
            return high
    return rng.choice(others)


def decide(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
           seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    seat = view["seat"]
    acts = view["actions"]
    if acts["scart"] and len(acts["scart_allowed"]) >= 2 and rng.random() < MISTAKE:
        return actions.scart(seat, sorted(rng.sample([INDEX[c] for c in acts["scart_allowed"]],
                                                     2)))
    if view["phase"] != "PLAY" or seat is None or view["trick"] is None:
        return easy.decide(view, events, seed)
    know = build(view, events)
    suit = calls.choose_call(view, know, calls.instant(know))
    if suit is not None and rng.random() >= FORGETS_CALL:
        return actions.call(seat, suit)
    if not acts["play"]:
        return actions.fallback(view, seed)
    legal = [INDEX[c] for c in acts["legal_cards"]]
    card = easy.choose_card(know, legal)
    if len(legal) > 1 and rng.random() < MISTAKE:
        card = _slip(legal, card, rng)
    return actions.play(seat, card)

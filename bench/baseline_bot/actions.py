"""Engine actions a bot may send, and the fallback used when a bot errors or runs late.

Every action is a plain dict as `games.engine.apply` takes it, with the bot's `seat`. The web
layer's writer replaces a REGAME's `deck` with one from the server's own CSPRNG: a bot's deck
(shuffled from its seed, so that `apply` accepts the action as it is, as the arena does) never
decides a real deal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engine.cards import CARD_IDS, INDEX, POINTS_OF


class NoAction(ValueError):
    """The view offers this seat nothing to do now."""


def play(seat: int, card: int, call_suit: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "play_card", "seat": seat, "card": CARD_IDS[card]}
    if call_suit is not None:
        action["call_buob"] = True
        action["buob_suit"] = call_suit
    return action


def call(seat: int, suit: str) -> dict[str, Any]:
    return {"type": "call_buob", "seat": seat, "suit": suit}


def scart(seat: int, cards: list[int]) -> dict[str, Any]:
    return {"type": "discard_scart", "seat": seat, "cards": [CARD_IDS[c] for c in cards]}


def deal(seat: int) -> dict[str, Any]:
    return {"type": "deal_next_pass", "seat": seat}


def regame(seat: int, seed: int) -> dict[str, Any]:
    deck = list(CARD_IDS)
    random.Random(seed).shuffle(deck)
    return {"type": "regame", "seat": seat, "deck": deck}


def cheapest(cards: list[int], n: int) -> list[int]:
    """The n cards of lowest point value (ties: lowest canonical index), as TURN_TIMEOUT
    chooses them (RULES §12)."""
    return sorted(cards, key=lambda c: (POINTS_OF[c], c))[:n]


def fallback(view: Mapping[str, Any], seed: int = 0) -> dict[str, Any]:
    """The lowest-value legal action of the view's seat: the cheapest legal card, the two
    cheapest allowed scart cards, the next pass, a regame. Raises NoAction if there is none."""
    seat = view["seat"]
    acts = view["actions"]
    if seat is None:
        raise NoAction("a spectator has no action")
    if acts["play"] and acts["legal_cards"]:
        return play(seat, cheapest([INDEX[c] for c in acts["legal_cards"]], 1)[0])
    if acts["scart"] and len(acts["scart_allowed"]) >= 2:
        return scart(seat, cheapest([INDEX[c] for c in acts["scart_allowed"]], 2))
    if acts["deal"]:
        return deal(seat)
    if acts["regame"]:
        return regame(seat, seed)
    if acts["new_match"]:
        return {"type": "new_match", "seat": seat}
    raise NoAction("nothing to do for this seat now")

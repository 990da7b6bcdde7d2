"""Seeded random play: a legal action for any state, chosen by a caller-supplied RNG.

Used by the invariant tests, the benchmark and bots. The RNG is passed in (random.Random), so
the engine itself stays free of global randomness.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import CARD_IDS, KING_SUIT, SUITS, ids_of
from .options import Options
from .rules import forbidden_scart_mask, trick_legality
from .state import DEALING, LOBBY, MATCH_OVER, PLAY, REVEAL, ROUND_OVER, SCART, MatchState

_KING_MASK = sum(1 << k for k in KING_SUIT)
_KING_IDS = frozenset(CARD_IDS[k] for k in KING_SUIT)


def _mask_of_trick(cards: tuple[tuple[int, int], ...]) -> int:
    m = 0
    for _, c in cards:
        m |= 1 << c
    return m


def shuffled_deck(rng: random.Random) -> list[str]:
    deck = list(CARD_IDS)
    rng.shuffle(deck)
    return deck


def random_options(rng: random.Random) -> Options:
    triggers = [t for t in ("tie", "all_tricks") if rng.random() < 0.6]
    return Options(
        reveal_seconds=rng.randint(2, 30),
        reveal_persist=rng.random() < 0.5,
        scart_forbidden=rng.choice(("honours", "none", "honours_and_trumps")),
        buob_caller=rng.choice(("any", "king_team")),
        regame_by=rng.choice(("any", "owner")),
        match_deals=rng.choice((4, 0, 8, 12, 16)),
        bock=rng.random() < 0.5,
        bock_triggers=tuple(triggers),
        turn_seconds=rng.choice((0, 15, 60, 120)),
    )


def random_action(state: MatchState, rng: random.Random, buob_rate: float = 0.3
                  ) -> dict[str, Any]:
    """A random action that is legal in `state` (a BUOB call may still be rejected).

    With probability `buob_rate`, while a king is on the table, a random seat calls BUOB
    (naming a random suit, or none) — often accepted, sometimes rejected, as at a real table.
    """
    phase = state.phase
    deal = state.deal
    if phase is PLAY:  # first: nearly every action of a deal is a card
        assert deal is not None and deal.current is not None and deal.turn is not None
        trick = deal.current
        r = rng.random()
        if trick.buob is None and r < buob_rate and trick.cards and (
                _KING_MASK & _mask_of_trick(trick.cards)):
            suit = rng.choice((None, None, *SUITS))
            return {"type": "call_buob", "seat": rng.randrange(4), "suit": suit}
        if r > 0.98:
            return {"type": "turn_timeout"}
        turn = deal.turn
        legal = trick_legality(deal.hands[turn], trick.led, trick.buob, turn)[0]
        # ids_of lists the same cards in the same order as cards_of: the same draw.
        card = rng.choice(ids_of(legal))
        action: dict[str, Any] = {"type": "play_card", "seat": turn, "card": card}
        if trick.buob is None and card in _KING_IDS and r < buob_rate * 2:
            action["call_buob"] = True
            action["buob_suit"] = rng.choice((None, card[0]))
        return action
    if phase == LOBBY:
        return {"type": "start_round", "deck": shuffled_deck(rng)}
    if phase == DEALING:
        assert deal is not None
        if rng.random() < 0.1:
            return {"type": "turn_timeout"}
        return {"type": "deal_next_pass", "seat": deal.dealer}
    if phase == REVEAL:
        return {"type": "end_reveal"}
    if phase == SCART:
        assert deal is not None
        if rng.random() < 0.1:
            return {"type": "turn_timeout"}
        allowed = ids_of(deal.hands[deal.dealer]
                         & ~forbidden_scart_mask(deal, state.options.scart_forbidden))
        return {"type": "discard_scart", "seat": deal.dealer, "cards": rng.sample(allowed, 2)}
    if phase == ROUND_OVER:
        if state.options.match_deals == 0 and rng.random() < 0.2:
            return {"type": "end_match"}
        return {"type": "regame", "deck": shuffled_deck(rng)}
    if phase == MATCH_OVER:
        return {"type": "new_match"}
    raise AssertionError(phase)

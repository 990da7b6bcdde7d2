"""BUOB calls a bot makes: only those likely to be accepted and to gain (issue #27 item 3).

A call is refused in public when the jack of the called king lies nowhere it could be fetched
from: in the scart, or in the hand of the player of that very king (RULES §8). A refused call
wastes the trick's chance and tells the whole table where the jack is not. So before calling,
a bot estimates from its own knowledge the chance that the jack sits in the hand of a player
other than the king's, and calls only when that chance reaches CALL_AT.

That chance is usually high for the king's own player, who knows whether they hold the jack
themselves (only the scart remains against them), and about two in three for anybody else
early in a deal (the king's player's hand is as likely as any other), which is why the old rule
"call whenever your team is winning the king's trick" was refused a third of the time.

The scart is not a random pair of cards: a dealer voids a short suit or sheds a loose point,
and jacks go with them. Counted over 1,050 calls of strong bots against each other, the jack of
the called suit lay in the scart 64 times where the sampler's uniform prior expected 29, and
those were every refused call. So both estimates weigh the scart JACK_IN_SCART times as likely a
place for a jack as its room alone says (bench figures in docs/operations.md, issue #27 item 3).

Two estimates of the chance:

* `acceptance` — the instant one, for the easy bot: where the seat's knowledge pins the jack,
  certainty; otherwise each location the jack may still be in counts in proportion to the room
  it has left (the sampler's allowed locations and capacities).
* `sampled_acceptance` — the strong bot's: the share of SAMPLES sampled deals (the same sampler
  its search uses) in which the jack is in a hand other than the king's player's, which takes
  every constraint into account together; `sampled` judges a call by that share less its
  standard error (`cautious`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from games.engine.cards import JACKS, KING_SUIT, STRENGTH_OF, SUIT_OF

from .knowledge import SCART, Knowledge
from .sampling import Sampler
from .trick import leader

CALL_AT = 0.9
SAMPLES = 40
ROUNDS = 6
# How much likelier the scart holds a given jack than its share of the unseen cards' room (the
# measured ratio, 64 to 29).
JACK_IN_SCART = 2.2

Estimate = Callable[[str, int], float]  # (suit, seat of the king's player) -> chance


def _king_seat(cards: tuple[tuple[int, int], ...] | list[tuple[int, int]], suit: str
               ) -> int | None:
    for s, c in cards:
        if KING_SUIT.get(c) == suit:
            return s
    return None


def acceptance(know: Knowledge, sampler: Sampler, suit: str, king_seat: int) -> float:
    """The instant estimate that a call of `suit` finds a target (see the module's docstring)."""
    jack = JACKS[suit]
    if know.hand >> jack & 1:
        return 0.0 if king_seat == know.seat else 1.0
    for s in range(4):
        if know.pinned[s] >> jack & 1:
            return 0.0 if s == king_seat else 1.0
    if know.seen >> jack & 1:
        return 0.0  # played, on the table, or in the dealer's own scart
    mask = sampler.allowed.get(jack, 0)
    room = [(loc, sampler.capacity[loc]) for loc in range(len(sampler.capacity))
            if mask >> loc & 1 and sampler.capacity[loc] > 0]
    total = sum(r for _, r in room)
    if total == 0:
        return 0.0
    good = sum(r for loc, r in room if loc < 4 and loc != king_seat)
    scart = sum(r for loc, r in room if loc == SCART)
    return good / (total + (JACK_IN_SCART - 1) * scart)


def _elsewhere(know: Knowledge, sampler: Sampler, jack: int, king_seat: int,
               rng: random.Random, samples: int) -> tuple[int, int]:
    """In how many of `samples` sampled deals the jack lies in a hand other than the king's
    player's (own hand included: a self-BUOB is accepted too), and in how many in the scart."""
    hits = scart = 0
    for _ in range(samples):
        deal = sampler.draw(rng)
        holder = next((s for s in range(4) if deal.hands[s] >> jack & 1), None)
        hits += holder is not None and holder != king_seat
        scart += deal.scart[0] == jack or deal.scart[1] == jack
    return hits, scart


def _share(hits: int, scart: int, samples: int) -> float:
    """The weighted share of deals with the jack elsewhere: each deal with the jack in the
    scart counts JACK_IN_SCART times."""
    return hits / (samples + (JACK_IN_SCART - 1) * scart)


def sampled_acceptance(know: Knowledge, sampler: Sampler, suit: str, king_seat: int,
                       seed: int, samples: int = SAMPLES) -> float:
    """The share of sampled deals in which the jack of `suit` lies in a hand other than the
    king's player's."""
    jack = JACKS[suit]
    if know.seen >> jack & 1 and not know.hand >> jack & 1:
        return 0.0
    hits, scart = _elsewhere(know, sampler, jack, king_seat, random.Random(seed), samples)
    return _share(hits, scart, samples)


def instant(know: Knowledge) -> Estimate:
    made: list[Sampler] = []  # built on the first question: most decisions never ask one

    def estimate(suit: str, king_seat: int) -> float:
        if not made:
            made.append(Sampler(know))
        return acceptance(know, made[0], suit, king_seat)
    return estimate


def cautious(share: float, samples: int) -> float:
    """A sampled share less one standard error. A share of 0.9 is as often a true 0.85 as a
    true 0.95: judged by the share itself (of 40 samples), one call in ten was refused (issue
    #27 item 3 asks for fewer)."""
    return share - math.sqrt(share * (1 - share) / samples)


def sampled(know: Knowledge, seed: int, samples: int = SAMPLES, rounds: int = ROUNDS
            ) -> Estimate:
    """The strong bot's estimate: sampled deals, `samples` at a time, until the share less one
    standard error reaches CALL_AT (call) or the share plus one falls below it (no call), at
    most `rounds` times; then the share less one standard error. A clear case costs one round;
    a true chance of 0.96 is not lost to the noise of one round, nor a true 0.88 called."""
    made: list[Sampler] = []

    def estimate(suit: str, king_seat: int) -> float:
        jack = JACKS[suit]
        if know.seen >> jack & 1 and not know.hand >> jack & 1:
            return 0.0
        if not made:
            made.append(Sampler(know))
        rng = random.Random(seed)
        hits = in_scart = n = 0
        for _ in range(rounds):
            more, scart = _elsewhere(know, made[0], jack, king_seat, rng, samples)
            hits += more
            in_scart += scart
            n += samples
            share = _share(hits, in_scart, n)
            error = math.sqrt(share * (1 - share) / n)
            if share - error >= CALL_AT or share + error < CALL_AT:
                break
        return cautious(share, n)
    return estimate


def _holds(know: Knowledge, cards: list[tuple[int, int]], led: str | None) -> bool:
    """Whether the card winning `cards` should hold against the opponents still to play: the
    last card, a high trump, or a plain card no opponent after it has shown a void against."""
    best = leader(cards, led)
    if best is None:
        return False
    rest = [(know.seat + k) % 4 for k in range(1, 5 - len(cards))]
    opponents = [s for s in rest if s % 2 != know.seat % 2]
    if not opponents:
        return True
    card = best[1]
    if SUIT_OF[card] == "T":
        return STRENGTH_OF[card] >= 19
    return not any(str(led) in know.voids[s] for s in opponents)


def choose_call(view: Mapping[str, Any], know: Knowledge, estimate: Estimate) -> str | None:
    """A BUOB suit to call now, before this seat plays, or None: the seat's team is winning the
    trick, the jack is not the seat's own, and the call is likely to be accepted."""
    suits = view["actions"]["buob_suits"]
    trick = know.trick
    if not suits or trick is None or not trick.cards:
        return None
    best = leader(trick.cards, trick.led)
    if best is None or best[0] % 2 != know.seat % 2:
        return None
    choices: list[tuple[float, str]] = []
    for suit in suits:
        if know.hand >> JACKS[suit] & 1:
            continue
        king_seat = _king_seat(trick.cards, suit)
        if king_seat is None:
            continue
        p = estimate(str(suit), king_seat)
        if p >= CALL_AT:
            choices.append((p, str(suit)))
    if not choices:
        return None
    return max(choices)[1]


def attached_call(know: Knowledge, card: int, estimate: Estimate) -> str | None:
    """A call to attach to this seat's own king as it plays it, or None: the king (or the
    partner's card) should take the trick, and the jack is likely in another hand."""
    suit = KING_SUIT.get(card)
    trick = know.trick
    if suit is None or trick is None or suit in know.led_suits:
        return None
    if trick.buob is not None or suit in trick.refused:
        return None
    if know.hand >> JACKS[suit] & 1:
        return None  # a self-BUOB by the king's player is no candidate (RULES §8)
    led = trick.led or suit
    cards = [*trick.cards, (know.seat, card)]
    best = leader(cards, led)
    if best is None or best[0] % 2 != know.seat % 2 or not _holds(know, cards, led):
        return None
    return suit if estimate(suit, know.seat) >= CALL_AT else None


__all__ = ["CALL_AT", "JACK_IN_SCART", "Estimate", "acceptance", "attached_call", "cautious",
           "choose_call", "instant", "sampled", "sampled_acceptance"]

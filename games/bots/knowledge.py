"""What one seat knows about a deal, from its view and the events it was sent — nothing else.

Cards are engine ints, sets of cards bitmasks (games/engine/cards.py). The facts gathered here:

* the seat's own hand, the open trick, and every completed trick's final cards and winner;
* where the piles stand (rebuilt from public tricks, or only their sizes when the events do not
  cover the whole deal);
* voids: a seat that did not follow the led suit holds none of it; one that neither followed
  nor trumped holds no trump either (a forced BUOB jack proves nothing);
* cards pinned to a hand: reveal cards not yet played, a card a BUOB exchange sent back to a
  hand, a jack that an accepted call found in a hand;
* the scart: the dealer's own, or for the others two cards the Scart rule allowed;
* jacks whose BUOB call found no target: in the scart or in the hand of the king's player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import (
    ALL_MASK,
    HONOURS_MASK,
    INDEX,
    JACKS,
    KING_SUIT,
    NARR,
    SUIT_OF,
    SUITS,
    TRUMP_MASK,
)
from games.engine.hypothesis import open_trick, piles_after
from games.engine.state import PLAY, Trick

SCART = 4  # location index of the scart, after the four seats
PILE_A, PILE_B = 5, 6  # unknown cards already won, when the events miss some tricks
LOCATIONS = 7


def _mask(ids: Sequence[str]) -> int:
    m = 0
    for c in ids:
        m |= 1 << INDEX[c]
    return m


@dataclass
class Knowledge:
    seat: int
    dealer: int
    hand: int
    hand_counts: list[int]
    trick: Trick | None
    tricks: list[Trick]  # completed tricks, final cards (empty if the history is not known)
    history_known: bool
    led_suits: str  # suits led in completed tricks ("" if unknown and none can be inferred)
    piles: tuple[int, int]  # known part of each team's pile
    pile_unknown: tuple[int, int]  # cards of each pile that this seat cannot name
    scart: int | None  # the dealer's own scart; None for the others
    scart_forbidden: int  # cards the Scart rule kept out of the scart
    seen: int  # every card this seat can place: own hand, played cards, own scart
    voids: list[set[str]] = field(default_factory=lambda: [set(), set(), set(), set()])
    pinned: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # known in a hand
    only_in: dict[int, int] = field(default_factory=dict)  # card -> allowed locations mask
    # The completed tricks' cards as they were played (before any BUOB exchange), and whether a
    # call was made in them: what the search's inference reads (inference.py). Empty when the
    # history is not known.
    plays: list[tuple[tuple[tuple[int, int], ...], bool]] = field(default_factory=list)

    def unseen(self) -> int:
        """The cards whose place this seat does not know: other hands, the scart, piles."""
        pinned = self.pinned[0] | self.pinned[1] | self.pinned[2] | self.pinned[3]
        return ALL_MASK & ~self.seen & ~pinned


def _forbidden_in_scart(rule: str) -> int:
    # Under honours_and_trumps a dealer with fewer than two other cards may fall back to the
    # honours rule; such a hand is so rare that the sampler does not model it, and a guess that
    # misses it still only guesses.
    if rule == "none":
        return 0
    if rule == "honours_and_trumps":
        return HONOURS_MASK | TRUMP_MASK
    return HONOURS_MASK


class _Trick:
    """One trick as the events tell it: the original plays, the call, the outcome."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.plays: list[tuple[int, int]] = []
        self.call: Mapping[str, Any] | None = None
        self.returned: tuple[int, int] | None = None  # (seat, card) sent back to a hand
        self.final: list[tuple[int, int]] | None = None
        self.winner: int | None = None


def _infer_voids(plays: Sequence[tuple[int, int]], call: Mapping[str, Any] | None,
                 voids: list[set[str]]) -> str | None:
    """Voids shown by the plays of one trick (original cards, before any exchange); returns the
    led suit."""
    led: str | None = None
    forced_jack = None
    if call is not None and call.get("mode") == "forced":
        forced_jack = (call["target"], JACKS[call["suit"]])
    for s, c in plays:
        if c == NARR:
            continue
        suit = SUIT_OF[c]
        if led is None:
            led = suit
            continue
        if forced_jack == (s, c):
            continue
        if suit != led:
            voids[s].add(str(led))
            if suit != "T":
                voids[s].add("T")
    return led


def _constrain_refusal(know: Knowledge, plays: Sequence[tuple[int, int]], caller: int,
                       suit: str | None, buob_caller: str, led_before: str) -> None:
    """A call refused for where a jack lies: each jack the call considered is in the scart or
    in its king's player's hand (RULES §8: candidates are jacks in another player's hand)."""
    for s, c in plays:
        ksuit = KING_SUIT.get(c)
        if ksuit is None or ksuit in led_before:
            continue
        if buob_caller == "king_team" and s % 2 != caller % 2:
            continue
        if suit is not None and ksuit != suit:
            continue
        jack = JACKS[ksuit]
        allowed = (1 << SCART) | (1 << s) | (1 << PILE_A) | (1 << PILE_B)
        know.only_in[jack] = know.only_in.get(jack, (1 << LOCATIONS) - 1) & allowed


def build(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> Knowledge:
    """Everything the seat of `view` knows about the current deal (PLAY phase)."""
    seat = view["seat"]
    if view["phase"] != PLAY or seat is None:
        raise ValueError("knowledge is gathered for a seated player in the PLAY phase")
    options = view["options"]
    hand = _mask(view["hand"])
    current = open_trick(view["trick"]) if view["trick"] is not None else None

    # Replay the deal's events in order (from its last round_started: a caller may pass more).
    tricks: dict[int, _Trick] = {}
    # (trick, caller, suit, cards on the table then)
    refusals: list[tuple[int, int, str | None, int]] = []
    reveal: dict[int, int] = {}
    returned_to: dict[int, int] = {}  # card -> seat, a card a BUOB exchange sent back
    for e in events:
        kind = e.get("type")
        if kind == "round_started":
            tricks.clear()
            refusals.clear()
            reveal.clear()
            returned_to.clear()
        elif kind == "reveal_shown":
            reveal = {int(s): INDEX[c] for s, c in e["reveal"].items()}
        elif kind == "card_played":
            t = tricks.setdefault(e["trick"], _Trick(e["trick"]))
            card = INDEX[e["card"]]
            t.plays.append((e["seat"], card))
            returned_to.pop(card, None)
        elif kind == "buob_called":
            tricks.setdefault(e["trick"], _Trick(e["trick"])).call = e
        elif kind == "buob_refused":
            on_table = len(tricks[e["trick"]].plays) if e["trick"] in tricks else 0
            refusals.append((e["trick"], e["caller"], e["suit"], on_table))
        elif kind == "buob_resolved":
            t = tricks.setdefault(e["trick"], _Trick(e["trick"]))
            if e["returned_card"] is not None:
                card = INDEX[e["returned_card"]]
                t.returned = (e["target"], card)
                returned_to[card] = e["target"]
        elif kind == "trick_won":
            t = tricks.setdefault(e["trick"], _Trick(e["trick"]))
            t.final = [(int(s), INDEX[c]) for s, c in e["cards"]]
            t.winner = e["winner"]
    if view.get("reveal"):
        reveal = {int(s): INDEX[c] for s, c in view["reveal"].items()}

    played_so_far = view["tricks_played"]
    complete = [tricks[n] for n in range(1, played_so_far + 1)
                if n in tricks and tricks[n].final is not None and tricks[n].plays]
    history_known = len(complete) == played_so_far
    voids: list[set[str]] = [set(), set(), set(), set()]
    done: list[Trick] = []
    plays: list[tuple[tuple[tuple[int, int], ...], bool]] = []
    led_suits = ""
    if history_known:
        for t in complete:
            plays.append((tuple(t.plays), t.call is not None))
            led = _infer_voids(t.plays, t.call, voids)
            assert t.final is not None and t.winner is not None
            done.append(Trick(t.number, t.plays[0][0], tuple(t.final), led, None, t.winner))
            if led is not None and led not in led_suits:
                led_suits += led
    else:
        # Only the view: the last trick (its original plays rebuilt from the exchange) is all.
        returned_to.clear()
        last = view.get("last_trick")
        if last is not None:
            final = [(int(s), INDEX[c]) for s, c in last["cards"]]
            original = list(final)
            call = last.get("buob")
            if call is not None and call.get("returned_card") is not None:
                back = INDEX[call["returned_card"]]
                original = [(s, back if s == call["target"] else c) for s, c in original]
                returned_to[back] = call["target"]
            _infer_voids(original, call, voids)
            done.append(Trick(last["number"], last["leader"], tuple(final), last["led"], None,
                              last["winner"]))
            led_suits = last["led"] or ""
    if current is not None:
        # The view's trick does not carry its public refusals (its offered suits leave them
        # out); the events do. A refused call without a suit found no candidate at all.
        refused = {c for number, _, suit, _ in refusals if number == current.number
                   for c in (suit or "".join(SUITS))}
        if refused:
            current = current._replace(refused="".join(sorted(refused)))
        _infer_voids(current.cards, None if current.buob is None else
                     {"mode": current.buob.mode, "target": current.buob.target,
                      "suit": current.buob.suit}, voids)

    seen = hand
    for won in done:
        for _, c in won.cards:
            seen |= 1 << c
    if current is not None:
        for _, c in current.cards:
            seen |= 1 << c
    scart = _mask(view["scart"]) if view.get("scart") else None
    if scart is not None:
        seen |= scart

    counts = {"A": view["pile_counts"]["A"], "B": view["pile_counts"]["B"]}
    if history_known:
        piles = piles_after(done)
        unknown = (0, 0)
    else:
        # Piles hold the known last trick; the rest of each pile is unknown.
        piles = piles_after(done) if done else (0, 0)
        unknown = (max(0, counts["A"] - piles[0].bit_count()),
                   max(0, counts["B"] - piles[1].bit_count()))

    know = Knowledge(
        seat=seat, dealer=view["dealer"], hand=hand, hand_counts=list(view["hand_counts"]),
        trick=current, tricks=done, history_known=history_known, led_suits=led_suits,
        piles=piles, pile_unknown=unknown, scart=scart,
        scart_forbidden=_forbidden_in_scart(options["scart_forbidden"]), seen=seen,
        voids=voids, plays=plays,
    )
    # Cards known to lie in another seat's hand.
    for card, owner in returned_to.items():
        if owner != seat and not seen >> card & 1:
            know.pinned[owner] |= 1 << card
    piles_mask = (1 << PILE_A) | (1 << PILE_B)
    for s, card in reveal.items():
        if s == seat or seen >> card & 1:
            continue
        places = 1 << s
        if s == know.dealer and scart is None and not know.scart_forbidden >> card & 1:
            places |= 1 << SCART  # kept, or discarded by the dealer
        if not history_known:
            places |= piles_mask  # perhaps played in a trick this seat was not told about
        if places == 1 << s:
            know.pinned[s] |= 1 << card
        else:
            know.only_in[card] = places
    if current is not None and current.buob is not None:
        b = current.buob
        jack = JACKS[b.suit]
        if b.target != seat and not seen >> jack & 1:
            know.pinned[b.target] |= 1 << jack
    led_at: dict[int, str] = {}
    run = ""
    for won in done:
        led_at[won.number] = run
        if won.led and won.led not in run:
            run += won.led
    if current is not None:
        led_at[current.number] = led_suits
    for number, caller, suit, on_table in refusals:
        if number in tricks and (history_known or (current is not None
                                                  and number == current.number)):
            _constrain_refusal(know, tricks[number].plays[:on_table], caller, suit,
                               options["buob_caller"], led_at.get(number, led_suits))
    for card in list(know.only_in):
        if seen >> card & 1:
            del know.only_in[card]
    return know

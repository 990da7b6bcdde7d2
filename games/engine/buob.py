"""BUOB — the king calls its buob (RULES.md §8): eligibility, candidates, priority, modes."""

from __future__ import annotations

from .cards import ALL_MASK, JACKS, KING_SUIT, SUITS
from .errors import ErrorCode, RuleError
from .options import Options
from .state import Buob, BuobMode, Deal, Trick


def _kings_or_refusal(trick: Trick, caller: int, options: Options
                      ) -> tuple[list[tuple[int, int]], ErrorCode | None]:
    """(seat, king) pairs on the table, in play order, that this caller's call may use, or no
    pair and the code that refuses the call (codes 3 and 4 of RULES §8).

    Returned rather than raised: `callable_suits` asks this for every seat's view on every
    card, and most tricks hold no king; building and catching an exception there cost more
    than the whole answer."""
    kings = [(s, c) for s, c in trick.cards if c in KING_SUIT]
    if not kings:
        return kings, ErrorCode.BUOB_NO_KING
    if options.buob_caller == "king_team":
        kings = [(s, c) for s, c in kings if s % 2 == caller % 2]
        if not kings:
            return kings, ErrorCode.BUOB_NOT_ALLOWED_CALLER
    return kings, None


def _kings_considered(trick: Trick, caller: int, options: Options) -> list[tuple[int, int]]:
    """(seat, king) pairs on the table, in play order, that this caller's call may use."""
    kings, refusal = _kings_or_refusal(trick, caller, options)
    if refusal is not None:
        raise RuleError(refusal)
    return kings


def evaluate_call(deal: Deal, trick: Trick | None, hands: tuple[int, ...],
                  caller: int, suit: object, options: Options) -> Buob:
    """The call `caller` would make on `trick` naming `suit` (None: the server chooses).

    Raises RuleError with the first code of §8 whose predicate holds. `hands` are the hands at
    call time (for a call attached to PLAY_CARD, without the card just placed).
    """
    if trick is None or not trick.cards:
        raise RuleError("BUOB_TRICK_NOT_OPEN")
    if trick.buob is not None:
        raise RuleError("BUOB_ALREADY_CALLED")
    kings = _kings_considered(trick, caller, options)
    eligible = [(s, c) for s, c in kings if KING_SUIT[c] not in deal.led_suits]
    if not eligible:
        raise RuleError("BUOB_KING_SUIT_ALREADY_LED")
    # Candidates: eligible kings whose jack is in a hand other than the king player's; a suit
    # already refused publicly in this trick is none (RULES §8: it stays refused, alike).
    candidates: list[tuple[int, str, int]] = []  # (king seat, suit, jack holder)
    for king_seat, king in eligible:
        ksuit = KING_SUIT[king]
        if ksuit in trick.refused:
            continue
        jack_bit = 1 << JACKS[ksuit]
        for holder in range(4):
            if hands[holder] & jack_bit:
                if holder != king_seat:
                    candidates.append((king_seat, ksuit, holder))
                break
    chosen: tuple[int, str, int] | None = None
    if suit is not None:
        for cand in candidates:
            if cand[1] == suit:
                chosen = cand
                break
        if chosen is None:
            raise RuleError("BUOB_SUIT_NOT_CANDIDATE")
    else:
        if not candidates:
            raise RuleError("BUOB_NO_TARGET")
        for cand in candidates:
            if cand[1] == trick.led:
                chosen = cand
                break
        if chosen is None:
            chosen = candidates[0]  # the candidate king played earliest in this trick
    king_seat, ksuit, target = chosen
    if target == caller:
        mode = BuobMode.SELF
    elif any(s == target for s, _ in trick.cards):
        mode = BuobMode.DEFERRED
    else:
        mode = BuobMode.FORCED
    return Buob(caller=caller, suit=ksuit, target=target, mode=mode, king_seat=king_seat)


def refused_suits(deal: Deal, trick: Trick, caller: int, suit: str | None,
                  options: Options) -> str:
    """The open trick's refused suits after `caller`'s call naming `suit` (None: no suit) was
    refused with BUOB_SUIT_NOT_CANDIDATE or BUOB_NO_TARGET (RULES §8), on `trick` as the call
    saw it.

    Judged from public facts alone, so that what every view leaves out depends on the public
    refusal and the table, never on where the jack lies: the suits of the eligible kings on the
    table that this call considered (with a named suit, that suit only, if it is one of them).
    A suit whose king is not on the table, or not considered, or already led, was refused for
    a public reason and is not recorded. The earlier refusals of the trick are kept.
    """
    kings = _kings_considered(trick, caller, options)  # codes 3 and 4 came before 6 and 7
    shown = {KING_SUIT[c] for _, c in kings if KING_SUIT[c] not in deal.led_suits}
    if suit is not None:
        shown &= {suit}
    return "".join(s for s in SUITS if s in shown or s in trick.refused)


def callable_suits(deal: Deal, seat: int, options: Options) -> list[str]:
    """Suits this seat could name in a call now, judged only from what the seat can see.

    The engine's own check looks at every hand; this one must not, or a view would betray
    where a jack lies (in another hand or in the scart). A jack counts as possibly held by
    someone unless the seat sees that it is out of play: already played, in the seat's own
    scart, or in the seat's own hand while the seat played that king. A suit refused publicly
    in this trick (RULES §8; `Trick.refused`) is offered to nobody for the rest of it.
    """
    trick = deal.current
    if trick is None or trick.buob is not None:
        return []
    for _, c in trick.cards:  # most tricks hold no king: answer those first
        if c in KING_SUIT:
            break
    else:
        return []
    kings, refusal = _kings_or_refusal(trick, seat, options)
    if refusal is not None:
        return []
    # The cards played so far (public: the completed tricks and the open one). In PLAY every
    # card of the deal is in exactly one place: a hand, the scart, a completed trick or the
    # open trick (a BUOB exchange moves the jack into a trick and the card it replaces back
    # into a hand). So the played cards are those in no hand and not in the scart: the same
    # set as the union of the tricks, without walking up to 18 of them on every view.
    assert deal.scart is not None  # discarded before PLAY
    scart = (1 << deal.scart[0]) | (1 << deal.scart[1])
    h0, h1, h2, h3 = deal.hands
    played = ALL_MASK & ~(h0 | h1 | h2 | h3 | scart)
    own_scart = scart if seat == deal.dealer else 0
    out: list[str] = []
    for king_seat, king in kings:
        ksuit = KING_SUIT[king]
        if ksuit in deal.led_suits or ksuit in out or ksuit in trick.refused:
            continue
        jack_bit = 1 << JACKS[ksuit]
        if played & jack_bit or own_scart & jack_bit:
            continue
        if king_seat == seat and deal.hands[seat] & jack_bit:
            continue
        out.append(ksuit)
    return [s for s in SUITS if s in out]

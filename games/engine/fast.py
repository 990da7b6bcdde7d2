"""A mutable fast path for playouts: the rest of a deal, full information, no BUOB calls.

The bots' search (games/bots/) plays thousands of deals to their end from sampled states in
which every hand is known. `apply` would rebuild the immutable table on every card; a
`FastDeal` changes one object in place instead. It implements only what a playout needs —
trick play from any point of the PLAY phase (mid-trick, a BUOB call already accepted in the
open trick), trick completion, the Narr debt and the scoring of RULES.md §7, §9 and §10 — and
tests/engine/test_fast_playout.py proves it equal to `apply` on thousands of random deals
(same trick winners, piles, Narr debts and points). The rules themselves stay in rules.py:
legality and the trick rank table are the same code and tables the engine uses; what is
repeated here, in place instead of on tuples, is the order of a trick's completion.

Two ways in:

* `playout(state, rng)` — every seat plays `rng.choice(sorted legal card ints)` to the end of
  the deal; returns the deal's points (A, B), the numbers the `deal_scored` event reports.
* `FastDeal.from_state(state)` — for a policy of one's own: `legal_mask()` / `legal_cards()`
  for the seat on `turn`, `play(card)`, `finished`, `points()`; `copy()` to branch.

Cards are the engine's ints (cards.py), hands and piles bitmasks. The Bock multiplier is not
part of a deal's points (it doubles what the points add to the match totals, RULES §11):
`multiplier` carries it for a caller that wants the totals.
"""

from __future__ import annotations

import random

from .cards import JACKS, NARR, NARR_BIT, ONE_POINT_MASK, SUIT_OF, cards_of, counted_points
from .errors import ErrorCode, RuleError
from .rules import lowest_cards, trick_legality, trick_winner
from .state import PLAY, TEAMS, TRICKS_PER_DEAL, Buob, BuobMode, MatchState, NarrDebt, Team

_FORCED = BuobMode.FORCED
_PENDING = "pending"


class FastDeal:
    """One deal in its PLAY phase, changed in place. Not a MatchState: nothing outside a
    playout may see it (it holds every hand), and nothing converts it back."""

    __slots__ = ("buob", "cards", "dealer", "debt", "hands", "led", "leader", "multiplier",
                 "number", "piles", "scart", "turn", "winners")

    hands: list[int]  # the four hands
    piles: list[int]  # team A's and team B's won cards
    cards: list[tuple[int, int]]  # the open trick's (seat, card) in play order
    number: int  # the open trick's number, 1-19; 20 once the deal is over
    leader: int
    led: str | None  # the open trick's led suit
    buob: Buob | None  # the open trick's accepted call (only a call made before the copy)
    turn: int  # the seat on turn; meaningless once `finished`
    debt: NarrDebt | None
    winners: list[int]  # the winner of every completed trick, in order
    dealer: int
    scart: int  # the dealer's two discarded cards, added to its team's pile at the end
    multiplier: int  # 2 in a Bock deal, else 1 (not part of `points()`)

    @classmethod
    def from_state(cls, state: MatchState) -> FastDeal:
        """A copy of `state`'s deal. `state` must be in the PLAY phase (RuleError
        WRONG_PHASE otherwise); its hands are taken as they are, so for a seat's playouts
        they are a sampled deal of the cards it cannot see."""
        deal = state.deal
        if state.phase != PLAY or deal is None or deal.current is None or deal.turn is None:
            raise RuleError(ErrorCode.WRONG_PHASE)
        assert deal.scart is not None  # PLAY follows the Scart
        trick = deal.current
        new = cls.__new__(cls)
        new.hands = list(deal.hands)
        new.piles = list(deal.piles)
        new.cards = list(trick.cards)
        new.number = trick.number
        new.leader = trick.leader
        new.led = trick.led
        new.buob = trick.buob
        new.turn = deal.turn
        new.debt = deal.narr_debt
        new.winners = [t.winner for t in deal.tricks if t.winner is not None]
        new.dealer = deal.dealer
        new.scart = (1 << deal.scart[0]) | (1 << deal.scart[1])
        new.multiplier = 2 if deal.is_bock else 1
        return new

    def copy(self) -> FastDeal:
        """An independent copy, to play one branch of a search without touching this one."""
        new = FastDeal.__new__(FastDeal)
        new.hands = self.hands[:]
        new.piles = self.piles[:]
        new.cards = self.cards[:]
        new.number = self.number
        new.leader = self.leader
        new.led = self.led
        new.buob = self.buob
        new.turn = self.turn
        new.debt = self.debt
        new.winners = self.winners[:]
        new.dealer = self.dealer
        new.scart = self.scart
        new.multiplier = self.multiplier
        return new

    @property
    def finished(self) -> bool:
        """True once the 19th trick is complete."""
        return self.number > TRICKS_PER_DEAL

    def legal_mask(self) -> int:
        """The cards the seat on turn may play (RULES §7, §8), as a bitmask; 0 when over."""
        if self.number > TRICKS_PER_DEAL:
            return 0
        return trick_legality(self.hands[self.turn], self.led, self.buob, self.turn)[0]

    def legal_cards(self) -> list[int]:
        """The same cards as sorted ints, the list a playout draws from."""
        return cards_of(self.legal_mask())

    def play(self, card: int) -> None:
        """The seat on turn plays `card`; the 4th card completes the trick, the 19th trick
        scores the deal. An illegal card raises RuleError with the engine's code and changes
        nothing."""
        if self.number > TRICKS_PER_DEAL:
            raise RuleError(ErrorCode.WRONG_PHASE)
        seat = self.turn
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise RuleError(ErrorCode.CARD_NOT_IN_HAND)
        legal, refusal = trick_legality(hand, self.led, self.buob, seat)
        if not legal >> card & 1:
            raise RuleError(refusal)
        self.hands[seat] = hand & ~(1 << card)
        if self.led is None and card != NARR:
            self.led = SUIT_OF[card]
        self.cards.append((seat, card))
        if len(self.cards) < 4:
            self.turn = (seat + 1) % 4
        else:
            self._complete_trick()

    def _complete_trick(self) -> None:
        """RULES §7, in the engine's order (rules._complete_trick): exchange → winner →
        distribute → settle the debt → next trick, or the deal's end after trick 19."""
        cards = self.cards
        number = self.number
        led = self.led
        assert led is not None  # four cards, at most one of them the Narr
        buob = self.buob
        if buob is not None and buob.mode != _FORCED:
            jack = JACKS[buob.suit]
            target = buob.target
            for i, (s, x) in enumerate(cards):
                if s == target:
                    if x != jack:
                        hands = self.hands
                        hands[target] = (hands[target] & ~(1 << jack)) | (1 << x)
                        cards[i] = (target, jack)
                    break
        winner, mask, narr_owner = trick_winner(cards, led, buob)
        wteam = winner % 2
        piles = self.piles
        debt = self.debt
        if narr_owner >= 0 and number < TRICKS_PER_DEAL:
            owner_team = narr_owner % 2
            piles[owner_team] |= NARR_BIT
            piles[wteam] |= mask & ~NARR_BIT
            if owner_team != wteam:
                debt = NarrDebt(TEAMS[owner_team], TEAMS[wteam], number, _PENDING)
        else:
            piles[wteam] |= mask
        if debt is not None and debt.status == _PENDING:
            dt = 0 if debt.debtor == Team.A else 1
            payable = piles[dt] & ONE_POINT_MASK
            if payable:
                paid = (payable & -payable).bit_length() - 1
                piles[dt] &= ~(1 << paid)
                piles[1 - dt] |= 1 << paid
                debt = debt._replace(status="settled", paid_card=paid, settled_at=number)
        self.debt = debt
        self.winners.append(winner)
        self.number = number + 1
        self.cards = []
        self.led = None
        self.buob = None
        self.leader = self.turn = winner
        if number == TRICKS_PER_DEAL:
            self._end_of_deal()

    def _end_of_deal(self) -> None:
        """RULES §10.1: the scart to the dealer's team, then a still-pending debt is paid with
        the debtor's lowest-value card, or with the Narr if the debtor owns nothing else."""
        piles = self.piles
        piles[self.dealer % 2] |= self.scart
        debt = self.debt
        if debt is not None and debt.status == _PENDING:
            dt = 0 if debt.debtor == Team.A else 1
            others = piles[dt] & ~NARR_BIT
            paid = lowest_cards(others, 1)[0] if others else NARR
            piles[dt] &= ~(1 << paid)
            piles[1 - dt] |= 1 << paid
            self.debt = debt._replace(status="settled", paid_card=paid, settled_at="end")

    def points(self) -> tuple[int, int]:
        """The deal's points (A, B), A + B = 72, as the `deal_scored` event reports them."""
        if self.number <= TRICKS_PER_DEAL:
            raise RuleError(ErrorCode.WRONG_PHASE)
        return counted_points(self.piles[0]), counted_points(self.piles[1])

    def play_randomly(self, rng: random.Random) -> tuple[int, int]:
        """Every seat plays `rng.choice(sorted legal cards)` to the end; the deal's points."""
        # `play` without its checks (the card is drawn from the legal ones), on locals: the
        # inner loop of every playout.
        choice = rng.choice
        hands = self.hands
        while self.number <= TRICKS_PER_DEAL:
            seat = self.turn
            hand = hands[seat]
            led = self.led
            card = choice(cards_of(trick_legality(hand, led, self.buob, seat)[0]))
            hands[seat] = hand & ~(1 << card)
            if led is None and card != NARR:
                self.led = SUIT_OF[card]
            cards = self.cards
            cards.append((seat, card))
            if len(cards) < 4:
                self.turn = (seat + 1) % 4
            else:
                self._complete_trick()
        return self.points()


def playout(state: MatchState, rng: random.Random) -> tuple[int, int]:
    """Play `state`'s deal (PLAY phase, every hand known) to its end, each seat choosing
    `rng.choice(sorted legal card ints)` at its turn and nobody calling BUOB; return the deal's
    points for team A and team B exactly as the engine's scoring gives them (the `points` of
    its `deal_scored` event: Narr debt settled, A + B = 72; the Bock multiplier applies to the
    match totals, not to these). `state` itself is not changed."""
    return FastDeal.from_state(state).play_randomly(rng)


__all__ = ["FastDeal", "playout"]

"""Immutable match and deal state (RULES.md §3–§11).

States are NamedTuples: immutable, cheap to copy with `_replace`, compared by value. Inside, cards
are ints and hands and piles are bitmasks (see cards.py). Their JSON form (card ids, readable in
the admin and stable across versions) is codec.py's.

Phases, BUOB modes and teams are StrEnums: each member is its own string (`Phase.PLAY == "PLAY"`,
`json.dumps(Team.A) == '"A"'`), so stored states, views and events read exactly as before.
"""

from __future__ import annotations

from enum import StrEnum, unique
from typing import NamedTuple

from .cards import cards_of
from .options import Options


@unique
class Phase(StrEnum):
    """The phases of a table (RULES §5)."""

    LOBBY = "LOBBY"
    DEALING = "DEALING"
    REVEAL = "REVEAL"
    SCART = "SCART"
    PLAY = "PLAY"
    ROUND_OVER = "ROUND_OVER"
    MATCH_OVER = "MATCH_OVER"


@unique
class BuobMode(StrEnum):
    """How an accepted BUOB call is carried out (RULES §8)."""

    FORCED = "forced"  # the target has not played yet: it must play the jack
    DEFERRED = "deferred"  # the target already played: exchange when the trick completes
    SELF = "self"  # the caller holds the jack itself: exchange when the trick completes


@unique
class Team(StrEnum):
    """Team A sits on the even seats, team B on the odd ones (RULES §3)."""

    A = "A"
    B = "B"


# The phases by their old names (callers compare and import these).
LOBBY = Phase.LOBBY
DEALING = Phase.DEALING
REVEAL = Phase.REVEAL
SCART = Phase.SCART
PLAY = Phase.PLAY
ROUND_OVER = Phase.ROUND_OVER
MATCH_OVER = Phase.MATCH_OVER
PHASES: tuple[Phase, ...] = tuple(Phase)

TEAMS: tuple[Team, ...] = tuple(Team)
TRICKS_PER_DEAL = 19


def team_of(seat: int) -> Team:
    """Team A sits on the even seats, team B on the odd ones (RULES §3)."""
    return TEAMS[seat % 2]


def next_seat(seat: int) -> int:
    return (seat + 1) % 4


class Buob(NamedTuple):
    """An accepted BUOB call in a trick (RULES §8)."""

    caller: int
    suit: str
    target: int
    mode: BuobMode
    king_seat: int  # who played the called king: wins if the exchange removed every card of L
    returned_card: int | None = None  # set when the trick completes


class Trick(NamedTuple):
    number: int  # 1–19
    leader: int
    cards: tuple[tuple[int, int], ...]  # (seat, card) in play order
    led: str | None  # the led suit L, set by the first non-Narr card
    buob: Buob | None = None
    winner: int | None = None
    # Suits whose BUOB call was refused in this trick for a reason that depends on where a jack
    # lies (RULES §8, codes BUOB_SUIT_NOT_CANDIDATE / BUOB_NO_TARGET): public, so no view offers
    # them again and a later call naming one is refused alike. Canonical suit order, e.g. "CS";
    # only the open trick carries it (a completed trick drops it).
    refused: str = ""


class NarrDebt(NamedTuple):
    debtor: Team
    creditor: Team
    trick: int
    status: str  # "pending" | "settled"
    paid_card: int | None = None
    settled_at: int | str | None = None  # trick number, or "end" for the deal-end fallback


class Deal(NamedTuple):
    number: int  # 1-based inside the match
    dealer: int
    deck: tuple[int, ...]
    passes: int  # passes dealt so far, 0–3
    hands: tuple[int, int, int, int]  # bitmasks
    reveal: tuple[int, int, int, int] | None
    scart: tuple[int, int] | None
    is_bock: bool
    tricks: tuple[Trick, ...]  # completed tricks
    current: Trick | None  # the trick being played (PLAY only)
    turn: int | None  # seat on turn in PLAY
    led_suits: str  # suits led in completed tricks, e.g. "CS"
    piles: tuple[int, int]  # bitmasks of team A's and team B's won cards
    narr_debt: NarrDebt | None
    points: tuple[int, int] | None
    bock_triggered: bool


class MatchState(NamedTuple):
    options: Options
    first_dealer: int
    phase: Phase
    dealer: int  # dealer of the current deal, or of the next one in the lobby
    totals: tuple[int, int]
    deals_played: int  # completed deals in this match
    bock_pending: int
    deal: Deal | None
    winner: str | None  # Team.A | Team.B | "draw" once MATCH_OVER


def new_match_state(options: Options | None = None, first_dealer: int = 0) -> MatchState:
    """A table in its lobby, before the first deal: the owner's seat deals first (RULES §3)."""
    if first_dealer not in (0, 1, 2, 3):
        raise ValueError("first_dealer must be 0–3")
    return MatchState(
        options=options or Options(),
        first_dealer=first_dealer,
        phase=LOBBY,
        dealer=first_dealer,
        totals=(0, 0),
        deals_played=0,
        bock_pending=0,
        deal=None,
        winner=None,
    )


def tricks_won(deal: Deal) -> tuple[int, int]:
    """How many of the deal's completed tricks each team won (A, B)."""
    won = [0, 0]
    for t in deal.tricks:
        assert t.winner is not None  # set when the trick completed
        won[t.winner % 2] += 1
    return won[0], won[1]


def dealt_hands(deal: Deal) -> list[list[int]]:
    """The four hands exactly as dealt (before the scart), rebuilt from the stored deck."""
    hands: list[list[int]] = [[], [], [], []]
    order = [(deal.dealer + k) % 4 for k in (1, 2, 3, 4)]
    pos = 0
    for size_for in ((6, 6), (6, 6), (7, 9)):
        for s in order:
            n = size_for[1] if s == deal.dealer else size_for[0]
            hands[s].extend(deal.deck[pos:pos + n])
            pos += n
    return [sorted(h) for h in hands]


__all__ = [
    "Buob", "BuobMode", "Deal", "MatchState", "NarrDebt", "PHASES", "Phase", "TEAMS", "Team",
    "Trick", "cards_of", "dealt_hands", "new_match_state", "next_seat", "team_of",
    "tricks_won",
]

"""The 78 cards of the 1JJ Troccas pack (RULES.md §2).

Inside the engine a card is an int, its canonical index 0–77 (C1…CK, R…, S…, B…, T1…T21, NARR);
at the edges (actions, events, views, JSON) it is its string id. Sets of cards (hands, piles) are
int bitmasks, which makes following suit a single AND.
"""

from __future__ import annotations

import re

SUITS: tuple[str, ...] = ("C", "R", "S", "B")
TRUMP = "T"
ROUND_SUITS = frozenset({"C", "R"})
_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
_COURT_STRENGTH = {"J": 11, "N": 12, "Q": 13, "K": 14}
_COURT_POINTS = {"J": 2, "N": 3, "Q": 4, "K": 5}

CARD_ID_PATTERN = re.compile(r"^([CRSB]([1-9]|10|J|N|Q|K)|T([1-9]|1[0-9]|2[01])|NARR)$")


def _build() -> tuple[tuple[str, ...], tuple[str | None, ...], tuple[int, ...], tuple[int, ...]]:
    ids: list[str] = []
    suits: list[str | None] = []
    strengths: list[int] = []
    points: list[int] = []
    for suit in SUITS:
        for rank in _RANKS:
            ids.append(suit + rank)
            suits.append(suit)
            if rank in _COURT_STRENGTH:
                strengths.append(_COURT_STRENGTH[rank])
                points.append(_COURT_POINTS[rank])
            else:
                n = int(rank)
                # Round suits rank their numerals upside down: 1 is the highest, 10 the lowest.
                strengths.append(11 - n if suit in ROUND_SUITS else n)
                points.append(1)
    for n in range(1, 22):
        ids.append(f"T{n}")
        suits.append(TRUMP)
        strengths.append(n)
        points.append(5 if n in (1, 21) else 1)
    ids.append("NARR")
    suits.append(None)
    strengths.append(0)
    points.append(5)
    return tuple(ids), tuple(suits), tuple(strengths), tuple(points)


CARD_IDS, _SUIT, _STRENGTH, _POINTS = _build()
NUM_CARDS = len(CARD_IDS)  # 78
INDEX: dict[str, int] = {cid: i for i, cid in enumerate(CARD_IDS)}
NARR = INDEX["NARR"]
NARR_BIT = 1 << NARR
ALL_MASK = (1 << NUM_CARDS) - 1

# Bitmask of every card of a suit ("C", "R", "S", "B", "T").
SUIT_MASK: dict[str, int] = {s: 0 for s in (*SUITS, TRUMP)}
for _i, _s in enumerate(_SUIT):
    if _s is not None:
        SUIT_MASK[_s] |= 1 << _i
TRUMP_MASK = SUIT_MASK[TRUMP]
KINGS = {s: INDEX[s + "K"] for s in SUITS}
JACKS = {s: INDEX[s + "J"] for s in SUITS}
KING_SUIT = {INDEX[s + "K"]: s for s in SUITS}
# Honours (RULES §1): the 4 kings, T1, T21 and the Narr — the cards worth 5.
HONOURS_MASK = sum(1 << i for i, p in enumerate(_POINTS) if p == 5)
ONE_POINT_MASK = sum(1 << i for i, p in enumerate(_POINTS) if p == 1)


def suit(card: int) -> str | None:
    """"C", "R", "S", "B" for suit cards, "T" for trumps, None for the Narr."""
    return _SUIT[card]


def strength(card: int) -> int:
    """Strength inside the card's suit (RULES §2); 0 for the Narr, which has none."""
    return _STRENGTH[card]


def points(card: int) -> int:
    """Raw card points: K 5, Q 4, N 3, J 2, numerals 1, T1 and T21 5, other trumps 1, Narr 5."""
    return _POINTS[card]


SUIT_OF = _SUIT
STRENGTH_OF = _STRENGTH
POINTS_OF = _POINTS


def mask_of(cards: list[int] | tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# The set bits of every byte value, shifted for each of the mask's 10 bytes: turning a hand
# into a list is then ten table look-ups instead of a loop over its bits (the hot path of
# random play and of every view).
_BYTE_CARDS = tuple(
    tuple(tuple(8 * i + k for k in range(8) if b >> k & 1) for b in range(256))
    for i in range((NUM_CARDS + 7) // 8)
)
_MASK_BYTES = (NUM_CARDS + 7) // 8


def cards_of(mask: int) -> list[int]:
    """The cards of a bitmask in canonical order."""
    out: list[int] = []
    if mask.bit_count() <= 8:
        # Few cards (a legal-card set, a trick): peeling bits off is faster than the table.
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    used = mask.to_bytes((mask.bit_length() + 7) >> 3, "little")  # up to the highest card
    for table, byte in zip(_BYTE_CARDS, used, strict=False):
        if byte:
            out += table[byte]
    return out


# The same tables with the cards' ids, and with the raw point sum of each byte's cards: a hand
# in a view or a legal-card list is then ten look-ups, and so is a pile's value at scoring.
# (Bits 78 and 79 of the last byte are no card: a mask never sets them.)
_BYTE_IDS = tuple(tuple(tuple(CARD_IDS[c] for c in cards if c < NUM_CARDS) for cards in table)
                  for table in _BYTE_CARDS)
_BYTE_POINTS = tuple(tuple(sum(_POINTS[c] for c in cards if c < NUM_CARDS) for cards in table)
                     for table in _BYTE_CARDS)


_ID_OF_BIT = {1 << c: cid for c, cid in enumerate(CARD_IDS)}


def ids_of(mask: int) -> list[str]:
    """The card ids of a bitmask in canonical order."""
    if mask.bit_count() <= 4:
        # A legal-card set when following suit is often this small: peeling its bits off is
        # cheaper, each bit's id read from a dict by the bit itself.
        out: list[str] = []
        while mask:
            low = mask & -mask
            out.append(_ID_OF_BIT[low])
            mask ^= low
        return out
    out = []
    # From the lowest byte holding a card up to the highest: a legal-card set is mostly one
    # suit, a few bytes of the ten.
    first = ((mask & -mask).bit_length() - 1) >> 3
    mask >>= first << 3
    used = mask.to_bytes((mask.bit_length() + 7) >> 3, "little")
    for table, byte in zip(_BYTE_IDS_FROM[first], used, strict=False):
        if byte:
            out += table[byte]
    return out


_BYTE_IDS_FROM = tuple(_BYTE_IDS[i:] for i in range(_MASK_BYTES))  # the tables from byte i on


def count(mask: int) -> int:
    return mask.bit_count()


def raw_points(mask: int) -> int:
    total = 0
    for table, byte in zip(_BYTE_POINTS, mask.to_bytes(_MASK_BYTES, "little"), strict=True):
        total += table[byte]
    return total


def counted_points(mask: int) -> int:
    """Points of a pile of N cards: raw sum − N + ⌈N/4⌉ (RULES §10: groups of four count −3)."""
    n = mask.bit_count()
    return raw_points(mask) - n + (n + 3) // 4

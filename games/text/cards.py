"""Display names of the 78 cards (RULES.md §2) in the active language, composed from the
GLOSSARY words: "king of cups" / "retg da cuppas" / "König der Kelche" / "roi de coupes",
"7 of swords", and trumps as Roman numeral + 1JJ caption ("XXI — the World" / "XXI — il mund").

The same names label the cards drawn by static/js/cards.js (its `names` option).
"""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

from games.engine.cards import CARD_ID_PATTERN, CARD_IDS

_COURTS = {
    "K": pgettext_lazy("card rank", "king"),
    "Q": pgettext_lazy("card rank", "queen"),
    "N": pgettext_lazy("card rank", "cavalier"),
    "J": pgettext_lazy("card rank", "jack"),
}

# One pattern per suit, so each language can place and inflect the suit word ("d'épées").
_SUIT_PATTERNS = {
    "C": pgettext_lazy("card name; rank is a rank word or a number", "%(rank)s of cups"),
    "R": pgettext_lazy("card name; rank is a rank word or a number", "%(rank)s of coins"),
    "S": pgettext_lazy("card name; rank is a rank word or a number", "%(rank)s of swords"),
    "B": pgettext_lazy("card name; rank is a rank word or a number", "%(rank)s of batons"),
}

# The captions of the 1JJ trumps, T1…T21 (GLOSSARY.md).
_CAPTIONS = (
    pgettext_lazy("trump caption", "the Magician"),
    pgettext_lazy("trump caption", "Juno"),
    pgettext_lazy("trump caption", "the Empress"),
    pgettext_lazy("trump caption", "the Emperor"),
    pgettext_lazy("trump caption", "Jupiter"),
    pgettext_lazy("trump caption", "the Lover"),
    pgettext_lazy("trump caption", "the Chariot"),
    pgettext_lazy("trump caption", "Justice"),
    pgettext_lazy("trump caption", "the Hermit"),
    pgettext_lazy("trump caption", "the Wheel of Fortune"),
    pgettext_lazy("trump caption", "Strength"),
    pgettext_lazy("trump caption", "the Hanged Man"),
    pgettext_lazy("trump caption", "Death"),
    pgettext_lazy("trump caption", "Temperance"),
    pgettext_lazy("trump caption", "the Devil"),
    pgettext_lazy("trump caption", "the Tower"),
    pgettext_lazy("trump caption", "the Star"),
    pgettext_lazy("trump caption", "the Moon"),
    pgettext_lazy("trump caption", "the Sun"),
    pgettext_lazy("trump caption", "Judgement"),
    pgettext_lazy("trump caption", "the World"),
)
_TRUMP_PATTERN = pgettext_lazy("trump card name", "%(numeral)s — %(caption)s")
_NARR = pgettext_lazy("card name", "the Fool")

_ROMAN = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman_numeral(n: int) -> str:
    """1 → "I", 21 → "XXI" (the trumps' range and beyond, up to 39)."""
    if not 1 <= n <= 39:
        raise ValueError(f"no trump numeral for {n}")
    out = ""
    for value, letters in _ROMAN:
        while n >= value:
            out += letters
            n -= value
    return out


def card_name(card_id: str) -> str:
    """The card's name in the active language; ValueError for an unknown id."""
    if not CARD_ID_PATTERN.match(card_id):
        raise ValueError(f"unknown card id {card_id!r}")
    if card_id == "NARR":
        return str(_NARR)
    suit, rank = card_id[0], card_id[1:]
    if suit == "T":
        n = int(rank)
        return str(_TRUMP_PATTERN) % {"numeral": roman_numeral(n), "caption": _CAPTIONS[n - 1]}
    return str(_SUIT_PATTERNS[suit]) % {"rank": _COURTS.get(rank, rank)}


def card_names() -> dict[str, str]:
    """All 78 names in canonical order, in the active language."""
    return {card_id: card_name(card_id) for card_id in CARD_IDS}

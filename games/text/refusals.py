"""Why a card of the hand cannot be played now (issue #23 item 5): the sentences the table
shows for the view's `refusal` (games/engine/views.py `refusal`), in the page's language.

The view carries the engine's code and card ids, never a sentence: one `state` frame is
encoded once for every socket of its audience, whatever their languages (games/live/
broadcast.py), and the ids are a few bytes. The sentences are here, in the gettext catalogs
like every other word of the table, and reach the script with `ui_strings` (games/text/
table.py). The script fills them in: `%(cards)s` with the named cards' names (games/text/
cards.py, the page's `card-names`) joined by `cards_and`, `%(suit)s` with the word of the suit
led (`suit_C` … `suit_T`), and adds `refusal_narr` when the Narr is among the legal cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.engine.errors import ErrorCode
from games.text.cards import card_name
from games.text.errors import message_for

# The codes of a refusal that names no card: the error's own sentence says it all (RULES §12).
_PLAIN = (ErrorCode.NOT_YOUR_TURN, ErrorCode.WRONG_PHASE, ErrorCode.MATCH_OVER)


def refusal_strings() -> dict[str, str]:
    """`refusal_<CODE>` for every code a view's refusal carries, and the words the script
    composes them with, in the active language. The codes that name cards (the cards
    the rule asks for instead, RULES §7, §8) have sentences of their own."""
    s = {
        # "You hold 3 of cups and king of cups: follow cups." (the seat's cards of the suit led)
        f"refusal_{ErrorCode.MUST_FOLLOW_SUIT}": _("You hold %(cards)s: follow %(suit)s."),
        # The seat holds no card of the suit led; %(cards)s are its trumps.
        f"refusal_{ErrorCode.MUST_PLAY_TRUMP}": _("You cannot follow %(suit)s, but you hold "
                                                  "%(cards)s: play a trump."),
        # %(cards)s are the dealer's own cards the room's rules keep out of the Scart.
        f"refusal_{ErrorCode.SCART_FORBIDDEN_CARD}": _("Under this room's rules the Scart "
                                                       "takes none of %(cards)s: choose "
                                                       "other cards."),
        # %(cards)s is the one called jack.
        f"refusal_{ErrorCode.BUOB_FORCED_JACK}": _("BUOB was called on you: you must play the "
                                                   "called jack (%(cards)s)."),
        # Added after the sentence when the Narr may be played instead (RULES §7).
        "refusal_narr": _("You may also play the Narr."),
        # Two or more card names: "3 of cups, 7 of cups and king of cups".
        "cards_and": _("%(cards)s and %(last)s"),
    }
    for code in _PLAIN:
        s[f"refusal_{code}"] = message_for(code)
    return s


def _suit_word(suit: str) -> str:
    # The same words as the table's `suit_C` … `suit_T` (games/text/table.py).
    return {"C": _("cups"), "R": _("coins"), "S": _("swords"), "B": _("batons"),
            "T": _("trumps")}.get(suit, "")


def sentence(code: str, refusal: Mapping[str, Any] | None, narr_legal: bool = False) -> str:
    """The refusal of a move as the table says it, composed on the server (the lessons,
    games/teaching/course.py): with the cards of the player's hand the rule asks for when the
    view's `refusal` is this code's, else the code's own sentence."""
    strings = refusal_strings()
    if refusal is None or refusal.get("code") != code or not refusal.get("cards"):
        return message_for(code)
    names = [card_name(c) for c in refusal["cards"]]
    cards = names[0] if len(names) == 1 else strings["cards_and"] % {
        "cards": ", ".join(names[:-1]), "last": names[-1]}
    text = strings[f"refusal_{code}"] % {"cards": cards,
                                          "suit": _suit_word(refusal.get("suit") or "")}
    return f"{text} {strings['refusal_narr']}" if narr_legal else text

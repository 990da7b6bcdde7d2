"""The rules pages: /<lang>/rules/ (the complete rules for players) and /<lang>/rules/bock/ (the
Bock round house rule). Issue #6.

The long prose is written natively per language (games/templates/games/rules/rules_<lang>.html
and bock_<lang>.html, each extending a shared skeleton), because paragraphs of rules read
badly when cut into catalog sentences. Everything short and structural — section titles, table
headers, the room-option comparisons, card names, the counting table — comes from the catalogs
and from the engine itself, so the tables can never disagree with the rules the server plays.
English is the source; a language without its own prose file falls back to English.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from games.engine import cards
from games.engine.options import room_standard
from games.models import FAQEntry
from games.text.options import LABELS, describe

# Table of contents of /rules/: (anchor, title). The anchors are stable across languages, so a
# link such as /rm/rules/#buob works in every language.
RULES_SUBSECTIONS: tuple[str, ...] = ("follow-suit", "must-trump")
"""Anchors inside "Trick play" that every language's prose carries (rules_<lang>.html) and the
table's help links to (static/js/views/help.js), next to the sections' own #buob and #narr."""
RULES_SECTIONS: tuple[tuple[str, Promise], ...] = (
    ("terms", _("Terms")),
    ("deck", _("The deck")),
    ("seats", _("Seats and teams")),
    ("dealing", _("Dealing and the reveal")),
    ("scart", _("The Scart")),
    ("tricks", _("Trick play")),
    ("buob", _("BUOB: the king calls its jack")),
    ("narr", _("The Narr debt")),
    ("counting", _("Counting the points")),
    ("regame", _("Regame and match length")),
    ("timers", _("Timers")),
    ("hidden", _("Hidden information")),
    ("defaults", _("The standard rules at a glance")),
    ("options", _("Room options (house rules)")),
    ("faq", _("Questions and answers")),
)

BOCK_SECTIONS: tuple[tuple[str, Promise], ...] = (
    ("idea", _("The house rule")),
    ("triggers", _("What starts a Bock round")),
    ("length", _("Length and double points")),
    ("queue", _("A trigger during a Bock round")),
    ("match-end", _("Bock deals owed at the end of a match")),
    ("compare", _("Standard and Bock side by side")),
)

# --- The deck --------------------------------------------------------------------------------

SUITS = (
    ("C", pgettext_lazy("suit", "cups"), _("round suit")),
    ("R", pgettext_lazy("suit", "coins"), _("round suit")),
    ("S", pgettext_lazy("suit", "swords"), _("long suit")),
    ("B", pgettext_lazy("suit", "batons"), _("long suit")),
)
COURTS = (
    ("K", pgettext_lazy("card", "king"), 5),
    ("Q", pgettext_lazy("card", "queen"), 4),
    ("N", pgettext_lazy("card", "cavalier"), 3),
    ("J", pgettext_lazy("card", "jack"), 2),
)
RANKING = {
    "round": "K Q N J 1 2 3 4 5 6 7 8 9 10",
    "long": "K Q N J 10 9 8 7 6 5 4 3 2 1",
}


@dataclass(frozen=True)
class Suit:
    letter: str
    name: str
    kind: str
    ranking: str


@dataclass(frozen=True)
class Court:
    letter: str
    name: str
    points: int


def deck_context() -> dict[str, object]:
    suits = [
        Suit(letter, str(name), str(kind), RANKING["round" if letter in "CR" else "long"])
        for letter, name, kind in SUITS
    ]
    courts = [Court(letter, str(name), points) for letter, name, points in COURTS]
    return {
        "suits": suits,
        "courts": courts,
        "deck_total": cards.NUM_CARDS,
        "deck_raw": cards.raw_points(cards.ALL_MASK),
        "deck_counted": cards.counted_points(cards.ALL_MASK),
    }


# --- Counting: the vectors of RULES.md §10, computed by the engine's own count ---------------

COUNTING_EXAMPLES = (
    (_("four numeral cards"), ("C2", "C3", "S7", "B9")),
    (_("a king and three numeral cards"), ("CK", "C2", "C3", "R4")),
    (_("king, queen, cavalier and jack"), ("SK", "SQ", "SN", "SJ")),
    (_("cavalier and queen of swords"), ("SN", "SQ")),
    (_("two numeral cards"), ("R5", "S7")),
    (_("the Narr alone"), ("NARR",)),
)


@dataclass(frozen=True)
class CountRow:
    label: str
    cards: tuple[str, ...]
    n: int
    raw: int
    deduction: int
    points: int


def counting_rows() -> list[CountRow]:
    rows = []
    for label, ids in (*COUNTING_EXAMPLES, (_("the whole deck"), ())):
        mask = cards.mask_of([cards.INDEX[i] for i in ids]) if ids else cards.ALL_MASK
        raw, points = cards.raw_points(mask), cards.counted_points(mask)
        rows.append(CountRow(str(label), ids, cards.count(mask), raw, raw - points, points))
    return rows


# --- Room options: standard vs each alternative (RULES.md §14) --------------------------------

@dataclass(frozen=True)
class Variant:
    value: str
    effect: str


@dataclass(frozen=True)
class OptionComparison:
    key: str
    label: str
    standard: Variant
    variants: tuple[Variant, ...]


# key -> (standard effect, ((alternative value, its effect), ...)); the standard value itself
# is described by options_display.describe so that it reads as on a room's page.
OPTION_EFFECTS: dict[str, tuple[Promise, tuple[tuple[Promise, Promise], ...]]] = {
    "reveal_seconds": (
        _("All four reveal cards stay face up for 5 seconds, then the dealer discards."),
        ((_("2 to 30 seconds"),
          _("The reveal window lasts as long as the room sets: shorter for fast players, "
            "longer for beginners.")),),
    ),
    "reveal_persist": (
        _("After the reveal window the reveal cards are hidden again; players must remember "
          "them."),
        ((_("yes"),
          _("The four reveal cards stay on show for the whole deal, so nobody needs to "
            "remember them.")),),
    ),
    "scart_forbidden": (
        _("The dealer may not discard the seven honours: the four kings, T1, T21 and the "
          "Narr."),
        ((_("none"), _("Any two cards may go into the Scart, honours included.")),
         (_("honours and trumps"),
          _("Neither honours nor trumps may go into the Scart; if the dealer holds fewer than "
            "two other cards, only the honours are forbidden for that deal."))),
    ),
    "buob_caller": (
        _("Any seated player may call BUOB, also on a king played by an opponent."),
        ((_("the team of the king's player"),
          _("Only the player who played the king, or that player's partner, may call BUOB "
            "on it.")),),
    ),
    "regame_by": (
        _("After the scoring any seated player starts the next deal."),
        ((_("the room owner"), _("Only the room owner starts the next deal.")),),
    ),
    "match_deals": (
        _("A match is 4 deals, one per dealer; then the higher total wins."),
        ((_("8, 12 or 16"), _("A longer match: every player deals two, three or four times.")),
         (_("unlimited"),
          _("Deals go on until the room owner ends the match after a deal's scoring."))),
    ),
    "bock": (
        _("Every deal counts once."),
        ((_("yes"),
          _("A 36:36 tie or a deal in which one team takes all 19 tricks starts a Bock round: "
            "the next 4 deals count double.")),),
    ),
    "bock_triggers": (
        _("With Bock rounds on, both a 36:36 tie and all 19 tricks to one team start a Bock "
          "round."),
        ((_("only one of them, or none"),
          _("Only the chosen events start a Bock round; with none, Bock rounds never "
            "start.")),),
    ),
    "turn_seconds": (
        _("Each player has 60 seconds to act. When the time runs out, the server plays for "
          "them: the legal card worth the fewest points, or the next pass of the deal, or the "
          "two cheapest allowed cards for the Scart."),
        ((_("15 to 120 seconds"), _("Less or more time for each player to act.")),
         (_("off"), _("No time limit: the table waits for each player."))),
    ),
    "stand_in_seconds": (
        _("A player away for 60 seconds is played by a bot, labelled as standing in for them, "
          "until they come back; a match in which a bot played more than one trick is not "
          "rated."),
        ((_("1 to 600 seconds"), _("The bot stands in sooner or later.")),
         (_("off"), _("No bot stands in: the table waits for the away player, or for the turn "
                      "timer."))),
    ),
    "table_talk": (
        _("Players may talk at the table, freely or with the quick phrases; what a seated "
          "player says is public to the whole table, and spectators chat among themselves."),
        ((_("quick phrases only"), _("Only the quick phrases of the palette may be said.")),
         (_("silent table"), _("Nobody may talk at the table, as in a tournament."))),
    ),
}


def option_comparisons() -> list[OptionComparison]:
    # What a new room starts with, as the create-room form and the room drawer say it.
    standard = room_standard().to_json()
    rows = []
    for key, label in LABELS.items():
        standard_effect, variants = OPTION_EFFECTS[key]
        rows.append(
            OptionComparison(
                key=key,
                label=str(label),
                standard=Variant(describe(key, standard[key]), str(standard_effect)),
                variants=tuple(Variant(str(value), str(effect)) for value, effect in variants),
            )
        )
    return rows


# --- Bock: the comparison table (row, standard, Bock on); None = does not apply ------------

BOCK_COMPARISON = (
    (_("Value of a deal"), _("counts once"), _("counts double during a Bock round")),
    (_("What starts a Bock round"), _("nothing"),
     _("a 36:36 tie, or one team taking all 19 tricks (each trigger can be switched off)")),
    (_("Length"), None, _("4 deals, one per dealer, starting with the next deal")),
    (_("Several triggers in one deal"), None, _("one Bock round")),
    (_("A trigger during a Bock round"), None,
     _("another Bock round is queued after the running one; never more than double")),
    (_("Bock deals owed when the match ends"), None,
     _("dropped: the match is never extended")),
    (_("Points of both teams in a deal"), _("always 72 together"),
     _("72 together, entered as 144 in the match totals")),
    (_("At the table"), None, _("a Bock badge and the number of Bock deals still owed")),
)


# --- Views -------------------------------------------------------------------------------------

SPRITE = "cards/cards.svg"


def sprite_url() -> str | None:
    """The card sprite's URL, or None while it does not exist: the page then shows the card
    names alone (the manifest storage would even refuse to name a missing file)."""
    try:
        if not (finders.find(SPRITE) or staticfiles_storage.exists(SPRITE)):
            return None
        return staticfiles_storage.url(SPRITE)
    except ValueError:
        return None


def _prose_templates(page: str) -> list[str]:
    """The page in the active language, or the English source if no prose exists for it: the
    candidates in order, the first that exists is rendered."""
    language = (get_language() or "en").split("-")[0]
    return [f"games/rules/{page}_{language}.html", f"games/rules/{page}_en.html"]


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    context = {
        "sections": RULES_SECTIONS,
        "counting_rows": counting_rows(),
        "options": option_comparisons(),
        "faq_entries": FAQEntry.objects.filter(published=True),
        "sprite": sprite_url(),
        **deck_context(),
    }
    return render(request, _prose_templates("rules"), context)


@require_GET
def bock(request: HttpRequest) -> HttpResponse:
    context = {"sections": BOCK_SECTIONS, "comparison": BOCK_COMPARISON}
    return render(request, _prose_templates("bock"), context)

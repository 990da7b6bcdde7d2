"""Room options (RULES.md §14) as translated sentences for pages: one row per option with the
room's value beside the standard one."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.options import Options, room_standard

LABELS: dict[str, Promise] = {
    "reveal_seconds": gettext_lazy("Reveal window"),
    "reveal_persist": gettext_lazy("Reveal cards stay visible after the window"),
    "scart_forbidden": gettext_lazy("Cards the dealer may not put in the Scart"),
    "buob_caller": gettext_lazy("Who may call BUOB"),
    "regame_by": gettext_lazy("Who may start the next deal (Regame)"),
    "match_deals": gettext_lazy("Deals per match"),
    "bock": gettext_lazy("Bock rounds"),
    "bock_triggers": gettext_lazy("What starts a Bock round"),
    "turn_seconds": gettext_lazy("Turn timer"),
    "stand_in_seconds": gettext_lazy("A bot stands in for an away player after"),
    "table_talk": gettext_lazy("Table talk"),
}


def value_words() -> dict[str, dict[str, str]]:
    """Every option's words for its values, in the active language: the one place that says
    how a value reads, for the pages here and for the table's script (static/js/views/rules.js
    redraws the house rules from `room.options` with this very table, `rule_words`).

    Keyed by the value's JSON text (`0`, `true`, `"honours"`), so Python and the script look a
    value up alike; `*` is the pattern of any other number (`%(seconds)d`, `%(n)s`); a list
    (`bock_triggers`) is its items' words joined by ", ", or `[]`'s words when it is empty."""
    seconds = _("%(seconds)d seconds")
    off, yes, no = _("off"), _("yes"), _("no")
    return {
        "reveal_seconds": {"*": seconds},
        "reveal_persist": {"true": yes, "false": no},
        "scart_forbidden": {
            '"honours"': _("honours (kings, T1, T21, the Narr)"),
            '"none"': _("none"),
            '"honours_and_trumps"': _("honours and trumps"),
        },
        "buob_caller": {'"any"': _("any player"),
                        '"king_team"': _("the team of the king's player")},
        "regame_by": {'"any"': _("any seated player"), '"owner"': _("the room owner")},
        "match_deals": {"0": _("unlimited"), "*": "%(n)s"},
        "bock": {"true": yes, "false": no},
        "bock_triggers": {'"tie"': _("a 36:36 tie"),
                          '"all_tricks"': _("one team takes all 19 tricks"),
                          "[]": _("none")},
        "turn_seconds": {"0": off, "*": seconds},
        "stand_in_seconds": {"0": off, "*": seconds},
        "table_talk": {'"free"': _("free talk"), '"phrases"': _("quick phrases only"),
                       '"silent"': _("silent table")},
    }


def describe(key: str, value: Any, words: dict[str, dict[str, str]] | None = None) -> str:
    """One option's value in the active language (KeyError for an unknown option or value);
    `words`, `value_words()` when the caller describes many."""
    table = (words or value_words())[key]
    if isinstance(value, list | tuple):
        return ", ".join(table[json.dumps(v)] for v in value) if value else table["[]"]
    text = table.get(json.dumps(value))
    return text if text is not None else table["*"] % {"seconds": value, "n": value}


@dataclass(frozen=True)
class RuleRow:
    key: str
    label: str
    value: str
    default: str
    differs: bool


def house_rules(options: Options) -> list[RuleRow]:
    current = options.to_json()
    standard = room_standard().to_json()
    words = value_words()
    return [
        RuleRow(
            key=key,
            label=str(label),
            value=describe(key, current[key], words),
            default=describe(key, standard[key], words),
            differs=current[key] != standard[key],
        )
        for key, label in LABELS.items()
    ]


def rule_words() -> dict[str, Any]:
    """What the table's script needs to redraw the house-rules table from `room.options` on
    every state (static/js/views/rules.js), in the active language: the labels, the standard
    values a new room starts with (games/engine/options.py `room_standard`), and
    `value_words()`, which it reads as `describe` does."""
    return {
        "labels": {key: str(label) for key, label in LABELS.items()},
        "standard": room_standard().to_json(),
        "house_rule": str(_("house rule")),
        "values": value_words(),
    }

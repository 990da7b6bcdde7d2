"""Room options (RULES.md §14) as translated sentences for pages: one row per option with the
room's value beside the standard one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.options import Options

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


def _seconds(value: int) -> str:
    return _("%(seconds)d seconds") % {"seconds": value}


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def describe(key: str, value: Any) -> str:
    """One option's value in the active language."""
    if key == "reveal_seconds":
        return _seconds(value)
    if key in ("turn_seconds", "stand_in_seconds"):
        return _("off") if value == 0 else _seconds(value)
    if key in ("reveal_persist", "bock"):
        return _yes_no(value)
    if key == "scart_forbidden":
        return {
            "honours": _("honours (kings, T1, T21, the Narr)"),
            "none": _("none"),
            "honours_and_trumps": _("honours and trumps"),
        }[value]
    if key == "buob_caller":
        return {"any": _("any player"), "king_team": _("the team of the king's player")}[value]
    if key == "regame_by":
        return {"any": _("any seated player"), "owner": _("the room owner")}[value]
    if key == "table_talk":
        return {"free": _("free talk"), "phrases": _("quick phrases only"),
                "silent": _("silent table")}[value]
    if key == "match_deals":
        return _("unlimited") if value == 0 else str(value)
    if key == "bock_triggers":
        names = {"tie": _("a 36:36 tie"), "all_tricks": _("one team takes all 19 tricks")}
        return ", ".join(names[t] for t in value) if value else _("none")
    raise KeyError(key)


@dataclass(frozen=True)
class RuleRow:
    key: str
    label: str
    value: str
    default: str
    differs: bool


def house_rules(options: Options) -> list[RuleRow]:
    current = options.to_json()
    standard = Options().to_json()
    return [
        RuleRow(
            key=key,
            label=str(label),
            value=describe(key, current[key]),
            default=describe(key, standard[key]),
            differs=current[key] != standard[key],
        )
        for key, label in LABELS.items()
    ]


def rule_words() -> dict[str, Any]:
    """What the table's script needs to redraw the house-rules table from `room.options` on
    every state (static/js/views/rules.js mirrors `describe`), in the active language."""
    return {
        "labels": {key: str(label) for key, label in LABELS.items()},
        "standard": Options().to_json(),
        "seconds": str(_("%(seconds)d seconds")),
        "off": str(_("off")), "yes": str(_("yes")), "no": str(_("no")),
        "unlimited": str(_("unlimited")), "none": str(_("none")),
        "house_rule": str(_("house rule")),
        "values": {
            "scart_forbidden": {v: describe("scart_forbidden", v)
                                for v in ("honours", "none", "honours_and_trumps")},
            "buob_caller": {v: describe("buob_caller", v) for v in ("any", "king_team")},
            "regame_by": {v: describe("regame_by", v) for v in ("any", "owner")},
            "table_talk": {v: describe("table_talk", v) for v in ("free", "phrases", "silent")},
            "bock_triggers": {"tie": str(_("a 36:36 tie")),
                              "all_tricks": str(_("one team takes all 19 tricks"))},
        },
    }

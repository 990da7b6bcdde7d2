"""Room options — the house rules of RULES.md §14 — with their JSON encodings."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .errors import OptionsError
from .json_values import is_int

SCART_FORBIDDEN = ("honours", "none", "honours_and_trumps")
BUOB_CALLER = ("any", "king_team")
REGAME_BY = ("any", "owner")
MATCH_DEALS = (4, 0, 8, 12, 16)
BOCK_TRIGGERS = ("tie", "all_tricks")
TABLE_TALK = ("free", "phrases", "silent")

# The turn timer of a room a person opens and names none for (the create-room form, the JSON
# API): a product choice, not a rule (docs/decisions.md). RULES.md §14 keeps 0 (no timer) as
# the engine's default, which the golden transcripts and the services' own tables rely on.
ROOM_TURN_SECONDS = 60


@dataclass(frozen=True, slots=True)
class Options:
    reveal_seconds: int = 5
    reveal_persist: bool = False
    scart_forbidden: str = "honours"
    buob_caller: str = "any"
    regame_by: str = "any"
    match_deals: int = 4
    bock: bool = False
    bock_triggers: tuple[str, ...] = ("tie", "all_tricks")
    turn_seconds: int = 0
    # Not a rule of the game but the room's: how long a seated player may be away before a
    # bot stands in for them (0: never). The engine never reads it.
    stand_in_seconds: int = 60
    # The room's, not the game's either: what the table talk allows (issue #17; games/talk/).
    table_talk: str = "free"

    @classmethod
    def from_json(cls, data: Any) -> Options:
        """Options from their JSON object; a missing key or null takes its default.

        Raises OptionsError for an unknown key or a value outside §14.
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise OptionsError("options", "must be an object")
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise OptionsError(key, "unknown option")
            if value is None:
                continue
            values[key] = _check(key, value)
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        # Spelled out rather than dataclasses.asdict, which deep-copies field by field: every
        # view carries the options, and asdict cost more than the rest of a view together.
        return {
            "reveal_seconds": self.reveal_seconds,
            "reveal_persist": self.reveal_persist,
            "scart_forbidden": self.scart_forbidden,
            "buob_caller": self.buob_caller,
            "regame_by": self.regame_by,
            "match_deals": self.match_deals,
            "bock": self.bock,
            "bock_triggers": list(self.bock_triggers),
            "turn_seconds": self.turn_seconds,
            "stand_in_seconds": self.stand_in_seconds,
            "table_talk": self.table_talk,
        }


def _check(key: str, value: Any) -> Any:
    if key == "reveal_seconds":
        if not is_int(value) or not 2 <= value <= 30:
            raise OptionsError(key, "must be an integer from 2 to 30")
        return value
    if key == "turn_seconds":
        if not is_int(value) or not (value == 0 or 15 <= value <= 120):
            raise OptionsError(key, "must be 0 or an integer from 15 to 120")
        return value
    if key == "stand_in_seconds":
        if not is_int(value) or not (value == 0 or 1 <= value <= 600):
            raise OptionsError(key, "must be 0 or an integer from 1 to 600")
        return value
    if key == "match_deals":
        if not is_int(value) or value not in MATCH_DEALS:
            raise OptionsError(key, "must be one of 4, 0, 8, 12, 16")
        return value
    if key in ("reveal_persist", "bock"):
        if not isinstance(value, bool):
            raise OptionsError(key, "must be true or false")
        return value
    choices = {"scart_forbidden": SCART_FORBIDDEN, "buob_caller": BUOB_CALLER,
               "regame_by": REGAME_BY, "table_talk": TABLE_TALK}
    if key in choices:
        if value not in choices[key]:
            raise OptionsError(key, "must be one of " + ", ".join(choices[key]))
        return value
    if key == "bock_triggers":
        if not isinstance(value, list) or any(v not in BOCK_TRIGGERS for v in value):
            raise OptionsError(key, "must be a list drawn from tie, all_tricks")
        # Duplicates are ignored; keep the canonical order so equal options compare equal.
        return tuple(t for t in BOCK_TRIGGERS if t in value)
    raise OptionsError(key, "unknown option")  # pragma: no cover - guarded by from_json


def room_standard() -> Options:
    """The house rules a new room starts with when its owner changes none: the engine's
    defaults with the people's turn timer. Every page that says "standard" (the create-room
    form, the rules page, the room's house-rules drawer) compares with this one."""
    return Options(turn_seconds=ROOM_TURN_SECONDS)

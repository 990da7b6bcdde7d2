"""`troccas-transcript/1` validation and replay into `troccas-result/1` (TRANSCRIPT.md).

The format's action types and their fields are the action table's engine actions
(games/engine/actions.py): a transcript holds each with the seat and deck the server added."""

from __future__ import annotations

from typing import Any, cast

from .actions import ACTIONS, ENGINE_TYPES, Field, FieldType, accepts
from .cards import CARD_IDS
from .codec import by_team, deal_result
from .errors import OptionsError, RuleError
from .options import Options
from .rules import PublicRefusal, apply
from .state import LOBBY, Deal, MatchState, new_match_state

TRANSCRIPT_FORMAT = "troccas-transcript/1"
RESULT_FORMAT = "troccas-result/1"
_VALID_DECK = frozenset(CARD_IDS)

# What a transcript's field must be, by its type in the action table, as TRANSCRIPT.md words it.
_MUST_BE = {
    FieldType.SEAT: "an integer 0-3",
    FieldType.CARD: "a string",
    FieldType.CARDS: "a list of strings",
    FieldType.SUIT: "a string or null",
    FieldType.BOOL: "a boolean",
    FieldType.DECK: "a list of 78 card ids",
}


def _fields(kind: str) -> tuple[Field, ...]:
    """The fields of an engine action in a transcript (the action table's engine fields)."""
    return ACTIONS[kind].engine_fields


class TranscriptError(ValueError):
    """The document is not a valid transcript; `where` is "top level" or "action N"."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


def _check_field(where: str, field: Field, value: Any) -> None:
    if not accepts(field.type, value):
        raise TranscriptError(where, f"field '{field.name}' must be {_MUST_BE[field.type]}")
    if field.type is FieldType.DECK and (len(value) != 78 or set(value) != _VALID_DECK):
        raise TranscriptError(where, "deck is not a permutation of the 78 card ids")


def validate(doc: Any) -> tuple[Options, int, list[dict[str, Any]]]:
    """Check the whole document before anything is replayed; raise TranscriptError."""
    top = "top level"
    if not isinstance(doc, dict):
        raise TranscriptError(top, "the document must be a JSON object")
    if doc.get("format") != TRANSCRIPT_FORMAT:
        raise TranscriptError(top, f"format must be '{TRANSCRIPT_FORMAT}'")
    fd = doc.get("first_dealer")
    if not accepts(FieldType.SEAT, fd):
        raise TranscriptError(top, "first_dealer must be an integer 0-3")
    if "options" in doc and not isinstance(doc["options"], dict):
        raise TranscriptError(top, "options must be an object")
    try:
        options = Options.from_json(doc.get("options"))
    except OptionsError as exc:
        raise TranscriptError(top, f"option {exc.key}: {exc.message}") from None
    actions = doc.get("actions")
    if not isinstance(actions, list):
        raise TranscriptError(top, "actions must be a list")
    for i, action in enumerate(actions):
        where = f"action {i}"
        if not isinstance(action, dict):
            raise TranscriptError(where, "must be an object")
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in ENGINE_TYPES:
            raise TranscriptError(where, f"unknown action type {kind!r}")
        for field in _fields(kind):
            if field.name not in action:
                if field.required:
                    raise TranscriptError(where, f"missing field '{field.name}'")
                continue
            _check_field(where, field, action[field.name])
    return options, cast(int, fd), actions  # a seat: an int, as accepts checked


def _engine_action(action: dict[str, Any]) -> dict[str, Any]:
    """Drop what the format ignores: unknown keys, and `buob_suit` without `call_buob`."""
    out = {f.name: action[f.name] for f in _fields(action["type"]) if f.name in action}
    out["type"] = action["type"]
    if out["type"] == "play_card" and out.get("call_buob") is not True:
        out.pop("buob_suit", None)
    return out


def replay(doc: Any) -> dict[str, Any]:
    """Replay a transcript and build its `troccas-result/1` document.

    Raises TranscriptError if the document is invalid; rejected actions are part of the result.
    """
    options, first_dealer, actions = validate(doc)
    state: MatchState = new_match_state(options, first_dealer)
    results: list[dict[str, Any]] = []
    deals: list[Deal] = []
    for i, action in enumerate(actions):
        try:
            state, _ = apply(state, _engine_action(action))
        except RuleError as exc:
            results.append({"i": i, "ok": False, "error": exc.code})
            if isinstance(exc, PublicRefusal):
                # Still rejected; but the table records the refusal (RULES §8), so the replay
                # goes on from there, as the live table did. The result format shows no more.
                state = exc.state
            continue
        results.append({"i": i, "ok": True})
        if state.phase == LOBBY:
            deals = []  # new_match: the result describes the match in progress
        elif state.deal is not None:
            if deals and deals[-1].number == state.deal.number:
                deals[-1] = state.deal
            else:
                deals.append(state.deal)
    return {
        "format": RESULT_FORMAT,
        "results": results,
        "deals": [deal_result(d) for d in deals],
        "totals": by_team(state.totals),
        "bock_pending": state.bock_pending,
        "phase": state.phase,
        "winner": state.winner,
    }

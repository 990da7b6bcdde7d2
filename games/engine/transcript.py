"""`troccas-transcript/1` validation and replay into `troccas-result/1` (TRANSCRIPT.md)."""

from __future__ import annotations

from typing import Any

from .cards import CARD_IDS
from .codec import by_team, deal_result
from .errors import OptionsError, RuleError
from .json_values import is_int
from .options import Options
from .rules import PublicRefusal, apply
from .state import LOBBY, Deal, MatchState, new_match_state

TRANSCRIPT_FORMAT = "troccas-transcript/1"
RESULT_FORMAT = "troccas-result/1"
_VALID_DECK = frozenset(CARD_IDS)

# type → {field: (required, kind)}; kinds: seat, deck, card, cards, suit, bool
_FIELDS: dict[str, dict[str, tuple[bool, str]]] = {
    "start_round": {"deck": (True, "deck")},
    "deal_next_pass": {"seat": (True, "seat")},
    "end_reveal": {},
    "discard_scart": {"seat": (True, "seat"), "cards": (True, "cards")},
    "play_card": {"seat": (True, "seat"), "card": (True, "card"),
                  "call_buob": (False, "bool"), "buob_suit": (False, "suit")},
    "call_buob": {"seat": (True, "seat"), "suit": (False, "suit")},
    "turn_timeout": {},
    "regame": {"deck": (True, "deck")},
    "end_match": {},
    "new_match": {},
}


class TranscriptError(ValueError):
    """The document is not a valid transcript; `where` is "top level" or "action N"."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


def _check_field(where: str, name: str, kind: str, value: Any) -> None:
    if kind == "seat":
        if not is_int(value) or not 0 <= value <= 3:
            raise TranscriptError(where, f"field '{name}' must be an integer 0-3")
    elif kind == "card":
        if not isinstance(value, str):
            raise TranscriptError(where, f"field '{name}' must be a string")
    elif kind == "cards":
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise TranscriptError(where, f"field '{name}' must be a list of strings")
    elif kind == "suit":
        if value is not None and not isinstance(value, str):
            raise TranscriptError(where, f"field '{name}' must be a string or null")
    elif kind == "bool":
        if not isinstance(value, bool):
            raise TranscriptError(where, f"field '{name}' must be a boolean")
    elif kind == "deck":
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise TranscriptError(where, f"field '{name}' must be a list of 78 card ids")
        if len(value) != 78 or set(value) != _VALID_DECK:
            raise TranscriptError(where, "deck is not a permutation of the 78 card ids")


def validate(doc: Any) -> tuple[Options, int, list[dict[str, Any]]]:
    """Check the whole document before anything is replayed; raise TranscriptError."""
    top = "top level"
    if not isinstance(doc, dict):
        raise TranscriptError(top, "the document must be a JSON object")
    if doc.get("format") != TRANSCRIPT_FORMAT:
        raise TranscriptError(top, f"format must be '{TRANSCRIPT_FORMAT}'")
    fd = doc.get("first_dealer")
    if not is_int(fd) or not 0 <= fd <= 3:
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
        if not isinstance(kind, str) or kind not in _FIELDS:
            raise TranscriptError(where, f"unknown action type {kind!r}")
        for name, (required, fkind) in _FIELDS[kind].items():
            if name not in action:
                if required:
                    raise TranscriptError(where, f"missing field '{name}'")
                continue
            _check_field(where, name, fkind, action[name])
    return options, fd, actions


def _engine_action(action: dict[str, Any]) -> dict[str, Any]:
    """Drop what the format ignores: unknown keys, and `buob_suit` without `call_buob`."""
    out = {k: action[k] for k in _FIELDS[action["type"]] if k in action}
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

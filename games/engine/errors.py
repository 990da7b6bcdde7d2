"""Rejections carry a stable code from RULES.md §12; sentences are the web layer's business."""

from __future__ import annotations


class RuleError(Exception):
    """An action the rules reject. `code` is one of RULE_CODES; the state is left unchanged."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class OptionsError(ValueError):
    """Room options outside RULES.md §14. `key` names the offending option."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


# Every code the engine can raise (RULES.md §6–§12).
RULE_CODES: tuple[str, ...] = (
    "WRONG_PHASE",
    "MATCH_OVER",
    "NOT_DEALER",
    "NOT_YOUR_TURN",
    "UNKNOWN_CARD",
    "CARD_NOT_IN_HAND",
    "SCART_WRONG_COUNT",
    "SCART_DUPLICATE",
    "SCART_FORBIDDEN_CARD",
    "MUST_FOLLOW_SUIT",
    "MUST_PLAY_TRUMP",
    "BUOB_FORCED_JACK",
    "BUOB_TRICK_NOT_OPEN",
    "BUOB_ALREADY_CALLED",
    "BUOB_NO_KING",
    "BUOB_NOT_ALLOWED_CALLER",
    "BUOB_KING_SUIT_ALREADY_LED",
    "BUOB_SUIT_NOT_CANDIDATE",
    "BUOB_NO_TARGET",
    "INVALID_ACTION",
)

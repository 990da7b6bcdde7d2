"""Troccas rules engine: pure Python, stdlib only (RULES.md).

    state = new_match_state(Options(), first_dealer=owner_seat)
    state, events = apply(state, {"type": "start_round", "deck": deck})
    view(state, seat)            # what one seat (or None: a spectator) may see
    legal_actions(state, seat)   # what it may do now
"""

from .cards import CARD_IDS
from .codec import from_json, to_json
from .errors import RULE_CODES, OptionsError, RuleError
from .events import event_to_json, events_for
from .options import Options
from .rules import (
    ACTION_TYPES,
    SYSTEM_ACTIONS,
    PublicRefusal,
    apply,
    legal_actions,
    legal_cards,
    resign,
)
from .state import (
    DEALING,
    LOBBY,
    MATCH_OVER,
    PHASES,
    PLAY,
    REVEAL,
    ROUND_OVER,
    SCART,
    TEAMS,
    BuobMode,
    MatchState,
    Phase,
    Team,
    new_match_state,
    team_of,
)
from .transcript import TranscriptError, replay
from .views import view

__all__ = [
    "ACTION_TYPES", "CARD_IDS", "DEALING", "LOBBY", "MATCH_OVER", "PHASES", "PLAY", "REVEAL",
    "ROUND_OVER", "RULE_CODES", "SCART", "SYSTEM_ACTIONS", "TEAMS", "BuobMode", "MatchState",
    "Options", "OptionsError", "Phase", "PublicRefusal", "RuleError", "Team", "TranscriptError",
    "apply", "event_to_json", "events_for", "from_json", "legal_actions", "legal_cards",
    "new_match_state", "replay", "resign", "team_of", "to_json", "view",
]

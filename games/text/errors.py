"""Codes inside, sentences at the edge (ARCHITECTURE.md §4): every error code the engine, the
services and the protocol can produce, with the sentence a player sees, in their language.

Each sentence says what to do instead. `message_for(code)` is evaluated under the receiver's
active language; an unknown code falls back to a generic sentence but keeps its code.
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

MESSAGES = {
    # Engine (RULES.md §6–§12)
    "WRONG_PHASE": _("That is not possible at this point of the game."),
    "MATCH_OVER": _("The match is over: the room owner can start a new match."),
    "NOT_DEALER": _("Only the dealer can do that."),
    "NOT_YOUR_TURN": _("It is not your turn: wait for the highlighted player."),
    "UNKNOWN_CARD": _("There is no such card."),
    "CARD_NOT_IN_HAND": _("You do not hold that card."),
    "SCART_WRONG_COUNT": _("Choose exactly two cards for the Scart."),
    "SCART_DUPLICATE": _("Choose two different cards for the Scart."),
    "SCART_FORBIDDEN_CARD": _("This card may not go into the Scart under this room's rules: "
                              "choose another one."),
    "MUST_FOLLOW_SUIT": _("You must follow the suit led (or play the Narr)."),
    "MUST_PLAY_TRUMP": _("You cannot follow the suit led, so you must play a trump "
                         "(or the Narr)."),
    "BUOB_FORCED_JACK": _("BUOB was called on you: you must play the called jack."),
    "BUOB_TRICK_NOT_OPEN": _("BUOB can only be called while a trick has cards on the table."),
    "BUOB_ALREADY_CALLED": _("BUOB has already been called in this trick."),
    "BUOB_NO_KING": _("BUOB needs a king in the current trick."),
    "BUOB_NOT_ALLOWED_CALLER": _("In this room only the team that played the king may call "
                                 "BUOB."),
    "BUOB_KING_SUIT_ALREADY_LED": _("That king's suit was already led in an earlier trick: "
                                    "BUOB is no longer allowed for it."),
    "BUOB_SUIT_NOT_CANDIDATE": _("No BUOB is possible on that suit: choose a king on the "
                                 "table whose jack is still in a player's hand."),
    "BUOB_NO_TARGET": _("No player holds the jack of a king on the table, so there is "
                        "nothing to call."),
    "INVALID_ACTION": _("That action is not valid."),
    # Web layer (RULES.md §3, §12)
    "NOT_ROOM_OWNER": _("Only the room owner can do that."),
    "TEAMS_NOT_BALANCED": _("A match needs four seated players, two in Team A and two in "
                            "Team B."),
    "OWNER_NOT_SEATED": _("The room owner deals first, so the owner must take a seat before "
                          "the match starts."),
    "NOT_SEATED": _("Take a seat at the table to play."),
    "SEAT_TAKEN": _("That seat is taken: choose a free one."),
    "TEAM_FULL": _("That team already has two players: join the other team."),
    "ALREADY_SEATED": _("You already have a seat: leave it first to choose another."),
    "MATCH_IN_PROGRESS": _("Seats and house rules can only change between matches."),
    "NOT_IN_ROOM": _("That player is not seated in this room."),
    "CANNOT_TARGET_SELF": _("You cannot do that to yourself."),
    "ROOM_CLOSED": _("This room is closed: open a new table from the home page."),
    "ROOM_NOT_FOUND": _("There is no room with this invite code."),
    "SPECTATORS_NOT_ALLOWED": _("The room owner does not allow spectators at this table."),
    "INVALID_OPTIONS": _("These house rules are not valid: check the values and try again."),
    "NOT_AUTHENTICATED": _("Please sign in to join a table."),
    # Protocol
    "STALE_VERSION": _("The table changed before your action arrived: it has been refreshed, "
                       "please try again."),
    "MALFORMED_MESSAGE": _("The message could not be read."),
    "MESSAGE_TOO_LARGE": _("The message is too large."),
    "UNKNOWN_TYPE": _("Unknown message type."),
    "MISSING_FIELD": _("A required field is missing from the message."),
    "INVALID_FIELD": _("A field of the message has a wrong value."),
    "SYSTEM_ACTION": _("Only the server can do that."),
    "RATE_LIMITED": _("Too many messages: slow down a little."),
    # HTTP API (docs/protocol.md "HTTP API")
    "INVALID_CREDENTIALS": _("Wrong username or password. Both are case-sensitive; please "
                             "try again."),
    "UNSUPPORTED_MEDIA_TYPE": _("Send the request body as JSON (Content-Type: "
                                "application/json)."),
    "CSRF_FAILED": _("This request came from another site and was refused."),
    "METHOD_NOT_ALLOWED": _("This address does not accept that method."),
    "NOT_FOUND": _("There is nothing at this address."),
    "SERVER_ERROR": _("Something went wrong on the server; your table is safe, please try "
                      "again."),
}


def message_for(code: str) -> str:
    """The sentence for `code` in the active language."""
    msg = MESSAGES.get(code)
    return str(msg) if msg is not None else gettext("That action is not valid.")

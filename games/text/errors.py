"""Codes inside, sentences at the edge (ARCHITECTURE.md §4): every error code the site can send
a client (games.engine.errors.ErrorCode), with the sentence a player sees, in their language.

Each sentence says what to do instead. `message_for(code)` is evaluated under the receiver's
active language; an unknown code falls back to a generic sentence but keeps its code.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine.errors import ErrorCode

# Keyed by ErrorCode (games/engine/errors.py), so a misspelt code fails at import; a member is
# its own string, so `MESSAGES["NOT_DEALER"]` still works.
MESSAGES: dict[str, Promise] = {
    # Engine (RULES.md §6–§12)
    ErrorCode.WRONG_PHASE: _("That is not possible at this point of the game."),
    ErrorCode.MATCH_OVER: _("The match is over: the room owner can start a new match."),
    ErrorCode.NOT_DEALER: _("Only the dealer can do that."),
    ErrorCode.NOT_YOUR_TURN: _("It is not your turn: wait for the highlighted player."),
    ErrorCode.UNKNOWN_CARD: _("There is no such card."),
    ErrorCode.CARD_NOT_IN_HAND: _("You do not hold that card."),
    ErrorCode.SCART_WRONG_COUNT: _("Choose exactly two cards for the Scart."),
    ErrorCode.SCART_DUPLICATE: _("Choose two different cards for the Scart."),
    ErrorCode.SCART_FORBIDDEN_CARD: _("This card may not go into the Scart under this room's "
                                      "rules: choose another one."),
    # The table adds "You may also play the Narr." for a player who holds it (static/js/
    # table.js): the sentence itself never says whether a hand holds the Narr.
    ErrorCode.MUST_FOLLOW_SUIT: _("You must follow the suit led."),
    ErrorCode.MUST_PLAY_TRUMP: _("You cannot follow the suit led, so you must play a trump."),
    ErrorCode.BUOB_FORCED_JACK: _("BUOB was called on you: you must play the called jack."),
    ErrorCode.BUOB_TRICK_NOT_OPEN: _("BUOB can only be called while a trick has cards on the "
                                     "table."),
    ErrorCode.BUOB_ALREADY_CALLED: _("BUOB has already been called in this trick."),
    ErrorCode.BUOB_NO_KING: _("BUOB needs a king in the current trick."),
    ErrorCode.BUOB_NOT_ALLOWED_CALLER: _("In this room only the team that played the king may "
                                         "call BUOB."),
    ErrorCode.BUOB_KING_SUIT_ALREADY_LED: _("That king's suit was already led in an earlier "
                                            "trick: BUOB is no longer allowed for it."),
    # These two refusals are public (RULES §8): the sentence says what happened, never where
    # the jack lies (the Scart, or the hand of the king's own player).
    ErrorCode.BUOB_SUIT_NOT_CANDIDATE: _("No BUOB is possible on that suit: nobody but the "
                                         "king's player can still play its jack. Choose another "
                                         "king on the table."),
    ErrorCode.BUOB_NO_TARGET: _("No BUOB is possible: for the kings on the table, nobody but "
                                "the king's player can still play the jack."),
    ErrorCode.INVALID_ACTION: _("That action is not valid."),
    # Web layer (RULES.md §3, §12)
    ErrorCode.NOT_ROOM_OWNER: _("Only the room owner can do that."),
    ErrorCode.TEAMS_NOT_BALANCED: _("A match needs four seated players, two in Team A and two "
                                    "in Team B."),
    ErrorCode.OWNER_NOT_SEATED: _("The room owner deals first, so the owner must take a seat "
                                  "before the match starts."),
    ErrorCode.NOT_SEATED: _("Take a seat at the table to play."),
    ErrorCode.BOT_CANNOT_RESIGN: _("A bot never gives up a match."),
    ErrorCode.SEAT_TAKEN: _("That seat is taken: choose a free one."),
    ErrorCode.TEAM_FULL: _("That team already has two players: join the other team."),
    ErrorCode.ALREADY_SEATED: _("You already have a seat: leave it first to choose another."),
    ErrorCode.MATCH_IN_PROGRESS: _("Seats and house rules can only change between matches."),
    ErrorCode.NOT_IN_ROOM: _("That player is not seated in this room."),
    ErrorCode.CANNOT_TARGET_SELF: _("You cannot do that to yourself."),
    ErrorCode.BOT_LEVEL_UNKNOWN: _("There is no such bot level: choose easy or strong."),
    ErrorCode.NO_BOT_IN_SEAT: _("No bot sits in that seat: choose a seat a bot holds."),
    ErrorCode.BOT_TABLES_CAPPED: _("You already have as many open tables with bots as you "
                                   "may: finish or close one of them first."),
    ErrorCode.NOT_STANDING_IN: _("The player is back at the table: the bot no longer plays "
                                 "for them."),
    # Table talk (issue #17)
    ErrorCode.TALK_SILENT: _("This is a silent table: the room owner has switched table talk "
                             "off."),
    ErrorCode.TALK_PHRASES_ONLY: _("At this table only the quick phrases may be said: choose "
                                   "one from the palette."),
    ErrorCode.TALK_EMPTY: _("Write something before sending."),
    ErrorCode.TALK_TOO_LONG: _("That message is too long: say it in 200 characters or fewer."),
    ErrorCode.TALK_TOO_FAST: _("You are talking too fast: wait a few seconds."),
    ErrorCode.TALK_BLOCKED_WORD: _("That message contains a word that is not allowed here: "
                                   "please say it differently."),
    ErrorCode.TALK_SUSPENDED: _("Your table talk is suspended for a while."),
    ErrorCode.UNKNOWN_PHRASE: _("There is no such quick phrase: choose one from the palette."),
    ErrorCode.TALK_MESSAGE_NOT_FOUND: _("That message is no longer there."),
    ErrorCode.TEXT_TOO_MANY_MARKS: _("Too many accents on one letter: write it plainly."),
    ErrorCode.ROOM_NAME_FROZEN: _("At a table without free talk the room's name can only "
                                  "change between matches."),
    ErrorCode.REPORT_REASON_UNKNOWN: _("Choose why you report this message."),
    ErrorCode.ROOM_CLOSED: _("This room is closed: open a new table from the home page."),
    ErrorCode.ROOM_NOT_FOUND: _("There is no room with this invite code."),
    ErrorCode.HINT_NOT_ALLOWED: _("Hints are only for practice tables, where every other seat "
                                  "is a bot's: not where a result counts."),
    ErrorCode.NOTHING_TO_ADVISE: _("There is nothing to advise on now: a hint is for your "
                                   "card to play or your Scart."),
    ErrorCode.HINT_PENDING: _("Your hint is on its way: one at a time."),
    ErrorCode.SPECTATORS_NOT_ALLOWED: _("The room owner does not allow spectators at this table."),
    ErrorCode.INVALID_OPTIONS: _("These house rules are not valid: check the values and try "
                                 "again."),
    ErrorCode.NOT_AUTHENTICATED: _("Please sign in to join a table."),
    # Protocol
    ErrorCode.STALE_VERSION: _("The table changed before your action arrived: it has been "
                               "refreshed, please try again."),
    ErrorCode.MALFORMED_MESSAGE: _("The message could not be read."),
    ErrorCode.MESSAGE_TOO_LARGE: _("The message is too large."),
    ErrorCode.UNKNOWN_TYPE: _("Unknown message type."),
    ErrorCode.MISSING_FIELD: _("A required field is missing from the message."),
    ErrorCode.INVALID_FIELD: _("A field of the message has a wrong value."),
    ErrorCode.SYSTEM_ACTION: _("Only the server can do that."),
    ErrorCode.RATE_LIMITED: _("Too many messages: slow down a little."),
    ErrorCode.TOO_MANY_SOCKETS: _("This table is open in too many windows: close one of them "
                                  "and reload this page."),
    ErrorCode.PROTOCOL_OUTDATED: _("This page is out of date: reload it to keep playing."),
    # HTTP API (docs/protocol.md "HTTP API")
    ErrorCode.INVALID_CREDENTIALS: _("Wrong username or password. Both are case-sensitive; "
                                     "please try again."),
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: _("Send the request body as JSON (Content-Type: "
                                        "application/json)."),
    ErrorCode.CSRF_FAILED: _("This request came from another site and was refused."),
    ErrorCode.METHOD_NOT_ALLOWED: _("This address does not accept that method."),
    ErrorCode.NOT_FOUND: _("There is nothing at this address."),
    ErrorCode.SERVER_ERROR: _("Something went wrong on the server; your table is safe, please "
                              "try again."),
    # Match history (games/history/views.py: the replay of a match still running)
    ErrorCode.MATCH_NOT_FINISHED: _("This match is still running: its cards stay hidden until "
                                    "it is over."),
    # "Same four again" (games/services/writer.py `rematch`)
    ErrorCode.NEW_MATCH_ALREADY_ON: _("The new match is already on."),
    # Friends and invitations (games/talk/)
    ErrorCode.PLAYER_NOT_FOUND: _("There is no such player: search for them by name."),
    ErrorCode.ALREADY_FRIENDS: _("You are already friends."),
    ErrorCode.FRIEND_REQUEST_PENDING: _("A friend request between you is already waiting for "
                                        "an answer."),
    ErrorCode.NO_FRIEND_REQUEST: _("This friend request is no longer open."),
    ErrorCode.NOT_FRIENDS: _("You can only invite your friends: send a friend request first."),
    ErrorCode.PLAYER_BLOCKED: _("This is not possible between you and this player."),
    ErrorCode.TOO_MANY_INVITATIONS: _("You have sent many requests and invitations in a short "
                                      "time: please wait a while."),
    ErrorCode.BLOCKED_FROM_ROOM: _("You cannot join this private room."),
    # Find a game (games/services/matchmaking.py)
    ErrorCode.QUEUE_ALREADY_WAITING: _("You are already waiting for a table."),
    ErrorCode.QUEUE_SEATED_IN_MATCH: _("You are playing a match: finish it before you look "
                                       "for another table."),
    ErrorCode.QUEUE_NOT_WAITING: _("You are not waiting for a table."),
    ErrorCode.QUEUE_BOTS_NOT_YET: _("Bots are offered only after the wait you chose."),
    # Rooms per account (games/services/rooms.py open_room)
    ErrorCode.TOO_MANY_OPEN_ROOMS: _("You already have several rooms waiting for players: "
                                     "close one of them before you open another."),
    ErrorCode.ROOM_CREATION_RATE_LIMITED: _("You have opened many rooms in a short time: "
                                            "please wait a while."),
    ErrorCode.TOO_MANY_MUTES: _("You have muted or unmuted too many players just now: wait a "
                                "minute."),
    ErrorCode.BLOCKED_BY_OWNER: _("You can no longer follow this private room."),
    # Clubs (games/clubs/membership.py)
    ErrorCode.CLUB_NOT_FOUND: _("There is no such club."),
    ErrorCode.CLUB_NAME_TAKEN: _("A club of this name already exists: choose another name."),
    ErrorCode.TOO_MANY_CLUBS: _("You already own as many clubs as an account may: hand one "
                                "over before you create another."),
    ErrorCode.ALREADY_CLUB_MEMBER: _("You are already a member of this club."),
    ErrorCode.NOT_CLUB_MEMBER: _("Only the members of this club can do that."),
    ErrorCode.CLUB_BY_REQUEST: _("This club accepts members by request: ask to join."),
    ErrorCode.CLUB_REQUEST_PENDING: _("A request or invitation for this club is already "
                                      "waiting for an answer."),
    ErrorCode.NO_CLUB_REQUEST: _("This request to join is no longer open."),
    ErrorCode.NO_CLUB_INVITATION: _("This invitation to the club is no longer open."),
    ErrorCode.NOT_CLUB_DIRECTOR: _("Only the club's owner and directors can do that."),
    ErrorCode.NOT_CLUB_OWNER: _("Only the club's owner can do that."),
    ErrorCode.OWNER_MUST_HAND_OVER: _("You own this club: hand it over to another member "
                                      "before you leave."),
    ErrorCode.CANNOT_REMOVE_OWNER: _("The club's owner cannot be removed."),
    ErrorCode.CLUB_TABLE_MEMBERS_ONLY: _("This is a club table: only the club's members can "
                                         "follow it and sit down."),
    ErrorCode.TOURNAMENT_TABLE_FINISHED: _("This table has already finished its Partie: "
                                           "adjust the result instead."),
    ErrorCode.TABLE_NOT_RUNNING: _("No Partie is being played at this table now."),
    ErrorCode.ALREADY_SEATED_THERE: _("This player already has a seat at this table: choose "
                                      "someone else."),
    ErrorCode.ENTRANT_WITHDRAWN: _("This entrant has already withdrawn."),
    ErrorCode.REAL_TABLE_NO_ROOM: _("This table plays at the real tables, not online: there "
                                    "is no room to pause or to seat a bot in. Enter its "
                                    "result instead."),
    # Tournaments (games/clubs/tournaments.py)
    ErrorCode.TOURNAMENT_NOT_FOUND: _("There is no such tournament."),
    ErrorCode.TOURNAMENT_NOT_DIRECTOR: _("Only the tournament director can do that; a club's "
                                         "tournament is created by its owner or a director."),
    ErrorCode.TOURNAMENT_SCHEDULE_INVALID: _("The schedule does not fit together: registration "
                                             "must open before it closes, and close no later "
                                             "than the start, which lies in the future."),
    ErrorCode.TOURNAMENT_STAGES_INVALID: _("The stages are not valid: one to four stages of "
                                           "one to fifteen tournament rounds; a later stage "
                                           "takes the best of the one before."),
    ErrorCode.DUPLICATE_NOT_AT_REAL_TABLES: _("Duplicate deals are played online only: at "
                                              "the real tables nobody can hold every table "
                                              "to the same decks."),
    ErrorCode.TOURNAMENT_REGISTRATION_CLOSED: _("Registration for this tournament is not open "
                                                "now."),
    ErrorCode.TOURNAMENT_ALREADY_ENTERED: _("You or your partner are already entered in this "
                                            "tournament."),
    ErrorCode.TOURNAMENT_PARTNER_NEEDED: _("This tournament is for fixed pairs: choose one of "
                                           "your friends as your partner."),
    ErrorCode.TOURNAMENT_NOT_ENTERED: _("You are not entered in this tournament."),
    ErrorCode.TOURNAMENT_CHECKIN_CLOSED: _("Check-in is not open now: it opens shortly before "
                                           "the start and closes at the start."),
    ErrorCode.TOURNAMENT_MEMBERS_ONLY: _("This is a club's tournament: only the club's "
                                         "members can take part."),
    ErrorCode.TOURNAMENT_OVER: _("This tournament is over."),
    ErrorCode.TOURNAMENT_TABLE_LOCKED: _("This is a tournament table: its seats and house "
                                         "rules are the tournament's and cannot be changed."),
    ErrorCode.ROUND_ALREADY_STARTED: _("This tournament round has already started: it can no "
                                       "longer be paired again."),
}


def message_for(code: str) -> str:
    """The sentence for `code` in the active language."""
    msg = MESSAGES.get(code)
    return str(msg) if msg is not None else gettext("That action is not valid.")

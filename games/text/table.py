"""Every sentence the live table's script shows, translated on the server.

The room page hands `ui_strings()` to the script with `json_script`, so the browser needs no
JavaScript gettext catalog: the strings go through the normal django.po catalogs. Placeholders
use Python's `%(name)s` form; the script fills them in.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.text.errors import message_for
from games.text.refusals import refusal_strings


def ui_strings() -> dict[str, str]:
    s = {
        # Connection
        "connecting": _("Connecting to the table…"),
        "offline": _("Connection lost. Reconnecting…"),
        "reconnect_in": _("Connection lost. Trying again in %(seconds)s s…"),
        "back_online": _("Connected again."),
        "closed_4401": _("Please sign in to join a table."),
        "closed_4403": _("The room owner does not allow spectators at this table."),
        "closed_4404": _("There is no room with this invite code."),
        "closed_4429": _("Too many messages: reload the page to continue."),
        # This page's script speaks an older protocol than the server (docs/protocol.md §3).
        "closed_4426": message_for("PROTOCOL_OUTDATED"),
        "sign_in": _("Sign in to take a seat"),
        # People and seats
        "team_a": _("Team A"),
        "team_b": _("Team B"),
        "you": _("you"),
        "owner": _("room owner"),
        "dealer": _("dealer"),
        "connected": _("connected"),
        "away": _("away"),
        # The away clock (issue #14): "away 0:45", counting up from the seat's away_since.
        "away_for": _("away %(time)s"),
        "away_now": _("%(name)s is away."),
        "back_now": _("%(name)s is back."),
        # The turn timer's automatic moves, told to everyone; the Scart's cards are never named.
        "auto_played": _("The timer played %(card)s for %(name)s."),
        "auto_pass": _("The timer dealt pass %(n)s for %(name)s."),
        "auto_scart": _("The timer discarded the Scart for %(name)s."),
        "free_seat": _("Free seat"),
        "take_seat": _("Take this seat"),
        "leave_seat": _("Leave seat"),
        "move_to": _("Move to…"),
        "move_player": _("Move %(name)s to another seat"),
        "seat_n": _("Seat %(n)s"),
        "kick": _("Remove from the room"),
        "make_owner": _("Make room owner"),
        "spectating": _("You are watching this table as a spectator."),
        # Counts come in two forms: the script takes "_one" for 1 and the other for any other n.
        "cards_count_one": ngettext("%(n)s card", "%(n)s cards", 1),
        "cards_count": ngettext("%(n)s card", "%(n)s cards", 2),
        "face_down": _("face-down card"),
        "on_turn": _("to play"),
        # Lobby
        "lobby_title": _("Lobby"),
        "lobby_hint": _("Two players per team; partners sit opposite each other. The room "
                        "owner deals first."),
        "invite_link": _("Invite link"),
        "copy": _("Copy"),
        "copied": _("Link copied."),
        "start_match": _("Start the match"),
        "need_four": _("The match can start when Team A and Team B have two players each."),
        "waiting_owner": _("Waiting for the room owner to start the match."),
        "owner_controls": _("Room owner's controls"),
        "edit_rules": _("Edit house rules"),
        "save_rules": _("Save house rules"),
        "cancel": _("Cancel"),
        "public": _("Public"),
        "private": _("Private (invite code only)"),
        "visibility": _("Visibility"),
        "spectators_allowed": _("Allow spectators"),
        "close_room": _("Close the room"),
        "confirm_close": _("Close this room for everyone? A running match is abandoned."),
        "confirm_kick": _("Remove %(name)s from the room?"),
        "room_closed": _("This room is closed: open a new table from the home page."),
        # Table
        "deal_n": _("Deal %(n)s"),
        "deal_n_of": _("Deal %(n)s of %(total)s"),
        "match_total": _("Match total"),
        "tricks": _("Tricks"),
        "bock": _("Bock"),
        "bock_left_one": ngettext("Bock: %(n)s deal left", "Bock: %(n)s deals left", 1),
        "bock_left": ngettext("Bock: %(n)s deal left", "Bock: %(n)s deals left", 2),
        "bock_deal": _("Bock deal: points count double"),
        "phase_DEALING": _("Dealing"),
        "phase_REVEAL": _("Reveal"),
        "phase_SCART": _("Scart"),
        "phase_PLAY": _("Play"),
        "phase_ROUND_OVER": _("Scoring"),
        "phase_MATCH_OVER": _("Match over"),
        "deal_pass": _("Deal the next pass"),
        "deal_pass_n": _("Deal pass %(n)s of 3"),
        "wait_deal": _("%(name)s is dealing."),
        "your_deal": _("You are the dealer: deal the next pass."),
        "reveal_title": _("Reveal cards"),
        "reveal_countdown": _("The reveal window closes in %(seconds)s s."),
        "scart_title": _("Choose two cards for the Scart"),
        "scart_hint": _("You are the dealer: choose exactly two cards to discard."),
        "scart_selected": _("%(n)s of 2 chosen"),
        "scart_confirm": _("Discard these two cards"),
        "wait_scart": _("%(name)s is choosing the Scart."),
        "scart_pile": _("Scart: 2 cards"),
        "your_turn": _("Your turn: play a card."),
        "turn_of": _("%(name)s to play."),
        "trick_n": _("Trick %(n)s of 19"),
        "last_trick": _("Last trick"),
        "won_by": _("won by %(name)s"),
        "trick_won_by": _("%(name)s won the trick."),
        "played": _("%(name)s played %(card)s."),
        "led_suit": _("Suit led: %(suit)s"),
        "your_hand": _("Your hand"),
        "hand_help": _("Use the arrow keys to move through your hand and Enter or Space to "
                       "play the card."),
        "buob": _("BUOB"),
        "buob_on": _("BUOB on %(suit)s"),
        "buob_choose": _("Which king's jack do you call?"),
        "buob_with_card": _("Call BUOB with this card"),
        "buob_called": _("%(caller)s called BUOB on %(suit)s: %(target)s (%(mode)s)."),
        # A refused call is public (RULES §8): what happened, never where the jack lies.
        "buob_refused_suit": _("%(caller)s called BUOB on %(suit)s: refused, nobody but the "
                               "king's player can still play that jack."),
        "buob_refused": _("%(caller)s called BUOB: refused, for the kings on the table nobody "
                          "but the king's player can still play the jack."),
        # Keyed by the engine's BuobMode values ("forced", "deferred", "self").
        "mode_forced": _("forced jack play"),
        "mode_deferred": _("deferred exchange"),
        "mode_self": _("self-BUOB"),
        # The exchange at the trick's completion (RULES §8): the returned card was face up.
        "buob_exchange": _("BUOB exchange: %(card)s went back to %(name)s, %(jack)s came in."),
        "buob_jack_in": _("BUOB: %(name)s played the called jack, %(jack)s."),
        "regame_already": _("The next deal is already on."),
        "buob_forced_you": _("BUOB was called on you: you must play the called jack."),
        "narr_debt": _("Narr debt"),
        "narr_pending": _("Narr debt: %(debtor)s owes %(creditor)s a card."),
        "narr_settled": _("Narr debt paid: %(debtor)s → %(creditor)s."),
        # Scoring
        "score_title": _("Deal %(n)s: scoring"),
        "score_team": _("Team"),
        "score_tricks": _("Tricks won"),
        "score_cards": _("Won cards"),
        "score_points": _("Card points"),
        "score_multiplier": _("Bock multiplier"),
        "score_added": _("Added to the match"),
        "score_total": _("Match total"),
        # Both figures labelled, A first (issue #24 item 4; games/text/scores.py says the same).
        "score_pair": _("A %(a)s : B %(b)s"),
        "score_win": _("%(team)s wins the deal: %(score)s."),
        "score_tie": _("A 36:36 tie."),
        "bock_triggered": _("This deal starts a Bock round: the next four deals count "
                            "double."),
        "show_piles": _("Show the won cards"),
        "scart_was": _("The Scart was"),
        "regame": _("Regame: start the next deal"),
        "regame_owner_only": _("In this room only the room owner starts the next deal."),
        "end_match": _("End the match"),
        "match_over": _("Match over"),
        "resigned": _("%(name)s resigned."),
        "resign": _("Resign"),
        # Hints at a practice table (issue #28): the strong bot's best actions.
        "hint": _("Hint"),
        "hint_wait": _("The strong bot is thinking…"),
        "hint_title": _("The strong bot's advice"),
        # %(cards)s: two card names joined by " + ".
        "hint_scart": _("Scart %(cards)s"),
        # The points the player's team is expected to end the deal with after this choice.
        "hint_points": _("%(points)s points expected"),
        "hint_behind": _("%(points)s less than the best"),
        "hint_call": _("First call BUOB on %(suit)s: accepted about %(chance)s times in 100."),
        "leave_confirm": _("A bot will play for you after %(n)s s; leave anyway?"),
        "leave_confirm_practice": _("The game waits for you until you come back; leave "
                                    "anyway?"),
        "resign_confirm": _("Give this match up? It ends now, won by the other team, and "
                            "counts as not finished by you."),
        "match_winner": _("%(team)s wins the match!"),
        "match_draw": _("The match is a draw."),
        "new_match": _("New match"),
        "wait_new_match": _("The room owner can start a new match."),
        "same_four": _("Same four again"),
        "same_four_owner_only": _("In this room only the room owner starts the next match."),
        "deals_title": _("Every deal of the match"),
        "col_deal": _("Deal"),
        "col_bock": _("Bock"),
        "col_running": _("Running total"),
        "bock_double": _("Bock ×2"),
        "buob_took": _("%(team)s took the trick"),
        "replay_link": _("Watch the replay"),
        # Issue #28 item 3: the score sheet's link to the review of one's own play in the deal.
        "review_link": _("Review my play"),
        # Help and misc.
        "help": _("Help"),
        "help_title": _("Keyboard shortcuts"),
        "key_arrows": _("move through your hand"),
        "key_enter": _("play or choose the focused card"),
        "key_b": _("call BUOB"),
        "key_l": _("show the last trick"),
        "key_d": _("deal the next pass (dealer)"),
        "key_h": _("ask the strong bot for a hint (practice tables)"),
        "key_help": _("show this help"),
        "key_esc": _("close a window"),
        "close": _("Close"),
        # A plate's turn timer, in words (issue #24 item 5): "0:42 to play".
        "turn_left": _("%(time)s to play"),
        # Feel (issue #14 item 6): the tab's title on your turn, the sounds, the trick on show.
        "title_your_turn": _("Your turn"),
        "sounds": _("Table sounds"),
        "sounds_hint": _("A quiet sound when it is your turn and when your team wins a trick."),
        "sounds_not_saved": _("Your choice of sounds could not be saved: try again."),
        "skip_hold": _("Tap the trick to gather it now."),
        "key_skip_hold": _("gather the trick on show now"),
        # The help, in context (issue #14 items 4 and 6): four topics, each with its rules
        # section, and a line about this very moment when it applies.
        "help_rules_link": _("In the rules: %(section)s"),
        "help_led_title": _("The suit led"),
        "help_led": _("The first card of a trick sets the suit led. Follow suit: play a card "
                      "of that suit if you have one."),
        "help_led_now": _("In this trick the suit led is %(suit)s."),
        "help_trump_title": _("Must trump"),
        "help_trump": _("If you cannot follow suit, you must play a trump if you have one. It "
                        "does not have to be higher than the trumps on the table."),
        "help_trump_now": _("You cannot follow suit: play a trump."),
        "help_buob_title": _("BUOB"),
        "help_buob": _("While a king is in the trick and its suit has not been led before, "
                       "any player may call BUOB: whoever holds that king's jack must give it "
                       "to the trick."),
        "help_buob_now": _("You may call BUOB now."),
        "help_narr_title": _("The Narr"),
        # RULES.md §9: a debt arises only when the Narr's own team lost the trick.
        "help_narr": _("The Narr may be played at any time instead of following suit or "
                       "trumping. In tricks 1 to 18 it goes back to its owner's team; if that "
                       "team lost the trick, it owes the winners one card: the Narr debt."),
        "help_narr_now": _("You hold the Narr."),
    }
    # Why a card of the hand cannot be played: the view's `refusal` (issue #23 item 5).
    s.update(refusal_strings())
    s.update(bot_strings())
    s.update(notice_strings())
    s.update(early_strings())
    s["suit_C"] = _("cups")
    s["suit_R"] = _("coins")
    s["suit_S"] = _("swords")
    s["suit_B"] = _("batons")
    s["suit_T"] = _("trumps")
    return s


def notice_strings() -> dict[str, str]:
    """Issue #24 at the table: how many watch (a count, never who) and the score sheet that
    closes and comes back from the score bar (static/js/views/bar_extras.js)."""
    return {
        "watching_one": ngettext("%(n)s watching", "%(n)s watching", 1),
        "watching": ngettext("%(n)s watching", "%(n)s watching", 2),
        "close_sheet": _("Close the score sheet"),
        "open_sheet": _("Score sheet"),
    }


def bot_strings() -> dict[str, str]:
    """The words of bots at the table (issue #15): the badge, the lobby's controls, and the
    away notice's countdown to the stand-in and its label."""
    return {
        "bot_badge": _("bot"),
        # A bot's badge on its plate, its level said once (issue #24 item 5): "bot · strong".
        "bot_level_badge": _("bot · %(level)s"),
        # A bot's name at the table: the server sends its own name and level apart.
        "bot_name": _("%(name)s (bot, %(level)s)"),
        "seat_bot": _("Seat a bot"),
        "remove_bot": _("Remove the bot"),
        "bot_level_for": _("Bot level for seat %(n)s"),
        "level_beginner": _("beginner"),
        "level_easy": _("easy"),
        "level_medium": _("medium"),
        "level_strong": _("strong"),
        # After "away 0:45 · ": the countdown of the room's grace period, then who plays.
        "stand_in_in": _("bot in %(time)s"),
        "stand_in_for": _("bot for %(name)s"),
    }


def early_strings() -> dict[str, str]:
    """Choosing a card early and the single legal card played by itself (issue #24 item 15,
    static/js/views/premove.js and play_pref.js)."""
    return {
        "early_chosen": _("%(card)s chosen early: it is played when your turn comes. Choose it "
                          "again to cancel."),
        "early_cancelled": _("%(card)s is no longer chosen early."),
        "early_dropped": _("The card you chose early cannot be played now."),
        "early_help": _("While another player is on turn, choosing a card keeps it for your "
                        "turn."),
        "single_card_auto": _("Your only legal card, %(card)s, is played by itself."),
        "single_card_not_saved": _("Your choice could not be saved: try again."),
    }

"""Who may see a match's history: the one place every history page, JSON and download asks.

- A **public room's** matches: every signed-in player may open the match page; once a match is
  finished, its replay and transcript (every card, RULES.md §13 "after the deal") too.
- A **private room's** matches: only the room's members — the four players of the match, anyone
  who sits in the room or played a match there, its owner — and staff. Everyone else gets a 404,
  the same as for a match that does not exist, so match ids (which are sequential) tell an
  outsider nothing about private rooms.
- A **tournament table's** match (issue #26 items 4 and 7): while its round is not closed,
  only its four players and staff may open its page, and nobody gets its cards (a duplicate
  round's decks are still being played at the other tables); once the round is closed, every
  signed-in player when the tournament shows replays after the round, else as a private room.
- A running or abandoned match never shows its cards (the replay and the transcript are refused
  with MATCH_NOT_FINISHED to those who may see the page).

The room's invite code is shown to nobody here: it is the key to a private room.
"""

from __future__ import annotations

from typing import Any

from games.history.replay import is_public
from games.models import Match, Room, Seat, Visibility
from games.models.tournaments import match_cards_secret, tournament_room_watchable


def is_member(room: Room, user: Any) -> bool:
    """Owner, seated now, or a player of any of the room's matches."""
    if not getattr(user, "is_authenticated", False):
        return False
    if room.owner_id == user.pk:
        return True
    if Seat.objects.filter(room=room, user=user).exists():
        return True
    return Match.objects.filter(room=room).for_user(user).exists()


def may_view(match: Match, user: Any) -> bool:
    """May `user` open this match's page (its public facts)?"""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or any(p.pk == user.pk for p in match.players):
        return True
    room = match.room
    watchable = tournament_room_watchable(room.pk)
    if watchable is not None:
        return watchable or is_member(room, user)
    return room.visibility == Visibility.PUBLIC or is_member(room, user)


def cards_shown(match: Match) -> bool:
    """Every card of a match may be shown once it is finished (RULES.md §13), a tournament
    table's once its round is closed too."""
    return is_public(match) and not match_cards_secret(match.room_id)

"""Who may see a match's history: the one place every history page, JSON and download asks.

- A **public room's** matches: every signed-in player may open the match page; once a match is
  finished, its replay and transcript (every card, RULES.md §13 "after the deal") too.
- A **private room's** matches: only the room's members — the four players of the match, anyone
  who sits in the room or played a match there, its owner — and staff. Everyone else gets a 404,
  the same as for a match that does not exist, so match ids (which are sequential) tell an
  outsider nothing about private rooms.
- A running or abandoned match never shows its cards (the replay and the transcript are refused
  with MATCH_NOT_FINISHED to those who may see the page).

The room's invite code is shown to nobody here: it is the key to a private room.
"""

from __future__ import annotations

from typing import Any

from games.history.replay import is_public
from games.models import Match, Room, Seat, Visibility


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
    return room.visibility == Visibility.PUBLIC or is_member(room, user)


# Every card of a match may be shown once it is finished (RULES.md §13).
cards_shown = is_public

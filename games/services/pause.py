"""A practice table waits for its person (issue #24 item 2).

A practice table is a running match where every seat but one is a bot (Play now makes them;
stand_ins.practice_person). When that person's last socket at the room closes — or the purge
closes the row of a socket whose process died — the match pauses: `Match.paused_at` is set in
the same transaction, the table's version moves on (a bot's or a timer's wake-up of the
version before then finds the table moved and does nothing) and every socket of the room gets
the `state` frame with `match.paused_at`. While it is paused no bot acts (stand_ins.
pending_turn), no stand-in plays for the person (a practice table never has one), no timer
fires (deadlines.py) and the idle sweep leaves it alone (idle.py). When the person opens a
socket at the room again it resumes: `paused_at` cleared, a running timer moved on by the time
the table waited (so it has what it had left), and the announcement wakes the bot whose turn
it is, after commit — the match goes on exactly where it was.

A tournament's director may pause any running match (`director_pause`, issue #26 item 6): the
same `paused_at`, so bots, stand-ins, timers and the idle sweep hold exactly as for a practice
table; only `director_resume` lifts it (a socket opening at the room does not: presence
resumes practice tables alone). `substitute_seat` puts another player (a person, or a bot's
account) on a seat of a running match, keeping the engine's seat, team and cards.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from games.models import MatchStatus, Room, Seat
from games.services.bots.stand_ins import practice_person
from games.services.errors import ServiceError
from games.services.record import bump, finish, log_action
from games.services.snapshot import display_name
from games.services.tables import Table, lock_code, seats_of
from games.services.timers import aim_wakeup

__all__ = ["director_pause", "director_resume", "pause_if_practice", "resume_if_paused",
           "substitute_seat"]


def _practice_table(room_id: int, user_id: int) -> Table | None:
    """The room's table, locked, if it plays a running practice match of `user_id`."""
    code = Room.objects.filter(pk=room_id, closed__isnull=True, current_match__isnull=False,
                               current_match__status=MatchStatus.RUNNING).values_list(
        "code", flat=True).first()
    if code is None:
        return None
    t = lock_code(code)
    if (t.match is None or t.match.status != MatchStatus.RUNNING or t.room.closed is not None
            or practice_person(seats_of(t)) != user_id):
        return None
    return t


def pause_if_practice(room_id: int, user_id: int) -> bool:
    """The person of a practice table left it (their last socket at the room closed): pause
    the match. Call inside the transaction that closed the socket's row. True if paused."""
    t = _practice_table(room_id, user_id)
    if t is None or t.match is None or t.match.paused_at is not None:
        return False
    t.match.paused_at = t.now
    t.match.save(update_fields=["paused_at"])
    log_action(t, None, None, None, "pause", {"match": t.match.pk, "player": user_id}, None,
               bump(t))
    finish(t)
    return True


def _running_table(room_id: int) -> Table:
    """The room's table, locked, playing a running match; TABLE_NOT_RUNNING otherwise."""
    code = Room.objects.filter(pk=room_id).values_list("code", flat=True).first()
    if code is None:
        raise ServiceError("TABLE_NOT_RUNNING")
    t = lock_code(code)
    if t.match is None or t.match.status != MatchStatus.RUNNING or t.room.closed is not None:
        raise ServiceError("TABLE_NOT_RUNNING")
    return t


def _resume(t: Table, payload: dict[str, Any]) -> None:
    """Clear the pause of `t`'s match, giving a running timer back the time it waited."""
    assert t.match is not None and t.match.paused_at is not None
    waited = max(t.now - t.match.paused_at, timedelta(0))
    t.match.paused_at = None
    t.match.save(update_fields=["paused_at"])
    rnd = t.round
    if rnd is not None and rnd.deadline is not None:
        rnd.deadline += waited
        aim_wakeup(rnd, t.now)  # its wake-up is sent by the announcement (announce.py)
        rnd.save(update_fields=["deadline", "wakeup_at"])
    log_action(t, None, None, None, "resume",
               {**payload, "match": t.match.pk,
                "paused_seconds": round(waited.total_seconds())}, None, bump(t))
    finish(t)


def director_pause(room_id: int, director: Any) -> bool:
    """A tournament director pauses the room's running match (issue #26 item 6). Call inside
    the desk's transaction. False if it was already paused; TABLE_NOT_RUNNING if no match
    runs there."""
    t = _running_table(room_id)
    assert t.match is not None
    if t.match.paused_at is not None:
        return False
    t.match.paused_at = t.now
    t.match.save(update_fields=["paused_at"])
    log_action(t, None, director, None, "pause", {"match": t.match.pk, "director": True}, None,
               bump(t))
    finish(t)
    return True


def director_resume(room_id: int, director: Any) -> bool:
    """Resume a match the director paused (or any paused match of the room). False if it was
    not paused; TABLE_NOT_RUNNING if no match runs there."""
    t = _running_table(room_id)
    assert t.match is not None
    if t.match.paused_at is None:
        return False
    _resume(t, {"director": True})
    return True


def substitute_seat(room_id: int, seat: int, user: Any, director: Any) -> int:
    """Seat `user` (a person, or a bot's account) on engine seat `seat` of the room's running
    match in place of its player, who leaves the room; returns the user id replaced. The
    seat's team and cards stay; a table that may not talk shows the newcomer's name from now
    on. TABLE_NOT_RUNNING, NOT_FOUND (no such seat), ALREADY_SEATED_THERE (the user already
    has a seat in the room). A bot seated so makes the match unrated (Match.rated), as a bot
    seated from the start does: its seat's result is not its entrant's play. A person seated so
    plays for the seat's entrant, and the match stays rated for the players it names."""
    t = _running_table(room_id)
    row = Seat.objects.filter(room_id=room_id, index=seat).first()
    if row is None:
        raise ServiceError("NOT_FOUND")
    if Seat.objects.filter(room_id=room_id, user_id=user.pk).exists():
        raise ServiceError("ALREADY_SEATED_THERE")
    replaced = row.user_id
    row.user_id = user.pk
    row.save(update_fields=["user"])
    t.seats = None  # read again by the snapshot the announcement builds
    assert t.match is not None
    fields = []
    if t.match.rated and getattr(user, "is_bot", False):
        t.match.rated = False
        fields.append("rated")
    if t.match.seat_names:
        t.match.seat_names = {**t.match.seat_names, str(user.pk): display_name(user)}
        fields.append("seat_names")
    if fields:
        t.match.save(update_fields=fields)
    log_action(t, None, director, seat, "substitute",
               {"match": t.match.pk, "seat": seat, "player": user.pk, "replaced": replaced},
               None, bump(t))
    finish(t)
    return replaced


def resume_if_paused(room_id: int, user_id: int) -> bool:
    """The person of a paused practice table is back (a socket at the room opened): resume.
    A running timer (the reveal window, a turn timer of a room seated by hand) gets back the
    time it had left. True if resumed."""
    t = _practice_table(room_id, user_id)
    if t is None or t.match is None or t.match.paused_at is None:
        return False
    _resume(t, {"player": user_id})
    return True

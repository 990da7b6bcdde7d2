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
"""

from __future__ import annotations

from datetime import timedelta

from games.models import MatchStatus, Room
from games.services.bots.stand_ins import practice_person
from games.services.record import bump, finish, log_action
from games.services.tables import Table, lock_code, seats_of
from games.services.timers import aim_wakeup

__all__ = ["pause_if_practice", "resume_if_paused"]


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


def resume_if_paused(room_id: int, user_id: int) -> bool:
    """The person of a paused practice table is back (a socket at the room opened): resume.
    A running timer (the reveal window, a turn timer of a room seated by hand) gets back the
    time it had left. True if resumed."""
    t = _practice_table(room_id, user_id)
    if t is None or t.match is None or t.match.paused_at is None:
        return False
    waited = max(t.now - t.match.paused_at, timedelta(0))
    t.match.paused_at = None
    t.match.save(update_fields=["paused_at"])
    rnd = t.round
    if rnd is not None and rnd.deadline is not None:
        rnd.deadline += waited
        aim_wakeup(rnd, t.now)  # its wake-up is sent by the announcement (announce.py)
        rnd.save(update_fields=["deadline", "wakeup_at"])
    log_action(t, None, None, None, "resume",
               {"match": t.match.pk, "player": user_id,
                "paused_seconds": round(waited.total_seconds())}, None, bump(t))
    finish(t)
    return True

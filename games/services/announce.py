"""What a command's commit sets off: the table's broadcast, the deal's wake-up, the bot to act
next — each handed over after commit, never from inside the transaction (ARCHITECTURE.md §6).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from games.models import MatchStatus
from games.models.after_commit import effects
from games.services import wakeups
from games.services.bots import pace, stand_ins
from games.services.bots import wakeups as bot_wakeups
from games.services.people import person_connected
from games.services.snapshot import snapshot
from games.services.sql import SeatRow
from games.services.tables import Table, seats_of, timer_of


def after_commit(t: Table, work: Callable[[], None], *, on_loop: bool = False) -> None:
    """Do `work` once this command is written (`transaction.on_commit`: never if it rolls
    back; on the event loop, collected in t.hooks and run by the writer after its write).
    `on_loop`: it may run on the sockets' event loop (it neither blocks nor touches the
    database)."""
    if t.hooks is None:
        transaction.on_commit(work)
    else:
        t.hooks.append((work, on_loop))


def announce(t: Table) -> None:
    """What this command's commit sets off: the broadcast of the table, the deal's wake-up if
    the command armed one, the bot to act next (each after commit, `after_commit`)."""
    seats = seats_of(t)
    snap = snapshot(t, seats)
    port = effects()
    if port is not None:
        # Through the after-commit port (games/models/after_commit.py): the live layer's.
        after_commit(t, lambda: port.publish(snap), on_loop=True)
    rnd = t.round
    if rnd is not None and rnd.wakeup_at is not None and timer_of(rnd) != t.timer_was:
        # Only a command that armed a new wake-up (`aim_wakeup`) sends one: a card played
        # under a turn timer usually moves the deadline later, and the wake-up already armed
        # comes first and re-arms itself. No Celery message per card (issue #16).
        round_id, when = rnd.pk, rnd.wakeup_at
        after_commit(t, lambda: wakeups.schedule(round_id, when))
    wake_bot(t, seats)


def wake_bot(t: Table, seats: list[SeatRow]) -> None:
    """After commit, wake the bot that is to act at this version (when its pause after this
    action allows, or when its stand-in grace period ends); nothing when a person is to act."""
    rnd, match = t.round, t.match
    if rnd is None or match is None or match.status != MatchStatus.RUNNING:
        return
    # Whether a person is connected is read only when it decides (stand-ins at a scored
    # deal), never on a card's hot path.
    room_id, now = t.room.pk, t.now
    turn, due = stand_ins.pending_turn(t.state, seats, t.room.owner_id, now,
                                       paused=match.paused_at is not None,
                                       anyone_here=lambda: person_connected(room_id, now))
    if turn is None and due is None:
        return
    if turn is not None and t.state is not None:
        # A pause after this action, the bot woken its decision's length before the move is
        # due (pace.py): the same moment the bot's turn works out again from the log.
        moment = pace.moment(t.now, seats, turn, t.state, match_id=match.pk, deal=rnd.number,
                             number=rnd.actions_logged)
        if moment is not None:
            due = moment.wake_at()
    round_id, version = rnd.pk, t.room.version
    after_commit(t, lambda: bot_wakeups.schedule(round_id, version, due))

"""When a deal's next timer falls due, and when its wake-up is armed (RULES.md §5, §12).

Arithmetic on the deal's state and its round row, no I/O: the engine's actions set the
deadline (games/services/record.py), games/services/deadlines.py fires it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.engine import DEALING, PLAY, REVEAL, SCART, MatchState
from games.models import Round


def next_deadline(state: MatchState, now: datetime) -> tuple[datetime | None, str]:
    """The next timer of a deal (RULES §5 reveal window, §12 turn timer), or none."""
    opts = state.options
    if state.phase == REVEAL:
        return now + timedelta(seconds=opts.reveal_seconds), "reveal"
    if opts.turn_seconds and state.phase in (DEALING, SCART, PLAY):
        return now + timedelta(seconds=opts.turn_seconds), "turn"
    return None, ""


def aim_wakeup(rnd: Round, now: datetime) -> bool:
    """Arm the deal's wake-up for its deadline, unless the one armed already comes first
    (between now and the deadline: it finds the deadline later and re-arms itself for it,
    `deadlines.wake`). True if it armed one: `rnd.wakeup_at` is then to be written, and
    `record.finish` sends the wake-up after commit. A wake-up that was lost (its worker killed) is
    replaced by the next command after its time, and the sweep fires the deadline meanwhile."""
    deadline = rnd.deadline
    if deadline is None:
        return False
    armed = rnd.wakeup_at
    if armed is not None and now < armed <= deadline:
        return False
    rnd.wakeup_at = deadline
    return True

"""When a bot's move reaches the table (issue #24 item 14, issue #25 item 11).

A bot pauses before it plays, so a person can follow the trick: the pause of a table is the
slowest `bot_speed` among the people seated there, connected or not (accounts.User; fast,
normal, slow: settings.TROCCAS_BOT_PAUSE_SECONDS), times a factor in [0.8, 1.2] drawn from a
seed of (match, deal, action number) — never from anything the bot sees. It is measured from
the moment the table's previous action was accepted (its RoundAction.created, the writer's
`t.now`).

The same pause hides how long the bot thought. A strong bot answers at once with one legal card
and after its whole budget with four, so a move that reached the table when its decision ended
would tell the opponents "that was its only card". Instead the move reaches the table at
*exactly* previous action + pause, whatever the decision took:

* the bot is woken `lead_seconds(level)` before that moment (the strong bot: its full budget
  plus the overrun slack, after which its decision is replaced by the easy bot's choice at the
  latest; the easy bot, which decides in well under a millisecond whatever its hand: the slack
  alone, so it does not hold a worker for a budget it never uses);
* it decides (`plan` gives the decision what is left until the moment, at most its budget);
* it holds the decided move until the moment (`hold`: a sleep on the bot's own worker thread,
  never longer than the lead, see docs/decisions.md) and submits it.

The pause is never shorter than the strong bot's lead, so a decision always ends before its
moment. When the runner is behind (the wake-up comes late: the governor's lag,
games/services/bots/budget.py) the move may reach the table late, but by an amount fixed before
the decision starts, from the lag and the budget alone (`plan`), never by how long this hand
took. `TROCCAS_BOT_PAUSE_SCALE = 0` turns all of it off (the tests, the capacity bench): a bot
then plays as soon as it has decided.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings

from games.engine import MatchState
from games.services.bots.stand_ins import BotTurn, stand_in_due
from games.services.sql import SeatRow

# A decision may take this much longer than its budget (the strong bot checks its clock after
# every playout, so it ends a little late) before it counts as an overrun.
OVERRUN_SLACK_MS = 100.0
# A wake-up this much before its moment still plays (a countdown rounded, another machine's
# clock): the bot holds its move a little longer. An earlier one (the sweep, a stand-in woken
# when its grace period ends) is put back to its moment.
EARLY_TOLERANCE_S = 0.25
# The order of the speeds, fastest first; a table takes the slowest of its people's.
SPEEDS = ("fast", "normal", "slow")
# accounts.User.bot_speed's default: a table of bots alone (nobody seated to follow it).
DEFAULT_SPEED = "normal"
# Levels that decide in well under a millisecond whatever their hand (games/bots/easy.py).
QUICK_LEVELS = frozenset({"beginner", "easy"})


class Clock:
    """Wall-clock seconds since the epoch, and a sleep (a test hands in its own)."""

    def time(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


clock = Clock()


def enabled() -> bool:
    """Whether bots pause at all (TROCCAS_BOT_PAUSE_SCALE > 0)."""
    return float(settings.TROCCAS_BOT_PAUSE_SCALE) > 0


def table_speed(seats: Iterable[SeatRow]) -> str:
    """The slowest bot speed among the people seated (bots have no say); the default with
    nobody seated, or for a value the list does not know."""
    chosen = [SPEEDS.index(s.bot_speed) if s.bot_speed in SPEEDS else SPEEDS.index(DEFAULT_SPEED)
              for s in seats if not s.is_bot and s.index is not None]
    return SPEEDS[max(chosen)] if chosen else DEFAULT_SPEED


def lead_seconds(level: str) -> float:
    """How long before its moment a bot of `level` is woken: the longest its decision may
    take at full budget (games/services/bots/turns.py waits that long at most)."""
    budget = 0.0 if level in QUICK_LEVELS else float(settings.TROCCAS_BOT_BUDGET_MS)
    return (budget + OVERRUN_SLACK_MS) / 1000


def _factor(match_id: int, deal: int, number: int) -> float:
    # Its own seed (not the decision's): the pause of an action is the same on every server.
    digest = hashlib.sha256(f"pause:{match_id}:{deal}:{number}".encode()).digest()
    return 0.8 + 0.4 * int.from_bytes(digest[:8], "big") / 2 ** 64


def pause_seconds(speed: str, match_id: int, deal: int, number: int) -> float:
    """The pause before the bot's move after action `number` of the deal: the speed's value
    times a factor in [0.8, 1.2], never shorter than a strong bot's lead (or 0: off)."""
    scale = float(settings.TROCCAS_BOT_PAUSE_SCALE)
    if scale <= 0:
        return 0.0
    seconds = settings.TROCCAS_BOT_PAUSE_SECONDS
    base = float(seconds.get(speed, seconds[DEFAULT_SPEED])) * scale
    return max(base * _factor(match_id, deal, number), lead_seconds("strong"))


@dataclass(frozen=True)
class Moment:
    """When a bot's move is to reach the table (`target`) and when to wake it (`wake`), in
    seconds since the epoch."""

    target: float
    wake: float

    def wake_at(self) -> datetime:
        return datetime.fromtimestamp(self.wake, UTC)


def moment(previous: datetime | None, seats: list[SeatRow], turn: BotTurn, state: MatchState,
           *, match_id: int, deal: int, number: int) -> Moment | None:
    """The moment of `turn`'s move after the table's previous action (accepted at `previous`,
    the deal's action `number`); None when bots do not pause. A stand-in counts from the end
    of its grace period when that is later: it takes over after a pause too. Without a
    previous action the move comes a lead after the wake-up (`plan`), unpaused but hidden."""
    if not enabled():
        return None
    lead = lead_seconds(turn.level)
    if previous is None:
        return Moment(target=0.0, wake=0.0)
    since = previous
    if turn.stand_in_for is not None:
        row = next((s for s in seats if s.index == turn.seat), None)
        due = stand_in_due(row, state) if row is not None else None
        if due is not None and due > since:
            since = due
    target = since.timestamp() + pause_seconds(table_speed(seats), match_id, deal, number)
    return Moment(target=target, wake=target - lead)


@dataclass(frozen=True)
class Plan:
    """A decision's budget (ms), how long the table waits for it (ms), and when its move is
    submitted (seconds since the epoch)."""

    budget_ms: float
    wait_ms: float
    submit_at: float


def plan(m: Moment, now: float, level: str, budget_ms: float) -> Plan:
    """The decision's budget and the move's moment, fixed before the decision starts from the
    clock and the budget alone. On time: the budget the runner allows (`budget_ms`, the
    governor's), cut to what is left before the moment if the wake-up came a little late (not
    below the settings' floor); too late for that, the runner's budget, and the move comes as
    late as the lag made it."""
    slack = OVERRUN_SLACK_MS
    if level in QUICK_LEVELS:
        at = max(m.target, now + slack / 1000)
        return Plan(budget_ms, (at - now) * 1000, at)
    room = (m.target - now) * 1000 - slack
    floor = min(float(settings.TROCCAS_BOT_BUDGET_FLOOR_MS), budget_ms)
    budget = min(budget_ms, room) if room >= floor else budget_ms
    return Plan(budget, budget + slack, max(m.target, now + (budget + slack) / 1000))


def hold(until: float, level: str) -> None:
    """Wait on this thread until `until`, never longer than the level's lead plus the early
    tolerance (a clock that jumped cannot park a worker)."""
    left = min(until - clock.time(), lead_seconds(level) + EARLY_TOLERANCE_S)
    if left > 0:
        clock.sleep(left)

"""Bots at the table (issue #15): a bot's turn, the sweep for lost ones, the practice table.

A bot acts through `submit` like any player — the same checks, versions, action log and
broadcast. A wake-up (games/services/bots/wakeups.py: a Celery task, or the embedded worker
pool) carries (round, version) and does nothing if the table moved on. The bot sees only its
seat's view and the events of the deal that seat may see (`games.bots`, the decision). A bot
never stalls a table: a decision that raises, overruns its budget or is illegal is replaced by
the easy bot's choice (it decides in under a millisecond: a strong bot out of time plays like
the easy bot, not like a beginner; issue #24 item 13), or by the lowest-value legal action if
that fails too; each fallback is counted (bot_budget.governor) and logged without a card in it.

Every bot move reaches the table a pause after the table's previous action, whatever its
decision took (games/services/bots/pace.py: a person can follow the trick, and the time a
decision took never tells the bot's hand; issue #24 item 14, issue #25 item 11).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import threading
import time
import traceback
import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from accounts.bots import bot_account
from accounts.models import User
from games import bots
from games.engine import PublicRefusal, apply, events_for, from_json, view
from games.engine.actions import STAND_IN_TYPES, command_fields
from games.engine.events import Event
from games.engine.options import Options
from games.engine.rules import PUBLIC_REFUSALS
from games.history.replay import ENGINE_KINDS, engine_action
from games.models import MatchStatus, PracticePosition, Room, Round, RoundAction
from games.models.presence import PRESENCE_TIMEOUT
from games.services.bots import budget as bot_budget
from games.services.bots import pace
from games.services.bots import wakeups as bot_wakeups
from games.services.bots.stand_ins import BotTurn, pending_turn
from games.services.commands import Command
from games.services.errors import ServiceError
from games.services.lobby import check_bot_tables
from games.services.people import person_connected
from games.services.rooms import create_room
from games.services.snapshot import lobby_state
from games.services.sql import SeatRow
from games.services.tables import Table, load_code, seats_of
from games.services.writer import Outcome, submit

log = logging.getLogger(__name__)

# A decision may take this much longer than its budget before it counts as an overrun (the
# pace module holds it: a bot's wake-up comes that much before its move is due).
OVERRUN_SLACK_MS = pace.OVERRUN_SLACK_MS


def budget_ms() -> float:
    """The wall-clock budget of one decision (settings.TROCCAS_BOT_BUDGET_MS)."""
    return float(settings.TROCCAS_BOT_BUDGET_MS)


def seed_of(match_id: int, deal: int, action: int) -> int:
    """The decision's seed from (match, deal, action number): a run can be repeated."""
    digest = hashlib.sha256(f"{match_id}:{deal}:{action}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


# --- one decision ------------------------------------------------------------------------------

def _where(exc: BaseException) -> str:
    """Where an exception was raised, file and line: no message, since a message may name a
    card the log must not show."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    last = frames[-1]
    return f"{last.filename}:{last.lineno}"


def _is_legal(action: Any, v: dict[str, Any]) -> bool:
    """Whether `action` is one the seat's view offers (the engine has the last word)."""
    if not isinstance(action, dict) or action.get("seat") not in (None, v["seat"]):
        return False
    a = v["actions"]
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in STAND_IN_TYPES:
        return False  # a bot plays a seat (the action table's `stand_in`), never the room
    if kind == "deal_next_pass":
        return bool(a["deal"])
    if kind == "discard_scart":
        cards = action.get("cards")
        return (bool(a["scart"]) and isinstance(cards, list) and len(set(cards)) == 2
                and len(cards) == 2 and all(c in a["scart_allowed"] for c in cards))
    if kind == "play_card":
        return bool(a["play"]) and action.get("card") in a["legal_cards"]
    if kind == "call_buob":
        return bool(a["buob_suits"]) and action.get("suit") in (None, *a["buob_suits"])
    if kind == "regame":
        return bool(a["regame"])
    return False


def _decide_with_deadline(v: dict[str, Any], events: list[dict[str, Any]], level: str,
                          seed: int, budget: float, wait: float | None = None
                          ) -> tuple[Any, BaseException | None, bool]:
    """Run the decision on a thread of its own and wait at most `wait` ms for it (default:
    budget + slack): (action, exception raised, overran). A decision that never returns is
    left to finish on its daemon thread; the table does not wait for it."""
    wait = budget + OVERRUN_SLACK_MS if wait is None else wait
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["action"] = bots.decide(v, events, level=level, seed=seed, budget_ms=budget)
        except Exception as exc:  # noqa: BLE001 - reported to the caller
            box["error"] = exc

    thread = threading.Thread(target=run, name="troccas-bot-decide", daemon=True)
    start = time.perf_counter()
    thread.start()
    thread.join(wait / 1000)
    elapsed = (time.perf_counter() - start) * 1000
    if thread.is_alive() or elapsed > wait:
        return None, None, True
    return box.get("action"), box.get("error"), False


def choose(v: dict[str, Any], events: list[dict[str, Any]], *, level: str, seed: int,
           budget: float, where: str, wait: float | None = None) -> dict[str, Any]:
    """The bot's action; when the decision raised, overran its budget (waited for `wait` ms,
    default budget + slack) or is illegal, the easy bot's choice instead (`_stand_in`)."""
    action, error, overran = _decide_with_deadline(v, events, level, seed, budget, wait)
    if error is not None:
        log.error("bot %s: %s raised at %s; %s", where, type(error).__name__, _where(error),
                  FALLBACK_NOTE)
        return _stand_in(v, events, seed, where)
    if overran:
        log.warning("bot %s: no decision within its %.0f ms budget; %s", where, budget,
                    FALLBACK_NOTE)
        return _stand_in(v, events, seed, where)
    if not _is_legal(action, v):
        log.error("bot %s: chose an action its view does not offer (type %r); %s", where,
                  action.get("type") if isinstance(action, dict) else type(action).__name__,
                  FALLBACK_NOTE)
        return _stand_in(v, events, seed, where)
    return action


# The words every fallback's log line ends with (bench/bot_capacity.py counts them).
FALLBACK_NOTE = "played the easy bot's choice instead"


def _stand_in(v: dict[str, Any], events: list[dict[str, Any]], seed: int, where: str
              ) -> dict[str, Any]:
    """The easy bot's choice for a decision that failed (counted in the budget's figures); the
    lowest-value legal action only if the easy bot fails as well, so a table never stalls."""
    bot_budget.governor.fell_back()
    try:
        action = bots.stand_in(v, events, seed=seed)
    except Exception as exc:  # noqa: BLE001 - logged; the last resort below always exists
        log.error("bot %s: the easy bot's choice raised too (%s); played the lowest-value "
                  "legal action", where, type(exc).__name__)
        return bots.fallback(v)
    if not _is_legal(action, v):
        log.error("bot %s: the easy bot's choice is not legal here; played the lowest-value "
                  "legal action", where)
        return bots.fallback(v)
    return action


def deal_events(t: Table) -> list[Event]:
    """Every event of the current deal so far, replayed from its log (full information: the
    caller filters them for one seat with `events_for`)."""
    rnd, match = t.round, t.match
    assert rnd is not None and match is not None
    before = (Round.objects.filter(match=match, number__lt=rnd.number).order_by("-number")
              .values_list("engine_state", flat=True).first())
    state = (from_json(before) if before is not None
             else lobby_state(Options.from_json(match.options), rnd.dealer))
    events: list[Event] = []
    decks = {rnd.pk: rnd.deck}
    for row in RoundAction.objects.filter(round=rnd, kind__in=ENGINE_KINDS).order_by("version"):
        try:
            state, new = apply(state, engine_action(row, decks))
        except PublicRefusal as refusal:
            state, new = refusal.state, list(refusal.events)
        events.extend(new)
    return events


# --- one turn ----------------------------------------------------------------------------------

def _command(action: dict[str, Any], action_id: str, version: int) -> Command:
    # The command a client would send: without the seat and deck the server adds.
    return Command(action["type"], action_id, version, command_fields(action))


def _actor(turn: BotTurn) -> User:
    if turn.stand_in_for is not None:
        return bot_account(turn.level, turn.seat)
    return User.objects.get(pk=turn.user_id)


def wake_bot(round_id: int, version: int, due: float | None = None) -> bool:
    """What a bot runner (an embedded worker thread, a Celery task) calls with a wake-up:
    the lag since `due` (seconds since the epoch, when the bot was to act) sets this process's
    decision budget (games/services/bots/budget.py), then the turn is played at that budget."""
    lag = 0.0 if due is None else time.time() - due
    return play_bot_turn(round_id, version, budget=bot_budget.governor.start(lag))


def play_bot_turn(round_id: int, version: int, budget: float | None = None) -> bool:
    """A bot's wake-up: if a bot is to act on this deal at this version, decide and submit
    its action, the decision given `budget` ms (default: the settings' full budget), the move
    held until its moment (pace.py). False (and nothing changed) if the table moved on, is
    paused (a practice table whose person is away: games/services/pause.py) or no bot is to
    act; a stand-in whose grace period is not over yet, or a bot woken well before its
    moment, is woken again then."""
    code = Round.objects.filter(pk=round_id).values_list("match__room__code", flat=True).first()
    if code is None:
        return False
    t = load_code(code, lock=False)
    if (t.round is None or t.round.pk != round_id or t.room.version != version
            or t.room.closed is not None or t.match is None or t.state is None
            or t.match.status != MatchStatus.RUNNING):
        return False
    seats = seats_of(t)
    turn, due = pending_turn(t.state, seats, t.room.owner_id, t.now,
                             paused=t.match.paused_at is not None,
                             anyone_here=lambda: person_connected(t.room.pk, t.now))
    if turn is None:
        if due is not None:
            bot_wakeups.schedule(round_id, version, due)
        return False
    moment = bot_moment(t, seats, turn)
    if moment is not None and moment.wake - pace.clock.time() > pace.EARLY_TOLERANCE_S:
        bot_wakeups.schedule(round_id, version, moment.wake_at())
        return False
    v = view(t.state, turn.seat)
    events = events_for(deal_events(t), turn.seat)
    number = t.round.actions_logged
    where = f"room {code} seat {turn.seat} ({turn.level}) deal {t.round.number} action {number}"
    budget = budget_ms() if budget is None else budget
    # Fixed before the decision starts, from the clock and the budget alone: when the move
    # reaches the table never depends on how long this hand takes to decide.
    planned = pace.plan(moment, pace.clock.time(), turn.level, budget) if moment else None
    wait = None
    if planned is not None:
        budget, wait = planned.budget_ms, planned.wait_ms
    started = time.perf_counter()
    action = choose(v, events, level=turn.level, seed=seed_of(t.match.pk, t.round.number, number),
                    budget=budget, where=where, wait=wait)
    bot_budget.governor.decided(budget, (time.perf_counter() - started) * 1000)
    user = _actor(turn)
    if planned is not None:
        pace.hold(planned.submit_at, turn.level)
    for_seat = turn.seat if turn.stand_in_for is not None else None
    out = _send(code, user, action, f"bot-{round_id}-{version}", version, for_seat)
    if not out.ok and not out.duplicate and out.version == version and out.code not in (
            "STALE_VERSION", "NOT_STANDING_IN"):
        # The engine refused it and nothing changed: the lowest-value legal action instead.
        log.error("bot %s: the table refused its action (%s); playing the lowest-value legal "
                  "action instead", where, out.code)
        out = _send(code, user, bots.fallback(v), f"bot-{round_id}-{version}-fallback",
                    version, for_seat)
    if not out.ok and out.code in PUBLIC_REFUSALS and out.version == version + 1:
        # A BUOB call refused for where the jack lies (RULES §8) is still the bot's move: the
        # table recorded it at the next version, and the bot is woken again to play its card.
        return True
    return out.ok


def bot_moment(t: Table, seats: list[SeatRow], turn: BotTurn) -> pace.Moment | None:
    """When `turn`'s move is to reach the table (pace.moment), from the time the action that
    made the table's current version was accepted (the log's row at that version: the
    writer's own `t.now`, which the writer's announcement used to schedule this wake-up)."""
    if not pace.enabled() or t.round is None or t.match is None or t.state is None:
        return None
    previous = (RoundAction.objects.filter(room_id=t.room.pk, version=t.room.version)
                .values_list("created", flat=True).first())
    return pace.moment(previous, seats, turn, t.state, match_id=t.match.pk,
                       deal=t.round.number, number=t.round.actions_logged)


def _send(code: str, user: User, action: dict[str, Any], action_id: str, version: int,
          for_seat: int | None) -> Outcome:
    return submit(code, user, _command(action, action_id, version), for_seat=for_seat)


# --- the sweep ---------------------------------------------------------------------------------

def sweep_bot_turns(limit: int = 200) -> int:
    """Wake the bots of tables that wait on one and have been idle for a sweep interval (a
    lost wake-up, a restarted worker, a stand-in's grace period over). Returns how many."""
    now = timezone.now()
    idle = now - timedelta(seconds=settings.TROCCAS_SWEEP_SECONDS)
    last = (RoundAction.objects.filter(room=OuterRef("pk")).order_by("-version")
            .values("created")[:1])
    # Only rooms where a bot may be the one to act: a bot seated, or someone away.
    maybe = (Q(seats__user__is_bot=True) | Q(connections__closed_at__isnull=False)
             | Q(connections__last_seen__lt=now - PRESENCE_TIMEOUT))
    codes = list(Room.objects.filter(maybe, closed__isnull=True,
                                     current_match__status=MatchStatus.RUNNING,
                                     current_match__paused_at__isnull=True)
                 .annotate(last=Subquery(last)).filter(last__lt=idle)
                 .values_list("code", flat=True).distinct()[:limit])
    woken = 0
    for code in codes:
        t = load_code(code, lock=False)
        if t.round is None or t.match is None:
            continue
        seats = seats_of(t)
        turn, _due = pending_turn(
            t.state, seats, t.room.owner_id, t.now, paused=t.match.paused_at is not None,
            anyone_here=functools.partial(person_connected, t.room.pk, t.now))
        if turn is None:
            continue
        moment = bot_moment(t, seats, turn)
        if moment is not None and moment.wake > pace.clock.time():
            continue  # a slow table's pause is not over: its own wake-up comes then
        bot_wakeups.schedule(t.round.pk, t.room.version)
        woken += 1
    return woken


# --- Play now ----------------------------------------------------------------------------------

def _must(code: str, user: Any, kind: str, **fields: Any) -> None:
    room = Room.objects.get(code=code)
    out = submit(code, user, Command(kind, uuid.uuid4().hex, room.version, fields))
    if not out.ok:
        raise ServiceError(out.code or "SERVER_ERROR")


def create_practice_table(user: Any, level: str, options: dict[str, Any] | None = None,
                          position: dict[str, Any] | None = None) -> Room:
    """Play now: a private table of `user` (seat 0, dealing first), a bot partner (seat 2) and
    two bot opponents (1, 3) at `level`, the first deal started; BOT_TABLES_CAPPED when the
    player has as many open bot tables as allowed (settings.TROCCAS_MAX_BOT_TABLES). Every
    step goes through the lobby commands and the writer, as a room owner's clicks would.
    `options`: house rules (Find a game's "Play with bots" passes the player's own); the turn
    timer stays off."""
    if level not in bots.LEVELS:
        raise ServiceError("BOT_LEVEL_UNKNOWN")
    # Refused before the room is made (its seat_bot would refuse too, leaving it empty).
    check_bot_tables(user)
    # No turn timer: only bots wait on the player, and a bot stands in if they stay away.
    room = create_room(user, {**(options or {}), "turn_seconds": 0}, visibility="private",
                       take_seat="A")
    for index in (2, 1, 3):
        _must(room.code, user, "seat_bot", index=index, level=level)
    if position is not None:
        # "Try again from here" (games/teaching/reviews.py): the first deal starts at a
        # position of another deal, the player at seat 0 (games/services/writer.py).
        PracticePosition.objects.create(room=room, deck=position["deck"],
                                        dealer=position["dealer"],
                                        actions=position["actions"],
                                        source_id=position.get("source"))
    _must(room.code, user, "start_round")
    return Room.objects.get(pk=room.pk)

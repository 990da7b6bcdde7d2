"""The door every command comes through, and the one write path for a move (ARCHITECTURE.md
§5, §6, §9).

A command is written by one sequence, `move`: read the table (one statement: its rows and
seats, the sender's session, the log's answer if its action_id was applied already) → apply it
(game commands through the engine, lobby commands through games/services/lobby.py) → the
version's compare-and-set → the announcement (games/services/announce.py: the broadcast, the
deal's wake-up, the bot to act next, each after commit) → the write (one statement) → after.
`move` is a generator that yields its read and its write to an I/O backend
(games/services/backends.py) and is handed back their answers, so the same code runs over the
thread's Django connection (`submit`: in a transaction with the room row locked, or as an
optimistic write, `sql.unlocked_block`) and over the sockets' event loop's own connection
(`submit_move`: PostgreSQL). A refusal is answered where it is found, from the table as read:
no second run of the engine, no statement of its own.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.db import IntegrityError, close_old_connections, connection, transaction
from django.db.models import Max
from django.utils import timezone

from accounts.sessions import signed_in_statement, still_signed_in
from games.engine import CARD_IDS, MATCH_OVER, RuleError, apply
from games.engine.actions import ACTIONS, OPTIMISTIC_TYPES, STAND_IN_TYPES, Sender
from games.models import (
    Match,
    MatchStatus,
    PracticePosition,
    Room,
    RoundAction,
    funnel,
    planned_deck,
)
from games.services import backends, deadlines, sql
from games.services.announce import announce
from games.services.backends import LoopBackend, LoopIO, Read, ThreadBackend, ThreadIO, Write
from games.services.bots import stand_ins
from games.services.commands import Command
from games.services.errors import ServiceError
from games.services.lobby import check_not_tournament, lobby_command
from games.services.record import (
    REFUSAL_KIND,
    apply_engine,
    bump,
    log_action,
    resign_match,
    version_write,
)
from games.services.snapshot import TableSnapshot, frozen_names, lobby_state, snapshot
from games.services.sql import SeatRow
from games.services.tables import Table, load_code, rules_of, seats_of, table_of

log = logging.getLogger(__name__)
_rng = secrets.SystemRandom()


@dataclass
class Outcome:
    ok: bool
    version: int
    code: str | None = None
    duplicate: bool = False


class Overdue(Exception):
    """The table's timer ran out before this command: fire it first (see `submit`)."""

    def __init__(self, round_id: int, version: int) -> None:
        super().__init__(round_id, version)
        self.round_id, self.version = round_id, version


def shuffled_deck() -> list[str]:
    """A uniformly shuffled deck from the operating system's CSPRNG (RULES.md §5)."""
    deck = list(CARD_IDS)
    _rng.shuffle(deck)
    return deck


def _deck_for(room_id: int, deal_number: int) -> list[str]:
    """The deck of deal `deal_number` (1-based) of the room's match: a duplicate tournament
    round's planned deck when the room is one of its tables (games/models/tournaments.py
    `planned_deck`), else a fresh shuffle."""
    return planned_deck(room_id, deal_number) or shuffled_deck()


def table_snapshot(code: str) -> TableSnapshot:
    """The table as it is now (for a sync or a fresh connection); no lock, read-only."""
    return snapshot(load_code(code, lock=False))


def _action_key(room_id: int, user: Any, action_id: str) -> str:
    # Namespaced by room and player: one client's ids never collide with another's, and the
    # same id reused in a second room is a new action there, not a "duplicate" (issue #13).
    return f"{room_id}:{user.pk}:{action_id}"


def key_of(room_id: int | None, user: Any, cmd: Command) -> str | None:
    """The action log's idempotency key of a command (None: it has no action_id)."""
    if not cmd.action_id or user is None or room_id is None:
        return None
    return _action_key(room_id, user, cmd.action_id)


def _room_id(code: str) -> int | None:
    return Room.objects.filter(code=code).values_list("pk", flat=True).first()


def key_tail(user: Any, cmd: Command) -> str | None:
    """The end of a command's idempotency key after its room's id (`_action_key`): the table's
    read completes it with the room it finds (sql.load_statement)."""
    if not cmd.action_id or user is None:
        return None
    return f":{user.pk}:{cmd.action_id}"


@dataclass(frozen=True)
class Attempt:
    """How one run of `move` writes: `lock`, in a transaction with the room row locked (else
    an optimistic write, the table read as committed); `fired`, the versions (before, after)
    of a timer fired just before (`submit`); `on_loop`, on the sockets' event loop (what is to
    happen after the write is collected in the table, not handed to a transaction)."""

    lock: bool
    session: tuple[str, list[Any]] | None = None
    fired: tuple[int, int] | None = None
    timer_checked: bool = False
    for_seat: int | None = None
    on_loop: bool = False


# A run of `move`: it yields its read and its write, and returns the answer with the table it
# wrote (None: nothing is to be kept of it; the thread rolls its transaction back).
Move = Generator[Read | Write, Any, tuple[Outcome, Table | None]]


def move(code: str, user: Any, cmd: Command, how: Attempt) -> Move:
    """The one write path: read → apply → version write → announce → write → after (the
    caller's, once the write is done). Raises Overdue (the table's timer is to fire first) and
    sql.NeedsLock (an optimistic write that cannot finish as one statement, nothing written);
    every refusal is answered from the table as read."""
    now = timezone.now()
    read: sql.MoveRead = yield Read(code, now, how.session, key_tail(user, cmd), how.lock)
    if read.checked is False:
        return Outcome(False, 0, "NOT_AUTHENTICATED"), None
    if read.table is None:
        return Outcome(False, 0, "ROOM_NOT_FOUND"), None
    t = table_of(read.table, now, optimistic=not how.lock)
    if read.logged is not None:
        # Applied before (a double click, a resend after a lost ack): answered as then.
        return logged_outcome(read.logged, t.room.version), None
    if how.on_loop:
        t.hooks = []
    try:
        apply_command(t, user, cmd, how.fired, how.timer_checked, how.for_seat)
        if not t.changed:
            return outcome_of(t), t
        cas = version_write(t)
        # Before the write: on the loop, anything here that would reach the database through
        # Django is found while nothing is written yet.
        announce(t)
    except (ServiceError, RuleError) as exc:
        if cmd.type == "play_card" and exc.code in funnel.ILLEGAL_CODES and t.round is not None:
            # A card the rules refuse: the newcomers' funnel counts it (a cache key, no row).
            seat = _seat_of(t, user)
            if seat is not None and seat.index is not None and not getattr(user, "is_bot", False):
                funnel.illegal(t.round.pk, seat.index)
        return Outcome(False, t.version_before, exc.code), None
    written = yield Write(list(t.deferred), cas, checked=t.optimistic)
    if not written:
        if t.optimistic:
            raise sql.NeedsLock("the table moved since it was read")
        return Outcome(False, t.version_before, "STALE_VERSION"), None
    t.deferred.clear()
    return outcome_of(t), t


def run(steps: Move, io: ThreadBackend) -> tuple[Outcome, Table | None]:
    """`move` over the thread's connection."""
    try:
        step = next(steps)
        while True:
            step = steps.send(io.read(step) if isinstance(step, Read) else io.write(step))
    except StopIteration as done:
        return done.value


async def run_on_loop(steps: Move, io: LoopBackend) -> tuple[Outcome, Table | None]:
    """`move` over a connection of the event loop's own."""
    try:
        step = next(steps)
        while True:
            answer = await (io.read(step) if isinstance(step, Read) else io.write(step))
            step = steps.send(answer)
    except StopIteration as done:
        return done.value


def logged_outcome(logged: str, version: int) -> Outcome:
    """The answer already given to a logged action_id ("kind:code", sql.load_statement): a
    duplicate ack, or for a publicly refused command (logged too, RULES §8) the same refusal
    once more."""
    kind, _, code = logged.partition(":")
    if kind == REFUSAL_KIND:
        return Outcome(False, version, code or None, duplicate=True)
    return Outcome(True, version, duplicate=True)


# --- the thread ---------------------------------------------------------------------------

def submit(code: str, user: Any, cmd: Command, *, for_seat: int | None = None,
           session: tuple[str, list[Any]] | None = None, optimistic: bool = True) -> Outcome:
    """Apply one client command to a table. The door for consumers, views and bots.

    `for_seat`: a bot (`user` is its account) standing in for the away player of that seat;
    refused (NOT_STANDING_IN) unless the room's grace period is over and the player is still
    away, checked under the lock (games/services/bots/stand_ins.py).

    `session`: a statement that returns a row while the sender's sign-in holds
    (accounts.sessions.signed_in_statement), sent with the table's own first statements in
    one round trip; if it returns none, nothing is done and the answer is NOT_AUTHENTICATED
    (a websocket re-checks its session on every frame, docs/protocol.md §3).

    `optimistic=False`: locked at once (an optimistic write of it just failed, `submit_move`)."""
    # An overdue timer is applied first, in its own transaction, as if it had fired on time
    # (ARCHITECTURE §8); a client who acted on the version just before it is not refused.
    # The deadline is read from the round as loaded (no query of its own on every command,
    # bench/ws_load.py): when it has passed, this transaction is abandoned before it changed
    # anything, the timer fires, and the command runs once more.
    try:
        return _submit(code, user, cmd, Attempt(lock=not optimistic, session=session,
                                                for_seat=for_seat))
    except Overdue as due:
        fired = deadlines.fire(due.round_id, due.version)
        return _submit(code, user, cmd, Attempt(lock=True, session=session, fired=fired,
                                                timer_checked=True, for_seat=for_seat))


# The commands tried first as an optimistic write (sql.unlocked_block): a player's move, which
# most of the time writes only the deal's row, the log row (and a trick's) and the version. One
# that must write more (a deal scored, a Narr debt) or meets another writer runs again, locked.
# Which they are is the action table's (games/engine/actions.py, `optimistic`).
_OPTIMISTIC_TYPES = OPTIMISTIC_TYPES


def _optimistic(cmd: Command, how: Attempt) -> bool:
    # Not inside a caller's transaction (a test's, a request's): its statements could not
    # commit one by one.
    return (cmd.type in _OPTIMISTIC_TYPES and how.fired is None and how.for_seat is None
            and connection.vendor == "postgresql" and settings.TROCCAS_OPTIMISTIC_WRITES
            and not connection.in_atomic_block)


def _submit(code: str, user: Any, cmd: Command, how: Attempt) -> Outcome:
    if not how.lock and _optimistic(cmd, how):
        try:
            return _attempt(code, user, cmd, how)
        except sql.NeedsLock:
            pass
    return _attempt(code, user, cmd, Attempt(True, how.session, how.fired, how.timer_checked,
                                             how.for_seat))


class _Undo(Exception):
    """Roll back a run that is to keep nothing (a refusal): whatever it wrote on the way (a
    lobby command's rows, a stand-in's rating flag) and its after-commit work go."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.code)
        self.outcome = outcome


def _attempt(code: str, user: Any, cmd: Command, how: Attempt) -> Outcome:
    try:
        with transaction.atomic() if how.lock else sql.unlocked_block():
            outcome, written = run(move(code, user, cmd, how), ThreadIO())
            if written is None:
                raise _Undo(outcome)
            return outcome
    except _Undo as undo:
        return undo.outcome
    except IntegrityError:
        # The unique log key: this action_id was applied by a concurrent copy since the read,
        # so this one is acknowledged, not repeated. Any other broken constraint is a bug and
        # is not dressed up as a duplicate.
        key = key_of(_room_id(code), user, cmd)
        before = _logged(code, key) if key is not None else None
        if before is None:
            raise
        log.info("room %s: action %s was applied before; answered as a duplicate",
                 code, cmd.action_id)
        return before


# --- the event loop -----------------------------------------------------------------------

def on_loop(cmd: Command, session: tuple[str, list[Any]] | None) -> bool:
    """Whether a move is written from the sockets' event loop (PostgreSQL; the switches
    TROCCAS_OPTIMISTIC_WRITES and TROCCAS_LOOP_WRITES)."""
    return (cmd.type in _OPTIMISTIC_TYPES and session is not None
            and connection.vendor == "postgresql" and settings.TROCCAS_OPTIMISTIC_WRITES
            and settings.TROCCAS_LOOP_WRITES)


@dataclass(frozen=True)
class _HandOver:
    """The loop wrote nothing: the thread writes the move, optimistically first or not."""

    optimistic: bool


async def submit_move(code: str, user: Any, cmd: Command,
                      auth: tuple[int, str, str | None]) -> Outcome:
    """A command sent over a table's socket, by a player whose sign-in is `auth` (user id,
    password hash, session key; accounts/sessions.py): the consumer's one call for a move.

    Written from this event loop when it can be (`on_loop`): the table read and the write sent
    over a connection of the loop's own, two round trips, no thread. What the loop cannot do —
    a write before the compare-and-set (a new deal's row, a score, a Narr debt), another writer
    first, a timer overdue, the loop's connections all busy — it hands to a database thread
    having written nothing, as it does every other command. NOT_AUTHENTICATED when the
    session has ended."""
    session = signed_in_statement(*auth)
    handed = _HandOver(optimistic=True)
    if on_loop(cmd, session):
        done = await _move_on_loop(code, user, cmd, session)
        if isinstance(done, Outcome):
            return done
        handed = done
    sqlite = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    return await sync_to_async(_submit_on_thread, thread_sensitive=sqlite)(
        auth, code, user, cmd, handed.optimistic)


def _submit_on_thread(auth: tuple[int, str, str | None], code: str, user: Any, cmd: Command,
                      optimistic: bool) -> Outcome:
    """`submit` on a database thread (its connections closed when stale, as a Channels
    database call does), the session's statement sent with the table's read."""
    close_old_connections()
    try:
        statement = signed_in_statement(*auth)
        if statement is None and not still_signed_in(*auth):
            return Outcome(False, 0, "NOT_AUTHENTICATED")
        return submit(code, user, cmd, session=statement, optimistic=optimistic)
    finally:
        close_old_connections()


async def _move_on_loop(code: str, user: Any, cmd: Command,
                        session: tuple[str, list[Any]] | None) -> Outcome | _HandOver:
    conns = backends.loop_connections()
    try:
        conn = await conns.take()
    except Exception:
        log.warning("no connection for a move on the event loop", exc_info=True)
        return _HandOver(optimistic=True)
    if conn is None:
        return _HandOver(optimistic=True)
    healthy = False
    try:
        try:
            outcome, written = await run_on_loop(
                move(code, user, cmd, Attempt(lock=False, session=session, on_loop=True)),
                LoopIO(conn))
        except Overdue:
            healthy = True
            return _HandOver(optimistic=True)
        except (sql.NeedsLock, SynchronousOnlyOperation):
            # It must write before its compare-and-set, or another writer came first: locked.
            healthy = True
            return _HandOver(optimistic=False)
        healthy = True
    except Exception as exc:
        if not backends.is_database_error(exc):
            raise
        if not backends.is_integrity_error(exc):
            log.warning("a move on the event loop failed; sent the ordinary way", exc_info=True)
        healthy = backends.usable(conn)
        return _HandOver(optimistic=True)
    finally:
        conns.give_back(conn, healthy)
    if written is not None:
        backends.after_write_on_loop(written)
    return outcome


def apply_command(t: Table, user: Any, cmd: Command, fired: tuple[int, int] | None = None,
                  timer_checked: bool = False, for_seat: int | None = None) -> None:
    """Check and apply one command to a table as read, up to its writes (deferred in `t`, or
    done already where the command needs them): raises ServiceError or RuleError if refused,
    Overdue if the table's timer is to fire first."""
    room, rnd = t.room, t.round
    if (not timer_checked and rnd is not None and rnd.deadline is not None
            and rnd.deadline <= t.now and t.match is not None
            and t.match.status == MatchStatus.RUNNING and t.match.paused_at is None):
        raise Overdue(rnd.pk, rnd.version)
    key = key_of(room.pk, user, cmd)
    # A repeated action_id (a double click, a resend after a lost ack) is found by the table's
    # own read (`move`); one applied by a concurrent copy since breaks the log's unique key on
    # the write, and the transaction rolls back (`_attempt`).
    accepted = {room.version}
    if fired is not None and fired[1] == room.version:
        accepted.add(fired[0])
    if cmd.type == "rematch":
        # Before the version check: a second "same four again" acted on the finished match's
        # version, and is told the new match is on, not to try again.
        _check_not_followed_up(t, cmd.fields["match"])
    if cmd.expected_version is not None and cmd.expected_version not in accepted:
        raise ServiceError("STALE_VERSION")
    if room.closed is not None:
        raise ServiceError("ROOM_CLOSED")
    if cmd.is_game:
        _game_command(t, user, cmd, key, for_seat)
    elif for_seat is not None:
        raise ServiceError("NOT_STANDING_IN")
    else:
        lobby_command(t, user, cmd.type, cmd.fields, key)


def outcome_of(t: Table) -> Outcome:
    """The sender's answer once the command is written."""
    if t.refusal is not None:
        # Refused, and the refusal is public (RULES §8): stored and announced to every
        # audience like an action, and still an error for the sender.
        return Outcome(False, t.room.version, t.refusal)
    return Outcome(True, t.room.version)


def _logged(code: str, key: str) -> Outcome | None:
    """The answer already given to a logged action_id (None: not logged): a duplicate ack, or
    for a publicly refused command (logged too, RULES §8) the same refusal once more."""
    row = RoundAction.objects.filter(action_id=key).values_list("kind", "payload").first()
    if row is None:
        return None
    kind, payload = row
    if kind == REFUSAL_KIND:
        return Outcome(False, _current_version(code), payload["code"], duplicate=True)
    return Outcome(True, _current_version(code), duplicate=True)


def _current_version(code: str) -> int:
    return Room.objects.filter(code=code).values_list("version", flat=True).first() or 0


def _seat_of(t: Table, user: Any) -> SeatRow | None:
    return next((s for s in seats_of(t) if s.user_id == user.pk), None)


# What a stand-in may do for a player: play their seat, never run their room (the action
# table's `stand_in`).
_STAND_IN_TYPES = STAND_IN_TYPES

# The game commands that end a match or begin another one.
_NEW_MATCH_TYPES = frozenset({"start_round", "rematch", "new_match", "end_match"})


def _stand_in_seat(t: Table, user: Any, kind: str, index: int) -> SeatRow:
    """The away player's seat a bot plays, checked under the lock: never before the grace
    period ends, never once the player is back."""
    seat = next((s for s in seats_of(t) if s.index == index), None)
    if (not getattr(user, "is_bot", False) or kind not in _STAND_IN_TYPES or seat is None
            or t.state is None or t.match is None or t.match.paused_at is not None
            or stand_ins.practice_person(seats_of(t)) is not None
            or not stand_ins.stands_in(seat, t.state, t.now)):
        raise ServiceError("NOT_STANDING_IN")
    return seat


def _count_stand_in(t: Table, seat: int) -> None:
    """A stand-in plays a card: from its second trick on, the match changes no rating
    (issue #15: standing in for more than one trick)."""
    match = t.match
    assert match is not None
    if not match.rated:
        return
    before = RoundAction.objects.filter(round__match=match, kind="play_card", actor_seat=seat,
                                        actor__is_bot=True).exists()
    if before:
        match.rated = False
        sql.update_row(match, ["rated"])


def _game_command(t: Table, user: Any, cmd: Command, key: str | None,
                  for_seat: int | None = None) -> None:
    room = t.room
    kind = cmd.type
    if for_seat is not None:
        seat: SeatRow | None = _stand_in_seat(t, user, kind, for_seat)
        assert seat is not None
        is_owner = room.owner_id == seat.user_id
        if kind == "play_card":
            _count_stand_in(t, for_seat)
    else:
        seat = _seat_of(t, user)
        is_owner = room.owner_id == user.pk
    if seat is None or seat.index is None:
        # The owner's seat deals first (RULES §3): an owner without a seat is told so.
        raise ServiceError("OWNER_NOT_SEATED" if kind == "start_round" and is_owner
                           else "NOT_SEATED")
    # The owner's game commands are the action table's (start_round, end_match, new_match).
    if ACTIONS[kind].sender is Sender.OWNER and not is_owner:
        raise ServiceError("NOT_ROOM_OWNER")
    if kind in _NEW_MATCH_TYPES and (kind != "start_round" or room.matches.exists()):
        # A tournament table plays one Partie (issue #26 item 5): no second match, and the
        # Partie is not cut short by its owner.
        check_not_tournament(t)
    if kind == "start_round":
        _start_match(t, user, seat, key)
        return
    if kind == "rematch":
        _rematch(t, user, seat, cmd.fields["match"], key)
        return
    if kind == "resign":
        # A person's own say alone: a bot (seated, or standing in: not a stand-in command,
        # `_stand_in_seat`) never gives a match up.
        if getattr(user, "is_bot", False):
            raise ServiceError("BOT_CANNOT_RESIGN")
        resign_match(t, user, seat.index, key)
        return
    if t.state is None:
        raise RuleError("WRONG_PHASE")
    # With regame_by=owner the web layer reserves REGAME for the owner (RULES §11).
    if (kind == "regame" and rules_of(room).regame_by == "owner" and not is_owner
            and t.state.phase != MATCH_OVER):
        raise ServiceError("NOT_ROOM_OWNER")
    action: dict[str, Any] = {"type": kind, "seat": seat.index, **cmd.fields}
    if kind == "regame":
        action["deck"] = _deck_for(room.pk, t.state.deals_played + 1)
    if kind == "new_match":
        # Checked by the engine (only from MATCH_OVER); the room then returns to its lobby.
        apply(t.state, action)
        version = bump(t)
        room.current_match = None
        log_action(t, None, user, seat.index, kind, {}, key, version)
        t.match, t.round, t.state = None, None, None
        return
    apply_engine(t, action, user, seat.index, key)


def _check_not_followed_up(t: Table, finished_id: int) -> None:
    """NEW_MATCH_ALREADY_ON if the table already plays a later match of this room than the
    finished one a "same four again" press was for (another player's press started it)."""
    current = t.match
    if current is None or current.pk == finished_id:
        return
    number = Match.objects.filter(room=t.room, pk=finished_id).values_list(
        "number", flat=True).first()
    if number is not None and current.number > number:
        raise ServiceError("NEW_MATCH_ALREADY_ON")


def _rematch(t: Table, user: Any, seat: SeatRow, finished_id: int, key: str | None) -> None:
    """"Same four again": from MATCH_OVER straight to a new match's first deal with the seats
    as they are (lobby commands are refused while a match is on the table, so they are the
    four of the finished match). As NEW_MATCH then START_ROUND, but in one step and one
    version: the room never passes through its lobby. Who may press it follows `regame_by`
    (docs/decisions.md); the owner's seat deals first as in every match (RULES §3)."""
    room = t.room
    if rules_of(room).regame_by == "owner" and room.owner_id != user.pk:
        raise ServiceError("NOT_ROOM_OWNER")
    if t.state is None or t.match is None or t.match.pk != finished_id:
        raise RuleError("WRONG_PHASE")
    apply(t.state, {"type": "new_match"})  # the engine's check: only from MATCH_OVER
    owner_seat = next((s for s in seats_of(t) if s.user_id == room.owner_id
                       and s.index is not None), None)
    if owner_seat is None:
        raise ServiceError("OWNER_NOT_SEATED")
    room.current_match = None
    t.match, t.round, t.state = None, None, None
    _start_match(t, user, owner_seat, key, actor_seat=seat.index)


def _start_match(t: Table, user: Any, owner_seat: SeatRow, key: str | None,
                 actor_seat: int | None = None) -> None:
    room = t.room
    if room.current_match is not None:
        raise RuleError("WRONG_PHASE")
    seats = seats_of(t)
    teams = [s.team for s in seats if s.index is not None]
    if teams.count("A") != 2 or teams.count("B") != 2:
        raise ServiceError("TEAMS_NOT_BALANCED")
    # A-B-A-B normalisation (RULES §3): the seats hold their slot; a slot's parity is its team,
    # so team A sits on 0 and 2 and team B on 1 and 3 by construction.
    by_index = {s.index: s for s in seats}
    options = rules_of(room)
    number = (room.matches.aggregate(n=Max("number"))["n"] or 0) + 1
    match = Match.objects.create(
        room=room, number=number, options=options.to_json(),
        player_0_id=by_index[0].user_id, player_1_id=by_index[1].user_id,
        player_2_id=by_index[2].user_id, player_3_id=by_index[3].user_id, started=t.now,
        # A bot in a seat: the match changes no rating (issue #15).
        rated=not any(s.is_bot for s in by_index.values()),
        seat_names=frozen_names(options, by_index, room.owner_id, t),
    )
    room.current_match = match
    t.match = match
    actor = owner_seat.index if actor_seat is None else actor_seat
    position = (PracticePosition.objects.filter(room=room).first()
                if number == 1 and match.rated is False else None)
    if position is not None:
        _start_at(t, position, by_index, user, actor, key)
        return
    t.state = lobby_state(options, owner_seat.index)
    deck = _deck_for(room.pk, 1)
    apply_engine(t, {"type": "start_round", "deck": deck}, user, actor, key)


def _start_at(t: Table, position: PracticePosition, by_index: dict[int | None, SeatRow],
              user: Any, actor: int | None, key: str | None) -> None:
    """A practice table's first deal from a position of another deal ("try again from here",
    games/teaching/reviews.py): its deck and dealer, then the actions played up to it, each
    logged as its seat's, in this one command — the table is first announced at the
    position. Only ever a practice table's first match: no result of it counts."""
    t.state = lobby_state(rules_of(t.room), position.dealer)
    apply_engine(t, {"type": "start_round", "deck": list(position.deck)}, user, actor, key)
    for action in position.actions:
        seat = action.get("seat")
        row = by_index.get(seat) if isinstance(seat, int) else None
        apply_engine(t, dict(action), _Actor(row.user_id) if row is not None else None,
                     seat, None)


@dataclass(frozen=True)
class _Actor:
    """Who a replayed action of a practice position is logged as: the seat's player."""

    pk: int

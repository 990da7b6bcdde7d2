"""One table's rows under the writer's lock, and what every write does with them.

Shared by the writer (players' commands), the lobby commands and the deadlines: load the room,
its match and its current deal in one statement; apply one engine action and persist what it
changed; append to the action log; compare-and-set the version; after commit, announce the
table and arm its next timer (ARCHITECTURE.md §5, §6).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import (
    CARD_IDS,
    DEALING,
    MATCH_OVER,
    PLAY,
    REVEAL,
    ROUND_OVER,
    SCART,
    MatchState,
    PublicRefusal,
    apply,
    from_json,
    to_json,
)
from games.engine.codec import buob_public, trick_row_cards
from games.engine.events import BuobRefused
from games.engine.options import Options
from games.history import standings
from games.models import PRESENCE_TIMEOUT as PRESENCE_TIMEOUT
from games.models import Match, MatchStatus, NarrDebt, Room, Round, Trick
from games.services import bot_seats, bot_wakeups, outbox, sql, wakeups
from games.services.errors import ServiceError
from games.services.match_sheet import deals_of
from games.services.snapshot import SeatInfo, TableSnapshot, lobby_state
from games.services.sql import SeatRow

# PRESENCE_TIMEOUT (imported above, re-exported): a connection whose process died stops
# refreshing last_seen; after it the connection counts as away. The socket rows' figure
# (games/models/table.py), which talk's site presence reads too.

# The action log's kind for a public refusal (RULES.md §8): the refused engine action is in
# its payload with the code, `{"action": {"type": "call_buob", "suit": "S"}, "code": ...}`.
REFUSAL_KIND = BuobRefused.kind


@dataclass
class Table:
    """The rows of one table, loaded under the lock."""

    room: Room
    match: Match | None
    round: Round | None
    state: MatchState | None
    version_before: int
    now: datetime
    events: list[Any] = field(default_factory=list)
    changed: bool = False
    # The room's seats, read once per transaction (the game commands and the snapshot both
    # need them); None again after a lobby command changed them.
    seats: list[SeatRow] | None = None
    # The room's own columns as loaded: the version compare-and-set writes the others only
    # when a command changed them (most actions change the version alone).
    room_was: tuple[Any, ...] = ()
    # The deal's wake-up as loaded, (round id, wakeup_at): `finish` arms a new one only when
    # the command moved it (`aim_wakeup`).
    timer_was: tuple[Any, ...] | None = None
    # Set when the engine refused the action publicly (`apply_engine`): the refusal is stored
    # and announced like an action, and the sender is still answered with this code.
    refusal: str | None = None
    # Writes of this transaction not sent yet (the deal's row, the log row): `finish` sends
    # them with the version's compare-and-set as one statement (games/services/sql.py).
    deferred: list[tuple[str, list[Any]]] = field(default_factory=list)
    # Read without the room's lock (sql.unlocked_block): `finish` writes with one
    # compare-and-set statement, and raises sql.NeedsLock if the table moved meanwhile.
    optimistic: bool = False
    # On the sockets' event loop (games/services/loop_writer.py): what is to happen after the
    # write is collected here, (work, whether it may run on the loop), instead of being handed
    # to `transaction.on_commit`.
    hooks: list[tuple[Callable[[], None], bool]] | None = None

    def later(self, statement: tuple[str, list[Any]]) -> None:
        """Write this with the version's compare-and-set (nothing reads it before)."""
        self.deferred.append(statement)

    def write_deferred(self) -> None:
        """Send the deferred writes now (before a statement that reads what they write)."""
        if self.deferred:
            sql.write_all(self.deferred)
            self.deferred.clear()


# The Room columns a command may change besides the version (see `finish`).
_ROOM_FIELDS = ("owner", "current_match", "closed", "options", "visibility",
                "allow_spectators", "name")


def _room_fields(room: Room) -> tuple[Any, ...]:
    return (room.owner_id, room.current_match_id, room.closed, room.options, room.visibility,
            room.allow_spectators, room.name)


def rules_of(room: Room) -> Options:
    """The room's house rules as the engine's frozen dataclass (defaults filled in)."""
    return Options.from_json(room.options)


# --- reading -----------------------------------------------------------------------------

def _table(room: Room, match: Match | None, rnd: Round | None, now: datetime,
           seats: list[SeatRow] | None = None) -> Table:
    state = from_json(rnd.engine_state) if rnd is not None else None
    return Table(room, match, rnd, state, room.version, now, room_was=_room_fields(room),
                 timer_was=_timer_of(rnd), seats=seats)


def _timer_of(rnd: Round | None) -> tuple[Any, ...] | None:
    return None if rnd is None else (rnd.pk, rnd.wakeup_at)


def load_code(code: str, *, lock: bool) -> Table:
    """The table of a room code: its room (locked if `lock`), match and current deal in one
    statement (games/services/sql.py)."""
    rows = sql.load_table(code, lock=lock)
    if rows is None:
        raise Room.DoesNotExist(code)
    return _table(*rows, timezone.now())


class CheckFailed(Exception):
    """The check statement given to `lock_code` found no row (a session that ended)."""


def lock_code(code: str, check: tuple[str, list[Any]] | None = None, *,
              lock: bool = True) -> Table:
    """The table of a room code, locked for this transaction, with its seats; ROOM_NOT_FOUND
    if none. With `check`, a statement answered by the same statement that locks the table:
    CheckFailed if it returns no row (games/services/writer.py: the sender's session).
    `lock=False`: read as committed, for an optimistic write (sql.unlocked_block)."""
    now = timezone.now()
    loaded, checked = sql.load_table_with(code, online_since=now - PRESENCE_TIMEOUT,
                                          check=check, lock=lock)
    if checked is False:
        raise CheckFailed(code)
    if loaded is None:
        raise ServiceError("ROOM_NOT_FOUND")
    return table_of(loaded, now, optimistic=not lock)


def table_of(loaded: sql.LoadedTable, now: datetime, *, optimistic: bool) -> Table:
    """The table as `sql.load_table_with` read it at `now`."""
    t = _table(loaded.room, loaded.match, loaded.round, now, loaded.seats)
    t.optimistic = optimistic
    return t


def _seats(room: Room, now: datetime) -> list[SeatRow]:
    """The room's seats with their players' names, each marked `online` (a live socket within
    PRESENCE_TIMEOUT): one statement, since every broadcast needs both (bench/ws_load.py)."""
    return sql.seat_rows(room.pk, now - PRESENCE_TIMEOUT)


def seats_of(t: Table) -> list[SeatRow]:
    if t.seats is None:
        t.seats = _seats(t.room, t.now)
    return t.seats


def _display_name(user: Any) -> str:
    return str(user.public_name)


def snapshot(t: Table, seats: list[SeatRow] | None = None) -> TableSnapshot:
    """Everything every audience of the table may be shown, as of this transaction."""
    room = t.room
    seats = _seats(room, t.now) if seats is None else seats
    owner = next((s for s in seats if s.user_id == room.owner_id), None)
    owner_seat = owner.index if owner is not None else None
    state = t.state if t.state is not None else lobby_state(rules_of(room), owner_seat)
    match = None
    if t.match is not None:
        match = {"id": t.match.pk, "number": t.match.number, "status": t.match.status}
        if state.phase in (ROUND_OVER, MATCH_OVER):
            # The score sheet's deal list: public once a deal is scored, and only read then
            # (not on the hot path of the cards played).
            match["deals"] = deals_of(t.match)
    room_json = {
        "code": room.code,
        "name": room.name,
        "owner": {"id": room.owner_id,
                  "name": owner.name if owner is not None else _display_name(room.owner)},
        "visibility": room.visibility,
        "allow_spectators": room.allow_spectators,
        "closed": room.closed is not None,
        "options": room.options,
    }
    running = t.match is not None and t.match.status == MatchStatus.RUNNING
    return TableSnapshot(
        code=room.code,
        version=room.version,
        room=room_json,
        seats=[SeatInfo(s.index, s.team, s.user_id, s.name, s.joined.isoformat(), s.away_since,
                        s.bot_level if s.is_bot else "",
                        running and bot_seats.stands_in(s, state, t.now))
               for s in seats if s.index is not None],
        connected={s.user_id for s in seats if s.online},
        state=state,
        match=match,
        deadline=t.round.deadline if t.round is not None else None,
        deadline_kind=t.round.deadline_kind if t.round is not None else "",
        events=t.events,
    )


# --- writing -----------------------------------------------------------------------------

def bump(t: Table) -> int:
    """The table's next version (written by `finish`'s compare-and-set)."""
    t.room.version += 1
    t.changed = True
    return t.room.version


def after_commit(t: Table, work: Callable[[], None], *, on_loop: bool = False) -> None:
    """Do `work` once this command is written (`transaction.on_commit`; on the event loop,
    collected in t.hooks). `on_loop`: it may run on the sockets' event loop (it neither
    blocks nor touches the database)."""
    if t.hooks is None:
        transaction.on_commit(work)
    else:
        t.hooks.append((work, on_loop))


def version_write(t: Table) -> tuple[str, list[Any]]:
    """The version's compare-and-set, with the room's other columns if the command changed
    them."""
    fields = ["version"]
    if _room_fields(t.room) != t.room_was:
        fields += _ROOM_FIELDS
    return sql.update_statement(t.room, fields, version_was=t.version_before)


def finish(t: Table) -> None:
    """Compare-and-set the version, then schedule the broadcast and the timer after commit."""
    if not t.changed:
        return
    cas = version_write(t)
    if t.optimistic:
        # Read without the lock: the compare-and-set decides, in the same statement as the
        # writes it guards (nothing is written if another writer came first).
        if not sql.write_checked(t.deferred, cas):
            raise sql.NeedsLock("the table moved since it was read")
    else:
        # The deferred writes and the compare-and-set in one statement; under the room's lock
        # the compare-and-set cannot fail, and if it ever did the transaction rolls back whole.
        updated = sql.write_all([*t.deferred, cas])
        if updated != 1:
            raise ServiceError("STALE_VERSION")
    t.deferred.clear()
    announce(t)


def announce(t: Table) -> None:
    """What this command's commit sets off: the broadcast of the table, the deal's wake-up if
    the command armed one, the bot to act next (each after commit, `after_commit`)."""
    seats = seats_of(t)
    snap = snapshot(t, seats)
    outbox.table_changed(snap, after=lambda work: after_commit(t, work, on_loop=True))
    rnd = t.round
    if rnd is not None and rnd.wakeup_at is not None and _timer_of(rnd) != t.timer_was:
        # Only a command that armed a new wake-up (`aim_wakeup`) sends one: a card played
        # under a turn timer usually moves the deadline later, and the wake-up already armed
        # comes first and re-arms itself. No Celery message per card (issue #16).
        round_id, when = rnd.pk, rnd.wakeup_at
        after_commit(t, lambda: wakeups.schedule(round_id, when))
    wake_bot(t, seats)


def wake_bot(t: Table, seats: list[SeatRow]) -> None:
    """After commit, wake the bot that is to act at this version (now, or when its stand-in
    grace period ends); nothing when a person is to act."""
    rnd, match = t.round, t.match
    if rnd is None or match is None or match.status != MatchStatus.RUNNING:
        return
    turn, due = bot_seats.pending_turn(t.state, seats, t.room.owner_id, t.now)
    if turn is None and due is None:
        return
    round_id, version = rnd.pk, t.room.version
    after_commit(t, lambda: bot_wakeups.schedule(round_id, version, due))


def aim_wakeup(rnd: Round, now: datetime) -> bool:
    """Arm the deal's wake-up for its deadline, unless the one armed already comes first
    (between now and the deadline: it finds the deadline later and re-arms itself for it,
    `deadlines.wake`). True if it armed one: `rnd.wakeup_at` is then to be written, and
    `finish` sends the wake-up after commit. A wake-up that was lost (its worker killed) is
    replaced by the next command after its time, and the sweep fires the deadline meanwhile."""
    deadline = rnd.deadline
    if deadline is None:
        return False
    armed = rnd.wakeup_at
    if armed is not None and now < armed <= deadline:
        return False
    rnd.wakeup_at = deadline
    return True


def log_action(t: Table, rnd: Round | None, user: Any, seat: int | None, kind: str,
               payload: dict[str, Any], key: str | None, version: int, *,
               later: bool = False) -> None:
    """Append one accepted action to the log (RoundAction, append-only); `later`: with the
    version's compare-and-set in `finish` (Table.later)."""
    # A deal's actions are numbered by its own counter, bumped and saved with the round row
    # in `apply_engine` before this (no MAX(sequence) query on every action).
    sequence = rnd.actions_logged if rnd is not None else None
    insert = sql.insert_action_statement(
        room_id=t.room.pk, round_id=rnd.pk if rnd is not None else None, sequence=sequence,
        version=version, actor_id=user.pk if user is not None else None, actor_seat=seat,
        kind=kind, payload=payload, action_id=key or f"system:{secrets.token_hex(12)}",
        created=t.now,
    )
    if later:
        t.later(insert)
    else:
        sql.write_all([insert])


def next_deadline(state: MatchState, now: datetime) -> tuple[datetime | None, str]:
    """The next timer of a deal (RULES §5 reveal window, §12 turn timer), or none."""
    opts = state.options
    if state.phase == REVEAL:
        return now + timedelta(seconds=opts.reveal_seconds), "reveal"
    if opts.turn_seconds and state.phase in (DEALING, SCART, PLAY):
        return now + timedelta(seconds=opts.turn_seconds), "turn"
    return None, ""


# What an action can change in an existing round row (an UPDATE of these alone: the deck and
# the match never change, and the row is written on every action).
_ROUND_PLAY_FIELDS = ["engine_state", "version", "actions_logged", "phase", "is_bock", "deadline",
                      "deadline_kind", "points_a", "points_b", "finished"]
_ROUND_ARMED_FIELDS = [*_ROUND_PLAY_FIELDS, "wakeup_at"]


def apply_engine(t: Table, action: dict[str, Any], user: Any, seat: int | None,
                 key: str | None) -> None:
    """Apply one engine action and persist everything it changed (raises RuleError).

    A public refusal (PublicRefusal, RULES.md §8) is not raised: it is stored and logged like
    an accepted action, announced after commit to every audience, and `t.refusal` holds its
    code for the sender's answer."""
    assert t.state is not None and t.match is not None
    try:
        new_state, events = apply(t.state, action)
    except PublicRefusal as refusal:
        _record_refusal(t, action, refusal, user, seat, key)
        return
    version = bump(t)
    kind = action["type"]
    deal = new_state.deal
    assert deal is not None
    rnd = t.round
    created = kind in ("start_round", "regame")
    if created:
        rnd = Round(
            match=t.match, number=deal.number, dealer=deal.dealer, deck=action["deck"],
            engine_state={}, version=version, phase=new_state.phase, is_bock=deal.is_bock,
            started=t.now,
        )
        t.round = rnd
    assert rnd is not None
    rnd.engine_state = to_json(new_state)
    rnd.version = version
    rnd.actions_logged += 1  # this action's sequence in the deal's log (`log_action`)
    rnd.phase = new_state.phase
    rnd.is_bock = deal.is_bock
    rnd.deadline, rnd.deadline_kind = next_deadline(new_state, t.now)
    armed = aim_wakeup(rnd, t.now)
    if deal.points is not None and rnd.points_a is None:
        rnd.points_a, rnd.points_b = deal.points
        rnd.finished = t.now
    if created:
        rnd.save()
    else:
        # Sent with the log row and the version in `finish` (nothing reads it before). The
        # wake-up's time only when this command armed one: a wake-up re-arming itself writes
        # it too (`deadlines.wake`), and must not be overwritten by a stale copy.
        t.later(sql.update_statement(rnd, _ROUND_ARMED_FIELDS if armed else _ROUND_PLAY_FIELDS))
    _persist_tricks_and_debts(t, rnd, new_state, events, t.now)
    payload = {k: v for k, v in action.items() if k not in ("deck", "seat", "type")}
    log_action(t, rnd, user, seat, kind, payload, key, version, later=True)
    match = t.match
    before = (match.total_a, match.total_b, match.deals_played, match.bock_pending,
              match.status)
    match.total_a, match.total_b = new_state.totals
    match.deals_played = new_state.deals_played
    match.bock_pending = new_state.bock_pending
    if new_state.phase == MATCH_OVER and match.status == MatchStatus.RUNNING:
        match.status = MatchStatus.FINISHED
        match.winner = new_state.winner or ""
        match.finished = t.now
    # Most actions leave the match row alone (totals move only when a deal is scored): skip
    # the write then, it is one of the few queries on every card played.
    if kind in ("start_round",) or before != (match.total_a, match.total_b, match.deals_played,
                                              match.bock_pending, match.status):
        match.save()
    if before[4] == MatchStatus.RUNNING and match.status == MatchStatus.FINISHED:
        # Issue #7: standings and ratings are updated in the transaction that ends the match
        # (from the rows: the deal's and the log's are written first).
        t.write_deferred()
        standings.record_match(match)
    t.state = new_state
    t.events.extend(events)


def _record_refusal(t: Table, action: dict[str, Any], refusal: PublicRefusal, user: Any,
                    seat: int | None, key: str | None) -> None:
    """Store a public refusal: the deal's new state (the refused suits of the open trick), a log
    row under the command's own action_id (a resend gets the same refusal, see the writer) and
    its `buob_refused` event for the broadcast. The deal's timer is left as it was: a refused
    call gives nobody more time (refused calls would otherwise hold a turn timer off for
    good); `finish` re-arms its wake-up at the new version."""
    rnd = t.round
    assert rnd is not None
    version = bump(t)
    rnd.engine_state = to_json(refusal.state)
    rnd.version = version
    rnd.actions_logged += 1
    t.later(sql.update_statement(rnd, ["engine_state", "version", "actions_logged"]))
    refused = {k: v for k, v in action.items() if k != "seat"}
    log_action(t, rnd, user, seat, REFUSAL_KIND, {"action": refused, "code": refusal.code.value},
               key, version, later=True)
    t.state = refusal.state
    t.events.extend(refusal.events)
    t.refusal = refusal.code.value


def _persist_tricks_and_debts(t: Table, rnd: Round, state: MatchState, events: list[Any],
                              now: datetime) -> None:
    deal = state.deal
    assert deal is not None
    for e in events:
        if e.kind != "trick_won":
            continue
        trick = deal.tricks[e.trick - 1]
        # Written with the log row and the version (nothing reads it before the commit).
        t.later(sql.insert_statement(Trick, {
            "round_id": rnd.pk, "number": trick.number, "leader": trick.leader,
            "cards": trick_row_cards(trick), "winner": trick.winner, "completed": now,
            "buob_call": buob_public(trick.buob)}))
    if not any(e.kind in ("narr_debt_created", "narr_debt_settled") for e in events):
        return
    t.write_deferred()  # a debt names its trick row
    for e in events:
        if e.kind == "narr_debt_created":
            NarrDebt.objects.create(
                round=rnd, debtor=e.debtor, creditor=e.creditor,
                trick=Trick.objects.filter(round=rnd, number=e.trick).first(), created=now,
            )
        elif e.kind == "narr_debt_settled":
            NarrDebt.objects.filter(round=rnd).update(
                status="settled", paid_card=CARD_IDS[e.card], settled=now)

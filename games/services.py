"""The only writer of game rows (ARCHITECTURE.md §5, §6, §9).

Every change to a table goes through `submit` (a client's command), `fire_deadline` /
`sweep_deadlines` (timers) or the small room helpers below. Each runs in one short transaction
with the room row locked (`select_for_update` on PostgreSQL; SQLite's IMMEDIATE transactions
serialise writers), applies the engine, stores the deal state, tricks, Narr debts and the action
log, bumps the table version with a compare-and-set, and only after commit hands the per-seat
views to the channel layer and schedules the next timer.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from games import broadcast, hot_sql, standings, timers
from games.engine import (
    CARD_IDS,
    DEALING,
    MATCH_OVER,
    PLAY,
    REVEAL,
    SCART,
    MatchState,
    RuleError,
    apply,
    from_json,
    to_json,
)
from games.engine.errors import OptionsError
from games.engine.options import Options
from games.hot_sql import SeatRow
from games.models import (
    Connection,
    Match,
    MatchStatus,
    NarrDebt,
    Room,
    Round,
    RoundAction,
    Seat,
    Trick,
)
from games.protocol import Command
from games.snapshot import SeatInfo, TableSnapshot, lobby_state

log = logging.getLogger(__name__)

# A connection whose process died stops refreshing last_seen; after this it counts as away.
PRESENCE_TIMEOUT = timedelta(seconds=75)
_rng = secrets.SystemRandom()


class ServiceError(Exception):
    """A web-layer rejection (RULES.md §12 'permissions are the web layer's'): a stable code."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass
class Outcome:
    ok: bool
    version: int
    code: str | None = None
    duplicate: bool = False


@dataclass
class _Table:
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


# The Room columns a command may change besides the version (see `_finish`).
_ROOM_FIELDS = ("owner", "current_match", "closed", "options", "visibility",
                "allow_spectators", "name")


def _room_fields(room: Room) -> tuple[Any, ...]:
    return (room.owner_id, room.current_match_id, room.closed, room.options, room.visibility,
            room.allow_spectators, room.name)


class _Overdue(Exception):
    """The table's timer ran out before this command: fire it first (see `submit`)."""

    def __init__(self, round_id: int, version: int) -> None:
        super().__init__(round_id, version)
        self.round_id, self.version = round_id, version


# --- reading -----------------------------------------------------------------------------

def shuffled_deck() -> list[str]:
    """A uniformly shuffled deck from the operating system's CSPRNG (RULES.md §5)."""
    deck = list(CARD_IDS)
    _rng.shuffle(deck)
    return deck


def _table(room: Room, match: Match | None, rnd: Round | None, now: datetime) -> _Table:
    state = from_json(rnd.engine_state) if rnd is not None else None
    return _Table(room, match, rnd, state, room.version, now, room_was=_room_fields(room))


def _load_code(code: str, *, lock: bool) -> _Table:
    """The table of a room code: its room (locked if `lock`), match and current deal in one
    statement (games/hot_sql.py)."""
    rows = hot_sql.load_table(code, lock=lock)
    if rows is None:
        raise Room.DoesNotExist(code)
    return _table(*rows, timezone.now())


def _load(room: Room, now: datetime) -> _Table:
    match = room.current_match
    rnd = match.rounds.order_by("-number").first() if match is not None else None
    return _table(room, match, rnd, now)


def _seats(room: Room, now: datetime) -> list[SeatRow]:
    """The room's seats with their players' names, each marked `online` (a live socket within
    PRESENCE_TIMEOUT): one statement, since every broadcast needs both (bench/ws_load.py)."""
    return hot_sql.seat_rows(room.pk, now - PRESENCE_TIMEOUT)


def _table_seats(t: _Table) -> list[SeatRow]:
    if t.seats is None:
        t.seats = _seats(t.room, t.now)
    return t.seats


def _display_name(user: Any) -> str:
    return getattr(user, "display_name", "") or user.get_username()


def _connected_ids(room: Room, now: datetime) -> set[int]:
    return set(
        Connection.objects.filter(room=room, last_seen__gte=now - PRESENCE_TIMEOUT)
        .values_list("user_id", flat=True)
    )


def _snapshot(t: _Table, seats: list[SeatRow] | None = None) -> TableSnapshot:
    room = t.room
    seats = _seats(room, t.now) if seats is None else seats
    owner = next((s for s in seats if s.user_id == room.owner_id), None)
    owner_seat = owner.index if owner is not None else None
    state = t.state if t.state is not None else lobby_state(room.rules, owner_seat)
    match = None
    if t.match is not None:
        match = {"id": t.match.pk, "number": t.match.number, "status": t.match.status}
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
    return TableSnapshot(
        code=room.code,
        version=room.version,
        room=room_json,
        seats=[SeatInfo(s.index, s.team, s.user_id, s.name, s.joined.isoformat())
               for s in seats if s.index is not None],
        connected={s.user_id for s in seats if s.online},
        state=state,
        match=match,
        deadline=t.round.deadline if t.round is not None else None,
        deadline_kind=t.round.deadline_kind if t.round is not None else "",
        events=t.events,
    )


def table_snapshot(code: str) -> TableSnapshot:
    """The table as it is now (for a sync or a fresh connection); no lock, read-only."""
    return _snapshot(_load_code(code, lock=False))


# --- the writer --------------------------------------------------------------------------

def _lock_table(code: str) -> _Table:
    try:
        return _load_code(code, lock=True)
    except Room.DoesNotExist:
        raise ServiceError("ROOM_NOT_FOUND") from None


def _action_key(user: Any, action_id: str) -> str:
    # Namespaced by player: one client's ids can never collide with another's.
    return f"{user.pk}:{action_id}"


def submit(code: str, user: Any, cmd: Command) -> Outcome:
    """Apply one client command to a table. The door for consumers, views and bots."""
    # An overdue timer is applied first, in its own transaction, as if it had fired on time
    # (ARCHITECTURE §8); a client who acted on the version just before it is not refused.
    # The deadline is read from the round loaded under the lock (no query of its own on every
    # command, bench/ws_load.py): when it has passed, this transaction is abandoned before it
    # changed anything, the timer fires, and the command runs once more.
    try:
        return _submit(code, user, cmd)
    except _Overdue as due:
        fired = _fire_deadline(due.round_id, due.version)
        return _submit(code, user, cmd, fired, timer_checked=True)


def _submit(code: str, user: Any, cmd: Command, fired: tuple[int, int] | None = None,
            timer_checked: bool = False) -> Outcome:
    try:
        with transaction.atomic():
            t = _lock_table(code)
            room, rnd = t.room, t.round
            if (not timer_checked and rnd is not None and rnd.deadline is not None
                    and rnd.deadline <= t.now and t.match is not None
                    and t.match.status == MatchStatus.RUNNING):
                raise _Overdue(rnd.pk, rnd.version)
            key = _action_key(user, cmd.action_id) if cmd.action_id else None
            # A repeated action_id (a double click, a resend after a lost ack) is found without
            # a query of its own on the way of every action: if the command is refused, the log
            # is asked below whether it was already applied; if it is applied again, inserting
            # its log row breaks the unique action_id and the transaction rolls back.
            accepted = {room.version}
            if fired is not None and fired[1] == room.version:
                accepted.add(fired[0])
            if cmd.expected_version is not None and cmd.expected_version not in accepted:
                raise ServiceError("STALE_VERSION")
            if room.closed is not None:
                raise ServiceError("ROOM_CLOSED")
            if cmd.is_game:
                _game_command(t, user, cmd, key)
            else:
                _lobby_command(t, user, cmd, key)
            _finish(t)
            return Outcome(True, t.room.version)
    except (ServiceError, RuleError) as exc:
        # The transaction rolled back: nothing changed.
        if key_of(user, cmd) and _logged(key_of(user, cmd)):
            return Outcome(True, _current_version(code), duplicate=True)
        return Outcome(False, _current_version(code), exc.code)
    except IntegrityError:
        # The unique log key: this action_id was applied before (or by a concurrent copy),
        # so this one is acknowledged, not repeated. Any other broken constraint is a bug and
        # is not dressed up as a duplicate.
        key = key_of(user, cmd)
        if key is None or not _logged(key):
            raise
        log.info("room %s: action %s was applied before; acknowledged as a duplicate",
                 code, cmd.action_id)
        return Outcome(True, _current_version(code), duplicate=True)


def key_of(user: Any, cmd: Command) -> str | None:
    return _action_key(user, cmd.action_id) if cmd.action_id and user is not None else None


def _logged(key: str) -> bool:
    return RoundAction.objects.filter(action_id=key).exists()


def _current_version(code: str) -> int:
    return Room.objects.filter(code=code).values_list("version", flat=True).first() or 0


def _bump(t: _Table) -> int:
    t.room.version += 1
    t.changed = True
    return t.room.version


def _finish(t: _Table) -> None:
    """Compare-and-set the version, then schedule the broadcast and the timer after commit."""
    if not t.changed:
        return
    fields = ["version"]
    if _room_fields(t.room) != t.room_was:
        fields += _ROOM_FIELDS
    updated = hot_sql.update_row(t.room, fields, version_was=t.version_before)
    if updated != 1:
        raise ServiceError("STALE_VERSION")
    snap = _snapshot(t, t.seats)
    transaction.on_commit(lambda: broadcast.publish(snap))
    rnd = t.round
    if rnd is not None and rnd.deadline is not None:
        rid, ver, when = rnd.pk, rnd.version, rnd.deadline
        transaction.on_commit(lambda: timers.schedule(rid, ver, when))


def _seat_of(t: _Table, user: Any) -> SeatRow | None:
    return next((s for s in _table_seats(t) if s.user_id == user.pk), None)


def _game_command(t: _Table, user: Any, cmd: Command, key: str | None) -> None:
    room = t.room
    seat = _seat_of(t, user)
    is_owner = room.owner_id == user.pk
    kind = cmd.type
    if seat is None or seat.index is None:
        # The owner's seat deals first (RULES §3): an owner without a seat is told so.
        raise ServiceError("OWNER_NOT_SEATED" if kind == "start_round" and is_owner
                           else "NOT_SEATED")
    if kind in ("start_round", "end_match", "new_match") and not is_owner:
        raise ServiceError("NOT_ROOM_OWNER")
    if kind == "start_round":
        _start_match(t, user, seat, key)
        return
    if t.state is None:
        raise RuleError("WRONG_PHASE")
    if kind == "regame" and room.rules.regame_by == "owner" and not is_owner:
        # With regame_by=owner the web layer reserves REGAME for the owner (RULES §11).
        if t.state.phase != MATCH_OVER:
            raise ServiceError("NOT_ROOM_OWNER")
    action: dict[str, Any] = {"type": kind, "seat": seat.index, **cmd.fields}
    if kind == "regame":
        action["deck"] = shuffled_deck()
    if kind == "new_match":
        # Checked by the engine (only from MATCH_OVER); the room then returns to its lobby.
        apply(t.state, action)
        version = _bump(t)
        room.current_match = None
        _log(t, None, user, seat.index, kind, {}, key, version)
        t.match, t.round, t.state = None, None, None
        return
    _apply_engine(t, action, user, seat.index, key)


def _start_match(t: _Table, user: Any, owner_seat: SeatRow, key: str | None) -> None:
    room = t.room
    if room.current_match is not None:
        raise RuleError("WRONG_PHASE")
    seats = _table_seats(t)
    teams = [s.team for s in seats if s.index is not None]
    if teams.count("A") != 2 or teams.count("B") != 2:
        raise ServiceError("TEAMS_NOT_BALANCED")
    # A-B-A-B normalisation (RULES §3): the seats hold their slot; a slot's parity is its team,
    # so team A sits on 0 and 2 and team B on 1 and 3 by construction.
    by_index = {s.index: s for s in seats}
    options = room.rules
    number = (room.matches.aggregate(n=Max("number"))["n"] or 0) + 1
    match = Match.objects.create(
        room=room, number=number, options=options.to_json(),
        player_0_id=by_index[0].user_id, player_1_id=by_index[1].user_id,
        player_2_id=by_index[2].user_id, player_3_id=by_index[3].user_id, started=t.now,
    )
    room.current_match = match
    t.match = match
    t.state = lobby_state(options, owner_seat.index)
    deck = shuffled_deck()
    _apply_engine(t, {"type": "start_round", "deck": deck}, user, owner_seat.index, key)


# What an action can change in an existing round row (an UPDATE of these alone: the deck and
# the match never change, and the row is written on every action).
_ROUND_PLAY_FIELDS = ["engine_state", "version", "actions_logged", "phase", "is_bock", "deadline",
                      "deadline_kind", "points_a", "points_b", "finished"]


def _apply_engine(t: _Table, action: dict[str, Any], user: Any, seat: int | None,
                  key: str | None) -> None:
    """Apply one engine action and persist everything it changed (raises RuleError)."""
    assert t.state is not None and t.match is not None
    new_state, events = apply(t.state, action)
    version = _bump(t)
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
    rnd.actions_logged += 1  # this action's sequence in the deal's log (`_log`)
    rnd.phase = new_state.phase
    rnd.is_bock = deal.is_bock
    rnd.deadline, rnd.deadline_kind = _deadline(new_state, t.now)
    if deal.points is not None and rnd.points_a is None:
        rnd.points_a, rnd.points_b = deal.points
        rnd.finished = t.now
    if created:
        rnd.save()
    else:
        hot_sql.update_row(rnd, _ROUND_PLAY_FIELDS)
    _persist_tricks_and_debts(rnd, new_state, events, t.now)
    payload = {k: v for k, v in action.items() if k not in ("deck", "seat", "type")}
    _log(t, rnd, user, seat, kind, payload, key, version)
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
        # Issue #7: standings and ratings are updated in the transaction that ends the match.
        standings.record_match(match)
    t.state = new_state
    t.events.extend(events)


def _log(t: _Table, rnd: Round | None, user: Any, seat: int | None, kind: str,
         payload: dict[str, Any], key: str | None, version: int) -> None:
    # A deal's actions are numbered by its own counter, bumped and saved with the round row
    # in `_apply_engine` before this (no MAX(sequence) query on every action).
    sequence = rnd.actions_logged if rnd is not None else None
    hot_sql.insert_action(
        room_id=t.room.pk, round_id=rnd.pk if rnd is not None else None, sequence=sequence,
        version=version, actor_id=user.pk if user is not None else None, actor_seat=seat,
        kind=kind, payload=payload, action_id=key or f"system:{secrets.token_hex(12)}",
        created=t.now,
    )


def _deadline(state: MatchState, now: datetime) -> tuple[datetime | None, str]:
    """The next timer of a deal (RULES §5 reveal window, §12 turn timer), or none."""
    opts = state.options
    if state.phase == REVEAL:
        return now + timedelta(seconds=opts.reveal_seconds), "reveal"
    if opts.turn_seconds and state.phase in (DEALING, SCART, PLAY):
        return now + timedelta(seconds=opts.turn_seconds), "turn"
    return None, ""


def _persist_tricks_and_debts(rnd: Round, state: MatchState, events: list[Any],
                              now: datetime) -> None:
    deal = state.deal
    assert deal is not None
    for e in events:
        if e.kind != "trick_won":
            continue
        trick = deal.tricks[e.trick - 1]
        b = trick.buob
        Trick.objects.create(
            round=rnd, number=trick.number, leader=trick.leader,
            cards=[{"seat": s, "card": CARD_IDS[c]} for s, c in trick.cards],
            winner=trick.winner, completed=now,
            buob_call=None if b is None else {
                "caller": b.caller, "suit": b.suit, "target": b.target, "mode": b.mode,
                "returned_card": None if b.returned_card is None
                else CARD_IDS[b.returned_card]},
        )
    for e in events:
        if e.kind == "narr_debt_created":
            NarrDebt.objects.create(
                round=rnd, debtor=e.debtor, creditor=e.creditor,
                trick=Trick.objects.filter(round=rnd, number=e.trick).first(), created=now,
            )
        elif e.kind == "narr_debt_settled":
            NarrDebt.objects.filter(round=rnd).update(
                status="settled", paid_card=CARD_IDS[e.card], settled=now)


# --- timers --------------------------------------------------------------------------------

def _fire_overdue(t: _Table) -> bool:
    """Apply the deal's timer if its deadline has passed (END_REVEAL or TURN_TIMEOUT)."""
    rnd = t.round
    if rnd is None or rnd.deadline is None or rnd.deadline > t.now or t.state is None:
        return False
    if t.room.closed is not None:
        return False
    kind = "end_reveal" if rnd.deadline_kind == "reveal" else "turn_timeout"
    try:
        _apply_engine(t, {"type": kind}, None, None, None)
    except RuleError:
        # The phase moved on without clearing the deadline: clear it so it is not retried.
        rnd.deadline, rnd.deadline_kind = None, ""
        rnd.save(update_fields=["deadline", "deadline_kind"])
        return False
    return True


def fire_deadline(round_id: int, version: int) -> bool:
    """A timer task: apply the round's overdue deadline if the table has not moved on.

    Idempotent: a duplicate, stale or early task does nothing (an early one re-arms itself)."""
    return _fire_deadline(round_id, version) is not None


def _fire_deadline(round_id: int, version: int) -> tuple[int, int] | None:
    """Fire; return the table's (version before, version after), or None if nothing fired."""
    with transaction.atomic():
        rnd = Round.objects.filter(pk=round_id).select_related("match").first()
        if rnd is None:
            return None
        room = Room.objects.select_for_update(of=("self",)).select_related("owner").get(
            pk=rnd.match.room_id)
        t = _load(room, timezone.now())
        if t.round is None or t.round.pk != round_id or t.round.version != version:
            return None
        if t.round.deadline is not None and t.round.deadline > t.now:
            deadline = t.round.deadline
            transaction.on_commit(lambda: timers.schedule(round_id, version, deadline))
            return None
        if not _fire_overdue(t):
            return None
        _finish(t)
        return t.version_before, t.room.version


def sweep_deadlines(limit: int = 200) -> int:
    """Fire every overdue deadline (Celery beat, or the embedded loop). Returns how many.

    The most overdue first; one table that fails to fire (logged) does not hold up the
    others' timers — each fires in its own transaction."""
    now = timezone.now()
    due = list(Round.objects.filter(deadline__lte=now, match__status=MatchStatus.RUNNING)
               .order_by("deadline").values_list("pk", "version")[:limit])
    fired = 0
    for rid, ver in due:
        try:
            fired += fire_deadline(rid, ver)
        except Exception:  # noqa: BLE001 - the next sweep retries this one
            log.exception("deadline of round %s (v%s) failed to fire", rid, ver)
    return fired


# --- lobby --------------------------------------------------------------------------------

def _require_owner(t: _Table, user: Any) -> None:
    if t.room.owner_id != user.pk:
        raise ServiceError("NOT_ROOM_OWNER")


def _require_lobby(t: _Table) -> None:
    if t.room.current_match is not None:
        raise ServiceError("MATCH_IN_PROGRESS")


def _target_seat(t: _Table, player_id: int) -> Seat:
    seat = Seat.objects.filter(room=t.room, user_id=player_id).select_related("user").first()
    if seat is None:
        raise ServiceError("NOT_IN_ROOM")
    return seat


def _lobby_command(t: _Table, user: Any, cmd: Command, key: str | None) -> None:
    room = t.room
    f = cmd.fields
    kind = cmd.type
    payload: dict[str, Any] = dict(f)
    if kind == "take_seat":
        _require_lobby(t)
        taken = {s.index: s for s in room.seats.all() if s.index is not None}
        mine = next((s for s in taken.values() if s.user_id == user.pk), None)
        free = [i for i in ((0, 2) if f["team"] == "A" else (1, 3))
                if i not in taken or taken[i].user_id == user.pk]
        if f.get("index") is not None:
            if f["index"] % 2 != (0 if f["team"] == "A" else 1):
                raise ServiceError("INVALID_FIELD")
            if f["index"] not in free:
                raise ServiceError("SEAT_TAKEN")
            index = f["index"]
        elif mine is not None and mine.team == f["team"]:
            raise ServiceError("ALREADY_SEATED")
        elif not free:
            raise ServiceError("TEAM_FULL")
        else:
            index = free[0]
        if mine is not None:
            mine.index, mine.team = index, f["team"]
            mine.save(update_fields=["index", "team"])
        else:
            Seat.objects.create(room=room, user=user, team=f["team"], index=index,
                                joined=t.now)
        payload["index"] = index
    elif kind == "leave_seat":
        _require_lobby(t)
        mine = Seat.objects.filter(room=room, user=user).first()
        if mine is None:
            raise ServiceError("NOT_SEATED")
        mine.delete()
        if room.owner_id == user.pk:
            # The owner leaves: the longest-seated player takes the room over (issue #4).
            heir = room.seats.exclude(user=user).order_by("joined", "pk").first()
            if heir is not None:
                room.owner = heir.user
                payload["new_owner"] = heir.user_id
    elif kind == "move_player":
        _require_owner(t, user)
        _require_lobby(t)
        target = _target_seat(t, f["player"])
        index = f["index"]
        other = room.seats.filter(index=index).exclude(pk=target.pk).first()
        if other is not None:
            # Swap: park the other player, move the target, then seat the other in its slot.
            old = target.index
            other.index = None
            other.save(update_fields=["index"])
            target.index, target.team = index, "AB"[index % 2]
            target.save(update_fields=["index", "team"])
            other.index, other.team = old, "AB"[old % 2]  # type: ignore[operator]
            other.save(update_fields=["index", "team"])
        else:
            target.index, target.team = index, "AB"[index % 2]
            target.save(update_fields=["index", "team"])
    elif kind == "kick":
        _require_owner(t, user)
        _require_lobby(t)
        if f["player"] == user.pk:
            raise ServiceError("CANNOT_TARGET_SELF")
        _target_seat(t, f["player"]).delete()
    elif kind == "transfer_owner":
        _require_owner(t, user)
        if f["player"] == user.pk:
            raise ServiceError("CANNOT_TARGET_SELF")
        room.owner = _target_seat(t, f["player"]).user
    elif kind == "set_options":
        _require_owner(t, user)
        if "options" in f:
            _require_lobby(t)
            try:
                # A partial update: keys not named keep the room's current value.
                room.options = Options.from_json({**room.options, **f["options"]}).to_json()
            except OptionsError:
                raise ServiceError("INVALID_OPTIONS") from None
            payload["options"] = room.options
        if "visibility" in f:
            room.visibility = f["visibility"]
        if "allow_spectators" in f:
            room.allow_spectators = f["allow_spectators"]
        if "name" in f:
            room.name = f["name"].strip()
    elif kind == "close_room":
        _require_owner(t, user)
        room.closed = t.now
        match = room.current_match
        if match is not None and match.status == MatchStatus.RUNNING:
            match.status = MatchStatus.ABANDONED
            match.finished = t.now
            match.save(update_fields=["status", "finished"])
        if t.round is not None and t.round.deadline is not None:
            t.round.deadline, t.round.deadline_kind = None, ""
            t.round.save(update_fields=["deadline", "deadline_kind"])
    else:  # pragma: no cover - the protocol only lets lobby types through here
        raise ServiceError("UNKNOWN_TYPE")
    version = _bump(t)
    t.seats = None  # a lobby command may have moved, added or removed seats
    _log(t, None, user, None, kind, payload, key, version)


# --- rooms and presence ---------------------------------------------------------------------

def create_room(owner: Any, options: dict[str, Any] | None = None, *, name: str = "",
                visibility: str = "public", allow_spectators: bool = True,
                take_seat: str | None = "A") -> Room:
    """A new room owned by `owner`, who takes a seat in team A unless told otherwise."""
    try:
        opts = Options.from_json(options).to_json()
    except OptionsError:
        raise ServiceError("INVALID_OPTIONS") from None
    with transaction.atomic():
        room = Room.objects.create(owner=owner, options=opts, name=name.strip()[:60],
                                   visibility=visibility, allow_spectators=allow_spectators)
        if take_seat in ("A", "B"):
            Seat.objects.create(room=room, user=owner, team=take_seat,
                                index=0 if take_seat == "A" else 1)
    return room


def may_watch(code: str, user: Any) -> str | None:
    """None if `user` may open this table's socket, else the refusal code."""
    room = Room.objects.filter(code=code).first()
    if room is None:
        return "ROOM_NOT_FOUND"
    if not getattr(user, "is_authenticated", False):
        return "NOT_AUTHENTICATED"
    seated = Seat.objects.filter(room=room, user=user).exists()
    if not seated and not room.allow_spectators and room.current_match_id is not None:
        return "SPECTATORS_NOT_ALLOWED"
    return None


def connect(code: str, user: Any, channel_name: str) -> None:
    room = Room.objects.get(code=code)
    Connection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"room": room, "user": user, "last_seen": timezone.now()})
    transaction.on_commit(lambda: broadcast.publish_presence(code, connected_users(code)))


def disconnect(code: str, channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).delete()
    transaction.on_commit(lambda: broadcast.publish_presence(code, connected_users(code)))


def touch(channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())


def connected_users(code: str) -> list[int]:
    room = Room.objects.filter(code=code).first()
    if room is None:
        return []
    return sorted(_connected_ids(room, timezone.now()))


def seat_of_user(code: str, user_id: int) -> int | None:
    return (Seat.objects.filter(room__code=code, user_id=user_id)
            .values_list("index", flat=True).first())



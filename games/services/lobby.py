"""The lobby's commands: seating, moving, kicking, ownership, house rules, closing the room.

One `check_*` / `do_*` pair per command, after Zulip's actions: the check raises a
ServiceError and changes nothing; the do writes, knowing the check passed, and returns what
the action log records beyond the command's own fields. `LOBBY_COMMANDS` dispatches them.
The staff's doors (the admin's close and end actions) are at the bottom.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.bots import bot_account
from accounts.validators import is_showable, normalise
from games.bots import LEVELS
from games.engine.errors import OptionsError
from games.engine.options import Options
from games.engine.state import team_of
from games.models import Block, MatchStatus, Membership, Room, Seat, Visibility
from games.models.tournaments import is_tournament_room
from games.services.errors import ServiceError
from games.services.record import bump, finish, log_action
from games.services.snapshot import NAMES_FROZEN_IN
from games.services.tables import Table, lock_code, rules_of

Fields = dict[str, Any]


def _require_owner(t: Table, user: Any) -> None:
    if t.room.owner_id != user.pk:
        raise ServiceError("NOT_ROOM_OWNER")


def _require_lobby(t: Table) -> None:
    if t.room.current_match is not None:
        raise ServiceError("MATCH_IN_PROGRESS")


def check_not_tournament(t: Table) -> None:
    """TOURNAMENT_TABLE_LOCKED at a tournament table (issue #26 item 5): its seats, owner and
    house rules are the tournament's, so every lobby command (each seats, moves, removes
    someone, or changes the room) and a new match are refused; the runner seats the four
    itself (rooms.create_seated_room)."""
    if is_tournament_room(t.room.pk):
        raise ServiceError("TOURNAMENT_TABLE_LOCKED")


def _target_seat(t: Table, player_id: int) -> Seat:
    seat = Seat.objects.filter(room=t.room, user_id=player_id).select_related("user").first()
    if seat is None:
        raise ServiceError("NOT_IN_ROOM")
    return seat


def _slots(team: str) -> tuple[int, int]:
    """The two seats of a team (RULES §3: team A sits on 0 and 2, team B on 1 and 3)."""
    return (0, 2) if team == "A" else (1, 3)


# --- take_seat ------------------------------------------------------------------------------

@dataclass(frozen=True)
class _SeatPlan:
    index: int
    mine: Seat | None
    # A bot holding the chosen seat: a person sitting there replaces it (issue #15).
    bot: Seat | None = None


def owner_blocked(room: Room, user: Any) -> bool:
    """Whether `room` is private and its owner blocked `user` (issue #17): such a player can
    neither sit down nor open the table's socket. A public room stays open to everyone."""
    return (room.visibility == Visibility.PRIVATE and room.owner_id != user.pk
            and Block.objects.filter(blocker_id=room.owner_id, blocked_id=user.pk).exists())


def club_outsider(room: Room, user: Any) -> bool:
    """Whether `room` is a club's table and `user` no member of that club (issue #26 item 1):
    such a player neither sits down nor opens the table's socket."""
    return (room.club_id is not None
            and not Membership.objects.filter(club_id=room.club_id, user_id=user.pk).exists())


def check_take_seat(t: Table, user: Any, f: Fields) -> _SeatPlan:
    _require_lobby(t)
    if club_outsider(t.room, user):
        raise ServiceError("CLUB_TABLE_MEMBERS_ONLY")
    if owner_blocked(t.room, user):
        raise ServiceError("BLOCKED_FROM_ROOM")
    taken = {s.index: s for s in t.room.seats.select_related("user") if s.index is not None}
    mine = next((s for s in taken.values() if s.user_id == user.pk), None)
    free = [i for i in _slots(f["team"]) if i not in taken or taken[i].user_id == user.pk]
    bots = [i for i in _slots(f["team"]) if i in taken and taken[i].user.is_bot]
    if f.get("index") is not None:
        if f["index"] not in _slots(f["team"]):
            raise ServiceError("INVALID_FIELD")
        if f["index"] in bots:
            return _SeatPlan(f["index"], mine, taken[f["index"]])
        if f["index"] not in free:
            raise ServiceError("SEAT_TAKEN")
        return _SeatPlan(f["index"], mine)
    if mine is not None and mine.team == f["team"]:
        raise ServiceError("ALREADY_SEATED")
    if free:
        return _SeatPlan(free[0], mine)
    if bots:
        return _SeatPlan(bots[0], mine, taken[bots[0]])
    raise ServiceError("TEAM_FULL")


def do_take_seat(t: Table, user: Any, f: Fields, plan: _SeatPlan) -> Fields:
    extra: Fields = {"index": plan.index}
    if plan.bot is not None:
        extra["replaced_bot"] = plan.bot.user_id
        plan.bot.delete()
    if plan.mine is not None:
        plan.mine.index, plan.mine.team = plan.index, f["team"]
        plan.mine.save(update_fields=["index", "team"])
    else:
        Seat.objects.create(room=t.room, user=user, team=f["team"], index=plan.index,
                            joined=t.now)
    return extra


# --- leave_seat -----------------------------------------------------------------------------

def check_leave_seat(t: Table, user: Any, f: Fields) -> Seat:
    _require_lobby(t)
    mine = Seat.objects.filter(room=t.room, user=user).first()
    if mine is None:
        raise ServiceError("NOT_SEATED")
    return mine


def do_leave_seat(t: Table, user: Any, f: Fields, mine: Seat) -> Fields:
    room = t.room
    mine.delete()
    if room.owner_id == user.pk:
        # The owner leaves: the longest-seated player takes the room over (issue #4).
        # A bot never owns a room.
        heir = (room.seats.exclude(user=user).exclude(user__is_bot=True)
                .order_by("joined", "pk").first())
        if heir is not None:
            room.owner = heir.user
            return {"new_owner": heir.user_id}
    return {}


# --- move_player ----------------------------------------------------------------------------

def check_move_player(t: Table, user: Any, f: Fields) -> Seat:
    _require_owner(t, user)
    _require_lobby(t)
    return _target_seat(t, f["player"])


def _sit(seat: Seat, index: int) -> None:
    seat.index, seat.team = index, team_of(index)
    seat.save(update_fields=["index", "team"])


def do_move_player(t: Table, user: Any, f: Fields, target: Seat) -> Fields:
    index = f["index"]
    other = t.room.seats.filter(index=index).exclude(pk=target.pk).first()
    if other is not None:
        # Swap: park the other player, move the target, then seat the other in its slot.
        old = target.index
        assert old is not None  # the other player sits on a slot, so the target had one
        other.index = None
        other.save(update_fields=["index"])
        _sit(target, index)
        _sit(other, old)
    else:
        _sit(target, index)
    return {}


# --- kick -----------------------------------------------------------------------------------

def check_kick(t: Table, user: Any, f: Fields) -> Seat:
    _require_owner(t, user)
    _require_lobby(t)
    if f["player"] == user.pk:
        raise ServiceError("CANNOT_TARGET_SELF")
    return _target_seat(t, f["player"])


def do_kick(t: Table, user: Any, f: Fields, target: Seat) -> Fields:
    target.delete()
    return {}


# --- transfer_owner -------------------------------------------------------------------------

def check_transfer_owner(t: Table, user: Any, f: Fields) -> Seat:
    _require_owner(t, user)
    if f["player"] == user.pk:
        raise ServiceError("CANNOT_TARGET_SELF")
    return _target_seat(t, f["player"])


def do_transfer_owner(t: Table, user: Any, f: Fields, heir: Seat) -> Fields:
    t.room.owner = heir.user
    return {}


# --- set_options ----------------------------------------------------------------------------

def check_set_options(t: Table, user: Any, f: Fields) -> dict[str, Any] | None:
    """The room's complete options after a partial update (None if they are not changed)."""
    _require_owner(t, user)
    if "name" in f and not is_showable(f["name"]):
        raise ServiceError("INVALID_FIELD")  # the parser refuses it first; kept as a backstop
    if ("name" in f and t.match is not None and t.match.status == MatchStatus.RUNNING
            and rules_of(t.room).table_talk in NAMES_FROZEN_IN):
        # The room's name is text every seat reads: a table that may not talk keeps the one
        # it had when the match started (issue #25 item 9).
        raise ServiceError("ROOM_NAME_FROZEN")
    if "options" not in f:
        return None
    _require_lobby(t)
    try:
        # A partial update: keys not named keep the room's current value.
        return Options.from_json({**t.room.options, **f["options"]}).to_json()
    except OptionsError:
        raise ServiceError("INVALID_OPTIONS") from None


def do_set_options(t: Table, user: Any, f: Fields, options: dict[str, Any] | None) -> Fields:
    room = t.room
    extra: Fields = {}
    if options is not None:
        room.options = extra["options"] = options
    if "visibility" in f:
        room.visibility = f["visibility"]
    if "allow_spectators" in f:
        room.allow_spectators = f["allow_spectators"]
    if "name" in f:
        room.name = normalise(f["name"]).strip()
    return extra


# --- close_room -----------------------------------------------------------------------------

def check_close_room(t: Table, user: Any, f: Fields) -> None:
    _require_owner(t, user)


def end_abandoned(t: Table, actor: Any, payload: Fields) -> int | None:
    """End the table's running match as abandoned, the room back in its lobby, logged as
    `abandon_match` with `payload`: the staff's end, the idle sweep's (games/services/idle.py).
    It changes no rating: only a finished match is counted (games/history/standings.py).
    The match's id, or None if none runs. The caller `finish`es the table."""
    match = t.room.current_match
    if match is None or match.status != MatchStatus.RUNNING:
        return None
    _abandon_running_match(t)
    t.room.current_match = None
    t.match, t.round, t.state = None, None, None
    log_action(t, None, actor, None, "abandon_match", {"match": match.pk, **payload}, None,
               bump(t))
    return match.pk


def _abandon_running_match(t: Table) -> None:
    match = t.room.current_match
    if match is not None and match.status == MatchStatus.RUNNING:
        match.status = MatchStatus.ABANDONED
        match.finished = t.now
        match.save(update_fields=["status", "finished"])
    if t.round is not None and t.round.deadline is not None:
        t.round.deadline, t.round.deadline_kind = None, ""
        t.round.save(update_fields=["deadline", "deadline_kind"])


def do_close_room(t: Table, user: Any, f: Fields, _: None) -> Fields:
    t.room.closed = t.now
    _abandon_running_match(t)
    return {}


# --- seat_bot, remove_bot (issue #15) ---------------------------------------------------------

def open_bot_tables(user_id: int, *, besides: Room | None = None) -> int:
    """How many open rooms (not closed) `user_id` owns with a bot seated, `besides` left out."""
    rooms = Room.objects.filter(owner_id=user_id, closed__isnull=True, seats__user__is_bot=True)
    if besides is not None:
        rooms = rooms.exclude(pk=besides.pk)
    return rooms.distinct().count()


def check_bot_tables(user: Any, room: Room | None = None) -> None:
    """BOT_TABLES_CAPPED if `room` (None: a new one) would be one bot table too many for its
    owner (settings.TROCCAS_MAX_BOT_TABLES, issue #25 item 1: bots left playing cost a server
    CPU). A room that has a bot seated already is one of them, and may take more."""
    if room is not None and room.seats.filter(user__is_bot=True).exists():
        return
    if open_bot_tables(user.pk, besides=room) >= settings.TROCCAS_MAX_BOT_TABLES:
        raise ServiceError("BOT_TABLES_CAPPED")


def check_seat_bot(t: Table, user: Any, f: Fields) -> None:
    _require_owner(t, user)
    _require_lobby(t)
    if f["level"] not in LEVELS:
        raise ServiceError("BOT_LEVEL_UNKNOWN")
    if t.room.seats.filter(index=f["index"]).exists():
        raise ServiceError("SEAT_TAKEN")
    check_bot_tables(user, t.room)


def do_seat_bot(t: Table, user: Any, f: Fields, _: None) -> Fields:
    bot = free_bot_account(t.room, f["level"], f["index"])
    Seat.objects.create(room=t.room, user=bot, team=team_of(f["index"]), index=f["index"],
                        joined=t.now)
    return {"bot": bot.pk}


def free_bot_account(room: Room, level: str, index: int) -> Any:
    """A bot account of `level` not seated in `room`: the seat's own, unless the owner moved
    that bot to another seat (then the next seat's)."""
    seated = set(room.seats.values_list("user_id", flat=True))
    for k in range(4):
        bot = bot_account(level, (index + k) % 4)
        if bot.pk not in seated:
            return bot
    raise AssertionError("a room has four seats")  # pragma: no cover


def check_remove_bot(t: Table, user: Any, f: Fields) -> Seat:
    _require_owner(t, user)
    _require_lobby(t)
    seat = t.room.seats.filter(index=f["index"], user__is_bot=True).first()
    if seat is None:
        raise ServiceError("NO_BOT_IN_SEAT")
    return seat


def do_remove_bot(t: Table, user: Any, f: Fields, seat: Seat) -> Fields:
    bot = seat.user_id
    seat.delete()
    return {"bot": bot}


# --- dispatch -------------------------------------------------------------------------------

@dataclass(frozen=True)
class LobbyCommand:
    check: Callable[[Table, Any, Fields], Any]
    do: Callable[[Table, Any, Fields, Any], Fields]


LOBBY_COMMANDS: dict[str, LobbyCommand] = {
    "take_seat": LobbyCommand(check_take_seat, do_take_seat),
    "leave_seat": LobbyCommand(check_leave_seat, do_leave_seat),
    "move_player": LobbyCommand(check_move_player, do_move_player),
    "kick": LobbyCommand(check_kick, do_kick),
    "transfer_owner": LobbyCommand(check_transfer_owner, do_transfer_owner),
    "set_options": LobbyCommand(check_set_options, do_set_options),
    "close_room": LobbyCommand(check_close_room, do_close_room),
}
LOBBY_COMMANDS["seat_bot"] = LobbyCommand(check_seat_bot, do_seat_bot)
LOBBY_COMMANDS["remove_bot"] = LobbyCommand(check_remove_bot, do_remove_bot)


def lobby_command(t: Table, user: Any, kind: str, fields: Fields, key: str | None) -> None:
    """Check, then do one lobby command, and log it with the table's next version."""
    command = LOBBY_COMMANDS.get(kind)
    if command is None:  # pragma: no cover - the protocol only lets lobby types through here
        raise ServiceError("UNKNOWN_TYPE")
    check_not_tournament(t)
    plan = command.check(t, user, fields)
    payload = {**fields, **command.do(t, user, fields, plan)}
    version = bump(t)
    t.seats = None  # a lobby command may have moved, added or removed seats
    log_action(t, None, user, None, kind, payload, key, version)


# --- staff ----------------------------------------------------------------------------------

def staff_close_room(room: Room, staff: Any) -> bool:
    """Close a room from the admin as its owner would (its running match ends abandoned);
    the table's sockets learn of it like of any action. False if it was already closed."""
    with transaction.atomic():
        t = lock_code(room.code)
        if t.room.closed is not None:
            return False
        do_close_room(t, staff, {}, None)
        log_action(t, None, staff, None, "close_room", {"staff": True}, None, bump(t))
        finish(t)
    return True


def staff_end_match(room: Room, staff: Any) -> bool:
    """End a room's running match from the admin (abandoned): the table returns to its lobby.
    False if the room has no running match."""
    with transaction.atomic():
        t = lock_code(room.code)
        if end_abandoned(t, staff, {"staff": True}) is None:
            return False
        finish(t)
    return True

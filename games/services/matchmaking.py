"""Find a game (issue #24 item 15): the queue of people waiting for a table of four.

The one writer of QueueEntry rows (games/models/queue.py). A player names the house rules
they accept (RULES.md §14; an option left out is "any") and waits; as soon as four people
with compatible rules wait, a public table forms, they are seated through the lobby commands
as four people's clicks would seat them, and its first deal starts: rated, since no bot sits
at it (services/writer.py). A player may also ask to be offered bots after a wait: pressing
"Play with bots" then seats them at once with three bots (unrated, for the same reason). No
one is ever seated with bots without pressing it.

Race-free across processes: forming locks the waiting rows (SELECT ... FOR UPDATE in primary
key order, so two formers queue instead of deadlocking; SQLite's IMMEDIATE transactions
serialize them anyway) and moves the four chosen rows out of WAITING with one compare-and-set
UPDATE whose WHERE still requires `waiting`; fewer than four rows changed rolls the whole
attempt back, room and seats included. Nothing is held in a process's memory.

The players hear it over their site socket (/ws/me/, docs/protocol.md): `queue` (how many wait
with compatible rules, how long I have waited, when bots are offered), `queue_table` (the
table that formed: the page moves there) and `queue_left` (left, expired, gone), sent after
commit through the after-commit port.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.bots import LEVELS
from games.engine.errors import OptionsError
from games.engine.options import BOCK_TRIGGERS, Options
from games.models import Block, MatchStatus, QueueEntry, QueueStatus, Room, Seat, after_commit
from games.services.bots.turns import create_practice_table
from games.services.commands import Command
from games.services.errors import ServiceError
from games.services.rooms import create_room, with_default_turn_timer
from games.services.writer import submit
from games.talk.online import online_ids

log = logging.getLogger(__name__)

__all__ = ["BOTS_AFTER_CHOICES", "QUEUE_OPTIONS", "QueueView", "compatible", "form_tables",
           "join", "leave", "play_with_bots", "sweep", "view_of"]

# The house rules a player may name in the queue: the rules of the game (RULES.md §14). The
# room's own settings (stand-in delay, table talk) keep their standard values at a queue table.
QUEUE_OPTIONS = ("reveal_seconds", "reveal_persist", "scart_forbidden", "buob_caller",
                 "regame_by", "match_deals", "bock", "bock_triggers", "turn_seconds")

# The waits after which a player may ask to be offered bots (seconds); None: never.
BOTS_AFTER_CHOICES: tuple[int | None, ...] = (60, 120, 300, 600, None)

Rules = dict[str, Any]


def normalize_rules(raw: Any) -> Rules:
    """The accepted rules as stored: each named option's JSON value, checked by the engine's
    Options; None or a missing key is "any". INVALID_OPTIONS for anything else."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ServiceError("INVALID_OPTIONS")
    rules: Rules = {}
    for key, value in raw.items():
        if key not in QUEUE_OPTIONS:
            raise ServiceError("INVALID_OPTIONS")
        if value is None:
            continue
        try:
            checked = Options.from_json({key: value}).to_json()[key]
        except OptionsError:
            raise ServiceError("INVALID_OPTIONS") from None
        if key == "bock_triggers":
            # A set: one spelling, so that equal sets compare equal.
            checked = [t for t in BOCK_TRIGGERS if t in checked]
        rules[key] = checked
    return rules


def compatible(a: Rules, b: Rules) -> bool:
    """Whether two players' accepted rules allow one table: every option both name agrees."""
    return all(b[key] == value for key, value in a.items() if key in b)


def table_options(rules: Rules) -> dict[str, Any]:
    """The options of a table formed for `rules` (the merge of its four players'): what they
    named, the standard for the rest, and the people's turn timer when nobody named one."""
    return with_default_turn_timer(dict(rules))


# --- reading ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class QueueView:
    """What the find page and the `queue` frame show of one player's place in the queue."""

    status: str
    # Players waiting with rules compatible with mine, me included.
    waiting: int
    joined: datetime | None
    waited: int
    bots_after: int | None
    room: str | None

    @property
    def bots_offered(self) -> bool:
        return (self.status == QueueStatus.WAITING and self.bots_after is not None
                and self.waited >= self.bots_after)

    def frame(self) -> dict[str, Any]:
        """The `queue` frame (docs/protocol.md "The site socket")."""
        return {"type": "queue", "status": self.status, "waiting": self.waiting,
                "waited": self.waited, "bots_after": self.bots_after,
                "bots_offered": self.bots_offered}


def _waited(entry: QueueEntry, now: datetime) -> int:
    return max(0, int((now - entry.joined).total_seconds()))


def _view(entry: QueueEntry, waiting: list[QueueEntry], now: datetime) -> QueueView:
    count = sum(1 for other in waiting if compatible(entry.rules, other.rules))
    room = entry.room.code if entry.room is not None else None
    return QueueView(entry.status, count, entry.joined, _waited(entry, now), entry.bots_after,
                     room)


def _waiting() -> list[QueueEntry]:
    return list(QueueEntry.objects.filter(status=QueueStatus.WAITING).order_by("pk"))


def view_of(user: Any) -> QueueView | None:
    """The player's queue entry as the page shows it; None if they never queued."""
    entry = QueueEntry.objects.filter(user=user).select_related("room").first()
    if entry is None:
        return None
    waiting = _waiting() if entry.status == QueueStatus.WAITING else []
    return _view(entry, waiting, timezone.now())


# --- announcing --------------------------------------------------------------------------------

def _send(user_id: int, frame: dict[str, Any]) -> None:
    after_commit.on_commit(lambda fx: fx.publish_queue(user_id, frame))


def _announce_counts() -> None:
    """Every waiting player's `queue` frame, after commit: a join, a leave or a table formed
    changes how many wait for rules like theirs."""
    waiting = _waiting()
    now = timezone.now()
    for entry in waiting:
        _send(entry.user_id, _view(entry, waiting, now).frame())


def _announce_left(entries: Iterable[QueueEntry], reason: str) -> None:
    for entry in entries:
        _send(entry.user_id, {"type": "queue_left", "reason": reason})


# --- joining and leaving -------------------------------------------------------------------

def _seated_in_running_match(user_ids: Iterable[int]) -> set[int]:
    return set(Seat.objects.filter(
        user_id__in=list(user_ids), room__closed__isnull=True,
        room__current_match__status=MatchStatus.RUNNING).values_list("user_id", flat=True))


def join(user: Any, rules: Any = None, bots_after: Any = None) -> QueueView:
    """Queue `user` for a table of four people with `rules` (an object: option -> value, a
    missing option or null is "any"), offering bots after `bots_after` seconds (one of
    BOTS_AFTER_CHOICES; None: never). Refusals change nothing: QUEUE_ALREADY_WAITING,
    QUEUE_SEATED_IN_MATCH, INVALID_OPTIONS, INVALID_FIELD. A table forms at once if it can."""
    accepted = normalize_rules(rules)
    if (bots_after not in BOTS_AFTER_CHOICES or isinstance(bots_after, bool)):
        raise ServiceError("INVALID_FIELD")
    now = timezone.now()
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(user=user).first()
        if entry is not None and entry.status == QueueStatus.WAITING:
            raise ServiceError("QUEUE_ALREADY_WAITING")
        if _seated_in_running_match([user.pk]):
            raise ServiceError("QUEUE_SEATED_IN_MATCH")
        fields = {"status": QueueStatus.WAITING, "rules": accepted, "bots_after": bots_after,
                  "joined": now, "away_since": None, "ended": None, "room": None}
        if entry is None:
            # The OneToOne on the user: a second join racing this one fails here.
            QueueEntry.objects.create(user=user, **fields)
        else:
            QueueEntry.objects.filter(pk=entry.pk).update(**fields)
        _announce_counts()
    form_tables()
    view = view_of(user)
    assert view is not None
    return view


def _end_waiting(user: Any, status: str) -> QueueEntry:
    """Move the player's waiting entry to `status` (compare-and-set), or QUEUE_NOT_WAITING."""
    now = timezone.now()
    changed = QueueEntry.objects.filter(user=user, status=QueueStatus.WAITING).update(
        status=status, ended=now)
    if changed != 1:
        raise ServiceError("QUEUE_NOT_WAITING")
    return QueueEntry.objects.get(user=user)


def leave(user: Any) -> None:
    """Leave the queue (QUEUE_NOT_WAITING if not waiting)."""
    with transaction.atomic():
        entry = _end_waiting(user, QueueStatus.LEFT)
        _announce_left([entry], "left")
        _announce_counts()


def play_with_bots(user: Any, level: str) -> Room:
    """"Play with bots": the waiting player, once their chosen wait is over, is seated at once
    with three bots at `level` and their accepted rules; the match is unrated (a bot sits at
    it). QUEUE_NOT_WAITING, QUEUE_BOTS_NOT_YET (never offered, or not yet), BOT_LEVEL_UNKNOWN."""
    if level not in LEVELS:
        raise ServiceError("BOT_LEVEL_UNKNOWN")
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(
            user=user, status=QueueStatus.WAITING).first()
        if entry is None:
            raise ServiceError("QUEUE_NOT_WAITING")
        if entry.bots_after is None or _waited(entry, timezone.now()) < entry.bots_after:
            raise ServiceError("QUEUE_BOTS_NOT_YET")
        _end_waiting(user, QueueStatus.BOTS)
        # A practice table: no turn timer, only bots wait on the player (bots/turns.py).
        room = create_practice_table(user, level, options=dict(entry.rules))
        QueueEntry.objects.filter(pk=entry.pk).update(room=room)
        _send(user.pk, {"type": "queue_table", "room": room.code, "bots": True})
        _announce_counts()
    return room


# --- forming tables ----------------------------------------------------------------------

class _Raced(Exception):
    """Another former seated one of the chosen four first: roll back and look again."""


def _blocked_pairs(user_ids: list[int]) -> set[frozenset[int]]:
    rows = Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids)
    return {frozenset(pair) for pair in rows.values_list("blocker_id", "blocked_id")}


def pick_four(entries: list[QueueEntry], blocked: set[frozenset[int]] | None = None
              ) -> tuple[list[QueueEntry], Rules] | None:
    """Four entries whose rules agree pairwise, and their merged rules; None if there are
    none. The longest-waiting player first: each in join order is tried as the anchor, the
    others joining it in join order while they agree with the table so far (greedy, so a
    large queue is read in O(n²), never searched exhaustively). Two players of whom one
    blocked the other never share a table."""
    blocked = blocked or set()
    for start, anchor in enumerate(entries):
        group, merged = [anchor], dict(anchor.rules)
        for other in entries[start + 1:]:
            if not compatible(merged, other.rules):
                continue
            if any(frozenset((other.user_id, g.user_id)) in blocked for g in group):
                continue
            group.append(other)
            merged.update(other.rules)
            if len(group) == 4:
                return group, merged
    return None


def _seat(code: str, user: Any, kind: str, **fields: Any) -> None:
    room = Room.objects.get(code=code)
    out = submit(code, user, Command(kind, uuid.uuid4().hex, room.version, fields))
    if not out.ok:
        raise ServiceError(out.code or "SERVER_ERROR")


def _open_table(group: list[QueueEntry], rules: Rules) -> Room:
    """A public table for the four: the longest-waiting owns it and deals first (seat 0), the
    others sit down in join order (B, A, B), and the first deal starts."""
    users = {u.pk: u for u in type(group[0].user).objects.filter(
        pk__in=[e.user_id for e in group])}
    owner = users[group[0].user_id]
    room = create_room(owner, table_options(rules), visibility="public", take_seat="A")
    for entry, team in zip(group[1:], ("B", "A", "B"), strict=True):
        _seat(room.code, users[entry.user_id], "take_seat", team=team)
    _seat(room.code, owner, "start_round")
    return Room.objects.get(pk=room.pk)


def _form_one() -> Room | None:
    with transaction.atomic():
        # Locks every waiting row in key order: formers in other processes queue here.
        entries = list(QueueEntry.objects.select_for_update().filter(
            status=QueueStatus.WAITING, away_since__isnull=True).order_by("pk"))
        busy = _seated_in_running_match(e.user_id for e in entries)
        entries = [e for e in entries if e.user_id not in busy]
        found = pick_four(entries, _blocked_pairs([e.user_id for e in entries]))
        if found is None:
            return None
        group, rules = found
        ids = [e.pk for e in group]
        changed = QueueEntry.objects.filter(pk__in=ids, status=QueueStatus.WAITING).update(
            status=QueueStatus.SEATED, ended=timezone.now())
        if changed != len(ids):
            raise _Raced
        room = _open_table(group, rules)
        QueueEntry.objects.filter(pk__in=ids).update(room=room)
        for entry in group:
            _send(entry.user_id, {"type": "queue_table", "room": room.code, "bots": False})
        _announce_counts()
    log.info("queue: table %s formed for users %s", room.code, [e.user_id for e in group])
    return room


# A bound on the tables one call forms (each is one transaction): the next call goes on.
_MAX_TABLES_PER_CALL = 50
_MAX_RACES = 5


def form_tables() -> list[Room]:
    """Form every table the waiting players allow now; the rooms formed."""
    formed: list[Room] = []
    races = 0
    while len(formed) < _MAX_TABLES_PER_CALL:
        try:
            room = _form_one()
        except _Raced:
            races += 1
            if races > _MAX_RACES:
                break
            continue
        if room is None:
            break
        formed.append(room)
    return formed


# --- the sweep -------------------------------------------------------------------------------

def sweep() -> int:
    """The queue's sweep (Celery beat in the distributed mode, the embedded timer loop
    otherwise): ends the waits older than TROCCAS_QUEUE_MAX_WAIT (`expired`) and those of
    players with no open socket for TROCCAS_QUEUE_GRACE_SECONDS (`gone`), then forms what can
    be formed (a table a failed attempt left unformed). Returns how many entries it changed
    plus the tables formed."""
    now = timezone.now()
    max_wait = timedelta(seconds=settings.TROCCAS_QUEUE_MAX_WAIT)
    grace = timedelta(seconds=settings.TROCCAS_QUEUE_GRACE_SECONDS)
    changed = 0
    with transaction.atomic():
        waiting = list(QueueEntry.objects.select_for_update().filter(
            status=QueueStatus.WAITING).order_by("pk"))
        expired = [e for e in waiting if now - e.joined >= max_wait]
        online = online_ids([e.user_id for e in waiting])
        rest = [e for e in waiting if e not in expired]
        back = [e.pk for e in rest if e.user_id in online and e.away_since is not None]
        away = [e.pk for e in rest if e.user_id not in online and e.away_since is None]
        gone = [e for e in rest if e.user_id not in online and e.away_since is not None
                and now - e.away_since >= grace]
        if expired:
            QueueEntry.objects.filter(pk__in=[e.pk for e in expired]).update(
                status=QueueStatus.EXPIRED, ended=now)
            _announce_left(expired, "expired")
        if gone:
            QueueEntry.objects.filter(pk__in=[e.pk for e in gone]).update(
                status=QueueStatus.GONE, ended=now)
            _announce_left(gone, "gone")
        if back:
            QueueEntry.objects.filter(pk__in=back).update(away_since=None)
        if away:
            QueueEntry.objects.filter(pk__in=away).update(away_since=now)
        changed = len(expired) + len(gone) + len(back) + len(away)
        if expired or gone:
            _announce_counts()
    return changed + len(form_tables())


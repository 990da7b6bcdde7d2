"""Group names and the per-seat fan-out (ARCHITECTURE.md §6, §7).

Called only from `transaction.on_commit`: a rolled-back action is never announced. A room has
one group per seat and one public group; each seat's group receives only that seat's view, the
public group the spectators' view. Frames are encoded once here, not once per socket, and
the part of the view every audience shares is encoded once for all of them (issue #16).

Protocol 2 (docs/protocol.md): one `state` frame per change and audience, carrying the
change's `events` with the view.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.live.channel_layer import BatchingRedisChannelLayer
from games.live.memory_layer import LeanInMemoryChannelLayer
from games.services.snapshot import TableSnapshot

log = logging.getLogger(__name__)


# Every message type the channel layer carries, by the kind of group it is sent to (issue #24
# item 12). A consumer names the kinds it joins (`GROUP_KINDS`) and must have a handler for each
# type of them: Channels raises "No handler for message type" otherwise, which took a site
# socket down at every block, unblock or friend accept. tests/live/test_group_messages.py holds
# both to it, and fails on a message type sent anywhere in games/ that is declared nowhere here.
GROUP_MESSAGES: dict[str, frozenset[str]] = {
    # group_name(code, seat): the table's audiences.
    "table": frozenset({"table.update", "table.presence", "talk.message", "talk.hidden"}),
    # user_group_name(user_id): every socket of one account.
    "user": frozenset({"auth.revoke", "talk.mutes", "talk.blocked"}),
    # notice_group_name(user_id): the account's site sockets.
    "notices": frozenset({"notices.changed", "site.frame"}),
    # tournament_group_name(tournament_id): the site sockets of the tournament's open pages.
    "tournament": frozenset({"tournament.changed"}),
}
# Sent to one channel rather than a group: the layer's own word after Redis was out of reach
# (channel_layer.RESYNC_MESSAGE, to every consumer), a socket's note to itself, and a bot
# runner's answer to the socket that asked for a hint (games/teaching/hints.py).
CHANNEL_MESSAGES: dict[str, frozenset[str]] = {
    "any": frozenset({"layer.resync"}),
    "table": frozenset({"table.gap", "talk.refilter", "teaching.hint"}),
}


def group_name(code: str, seat: int | None) -> str:
    """The group of one audience of a table: seat 0–3, or None for the spectators."""
    return f"table.{code}.public" if seat is None else f"table.{code}.seat.{seat}"


def user_group_name(user_id: int) -> str:
    """The group of every socket of one account, in any process: told when its sign-in ends."""
    return f"user.{user_id}"


def notice_group_name(user_id: int) -> str:
    """The group of one account's site sockets (/ws/me/, games.live.site_socket.SiteConsumer):
    told when its unread notifications change. Apart from user_group_name, whose members
    include the table sockets, which have no use for these messages."""
    return f"notices.{user_id}"


def tournament_group_name(tournament_id: int) -> str:
    """The group of the site sockets whose page shows one tournament (its page, standings or
    desk): each joined it with a `watch` frame the viewer was allowed (SiteConsumer)."""
    return f"tournament.{tournament_id}"


def send_tournament_frame(tournament_id: int, frame: dict[str, Any]) -> None:
    """The `tournament` frame to every site socket watching the tournament (in any process),
    after commit (games/clubs/push.py). It names what changed and nothing else: every page
    reads what it shows through its own door."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(tournament_group_name(tournament_id),
                                        {"type": "tournament.changed", "frame": encode(frame)})
    except Exception:  # the pages poll as well (static/js/tournament_live.js)
        log.exception("tournament frame for tournament %s failed", tournament_id)


def send_notices(user_id: int, unread: int) -> None:
    """Tell every site socket of `user_id` (in any process) its unread count; after commit."""
    layer = get_channel_layer()
    if layer is None:
        return
    frame = encode({"type": "notices", "unread": unread})
    try:
        async_to_sync(layer.group_send)(notice_group_name(user_id),
                                        {"type": "notices.changed", "frame": frame})
    except Exception:  # the page reads the count again when it loads
        log.exception("notification push to user %s failed", user_id)
# orjson, not the standard library's encoder: the frames of every change are encoded here, and
# orjson does it several times faster (docs/decisions.md "Lean hot path (#16)"). The engine and
# the services stay on plain Python objects; bytes are made only at this edge. Compact, UTF-8
# (no \u escapes), as before.
_ORJSON = orjson.OPT_NON_STR_KEYS


def send_site_frame(user_id: int, frame: dict[str, Any]) -> None:
    """One frame to every site socket of `user_id` (in any process), after commit: Find a
    game's `queue`, `queue_table` and `queue_left` (games/services/matchmaking.py)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(notice_group_name(user_id),
                                        {"type": "site.frame", "frame": encode(frame)})
    except Exception:  # the find page reads the queue again when it loads
        log.exception("site frame to user %s failed", user_id)


def send_site_frames(frames: Sequence[tuple[int, dict[str, Any]]]) -> None:
    """Many users' site-socket frames, in order, through one trip to the event loop: a round
    of a tournament tells 128 players at once, and a trip per frame (asgiref's thread hop, a
    couple of milliseconds each) was most of the round's start (bench/tournament.py)."""
    layer = get_channel_layer()
    if layer is None or not frames:
        return

    async def send_all() -> None:
        for user_id, frame in frames:
            try:
                await layer.group_send(notice_group_name(user_id),
                                       {"type": "site.frame", "frame": encode(frame)})
            except Exception:  # the page reads its notices again when it loads
                log.exception("site frame to user %s failed", user_id)

    async_to_sync(send_all)()


def encode_bytes(message: dict[str, Any]) -> bytes:
    """One server frame as compact UTF-8 JSON."""
    return orjson.dumps(message, option=_ORJSON)


def encode(message: dict[str, Any]) -> str:
    """One server frame as compact JSON text (a websocket text frame)."""
    return orjson.dumps(message, option=_ORJSON).decode()


AUDIENCES: tuple[int | None, ...] = (0, 1, 2, 3, None)


class ChangeFrames:
    """The `state` frames of one change: the view's shared part is encoded once, on the first
    audience that needs a frame, and spliced into each audience's frame beside its own part.
    Both parts are JSON objects with disjoint keys (engine.views.SEAT_KEYS), so the splice is
    the object `{**seat_part, **shared_part}`: exactly `snap.view_for(seat)`."""

    def __init__(self, snap: TableSnapshot) -> None:
        self.snap = snap
        self._shared: bytes | None = None

    def frame(self, seat: int | None) -> str:
        snap = self.snap
        if self._shared is None:
            self._shared = encode_bytes(snap.shared_view())[1:-1]
        head = encode_bytes({"type": "state", "version": snap.version,
                             "events": snap.events_for(seat)})
        own = encode_bytes(snap.seat_view(seat))
        return b"".join((head[:-1], b',"view":', own[:-1], b",", self._shared, b"}}")).decode()


def build_message(frames: ChangeFrames, seat: int | None, seat_map: dict[str, int]
                  ) -> dict[str, Any]:
    """The channel-layer message for one audience: its frame, encoded once for all sockets."""
    snap = frames.snap
    message = {"type": "table.update", "seat": seat, "seat_map": seat_map,
               "version": snap.version, "frame": frames.frame(seat),
               # The talk a socket keeps is the current match's (games/live/talk.py).
               "match": snap.match["id"] if snap.match is not None else None}
    if seat is None:
        # The spectators' audience also learns whether it may stay (set_options mid-match).
        message["spectators_refused"] = spectators_refused(snap)
    return message


def spectators_refused(snap: TableSnapshot) -> bool:
    """Whether a user without a seat may not watch now: the rule of services.may_watch."""
    return not snap.room["allow_spectators"] and snap.match is not None


def _audiences(code: str) -> dict[str, int | None]:
    return {group_name(code, seat): seat for seat in AUDIENCES}


async def _fan_out(code: str, build: Callable[[int | None], dict[str, Any]]) -> None:
    """Send each audience of a table its message, built only for audiences with members."""
    layer = get_channel_layer()
    if layer is None:
        return
    groups = _audiences(code)
    if isinstance(layer, BatchingRedisChannelLayer):
        # This process's sockets from memory, the other processes' with one PUBLISH per
        # audience, in one round trip to Redis (games/live/channel_layer.py).
        dropped = await layer.fan_out(list(groups), lambda g: build(groups[g]))
        if dropped:
            # Those sockets will see a version gap on the next update and resync.
            log.warning("table %s: %s update(s) dropped, channel layer over capacity",
                        code, dropped)
        return
    for group, seat in groups.items():
        await layer.group_send(group, build(seat))


def _hand_over(code: str, build: Callable[[int | None], dict[str, Any]]) -> bool:
    """Queue the update on the sockets' event loop and return at once, without the writer's
    thread waiting for the fan-out; False when that is not possible here (no sockets' loop in
    this process: a Celery worker, a script).

    Embedded (games/live/memory_layer.py): every socket is in this process. Distributed
    (games/live/channel_layer.py): this process's sockets get it from memory, the other
    processes' through Redis pub/sub, one table's updates in the order of their commits (the
    room's writes are serialised by its row lock, each hands over after its commit, and the
    process's one publisher keeps that order)."""
    layer = get_channel_layer()
    if isinstance(layer, BatchingRedisChannelLayer):
        groups = _audiences(code)
        return layer.fan_out_threadsafe(list(groups), lambda g: build(groups[g]))
    if not isinstance(layer, LeanInMemoryChannelLayer):
        return False
    groups = _audiences(code)
    return layer.fan_out_threadsafe(list(groups), lambda g: build(groups[g]))


def publish(snap: TableSnapshot) -> None:
    """Send every audience its own view of the table (after commit)."""
    seat_map = {str(s.user_id): s.index for s in snap.seats}
    frames = ChangeFrames(snap)

    def build(seat: int | None) -> dict[str, Any]:
        return build_message(frames, seat, seat_map)

    try:
        if _hand_over(snap.code, build):
            return
        async_to_sync(_fan_out)(snap.code, build)
    except Exception:  # a lost broadcast is healed by the clients' resync
        # Clients that miss an update see a version gap on the next one and resync; the
        # state itself is safe in the database. Never log the views: they hold cards.
        log.exception("broadcast of table %s v%s failed", snap.code, snap.version)


def publish_presence(code: str, frame: dict[str, Any]) -> None:
    """Send every socket of the table the `presence` frame (services.presence_frame)."""
    message = {"type": "table.presence", "frame": encode(frame)}
    try:
        if _hand_over(code, lambda seat: message):
            return
        async_to_sync(_fan_out)(code, lambda seat: message)
    except Exception:
        log.exception("presence broadcast for table %s failed", code)


def sign_out(user_id: int, session_key: str | None = None) -> None:
    """Tell the sockets of an account that a sign-in ended: those of the session `session_key`
    (a log-out) close at once; without one (password changed, account deleted) each socket
    re-checks its own session and closes if it is over. Any process's sockets (channels-redis)."""
    from accounts.sessions import session_tag

    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "auth.revoke",
               "session": session_tag(session_key) if session_key is not None else None}
    try:
        async_to_sync(layer.group_send)(user_group_name(user_id), message)
    except Exception:  # every frame of those sockets re-checks the session too
        log.exception("sign-out of user %s's sockets failed", user_id)


def on_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """django.contrib.auth's user_logged_out: sent before the session is flushed."""
    if user is not None and getattr(user, "pk", None) is not None:
        session = getattr(request, "session", None)
        sign_out(user.pk, getattr(session, "session_key", None) or "")


def on_credentials_changed(sender: Any, user: Any, **kwargs: Any) -> None:
    """accounts.sessions.credentials_changed: a new password, or a deleted account."""
    sign_out(user.pk)

"""No error hides in the log (issue #24 item 12, issue #25 item 4): every message type the
channel layer carries has a handler on every socket that can receive it.

The site socket (/ws/me/) joined its account's user group without a handler for `talk.mutes`:
each block, unblock, mute or friend accept of the account dropped every tab with "No handler
for message type talk.mutes" in the log. Three checks: every type sent anywhere in games/ is
declared in broadcast.GROUP_MESSAGES (so a new one cannot be sent unseen); each consumer has a
handler for every type of the groups it joins; and a real site socket lives through each of
them, and through the block, accept and unfriend that send them, saying `friends`."""

from __future__ import annotations

import ast
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games.clubs import push
from games.live import broadcast
from games.live.consumers import RoomConsumer
from games.live.site_socket import SiteConsumer
from games.talk import blocks, friends, moderation
from tests.clubs.tournament_helpers import make_tournament
from tests.support.live import HOST, ORIGIN, _session_cookie

GAMES = Path(__file__).resolve().parents[2] / "games"
CONSUMERS = (RoomConsumer, SiteConsumer)


def _sent_types() -> dict[str, list[str]]:
    """Every `{"type": "a.b", ...}` dict display in games/: the channel layer's message types
    (a frame's type has no dot; the ASGI server's own `websocket.*` and `lifespan.*`
    messages are not the channel layer's)."""
    found: dict[str, list[str]] = {}
    for path in GAMES.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Dict):
                continue
            for key, value in zip(node.keys, node.values, strict=True):
                if (isinstance(key, ast.Constant) and key.value == "type"
                        and isinstance(value, ast.Constant) and isinstance(value.value, str)
                        and "." in value.value
                        and not value.value.startswith(("websocket.", "lifespan."))):
                    found.setdefault(value.value, []).append(
                        f"{path.relative_to(GAMES.parent)}:{node.lineno}")
    return found


def _declared() -> set[str]:
    return {t for kinds in (broadcast.GROUP_MESSAGES, broadcast.CHANNEL_MESSAGES)
            for types in kinds.values() for t in types}


def test_the_scan_finds_the_types_it_must() -> None:
    # The scan is not empty by accident: the types of both sockets' groups are in it.
    sent = _sent_types()
    assert {"table.update", "talk.mutes", "auth.revoke", "notices.changed",
            "layer.resync"} <= set(sent)


def test_every_message_type_sent_is_declared() -> None:
    undeclared = {t: where for t, where in _sent_types().items() if t not in _declared()}
    assert not undeclared, f"declare these in broadcast.GROUP_MESSAGES: {undeclared}"


@pytest.mark.parametrize("consumer", CONSUMERS, ids=lambda c: c.__name__)
def test_every_consumer_handles_every_type_of_its_groups(consumer: type) -> None:
    kinds: tuple[str, ...] = consumer.GROUP_KINDS  # type: ignore[attr-defined]
    assert kinds and set(kinds) <= set(broadcast.GROUP_MESSAGES)
    types = set(broadcast.CHANNEL_MESSAGES["any"])
    for kind in kinds:
        types |= broadcast.GROUP_MESSAGES[kind] | broadcast.CHANNEL_MESSAGES.get(kind, set())
    missing = sorted(t for t in types if not callable(
        getattr(consumer, get_handler_name({"type": t}), None)))
    assert not missing, f"{consumer.__name__} has no handler for {missing}"


def test_the_site_socket_joins_only_the_groups_it_declares() -> None:
    # The kinds GROUP_KINDS names are the groups connect() joins: notice_group_name and
    # user_group_name, whose names start with the kind.
    assert broadcast.notice_group_name(7).split(".")[0] == "notices"
    assert broadcast.user_group_name(7).split(".")[0] == "user"
    assert broadcast.group_name("abc", 0).split(".")[0] == "table"
    assert broadcast.tournament_group_name(7).split(".")[0] == "tournament"
    assert set(SiteConsumer.GROUP_KINDS) == {"notices", "user", "tournament"}


# The live part: a real site socket through the in-process ASGI application.

async def _site_tab(user: Any) -> WebsocketCommunicator:
    from troccas_site.asgi import application

    cookie = await sync_to_async(_session_cookie)(user)
    comm = WebsocketCommunicator(application, "/ws/me/", headers=[
        ORIGIN, HOST, (b"cookie", f"sessionid={cookie}".encode())])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    assert json.loads(await comm.receive_from(timeout=10))["type"] == "notices"
    return comm


async def _frames_until(comm: WebsocketCommunicator, wanted: str) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    while True:
        frame = json.loads(await comm.receive_from(timeout=10))
        seen.append(frame)
        if frame["type"] == wanted:
            return seen


async def _still_alive(comm: WebsocketCommunicator) -> None:
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    await _frames_until(comm, "pong")


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
@pytest.mark.asyncio
async def test_the_site_socket_lives_through_block_accept_mute_and_unfriend(
        owner: Any, players: list[Any]) -> None:
    anna, benedetg, _ = players
    tab = await _site_tab(anna)
    # Benedetg asks, Anna accepts: both are told their friends changed.
    await sync_to_async(friends.send_request)(benedetg, anna.pk)
    await sync_to_async(friends.accept)(anna, benedetg.pk)
    await _frames_until(tab, "friends")
    await _still_alive(tab)
    # A mute, an unfriend, a stranger's block and its unblock: the socket stays and says so.
    await sync_to_async(moderation.set_mute)(anna, owner.pk, True)
    await _frames_until(tab, "friends")
    await sync_to_async(friends.unfriend)(benedetg, anna.pk)
    await _frames_until(tab, "friends")
    await sync_to_async(blocks.block)(owner, anna.pk)
    await _frames_until(tab, "friends")
    await sync_to_async(blocks.unblock)(owner, anna.pk)
    await _frames_until(tab, "friends")
    await _still_alive(tab)
    await tab.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
@pytest.mark.asyncio
async def test_the_site_socket_handles_every_message_of_its_groups(players: list[Any]) -> None:
    anna = players[0]
    tab = await _site_tab(anna)
    layer = get_channel_layer()
    assert layer is not None
    # A page of an open tournament: the socket joins that tournament's group.
    later = timezone.now() + timedelta(hours=2)
    tournament = await sync_to_async(make_tournament)(anna, [], starts_at=later)
    await tab.send_to(text_data=json.dumps({"type": "watch", "tournament": tournament.pk}))
    await _frames_until(tab, "tournament")
    payloads: dict[str, dict[str, Any]] = {
        # auth.revoke of another session: this socket re-checks its own and stays.
        "auth.revoke": {"session": "not-this-one"},
        "notices.changed": {"frame": json.dumps({"type": "notices", "unread": 0})},
        "site.frame": {"frame": json.dumps({"type": "queue_left", "reason": "left"})},
        "tournament.changed": {"frame": json.dumps(push.frame(tournament.pk, "table"))},
    }
    groups = {"user": broadcast.user_group_name(anna.pk),
              "notices": broadcast.notice_group_name(anna.pk),
              "tournament": broadcast.tournament_group_name(tournament.pk)}
    for kind in SiteConsumer.GROUP_KINDS:
        for message_type in sorted(broadcast.GROUP_MESSAGES[kind]):
            await layer.group_send(groups[kind],
                                   {"type": message_type, **payloads.get(message_type, {})})
            await _still_alive(tab)
    await tab.disconnect()


def test_a_send_to_a_browser_already_gone_is_no_error() -> None:
    # uvicorn raises ClientDisconnected when a frame meets a socket the browser is closing
    # (seen in the browser tests' server log as "socket handler table.presence failed"): the
    # disconnect that follows cleans up, so the consumers drop it instead of logging an error.
    from games.live.socket_base import client_gone

    class ClientDisconnected(OSError):
        pass

    assert client_gone(ClientDisconnected())
    assert not client_gone(RuntimeError("a bug in a handler"))

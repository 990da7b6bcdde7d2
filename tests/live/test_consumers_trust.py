"""The websocket doors hold (issue #13, the outside probe's findings; docs/protocol.md §3, §4).

One test per gap, named after it: a sign-in that ends closes its sockets, and every frame
re-checks the session; forbidding spectators mid-match closes theirs; a deeply nested frame is a
coded refusal and a crashed handler still removes its socket's row; stale rows are purged; the
whole Origin is checked; an unknown path is refused cleanly; sockets per user are capped; an
anonymous socket learns nothing about room codes; a deleted player is "Former player" at the
table as on the pages.

Table: owner A/0, anna B/1, benedetg A/2, curdin B/3 (tests/personas.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.models import Session
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from games import services, tasks
from games.live import consumers
from games.models import Connection, Room
from games.services import presence
from tests import personas
from tests.support import tables
from tests.support.live import HOST, ORIGIN, TableClient

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(60)]

ROOT = Path(__file__).resolve().parents[2]
NEW_PASSWORD = "another-table-talk-9133"


# --- helpers -------------------------------------------------------------------------------

def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def _tab(user: Any, code: str, client: Client | None = None) -> tuple[TableClient, Client]:
    """A tab at the table on the session of `client` (a browser: its pages and its socket
    share one session), after its first state frame."""
    client = client or await sync_to_async(_signed_in)(user)
    tab = TableClient(user, code)
    from troccas_site.asgi import application

    cookie = client.cookies["sessionid"].value
    tab.comm = WebsocketCommunicator(application, f"/ws/rooms/{code}/?protocol=2", headers=[
        ORIGIN, HOST, (b"cookie", f"sessionid={cookie}".encode())])
    connected, _ = await tab.comm.connect(timeout=10)
    assert connected
    await tab.wait_for(lambda m: m["type"] == "state", timeout=10)
    return tab, client


async def _handshake(path: str, headers: list[tuple[bytes, bytes]]) -> tuple[bool, Any]:
    from troccas_site.asgi import application

    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=10)
    await comm.disconnect()
    return connected, code


async def _signed_out(tab: TableClient) -> None:
    error, close = await tables.refused(tab, timeout=5)
    assert error["code"] == "NOT_AUTHENTICATED" and error["message"].strip()
    assert close == 4401


async def _still_served(tab: TableClient) -> None:
    await tab.send_raw(json.dumps({"type": "ping"}))
    await tab.wait_for(lambda m: m["type"] == "pong", timeout=5)


@pytest.fixture
def room(owner: Any, players: list[Any]) -> Room:
    return tables.seat_table(owner, players)


def _rows(**filters: Any) -> int:
    """Open sockets' rows (a user's last socket leaves a closed row: the away clock)."""
    return Connection.objects.filter(closed_at__isnull=True, **filters).count()


# --- 1. a sign-in that ends closes its sockets ---------------------------------------------

async def test_logout_closes_the_sessions_sockets(room: Room, owner: Any) -> None:
    tab, client = await _tab(owner, room.code)
    elsewhere, _ = await _tab(owner, room.code)  # another browser, still signed in there
    response = await sync_to_async(client.post)(reverse("accounts:logout"))
    assert response.status_code == 302
    await _signed_out(tab)
    await _still_served(elsewhere)
    await elsewhere.close()
    assert await sync_to_async(_rows)(user=owner) == 0


async def test_logout_through_the_api_closes_the_sessions_sockets(room: Room, owner: Any
                                                                  ) -> None:
    tab, client = await _tab(owner, room.code)
    response = await sync_to_async(client.post)("/api/logout", "{}",
                                                content_type="application/json")
    assert response.status_code == 200
    await _signed_out(tab)


async def test_password_change_closes_the_users_sockets(room: Room, owner: Any,
                                                        password: str) -> None:
    tab, client = await _tab(owner, room.code)
    other, _ = await _tab(owner, room.code)
    response = await sync_to_async(client.post)(reverse("accounts:password_change"), {
        "old_password": password, "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD})
    assert response.status_code == 302, response.content
    await _signed_out(other)
    await _signed_out(tab)


async def test_account_deletion_closes_the_users_sockets(room: Room, players: list[Any],
                                                         password: str) -> None:
    anna = players[0]
    tab, client = await _tab(anna, room.code)
    other, _ = await _tab(anna, room.code)
    response = await sync_to_async(client.post)(reverse("accounts:delete"),
                                                {"password": password})
    assert response.status_code == 302
    await _signed_out(tab)
    await _signed_out(other)


async def test_every_frame_rechecks_that_the_session_still_holds(room: Room, owner: Any,
                                                                 players: list[Any]) -> None:
    """Nothing is announced here (rows changed behind the site's back): the next frame finds
    out - a deleted session, a changed password (auth hash), an inactive account."""
    anna, benedetg, curdin = players
    gone, client = await _tab(owner, room.code)
    await sync_to_async(Session.objects.filter(
        session_key=client.cookies["sessionid"].value).delete)()
    await gone.send("set_options", name="x")
    await _signed_out(gone)

    rehashed, _ = await _tab(anna, room.code)
    await _still_served(rehashed)
    await sync_to_async(User.objects.filter(pk=anna.pk).update)(
        password=make_password("changed-elsewhere-5521"))
    await rehashed.send_raw(json.dumps({"type": "ping"}))
    await _signed_out(rehashed)

    inactive, _ = await _tab(benedetg, room.code)
    await sync_to_async(User.objects.filter(pk=benedetg.pk).update)(is_active=False)
    await inactive.send_raw(json.dumps({"type": "sync"}))
    await _signed_out(inactive)

    fine, _ = await _tab(curdin, room.code)
    await _still_served(fine)
    await fine.close()
    assert await sync_to_async(_rows)(room=room) == 0


# --- 2. forbidding spectators mid-match closes theirs --------------------------------------

async def test_spectators_are_closed_when_forbidden_mid_match(room: Room, owner: Any,
                                                              players: list[Any],
                                                              spectator: Any) -> None:
    by_seat = personas.by_seat(owner, players)
    await sync_to_async(tables.advance)(room.code, by_seat, "DEALING")
    watcher, _ = await _tab(spectator, room.code)
    player, _ = await _tab(players[0], room.code)
    assert watcher.view is not None and watcher.view["seat"] is None
    await sync_to_async(tables.must)(room.code, owner, "set_options", allow_spectators=False)
    error, close = await tables.refused(watcher, timeout=5)
    assert error["code"] == "SPECTATORS_NOT_ALLOWED" and close == 4403
    # The players keep playing and see the new setting.
    update = await player.wait_for(lambda m: m["type"] == "state"
                                   and not m["view"]["room"]["allow_spectators"])
    assert update["view"]["seat"] == 1
    await player.close()


# --- 3. deep nesting, crashed handlers, stale rows -----------------------------------------

@pytest.mark.parametrize("frame", [
    "[" * 1000 + "]" * 1000,
    '{"type": "ping", "x": ' + "[" * 1000 + "]" * 1000 + "}",
    '{"type": "ping", "x": ' + '{"a": ' * 300 + "1" + "}" * 300 + "}",
], ids=["bare", "in a ping", "objects"])
async def test_deeply_nested_frame_is_malformed_not_a_crash(
        room: Room, players: list[Any], frame: str, caplog: pytest.LogCaptureFixture) -> None:
    tab, _ = await _tab(players[0], room.code)
    assert len(frame.encode()) <= 4096
    caplog.set_level(logging.WARNING)
    await tab.send_raw(frame)
    reply = await tab.wait_for(lambda m: m["type"] == "error", timeout=5)
    assert reply["code"] == "MALFORMED_MESSAGE" and reply["action_id"] is None
    await _still_served(tab)
    # Brackets inside strings are text, not nesting.
    await tab.send_raw(json.dumps({"type": "ping", "x": "[" * 1000}))
    await tab.wait_for(lambda m: m["type"] == "pong", timeout=5)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await tab.close()


@pytest.mark.allow_error_log("the handler is made to raise: its one log record is the point")
async def test_a_crashed_handler_still_removes_the_sockets_row(
        room: Room, players: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    tab, _ = await _tab(players[0], room.code)
    assert await sync_to_async(_rows)(user=players[0]) == 1

    def boom(frame: Any) -> Any:
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(consumers, "parse", boom)
    await tab.send_raw(json.dumps({"type": "ping"}))
    error, close = await tables.refused(tab, timeout=5)
    assert error["code"] == "SERVER_ERROR" and close == consumers.CLOSE_SERVER_ERROR
    assert await sync_to_async(_rows)(user=players[0]) == 0


def _stale_and_fresh(room: Room, user: Any) -> None:
    now = timezone.now()
    Connection.objects.create(room=room, user=user, channel_name="stale!1",
                              last_seen=now - presence.STALE_AFTER - timedelta(seconds=1))
    Connection.objects.create(room=room, user=user, channel_name="fresh!1", last_seen=now)


async def test_stale_connection_rows_are_purged_periodically(room: Room, owner: Any) -> None:
    await sync_to_async(_stale_and_fresh)(room, owner)
    # The distributed mode: a Celery beat entry and its task, calling the service.
    assert await sync_to_async(tasks.purge_connections_task)() == 1
    names = await sync_to_async(lambda: set(
        Connection.objects.values_list("channel_name", flat=True)))()
    assert names == {"fresh!1"}
    if settings.TROCCAS_MODE == "distributed":
        entry = settings.CELERY_BEAT_SCHEDULE["purge-connections"]
        assert entry["task"] == "games.purge_connections"
        return
    # The embedded mode: the in-process sweep loop purges as well.
    await sync_to_async(Connection.objects.filter(channel_name="fresh!1").delete)()
    await sync_to_async(_stale_and_fresh)(room, owner)
    with override_settings(TROCCAS_SWEEP_SECONDS=0.05, TROCCAS_CONNECTION_PURGE_SECONDS=0):
        tab, _ = await _tab(owner, room.code)  # starts the embedded loop
        for _ in range(100):
            if not await sync_to_async(
                    Connection.objects.filter(channel_name="stale!1").exists)():
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the embedded sweep loop did not purge the stale row")
        await tab.close()


# --- 4. the whole Origin ---------------------------------------------------------------------

@pytest.mark.parametrize("origin", [
    b"http://127.0.0.1:9000", b"https://127.0.0.1:8000", b"http://127.0.0.1",
    b"http://127.0.0.1:8001", b"http://127.0.0.1:8000.evil.example",
])
async def test_origin_check_compares_scheme_host_and_port(room: Room, owner: Any,
                                                          origin: bytes) -> None:
    cookie = (await sync_to_async(_signed_in)(owner)).cookies["sessionid"].value
    headers = [HOST, (b"cookie", f"sessionid={cookie}".encode())]
    connected, _ = await _handshake(f"/ws/rooms/{room.code}/", [(b"origin", origin), *headers])
    assert connected is False
    # No Origin at all, or an opaque one: refused as before (browsers always send one).
    for bare in ([], [(b"origin", b"null")]):
        connected, _ = await _handshake(f"/ws/rooms/{room.code}/", [*bare, *headers])
        assert connected is False
    # The site's own origin, and a configured trusted one on another name, get in.
    tab, _ = await _tab(owner, room.code)
    await tab.close()
    with override_settings(CSRF_TRUSTED_ORIGINS=[origin.decode()]):
        if origin != b"http://127.0.0.1:8000.evil.example":
            connected, _ = await _handshake(f"/ws/rooms/{room.code}/",
                                            [(b"origin", origin), *headers])
            assert connected is True


def _trusted_origins(tmp_path: Path, **extra: str) -> list[str]:
    """settings.CSRF_TRUSTED_ORIGINS of a fresh process (settings are read once per process)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL") and not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="troccas_site.settings", DJANGO_SECRET_KEY="x" * 50,
               TROCCAS_SQLITE_PATH=str(tmp_path / "probe.sqlite3"), **extra)
    probe = ("import django; django.setup(); from django.conf import settings; "
             "print(' '.join(settings.CSRF_TRUSTED_ORIGINS))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


async def test_origin_check_trusts_the_port_the_site_runs_on(tmp_path: Path) -> None:
    assert _trusted_origins(tmp_path, DJANGO_PORT="8300") == [
        "http://127.0.0.1:8300", "http://localhost:8300"]
    assert _trusted_origins(tmp_path) == ["http://127.0.0.1:8000", "http://localhost:8000"]
    # `make run PORT=8300` hands the port to the server's settings.
    dry = subprocess.run(["make", "-n", "run", "PORT=8300"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    server = [line for line in dry.stdout.replace("\\\n", " ").splitlines()
              if "uvicorn" in line]
    assert server and "DJANGO_PORT=8300" in server[0] and "--port 8300" in server[0]


# --- 5. unknown paths ----------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/ws/nowhere/", "/ws/rooms/UPPER/", "/ws/rooms/ab/", "/"])
async def test_unknown_websocket_path_is_refused_cleanly(
        owner: Any, path: str, caplog: pytest.LogCaptureFixture) -> None:
    cookie = (await sync_to_async(_signed_in)(owner)).cookies["sessionid"].value
    caplog.set_level(logging.WARNING)
    connected, code = await _handshake(path, [ORIGIN, HOST,
                                              (b"cookie", f"sessionid={cookie}".encode())])
    assert connected is False
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# --- 6. sockets per user -------------------------------------------------------------------

def _fake_rows(user: Any, rooms: list[Room], per_room: int, *, stale: bool = False) -> None:
    seen = timezone.now() - (presence.STALE_AFTER + timedelta(seconds=5) if stale
                             else timedelta(0))
    Connection.objects.bulk_create(
        Connection(room=r, user=user, channel_name=f"elsewhere!{r.pk}.{i}.{stale}",
                   last_seen=seen)
        for r in rooms for i in range(per_room))


async def test_sockets_per_user_are_capped(room: Room, owner: Any, outsider: Any) -> None:
    per_room, overall = presence.MAX_SOCKETS_PER_ROOM, presence.MAX_SOCKETS_PER_USER
    assert (per_room, overall) == (8, 20)
    # Rows of sockets served by any process count: per_room - 1 open here, one more is fine.
    await sync_to_async(_fake_rows)(outsider, [room], per_room - 1)
    await sync_to_async(_fake_rows)(outsider, [room], 30, stale=True)  # a dead process's
    last, _ = await _tab(outsider, room.code)
    extra = TableClient(outsider, room.code)
    assert await extra.connect()
    error, close = await tables.refused(extra, timeout=5)
    assert error["code"] == "TOO_MANY_SOCKETS" and error["message"].strip()
    assert close == 4429
    assert await sync_to_async(_rows)(user=outsider, room=room) == per_room + 30
    # Across rooms: `overall` in all.
    others = [await sync_to_async(services.create_room)(owner) for _ in range(2)]
    await sync_to_async(_fake_rows)(outsider, others[:1], overall - per_room)
    elsewhere = TableClient(outsider, others[1].code)
    assert await elsewhere.connect()
    error, close = await tables.refused(elsewhere, timeout=5)
    assert error["code"] == "TOO_MANY_SOCKETS" and close == 4429
    await last.close()


# --- 7. no room-code oracle ----------------------------------------------------------------

async def test_anonymous_socket_gets_the_same_refusal_for_any_code(room: Room) -> None:
    answers = []
    for code in (room.code, "zzzz9997"):
        tab = TableClient(None, code, "anonymous")
        assert await tab.connect(user=None)
        error, close = await tables.refused(tab, timeout=5)
        answers.append((error["code"], error["message"], close, [f["type"] for f in tab.frames]))
    assert answers[0] == answers[1]
    assert answers[0][0] == "NOT_AUTHENTICATED" and answers[0][2] == 4401


# --- 8. deleted players' names -------------------------------------------------------------

async def test_deleted_player_shows_as_former_player_at_the_table(
        room: Room, owner: Any, players: list[Any], make_user: Any) -> None:
    anna = players[0]
    await sync_to_async(anna.anonymise)()
    with translation.override("en"):
        page_name = anna.public_name
        snap = await sync_to_async(services.table_snapshot)(room.code)
    assert page_name == "Former player"
    names = {s.user_id: s.name for s in snap.seats}
    assert names[anna.pk] == page_name
    tab, _ = await _tab(owner, room.code)
    seat = next(s for s in tab.view["seats"] if s["player"]["id"] == anna.pk)
    assert seat["player"]["name"] == page_name
    assert f"deleted-{anna.pk}" not in json.dumps(tab.frames)
    await tab.close()
    # A deleted owner without a seat is named the same way in the room's header.
    ghost = await sync_to_async(make_user)("ghost")
    await sync_to_async(ghost.anonymise)()
    await sync_to_async(Room.objects.filter(pk=room.pk).update)(owner=ghost)
    with translation.override("en"):
        snap = await sync_to_async(services.table_snapshot)(room.code)
    assert snap.room["owner"]["name"] == "Former player"

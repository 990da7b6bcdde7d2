"""Clients of real servers for the multi-process tests (started by tests/support/servers.py):
a `Player`, one browser tab's websocket to a `Server` with a session cookie made in the test
database, keeping every frame it receives in order."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable
from typing import Any

import websockets
from django.test import Client
from websockets.asyncio.client import ClientConnection

from tests.support.servers import Server

WAIT = 10.0


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Player:
    """One browser tab: a websocket to one server, every frame it receives kept in order."""

    def __init__(self, name: str, user: Any, cookie: str, code: str) -> None:
        self.name = name
        self.user = user
        self.cookie = cookie
        self.code = code
        self.frames: list[dict[str, Any]] = []
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.server: Server | None = None

    async def connect(self, server: Server) -> dict[str, Any]:
        """Open a socket to `server`; returns the full view it sends first."""
        self.server = server
        start = len(self.frames)
        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{server.port}/ws/rooms/{self.code}/?protocol=2",
            origin=f"http://127.0.0.1:{server.port}",
            additional_headers={"Cookie": f"sessionid={self.cookie}"},
            proxy=None, open_timeout=WAIT,
        )
        self.reader = asyncio.create_task(self._read(self.ws))
        return await self.wait_for(lambda f: f["type"] == "state", since=start)

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                frame = json.loads(raw)
                self.frames.append(frame)
                if frame["type"] == "state" and frame["version"] >= self.version:
                    self.version, self.view = frame["version"], frame["view"]
        except websockets.ConnectionClosed:
            pass

    async def wait_closed(self) -> None:
        assert self.reader is not None
        await asyncio.wait_for(asyncio.shield(self.reader), WAIT)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()

    async def wait_for(self, pred: Callable[[dict[str, Any]], bool], since: int = 0,
                       timeout: float = WAIT) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            for frame in self.frames[since:]:
                if pred(frame):
                    return frame
            if loop.time() > end:
                raise AssertionError(f"{self.name}: no matching frame in {self.frames[since:]}")
            await asyncio.sleep(0.02)

    async def send(self, kind: str, **fields: Any) -> int:
        """Send a command at the version this tab shows; returns the acknowledged version."""
        assert self.ws is not None
        action_id = uuid.uuid4().hex
        since = len(self.frames)
        await self.ws.send(json.dumps({"type": kind, "action_id": action_id,
                                       "expected_version": self.version, **fields}))
        reply = await self.wait_for(
            lambda f: f.get("action_id") == action_id and f["type"] in ("ack", "error"), since)
        assert reply["type"] == "ack" and not reply["duplicate"], (self.name, kind, reply)
        return reply["version"]

    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "error"]

"""Test helpers for live tables: websocket clients with real session cookies."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.engine import CARD_IDS

CARD_SET = frozenset(CARD_IDS)
ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")


def _session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def cards_in(obj: Any) -> set[str]:
    """Every card id that appears as a string value anywhere in a JSON value."""
    found: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in CARD_SET:
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(k for k in item if isinstance(k, str))
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


class TableClient:
    """One browser tab at a table: sends commands, collects every frame it receives."""

    def __init__(self, user: Any, code: str, name: str = "") -> None:
        self.user = user
        self.code = code
        self.name = name or user.username
        self.frames: list[dict[str, Any]] = []
        self.comm: WebsocketCommunicator | None = None
        self.view: dict[str, Any] | None = None
        self.version = -1

    async def connect(self, application: Any = None, user: Any = "same",
                      query: str = "?protocol=2") -> bool:
        """Open the socket; `query` names the protocol version (docs/protocol.md §3)."""
        from troccas_site.asgi import application as app

        headers = [ORIGIN, HOST]
        who = self.user if user == "same" else user
        if who is not None:
            cookie = await sync_to_async(_session_cookie)(who)
            headers.append((b"cookie", f"sessionid={cookie}".encode()))
        self.comm = WebsocketCommunicator(application or app, f"/ws/rooms/{self.code}/{query}",
                                          headers=headers)
        connected, _ = await self.comm.connect(timeout=10)
        return connected

    async def close(self) -> None:
        if self.comm is not None:
            await self.comm.disconnect(timeout=5)
            self.comm = None

    async def send(self, type_: str, expected_version: int | None = None,
                   action_id: str | None = None, **fields: Any) -> str:
        assert self.comm is not None
        action_id = action_id or uuid.uuid4().hex
        msg = {"type": type_, "action_id": action_id,
               "expected_version": self.version if expected_version is None
               else expected_version, **fields}
        await self.comm.send_to(text_data=json.dumps(msg))
        return action_id

    async def send_raw(self, text: str) -> None:
        assert self.comm is not None
        await self.comm.send_to(text_data=text)

    async def receive(self, timeout: float = 5) -> dict[str, Any]:
        assert self.comm is not None
        raw = await self.comm.receive_from(timeout=timeout)
        msg = json.loads(raw)
        self.frames.append(msg)
        if msg["type"] == "state" and msg["version"] >= self.version:
            self.version = msg["version"]
            self.view = msg["view"]
        return msg

    async def drain(self, quiet: float = 0.05) -> list[dict[str, Any]]:
        """Every frame until the socket has been quiet for `quiet` seconds."""
        out = []
        assert self.comm is not None
        while True:
            try:
                if await self.comm.receive_nothing(timeout=quiet, interval=0.01):
                    return out
            except AssertionError:  # pragma: no cover - receive_nothing raced a frame
                pass
            out.append(await self.receive())

    async def wait_for(self, pred: Any, timeout: float = 5) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            remaining = end - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"{self.name}: no matching frame")
            msg = await self.receive(timeout=remaining)
            if pred(msg):
                return msg

    async def wait_version(self, version: int, timeout: float = 5) -> dict[str, Any]:
        return await self.wait_for(
            lambda m: m["type"] == "state" and m["version"] >= version, timeout)

"""uvicorn's HTTP protocols with a deadline for receiving a request (issue #25 item 14).

uvicorn has no request-header timeout: `--timeout-keep-alive` is armed only after a response,
and every byte received cancels it, so a client that opens a connection and sends half a
request line (or trickles one byte at a time) holds it for ever. These subclasses arm a
deadline when a connection opens and again when a response completes; the request must be
received whole (headers and body) before it expires, else the connection is closed. It is
disarmed as soon as the request is complete, so a slow response is never cut, and on a
websocket upgrade, so an open socket lives on. The httptools one also caps the size of a
request's headers (h11 has `--h11-max-incomplete-event-size`).

Started as `uvicorn --http troccas_site.http_protocol:RequestDeadlineProtocol`; the deadline
is TROCCAS_REQUEST_TIMEOUT seconds (10), the header cap TROCCAS_MAX_HEADER_BYTES (16 KiB).
Nothing of Django here: uvicorn imports this before the application.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT = float(os.environ.get("TROCCAS_REQUEST_TIMEOUT", "") or 10)
MAX_HEADER_BYTES = int(os.environ.get("TROCCAS_MAX_HEADER_BYTES", "") or 16384)


class _Deadline:
    """The deadline's timer; mixed into both protocols (their `loop` and `transport`)."""

    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    _deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(REQUEST_TIMEOUT, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    # First in each protocol's bases, so `super()` is uvicorn's protocol.
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvicorn's protocols take an asyncio.Transport, which is what asyncio hands them.
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def _expired(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


class DeadlineH11Protocol(_Deadline, H11Protocol):
    def handle_events(self) -> None:
        super().handle_events()
        # DONE: the request is all in; SWITCHED_PROTOCOL: a websocket took the connection.
        if self.conn.their_state in (h11.DONE, h11.SWITCHED_PROTOCOL) or \
                self.transport.is_closing():
            self._disarm()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # no httptools: h11 alone, as uvicorn's "auto" would choose
    RequestDeadlineProtocol: type[asyncio.Protocol] = DeadlineH11Protocol
else:
    class DeadlineHttpToolsProtocol(_Deadline, HttpToolsProtocol):
        _header_bytes = 0
        _in_headers = True

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._in_headers and not self.transport.is_closing():
                self._header_bytes += len(data)
                if self._header_bytes > MAX_HEADER_BYTES:
                    self._disarm()
                    self.send_400_response("Request headers too large.")

        def on_headers_complete(self) -> None:
            self._in_headers = False
            self._header_bytes = 0
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._disarm()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            super().handle_websocket_upgrade()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and not self.pipeline:
                self._in_headers = True
                self._arm()

    RequestDeadlineProtocol = DeadlineHttpToolsProtocol

__all__ = ["DeadlineH11Protocol", "RequestDeadlineProtocol"]

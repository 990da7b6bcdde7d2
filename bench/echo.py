"""A bare websocket echo, for benchmarks only (bench/ws_load.py, docs/operations.md).

Mounted at /ws/echo/ by games/live/routing.py only when settings.TROCCAS_BENCH_ECHO is on
(environment TROCCAS_BENCH_ECHO=1); off by default, so a production site never serves it. It
sits behind the same origin check and session middleware as the table sockets and touches
neither the database nor the channel layer: its round trip is the floor that the table's
latency is compared with.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer

# The same frame cap as the table protocol: an echo must not become an amplifier.
MAX_ECHO_BYTES = 4096


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None
                      ) -> None:
        if text_data is not None and len(text_data) <= MAX_ECHO_BYTES:
            await self.send(text_data=text_data)

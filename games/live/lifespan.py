"""The ASGI lifespan of the site's process (troccas_site/asgi.py): in the embedded mode the
in-process timers and the bots' pool start with the server.

They were started by the first table socket alone (RoomConsumer.connect), which is still
their start under a server that sends no lifespan events. But the embedded sweep does more
than a table's deadlines: it starts tournaments and their rounds, expires Find a game's waits
and purges stale presence rows — work that no table socket may be there to start: on a fresh
server a tournament whose start had come waited for somebody to open a table.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.live import bot_pool, timer_loop
from games.live.socket_base import Receive, Send


async def lifespan(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    """Answer the server's lifespan messages; start the embedded timers at its start."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            if settings.TROCCAS_MODE == "embedded":
                timer_loop.embedded.ensure_started()
                bot_pool.embedded.ensure_started()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return

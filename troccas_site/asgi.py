"""ASGI entry point: HTTP through Django, websockets through Channels.

Static files are served by WhiteNoise's middleware inside the Django HTTP app, so a single
``uvicorn troccas_site.asgi:application`` is the whole embedded site.
"""

from __future__ import annotations

import gc
import os
import sys
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troccas_site.settings")

# WhiteNoise streams static files through a synchronous file iterator; Django's ASGI handler
# consumes it in a worker thread, which is correct, and warns about it on every process start.
warnings.filterwarnings(
    "ignore",
    message="StreamingHttpResponse must consume synchronous iterators",
    category=Warning,
    module="django.core.handlers.asgi",
)

# The event loop shares the GIL with the threads that run database calls. Each of a table
# action's statements gives the GIL up while it waits for the database, and taking it back from
# a busy loop thread waits out the whole switch interval (5 ms by default), several times per
# action: at 200 tables on two processes that convoy made most of the p99 (bench/ws_load.py).
sys.setswitchinterval(float(os.environ.get("TROCCAS_GIL_SWITCH_INTERVAL", "0.001")))

# Django must be set up before anything imports models (consumers do, through routing).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402
from django.urls import re_path  # noqa: E402

from games.live.lifespan import lifespan  # noqa: E402
from games.live.origin import OriginValidator  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The server's start and stop: the embedded mode's timers start with it.
        "lifespan": lifespan,
        # The whole Origin (scheme, host, port) must be the site's own or a trusted one
        # (cross-site websocket hijacking; games/live/origin.py), then the session cookie
        # authenticates the socket exactly like a page request.
        "websocket": OriginValidator(
            AuthMiddlewareStack(URLRouter([
                *websocket_urlpatterns,
                # Any other path is refused at the handshake (closed before accepting: HTTP
                # 403), not left to URLRouter's "No route found" (a 500 and a traceback).
                re_path(r"", WebsocketDenier.as_asgi()),
            ]))
        ),
    }
)

# Everything imported so far (Django, the app, the engine tables) lives as long as the process:
# moved out of the collector's way, a full collection no longer walks it on every pass, which
# was a pause of its own in the tail of a busy process's latencies (bench/ws_load.py).
gc.freeze()

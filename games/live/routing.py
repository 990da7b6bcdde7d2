"""Websocket routes, mounted by troccas_site.asgi under the origin check and session auth."""

from __future__ import annotations

from django.conf import settings
from django.urls import URLPattern, re_path
from django.utils.module_loading import import_string

from games.live.consumers import RoomConsumer
from games.live.site_socket import SiteConsumer

websocket_urlpatterns: list[URLPattern] = [
    # Channels' URLRouter takes Django's patterns with an ASGI application in the view's place.
    re_path(r"^ws/rooms/(?P<code>[a-z0-9]{4,16})/$",
            RoomConsumer.as_asgi()),  # type: ignore[arg-type]  # an ASGI app, not a view
    re_path(r"^ws/me/$", SiteConsumer.as_asgi()),  # type: ignore[arg-type]  # as above
]

if settings.TROCCAS_BENCH_ECHO:
    # Benchmark only (bench/ws_load.py): a bare echo to compare the table's latency with. It
    # lives with the benchmarks, not in the product, and is loaded by name only when asked for.
    echo = import_string("bench.echo.EchoConsumer")
    websocket_urlpatterns.append(re_path(r"^ws/echo/$", echo.as_asgi()))

"""The benchmark echo (/ws/echo/, bench/ws_load.py) exists only when TROCCAS_BENCH_ECHO is on."""

from __future__ import annotations

import importlib

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import override_settings

import games.live.routing

# Channels closes stale database connections around every consumer event, even the echo's.
pytestmark = pytest.mark.django_db(transaction=True)


def _patterns() -> list[str]:
    return [p.pattern.regex.pattern for p in games.live.routing.websocket_urlpatterns]


def test_echo_route_is_absent_by_default() -> None:
    assert settings.TROCCAS_BENCH_ECHO is False
    assert not any("echo" in p for p in _patterns())


@pytest.mark.asyncio
async def test_unrouted_echo_is_refused_by_default() -> None:
    comm = WebsocketCommunicator(URLRouter(games.live.routing.websocket_urlpatterns), "/ws/echo/")
    with pytest.raises(ValueError, match="No route found"):
        await comm.connect(timeout=5)


@pytest.mark.asyncio
async def test_echo_route_when_the_bench_setting_is_on() -> None:
    try:
        with override_settings(TROCCAS_BENCH_ECHO=True):
            importlib.reload(games.live.routing)
            assert any("echo" in p for p in _patterns())
            comm = WebsocketCommunicator(URLRouter(games.live.routing.websocket_urlpatterns),
                                         "/ws/echo/")
            connected, _ = await comm.connect(timeout=5)
            assert connected
            await comm.send_to(text_data='{"t": 1}')
            assert await comm.receive_from(timeout=5) == '{"t": 1}'
            await comm.send_to(text_data="x" * 5000)  # over the cap: not echoed
            assert await comm.receive_nothing(timeout=0.2)
            await comm.disconnect()
    finally:
        importlib.reload(games.live.routing)
    assert not any("echo" in p for p in _patterns())

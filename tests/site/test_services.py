"""The configured cache, channel layer and Celery app work in the mode this run is in
(LocMem / in-memory / no broker embedded; Redis and PostgreSQL in the distributed run)."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command

from troccas_site.celery import app


def test_cache_round_trip():
    key = f"probe:{secrets.token_hex(8)}"
    cache.set(key, {"v": 1}, timeout=30)
    assert cache.get(key) == {"v": 1}
    assert cache.add(f"{key}:n", 0, timeout=30) is True
    assert cache.incr(f"{key}:n") == 1
    assert cache.add(f"{key}:n", 0, timeout=30) is False
    cache.delete(key)
    assert cache.get(key) is None


def test_channel_layer_round_trip():
    layer = get_channel_layer()

    # On one event loop, as a server's sockets are: the Redis layer listens to a group's
    # publications on the loop its members receive on (games/live/channel_layer.py).
    async def round_trip() -> dict:
        channel = await layer.new_channel()
        group = f"probe-{secrets.token_hex(4)}"
        receiving = asyncio.ensure_future(layer.receive(channel))
        await layer.group_add(group, channel)
        await layer.group_send(group, {"type": "probe.message", "n": 7})
        message = await asyncio.wait_for(receiving, 10)
        await layer.group_discard(group, channel)
        return message

    assert async_to_sync(round_trip)() == {"type": "probe.message", "n": 7}


def test_celery_app_is_configured_from_django_settings():
    assert app.main == "troccas"
    assert app.conf.broker_url == settings.CELERY_BROKER_URL
    assert app.conf.task_acks_late is True
    assert app.conf.task_serializer == "json"
    visibility = app.conf.broker_transport_options["visibility_timeout"]
    assert visibility >= 10 * settings.TROCCAS_LONGEST_COUNTDOWN_SECONDS


@pytest.mark.skipif(settings.TROCCAS_MODE != "distributed", reason="needs the Redis broker")
@pytest.mark.timeout(30)
def test_the_broker_is_reachable():
    with app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=3)
        assert connection.connected


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration():
    # Raises SystemExit(1) if makemigrations would write anything.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)

"""The site's process starts its embedded timers with the server (the ASGI lifespan,
games/live/lifespan.py): a tournament whose start has come starts by itself on a fresh server,
before anybody opened a table's socket (which used to be the timers' only start)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import override_settings

from games.live import bot_pool, timer_loop
from games.models import Tournament, TournamentStatus
from tests.clubs.tournament_helpers import make_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60),
              pytest.mark.asyncio]


def _status(tournament: Tournament) -> str:
    return str(Tournament.objects.get(pk=tournament.pk).status)


def _lifespan(messages: list[str]) -> tuple[list[str], asyncio.Future[None]]:
    """Run the application's lifespan through `messages`: what it answers, and its run."""
    from troccas_site.asgi import application

    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    for message in messages:
        inbox.put_nowait({"type": message})
    answers: list[str] = []

    async def send(message: dict[str, Any]) -> None:
        answers.append(message["type"])

    return answers, asyncio.ensure_future(application({"type": "lifespan"}, inbox.get, send))


@pytest.mark.skipif(settings.TROCCAS_MODE != "embedded", reason="the embedded timer loop")
@override_settings(TROCCAS_SWEEP_SECONDS=0.2, TROCCAS_TOURNAMENT_SWEEP_SECONDS=0.2)
async def test_the_server_start_starts_the_sweep_that_starts_a_tournament(
        owner: Any, make_user: Callable[..., Any]) -> None:
    people = [await sync_to_async(make_user)(n) for n in ("mengia", "gion", "ursina", "flurin")]
    tournament = await sync_to_async(make_tournament)(owner, people)
    timer_loop.embedded.sweeper = None
    answers, run = _lifespan(["lifespan.startup", "lifespan.shutdown"])
    try:
        await asyncio.wait_for(run, timeout=10)
        assert answers == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
        end = time.monotonic() + 30
        while await sync_to_async(_status)(tournament) == TournamentStatus.REGISTRATION:
            assert time.monotonic() < end, "the server's sweep never started the tournament"
            await asyncio.sleep(0.2)
        assert await sync_to_async(_status)(tournament) == TournamentStatus.RUNNING
    finally:
        if timer_loop.embedded.sweeper is not None:
            timer_loop.embedded.sweeper.cancel()
        bot_pool.embedded.stop()


async def test_the_lifespan_answers_in_every_mode() -> None:
    answers, run = _lifespan(["lifespan.startup", "lifespan.shutdown"])
    try:
        await asyncio.wait_for(run, timeout=10)
    finally:
        if settings.TROCCAS_MODE == "embedded":
            if timer_loop.embedded.sweeper is not None:
                timer_loop.embedded.sweeper.cancel()
            bot_pool.embedded.stop()
    assert answers == ["lifespan.startup.complete", "lifespan.shutdown.complete"]

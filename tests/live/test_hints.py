"""A hint over the table's socket (issue #28 item 2, docs/protocol.md): asked for with `hint`,
computed by a bot runner, answered to the asking socket alone — in the embedded mode on the bot
threads, in the distributed mode by the Celery task (run here in-process: the task's body is
the same function a worker calls). Refused, translated, where a result counts."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import override_settings

from games import services, tasks
from games.engine.state import SCART
from games.live import bot_pool
from games.teaching import hints
from tests.support import tables

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(60)]


def _practice_at_scart(owner: Any) -> str:
    room = services.create_practice_table(owner, "easy")
    for _ in range(3):
        tables.must(room.code, owner, "deal_next_pass")
    tables.expire_deadline(room.code)
    assert services.sweep_deadlines() == 1
    assert tables.phase(room.code) == SCART
    return room.code


@override_settings(TROCCAS_HINT_BUDGET_MS=20)
async def test_a_hint_reaches_the_asking_socket_alone(owner: Any, monkeypatch: Any) -> None:
    code = await sync_to_async(_practice_at_scart)(owner)
    asking = await tables.open_tab(owner, code)
    other = await tables.open_tab(owner, code)  # a second tab of the same person
    sent: list[tuple[Any, ...]] = []
    if settings.TROCCAS_MODE == "distributed":
        # The consumer sends the task by name, ids only; the worker's body runs here.
        monkeypatch.setattr(hints, "enqueue", lambda *args: sent.append(args))
    else:
        bot_pool.embedded.ensure_started()
    try:
        await asking.send("hint", action_id="h1")
        if settings.TROCCAS_MODE == "distributed":
            for _ in range(100):  # the consumer reads the frame on its own task
                if sent:
                    break
                await asyncio.sleep(0.05)
            job, channel, action_id = sent[0]
            assert (job.code, job.user_id, action_id) == (code, owner.pk, "h1")
            await sync_to_async(tasks.hint_task)(job.code, job.user_id, job.version, channel,
                                                 action_id)
        frame = await asking.wait_for(lambda m: m["type"] == "hint", timeout=20)
        assert frame["action_id"] == "h1" and frame["kind"] == "scart"
        assert frame["version"] == asking.version
        hand = set(asking.view["hand"]) if asking.view else set()
        for option in frame["options"]:
            assert set(option["cards"]) <= hand
        assert [m for m in await other.drain(quiet=0.3) if m["type"] == "hint"] == []
    finally:
        await asking.close()
        await other.close()
        if settings.TROCCAS_MODE != "distributed":
            bot_pool.embedded.stop()


async def test_a_hint_where_people_play_is_refused_with_its_sentence(
        owner: Any, players: list[Any]) -> None:
    room = await sync_to_async(tables.seat_table)(owner, players)
    await sync_to_async(tables.advance)(
        room.code, {0: owner, 1: players[0], 2: players[1], 3: players[2]}, SCART)
    tab = await tables.open_tab(owner, room.code)
    try:
        await tab.send("hint", action_id="h2")
        error = await tables.answer(tab, "h2")
        assert error["type"] == "error" and error["code"] == "HINT_NOT_ALLOWED"
        assert "practice" in error["message"]
    finally:
        await tab.close()


async def test_a_hint_frame_without_action_id_is_refused(owner: Any) -> None:
    code = await sync_to_async(_practice_at_scart)(owner)
    tab = await tables.open_tab(owner, code)
    try:
        await tab.send_raw('{"type": "hint"}')
        error = await tab.wait_for(lambda m: m["type"] == "error")
        assert error["code"] == "MISSING_FIELD"
    finally:
        await tab.close()

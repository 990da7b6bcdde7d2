"""Where bots run (issue #15 item 4): four bots finish a whole match unattended — in the
embedded mode on the process's worker threads (and the in-process timers), in the distributed
mode on a real Celery worker woken on commit — and the deadline sweep wakes a lost bot turn.

The table: the owner and a partner, both away for an hour (bots stand in for them after the
grace period), two seated bots, and a person watching (stand-ins start a deal only while a
person is at the room, issue #25 item 1; a table of one person and three bots would wait for
its person, issue #24 item 2). Nobody acts after the owner starts the match.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import timezone

from games import services
from games.live import bot_pool, timer_loop
from games.models import Match, RoundAction
from games.services.bots import wakeups as bot_wakeups
from tests.support import bots as helpers
from tests.support import tables
from tests.support.servers import Proc, Processes, requires_distributed_postgres

# Reserved for this module's worker: flushed before and after each test.
REDIS_INDEX = 11
# A whole match of bots: 4 deals, each with its 2 s reveal window; generous for a slow machine.
MATCH_BOUND = 150.0

embedded_only = pytest.mark.skipif(settings.TROCCAS_MODE != "embedded",
                                   reason="the embedded mode's worker threads")


WATCHER = "a-person-watching"


def _bot_table(owner: Any, players: list[Any]) -> str:
    code = services.create_room(owner, {"match_deals": 4, "reveal_seconds": 2}).code
    tables.must(code, players[0], "take_seat", team="A")  # seat 2
    helpers.seat_bots(code, owner, "easy", (1, 3))
    helpers.away(owner, code, 3600)
    helpers.away(players[0], code, 3600)
    services.connect(code, players[1], WATCHER)
    return code


def _watching() -> None:
    """The watcher's heartbeat: its socket stays live however long the match takes."""
    services.touch(WATCHER)


def _finished(code: str) -> Match | None:
    m = helpers.current_match(code)
    return m if m is not None and m.status == "finished" else None


def _check_unattended(code: str, owner: Any) -> None:
    match = _finished(code)
    assert match is not None and match.deals_played == 4 and not match.rated
    # After the owner's start, every action was a bot's or a timer's.
    people = RoundAction.objects.filter(round__match=match, actor__is_bot=False)
    assert list(people.values_list("kind", flat=True)) == ["start_round"]
    assert RoundAction.objects.filter(round__match=match, kind="play_card",
                                      actor__is_bot=True).count() == 4 * 19 * 4


@embedded_only
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(MATCH_BOUND + 30)
async def test_four_bots_finish_a_match_on_the_embedded_worker_threads(
        owner: Any, players: list[Any]) -> None:
    code = await sync_to_async(_bot_table)(owner, players)
    # What the ASGI process does on its first websocket.
    timer_loop.embedded.ensure_started()
    bot_pool.embedded.ensure_started()
    try:
        await sync_to_async(tables.must)(code, owner, "start_round")
        end = time.monotonic() + MATCH_BOUND
        while await sync_to_async(_finished)(code) is None:
            assert time.monotonic() < end, await sync_to_async(tables.phase)(code)
            await sync_to_async(_watching)()
            await _sleep(0.2)
    finally:
        bot_pool.embedded.stop()
        if timer_loop.embedded.sweeper is not None:
            timer_loop.embedded.sweeper.cancel()
    await sync_to_async(_check_unattended)(code, owner)


async def _sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


@pytest.fixture
def worker(server_procs: Processes) -> Callable[[], Proc]:
    return server_procs.worker


@requires_distributed_postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(MATCH_BOUND + 90)
def test_four_bots_finish_a_match_on_a_celery_worker(owner: Any, players: list[Any],
                                                     worker: Callable[[], Proc]) -> None:
    proc = worker()
    code = _bot_table(owner, players)
    tables.must(code, owner, "start_round")
    end = time.monotonic() + MATCH_BOUND
    while _finished(code) is None:
        assert time.monotonic() < end, (tables.phase(code), proc.output()[-3000:])
        _watching()
        time.sleep(0.3)
    _check_unattended(code, owner)
    assert "games.bot_turn" in proc.output()


# --- the pause (issue #24 item 14, issue #25 item 11) -------------------------------------------

# Bot moves to check: the first deal's passes and discard, then cards (the reveal window
# between them is the timer's, 2 s).
PACED_MOVES = 16
PACE_SETTINGS = {"TROCCAS_BOT_PAUSE_SCALE": 0.35, "TROCCAS_BOT_BUDGET_MS": 150}


def _paced(settings: Any) -> None:
    for name, value in PACE_SETTINGS.items():
        setattr(settings, name, value)


def _bot_moves(code: str) -> list[RoundAction]:
    """The deal's log (the lobby's rows before it have no deal)."""
    return list(RoundAction.objects.filter(room__code=code, round__isnull=False)
                .select_related("actor", "round").order_by("version"))


def _check_paced(code: str) -> None:
    """Every bot move reached the table no sooner than its pause after the action before
    it. Only that bound is asserted: how much later a move comes is the machine's load (a
    busy 2-core machine delayed one by more than 2 s), and tests never assert on time."""
    from games.services.bots import pace

    rows = _bot_moves(code)
    checked = 0
    for before, row in zip(rows, rows[1:], strict=False):
        if row.actor_id is None or not row.actor.is_bot or row.round_id != before.round_id:
            continue
        assert before.sequence is not None and row.round is not None
        pause = pace.pause_seconds("normal", row.round.match_id, row.round.number,
                                   before.sequence)
        gap = (row.created - before.created).total_seconds()
        assert gap >= pause - 0.002, (row.kind, gap, pause)
        checked += 1
    assert checked >= PACED_MOVES - 2, [(r.kind, r.actor_id) for r in rows]


@embedded_only
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(90)
async def test_the_embedded_workers_hold_each_bot_move_until_its_pause_is_over(
        owner: Any, players: list[Any], settings: Any) -> None:
    _paced(settings)
    code = await sync_to_async(_bot_table)(owner, players)
    timer_loop.embedded.ensure_started()  # the reveal window's end
    bot_pool.embedded.ensure_started()
    try:
        await sync_to_async(tables.must)(code, owner, "start_round")
        end = time.monotonic() + 60
        while len(await sync_to_async(_bot_moves)(code)) < PACED_MOVES + 1:
            assert time.monotonic() < end, await sync_to_async(tables.phase)(code)
            await sync_to_async(_watching)()
            await _sleep(0.2)
    finally:
        bot_pool.embedded.stop()
        if timer_loop.embedded.sweeper is not None:
            timer_loop.embedded.sweeper.cancel()
    await sync_to_async(_check_paced)(code)


@requires_distributed_postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(150)
def test_a_celery_worker_holds_each_bot_move_until_its_pause_is_over(
        owner: Any, players: list[Any], settings: Any, server_procs: Processes) -> None:
    _paced(settings)  # the writer here schedules the first wake-up; the worker the others
    server_procs.env.update({name: str(value) for name, value in PACE_SETTINGS.items()})
    proc = server_procs.worker()
    code = _bot_table(owner, players)
    tables.must(code, owner, "start_round")
    end = time.monotonic() + 120
    while len(_bot_moves(code)) < PACED_MOVES + 1:
        assert time.monotonic() < end, (tables.phase(code), proc.output()[-3000:])
        _watching()
        time.sleep(0.2)
    _check_paced(code)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
def test_the_sweep_wakes_a_lost_bot_turn_and_only_that(
        owner: Any, players: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    bot_pool.embedded.stop()
    woken: list[tuple[int, int]] = []
    code = services.create_room(owner).code
    helpers.seat_bots(code, owner, "easy")
    tables.must(code, owner, "start_round")
    helpers.play_out(code, {0: owner}, until="PLAY")  # seat 1, a bot, leads: nobody woke it
    monkeypatch.setattr(bot_wakeups, "schedule",
                        lambda r, v, when=None: woken.append((r, v)))
    # Just acted: not lost yet.
    assert services.sweep_bot_turns() == 0 and woken == []
    RoundAction.objects.filter(room__code=code).update(
        created=timezone.now() - timedelta(seconds=settings.TROCCAS_SWEEP_SECONDS + 1))
    assert services.sweep_bot_turns() == 1
    assert woken == [(tables.current_round(code).pk, tables.version(code))]
    # A table that waits on a person away for less than the grace period is left alone,
    # however idle.
    woken.clear()
    people = tables.seat_table(owner, players).code
    by_seat = {0: owner, 1: players[0], 2: players[1], 3: players[2]}
    st = tables.advance(people, by_seat, "PLAY")
    assert st is not None and st.deal is not None and st.deal.turn is not None
    helpers.away(by_seat[st.deal.turn], people, 30)
    RoundAction.objects.update(
        created=timezone.now() - timedelta(seconds=settings.TROCCAS_SWEEP_SECONDS + 1))
    assert services.sweep_bot_turns() == 1  # the first table's bot, still waiting
    assert [r for r, _v in woken] == [tables.current_round(code).pk]

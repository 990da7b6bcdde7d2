"""Capacity (issue #15 item 7): under overload the bot runner shrinks the decision budget
instead of letting a queue grow, says so in the log once per change, and recovers when the lag
is gone; the decision never runs on the path that serves a socket — embedded, on the pool's
worker threads; distributed, the committing process only enqueues the Celery task.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings

from games import services, tasks
from games.engine import legal_actions
from games.live import bot_pool
from games.services.bots import budget as bot_budget
from games.services.bots import turns as bot_turns
from games.services.bots import wakeups as bot_wakeups
from games.services.bots.budget import (
    CALM_SECONDS,
    HOLD_SECONDS,
    LAG_HIGH_MS,
    BudgetGovernor,
)
from tests.support import bots as helpers
from tests.support import tables

FULL_MS = 200.0
FLOOR_MS = 20.0
OVER = 2 * LAG_HIGH_MS / 1000  # seconds of lag: well over the threshold
CALM = 0.0


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _governor() -> tuple[BudgetGovernor, FakeClock]:
    clock = FakeClock()
    gov = BudgetGovernor(clock=clock, full_ms=lambda: FULL_MS, floor_ms=lambda: FLOOR_MS)
    clock.advance(HOLD_SECONDS)  # a fresh process may shrink from its first decision
    return gov, clock


def _lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == bot_budget.__name__]


def test_the_budget_halves_down_to_its_floor_while_turns_queue_once_per_hold(
        caplog: pytest.LogCaptureFixture) -> None:
    gov, clock = _governor()
    caplog.set_level(logging.INFO, logger=bot_budget.__name__)
    assert gov.start(CALM) == FULL_MS
    budgets = []
    for _ in range(8):
        # Several late turns within one hold period shrink the budget once, not each time.
        budgets.append([gov.start(OVER) for _ in range(3)])
        clock.advance(HOLD_SECONDS)
    assert budgets[:4] == [[100.0] * 3, [50.0] * 3, [25.0] * 3, [FLOOR_MS] * 3]
    assert all(b == [FLOOR_MS] * 3 for b in budgets[4:])  # never below the floor
    lines = _lines(caplog)
    assert len(lines) == 4  # one line per change of level, none per decision
    assert "bots behind" in lines[0] and "200 -> 100 ms" in lines[0]
    assert f"lag {2 * LAG_HIGH_MS:.0f} ms" in lines[0]
    assert "25 -> 20 ms" in lines[3]
    figures = gov.figures()
    assert figures["budget_ms"] == FLOOR_MS and figures["full_budget_ms"] == FULL_MS
    assert figures["lag_ms"] == 2 * LAG_HIGH_MS and figures["level_changes"] == 4


def test_a_lag_between_the_thresholds_neither_shrinks_nor_recovers() -> None:
    gov, clock = _governor()
    gov.start(OVER)
    assert gov.budget_ms() == 100.0
    for _ in range(5):
        clock.advance(CALM_SECONDS)
        assert gov.start((bot_budget.LAG_LOW_MS + LAG_HIGH_MS) / 2000) == 100.0


def test_the_budget_recovers_one_step_per_calm_period_once_the_lag_is_gone(
        caplog: pytest.LogCaptureFixture) -> None:
    gov, clock = _governor()
    for _ in range(3):
        gov.start(OVER)
        clock.advance(HOLD_SECONDS)
    assert gov.budget_ms() == 25.0
    caplog.set_level(logging.INFO, logger=bot_budget.__name__)
    caplog.clear()
    clock.advance(CALM_SECONDS - HOLD_SECONDS - 0.1)
    assert gov.start(CALM) == 25.0  # not calm for long enough yet
    seen = []
    for _ in range(4):
        clock.advance(CALM_SECONDS)
        seen.append(gov.start(CALM))
    assert seen == [50.0, 100.0, FULL_MS, FULL_MS]
    lines = _lines(caplog)
    assert len(lines) == 3
    assert "bots caught up" in lines[0] and "25 -> 50 ms" in lines[0]
    assert "100 -> 200 ms" in lines[2]


def test_a_runner_idle_for_long_after_an_overload_is_back_at_full_budget_at_once() -> None:
    gov, clock = _governor()
    for _ in range(4):
        gov.start(OVER)
        clock.advance(HOLD_SECONDS)
    assert gov.budget_ms() == FLOOR_MS
    clock.advance(10 * CALM_SECONDS)
    assert gov.start(CALM) == FULL_MS


def test_a_floor_at_the_full_budget_pins_it_there(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    gov = BudgetGovernor(clock=clock, full_ms=lambda: FULL_MS, floor_ms=lambda: FULL_MS)
    caplog.set_level(logging.INFO, logger=bot_budget.__name__)
    for _ in range(3):
        clock.advance(HOLD_SECONDS)
        assert gov.start(OVER) == FULL_MS
    assert _lines(caplog) == [] and gov.figures()["level_changes"] == 0


def test_the_figures_count_decisions_per_budget_and_reach_the_stats_folder(
        tmp_path: Path) -> None:
    gov, clock = _governor()
    gov.queue(+1)
    gov.queue(+1)
    gov.queue(-1)
    gov.decided(FULL_MS, 201.0)
    gov.start(OVER)
    with override_settings(TROCCAS_BOT_STATS_DIR=str(tmp_path)):
        gov.decided(100.0, 99.0)
    (written,) = tmp_path.glob("*.json")
    on_disk = json.loads(written.read_text())
    assert on_disk["decisions_by_budget_ms"] == {"200": 1, "100": 1}
    assert on_disk["budget_ms"] == 100.0 and on_disk["queued"] == 1
    assert on_disk["queued_max"] == 2 and on_disk["decision_mean_ms"] == 150.0


# --- the runners ---------------------------------------------------------------------------

@pytest.fixture
def bot_leads(owner: Any) -> str:
    """A table of the owner and three bots where seat 1, a bot, is to lead: nobody woke it
    (no worker threads run)."""
    bot_pool.embedded.stop()
    code = services.create_room(owner).code
    helpers.seat_bots(code, owner, "easy")
    tables.must(code, owner, "start_round")
    helpers.play_out(code, {0: owner}, until="PLAY")
    assert helpers.bot_to_act(code) is not None
    return code


def _record_decisions(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float]]:
    """(thread name, budget) of every decision the runner makes."""
    calls: list[tuple[str, float]] = []
    real = bot_turns.choose

    def choose(*args: Any, budget: float, **kwargs: Any) -> dict[str, Any]:
        calls.append((threading.current_thread().name, budget))
        return real(*args, budget=budget, **kwargs)

    monkeypatch.setattr(bot_turns, "choose", choose)
    return calls


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
def test_the_celery_task_decides_at_the_budget_its_own_lag_allows(
        bot_leads: str, monkeypatch: pytest.MonkeyPatch) -> None:
    gov, _clock = _governor()
    monkeypatch.setattr(bot_budget, "governor", gov)
    calls = _record_decisions(monkeypatch)
    rnd, version = tables.current_round(bot_leads), tables.version(bot_leads)
    # Woken 2 s after the bot was to act: this worker is behind.
    assert tasks.bot_turn_task(rnd.pk, version, due=time.time() - 2.0)
    assert [budget for _name, budget in calls] == [FULL_MS / 2]
    assert gov.figures()["decisions_by_budget_ms"] == {"100": 1}


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
def test_the_distributed_mode_only_enqueues_a_bot_turn_where_the_action_was_committed(
        bot_leads: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from troccas_site.celery import app

    sent: list[tuple[str, Any, Any]] = []
    monkeypatch.setattr(app, "send_task",
                        lambda name, args=None, kwargs=None, **_: sent.append((name, args,
                                                                                kwargs)))
    calls = _record_decisions(monkeypatch)
    rnd, version = tables.current_round(bot_leads), tables.version(bot_leads)
    before = time.time()
    with override_settings(TROCCAS_MODE="distributed"):
        bot_wakeups.schedule(rnd.pk, version)
    assert calls == []  # no decision here: a Celery worker makes it
    ((name, args, kwargs),) = sent
    assert name == bot_wakeups.BOT_TURN_TASK and list(args) == [rnd.pk, version]
    assert before <= kwargs["due"] <= time.time()


def _wait_for_owner(code: str, bound: float) -> None:
    end = time.monotonic() + bound
    while helpers.bot_to_act(code) is not None:
        assert time.monotonic() < end, "the bots did not play on their own"
        time.sleep(0.05)


@pytest.mark.skipif(settings.TROCCAS_MODE != "embedded",
                    reason="the embedded mode's pool (the distributed wake-up is a Celery task)")
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_the_embedded_mode_decides_on_the_pool_threads_never_on_the_committing_thread(
        bot_leads: str, owner: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _record_decisions(monkeypatch)
    bot_pool.embedded.ensure_started()
    try:
        # The lost wake-up of the lead, as the sweep sends it; then the owner's card, committed
        # on this thread, wakes the next bot after commit.
        bot_wakeups.schedule(tables.current_round(bot_leads).pk, tables.version(bot_leads))
        _wait_for_owner(bot_leads, 60)
        first = len(calls)
        for _ in range(10):  # until a bot follows a card of the owner's (she may win tricks)
            st = tables.state(bot_leads)
            assert st is not None and st.deal is not None and st.deal.turn == 0
            tables.must(bot_leads, owner, "play_card",
                        card=legal_actions(st, 0)["legal_cards"][0])
            _wait_for_owner(bot_leads, 60)
            if len(calls) > first:
                break
    finally:
        bot_pool.embedded.stop()
    me = threading.current_thread().name
    # The first trick's three bots (a BUOB call is a decision too), then the next.
    assert first >= 3 and len(calls) > first
    assert all(name.startswith("troccas-bot_") and name != me for name, _b in calls)
    assert bot_budget.governor.figures()["queued"] == 0

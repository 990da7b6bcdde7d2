"""The deadline sweep (ARCHITECTURE.md §8) in either mode: it fires overdue timers, the most
overdue first, and one table whose timer fails to fire does not hold up the others'."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.engine import REVEAL, SCART
from games.models import Round
from games.services import deadlines
from tests.services.reveal import end_reveals, table_at_reveal

pytestmark = pytest.mark.django_db


def overdue(rnd: Round, seconds: int) -> None:
    """The test's clock jump: the reveal window ended `seconds` ago."""
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=seconds))


def test_the_sweep_fires_overdue_timers_and_leaves_running_ones(make_user: Any) -> None:
    late, running = table_at_reveal(make_user, 2), table_at_reveal(make_user, 30)
    overdue(late, 1)
    assert services.sweep_deadlines() == 1
    late.refresh_from_db()
    running.refresh_from_db()
    assert (late.phase, running.phase) == (SCART, REVEAL)
    assert end_reveals(late) == 1 and end_reveals(running) == 0
    assert services.sweep_deadlines() == 0


def test_one_failing_table_does_not_stall_the_others(
        make_user: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    broken, healthy = table_at_reveal(make_user, 2), table_at_reveal(make_user, 2)
    overdue(broken, 10)  # the most overdue: swept first
    overdue(healthy, 1)
    fire = services.fire_deadline
    tried: list[int] = []

    def failing(round_id: int, version: int) -> bool:
        tried.append(round_id)
        if round_id == broken.pk:
            raise RuntimeError("a table that cannot be loaded")
        return fire(round_id, version)

    monkeypatch.setattr(deadlines, "fire_deadline", failing)
    assert services.sweep_deadlines() == 1
    assert tried == [broken.pk, healthy.pk]
    assert f"deadline of round {broken.pk}" in caplog.text
    assert end_reveals(healthy) == 1 and end_reveals(broken) == 0
    # Once the table is fixed, the next sweep fires it.
    monkeypatch.setattr(deadlines, "fire_deadline", fire)
    assert services.sweep_deadlines() == 1
    assert end_reveals(broken) == 1

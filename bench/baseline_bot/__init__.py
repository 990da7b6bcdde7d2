"""The bots as they stood before issue #27, frozen: the arena's levels "baseline" (the strong
bot) and "baseline_easy" (the easy bot).

A copy of games/bots/ at that time (strong.py and everything it uses that later changes: the
easy bot's rules, knowledge, sampling, playouts), importing nothing of games/ but the engine.
It lives in bench/ so that no table can seat it (games/ cannot import bench/), and it never
changes: the new strong bot is measured against it (issue #27 items 1 and 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import easy, strong


def decide(view: dict[str, Any], events: Sequence[dict[str, Any]], *, seed: int,
           budget_ms: float = 200.0, samples: int | None = None,
           info: dict[str, Any] | None = None) -> dict[str, Any]:
    """The baseline strong bot's action for the seat of `view` (see games/bots/decide)."""
    return strong.decide(view, events, seed=seed, budget_ms=budget_ms, samples=samples,
                         info=info)


def decide_easy(view: dict[str, Any], events: Sequence[dict[str, Any]], *, seed: int
                ) -> dict[str, Any]:
    """The baseline easy bot's action (issue #27 item 4: today's easy must beat it)."""
    return easy.decide(view, events, seed)


__all__ = ["decide", "decide_easy"]

"""Bots: a seat's player that decides from that seat's view and events alone (issue #15).

    decide(view, events, level="strong", seed=s)  # one engine action for the view's seat
    stand_in(view, events, seed=s)                 # the easy bot's choice, in under 1 ms
    fallback(view)                                 # the lowest-value legal action

`view` is `games.engine.view(state, seat)` for the bot's seat and `events` the JSON events that
seat was sent for the current deal (`games.engine.events_for`), possibly empty. A bot never
receives the table's state: what it cannot see it guesses (knowledge.py, sampling.py). The
returned action is one of the seat's legal actions in that view, as `games.engine.apply` takes
it (with `seat`). Levels, weakest first (issue #27 item 6; bench/bot_arena.py measures each
against the one below):

* `beginner` — the easy bot with a learner's slips (beginner.py), for people learning;
* `easy` — rules of thumb, no search (easy.py), instant;
* `medium` — the strong bot's search over at most MEDIUM_SAMPLES sampled deals, without its
  inference (strong.py), a few milliseconds;
* `strong` — Perfect Information Monte Carlo with inference under a wall-clock budget.

The same inputs and seed give the same decision (for the searching levels, given the same
number of playouts; see strong.py).

When a seat has nothing to do in its view, `decide` and `fallback` raise NoAction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import beginner, easy, strong
from .actions import NoAction
from .actions import fallback as _fallback

LEVELS = ("beginner", "easy", "medium", "strong")
DEFAULT_LEVEL = "easy"  # preselected in Play now, Find a game and seat_bot
# The medium level's search: this many sampled deals at most, no inference.
MEDIUM_SAMPLES = 6


def decide(view: dict[str, Any], events: Sequence[dict[str, Any]], *, level: str, seed: int,
           budget_ms: float = 200.0, samples: int | None = None,
           info: dict[str, Any] | None = None) -> dict[str, Any]:
    """One legal engine action for the seat of `view`.

    `samples` fixes the strong bot's number of sampled deals (then the budget does not apply):
    the deterministic mode of the tests. `info`, when given, receives figures about the
    decision (the strong bot's `playouts`), for the benchmarks.
    """
    if level == "beginner":
        return beginner.decide(view, events, seed)
    if level == "easy":
        return easy.decide(view, events, seed)
    if level == "medium":
        return strong.decide(view, events, seed=seed, budget_ms=budget_ms,
                             samples=None if samples is None else min(samples, MEDIUM_SAMPLES),
                             info=info, infer=False, cap=MEDIUM_SAMPLES)
    if level == "strong":
        return strong.decide(view, events, seed=seed, budget_ms=budget_ms, samples=samples,
                             info=info)
    raise ValueError(f"unknown bot level {level!r}; one of {', '.join(LEVELS)}")


def stand_in(view: dict[str, Any], events: Sequence[dict[str, Any]], *, seed: int
             ) -> dict[str, Any]:
    """What a strong bot plays when it cannot decide in time (issue #24 item 13): the easy
    bot's choice — rules of thumb, decided in well under a millisecond, so it always fits —
    rather than the lowest-value card a beginner would throw."""
    return easy.decide(view, events, seed)


def fallback(view: Mapping[str, Any]) -> dict[str, Any]:
    """The lowest-value legal action: the cheapest legal card (as TURN_TIMEOUT plays it), the
    two cheapest allowed scart cards, the next pass, a regame."""
    return _fallback(view)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "NoAction", "decide", "fallback", "stand_in"]

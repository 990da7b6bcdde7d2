"""The strong bot's judgement for people (games/bots/advice.py, issue #28): every option of a
decision, best first, from the seat's view alone."""

from __future__ import annotations

import random

import pytest

from games.bots import advice
from games.engine import Options, apply, events_for, view
from tests.bots.test_no_peeking import _hidden, _replay, _situation
from tests.engine.helpers import ANNA, BENEDETG, CURDIN, OWNER, dealt, deck_for, play, setup

SAMPLES = 6


def test_every_legal_card_is_an_option_best_first() -> None:
    state = setup({OWNER: ["SK"], ANNA: ["S2"], BENEDETG: ["S5", "S6", "SQ", "T4"]})
    state = play(play(state, OWNER, "SK"), ANNA, "S2")
    v = view(state, BENEDETG)
    got = advice.rank(v, [], seed=3, budget_ms=1000, samples=SAMPLES)
    assert got.kind == "play"
    named = {o.action["card"] for o in got.options} | {c for o in got.options for c in o.same}
    assert named == set(v["legal_cards"])
    points = [o.points for o in got.options]
    assert points == sorted(points, reverse=True)
    assert got.options[0].behind == 0.0
    assert all(o.behind <= 0.0 for o in got.options)
    assert all(o.action["seat"] == BENEDETG for o in got.options)
    for o in got.options:
        apply(state, o.action)  # every option is an action the engine takes


def test_the_same_inputs_give_the_same_advice() -> None:
    state = setup({OWNER: ["C5"], ANNA: ["C2", "CK", "C9", "T7"]})
    state = play(state, OWNER, "C5")
    v = view(state, ANNA)
    first = advice.rank(v, [], seed=9, budget_ms=1000, samples=SAMPLES)
    assert advice.rank(v, [], seed=9, budget_ms=1000, samples=SAMPLES) == first


def test_the_dealer_gets_the_scart_pairs_ranked() -> None:
    state = dealt(deck_for(CURDIN, {}), CURDIN, Options())
    v = view(state, CURDIN)
    assert v["actions"]["scart"]
    got = advice.rank(v, [], seed=1, budget_ms=1000, samples=4)
    assert got.kind == "scart" and len(got.options) >= 2
    for o in got.options:
        assert o.action["type"] == "discard_scart" and len(o.action["cards"]) == 2
        assert set(o.action["cards"]) <= set(v["actions"]["scart_allowed"])
    assert got.easy_choice in [o.action for o in got.options]


def test_nothing_to_advise_off_turn() -> None:
    state = setup({OWNER: ["SK"], ANNA: ["S2"]})
    with pytest.raises(advice.NothingToAdvise):
        advice.rank(view(state, ANNA), [], seed=1, budget_ms=50, samples=2)
    with pytest.raises(advice.NothingToAdvise):
        advice.rank(view(state, None), [], seed=1, budget_ms=50, samples=2)


def test_moving_hidden_cards_never_changes_the_advice() -> None:
    rng = random.Random(2812)
    checked = 0
    for n in range(6):
        options, dealer, deck, actions, seat = _situation(rng)
        replayed = _replay(options, dealer, deck, actions)
        assert replayed is not None
        state, events = replayed
        seen = advice.rank(view(state, seat), events_for(events, seat), seed=n,
                           budget_ms=1000, samples=3)
        for _ in range(200):
            i, j = rng.sample(range(len(deck)), 2)
            trial = list(deck)
            trial[i], trial[j] = trial[j], trial[i]
            other = _replay(options, dealer, trial, actions)
            if other is None:
                continue
            alt_state, alt_events = other
            if (view(alt_state, seat) != view(state, seat)
                    or events_for(alt_events, seat) != events_for(events, seat)
                    or _hidden(alt_state, seat) == _hidden(state, seat)):
                continue
            again = advice.rank(view(alt_state, seat), events_for(alt_events, seat), seed=n,
                                budget_ms=1000, samples=3)
            assert again == seen, n
            checked += 1
            break
    assert checked >= 4


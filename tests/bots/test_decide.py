"""The bots' interface: one legal engine action for the view's seat, repeatable from its seed."""

from __future__ import annotations

import pytest

from games import bots
from games.engine import CARD_IDS, apply, view
from games.engine.state import ROUND_OVER
from tests.engine.helpers import ANNA, BENEDETG, CURDIN, OWNER, finish_deal, play, setup, started


def test_levels_and_an_unknown_level() -> None:
    assert bots.LEVELS == ("beginner", "easy", "medium", "strong")
    state = setup({})
    with pytest.raises(ValueError):
        bots.decide(view(state, OWNER), [], level="grandmaster", seed=1)


def test_the_dealer_deals_the_next_pass() -> None:
    state = started(list(CARD_IDS), dealer=CURDIN)
    for level in bots.LEVELS:
        action = bots.decide(view(state, CURDIN), [], level=level, seed=3)
        assert action == {"type": "deal_next_pass", "seat": CURDIN}


def test_a_seat_with_nothing_to_do_gets_no_action() -> None:
    state = setup({})
    with pytest.raises(bots.NoAction):
        bots.decide(view(state, ANNA), [], level="easy", seed=1)  # the owner leads


def test_the_strong_bot_repeats_itself_from_its_seed() -> None:
    state = setup({OWNER: ["S5"], ANNA: ["S2", "S9"], BENEDETG: ["S3", "SN", "SQ", "T4"]})
    state = play(play(state, OWNER, "S5"), ANNA, "S2")
    v = view(state, BENEDETG)
    first = bots.decide(v, [], level="strong", seed=42, samples=6)
    assert bots.decide(v, [], level="strong", seed=42, samples=6) == first
    assert first["card"] in v["legal_cards"]


def test_a_regame_is_accepted_as_it_is() -> None:
    state = finish_deal(setup({}))
    assert state.phase == ROUND_OVER
    action = bots.decide(view(state, ANNA), [], level="strong", seed=9)
    assert action["type"] == "regame"
    new, _ = apply(state, action)
    assert new.deal is not None and new.deal.number == 2

"""The bots' actions (games/bots/actions.py) are the action table's (games/engine/actions.py).

Each builder makes an engine action a bot may play at the table (the table's `stand_in`), with
the fields the table gives it, of the types it gives them; the one a bot's seat sends when the
match is over (NEW_MATCH) is the engine's too. So a bot's action becomes, field for field, the
command a client would send (`command_fields`).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.bots import actions as bot
from games.engine.actions import ACTIONS, STAND_IN_TYPES, accepts, command_fields

BUILT: dict[str, dict[str, Any]] = {
    "play": bot.play(1, 5),
    "play and call": bot.play(1, 5, call_suit="C"),
    "call": bot.call(2, "R"),
    "scart": bot.scart(3, [0, 1]),
    "deal": bot.deal(0),
    "regame": bot.regame(2, seed=7),
}


@pytest.mark.parametrize("name", sorted(BUILT))
def test_a_builders_action_is_one_the_table_lets_a_bot_play(name: str) -> None:
    action = BUILT[name]
    spec = ACTIONS[action["type"]]
    assert spec.type in STAND_IN_TYPES and spec.engine
    fields = {f.name: f for f in spec.engine_fields}
    # The bot names its seat on every action (the writer checks it is the bot's own).
    assert set(action) - {"type", "seat"} <= set(fields)
    for key, value in action.items():
        if key in fields:
            assert accepts(fields[key].type, value), (key, value)
    for f in spec.engine_fields:
        assert f.name in action or not f.required or f.name == "seat"


def test_every_action_a_bot_may_play_has_a_builder() -> None:
    assert {a["type"] for a in BUILT.values()} == STAND_IN_TYPES


def test_the_command_of_a_bots_action_holds_the_clients_fields_only() -> None:
    assert command_fields(BUILT["play and call"]) == {
        "card": BUILT["play and call"]["card"], "call_buob": True, "buob_suit": "C"}
    assert command_fields(BUILT["regame"]) == {}
    assert command_fields(BUILT["deal"]) == {}

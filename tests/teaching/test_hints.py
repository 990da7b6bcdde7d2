"""Hints at practice tables (issue #28 item 2; games/teaching/hints.py): the strong bot's best
actions for a person's seat, from that seat's view alone, and refused wherever a result counts.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from games import services
from games.engine import legal_actions
from games.engine.state import PLAY, SCART
from games.models import Room
from games.services.errors import ServiceError
from games.teaching import hints
from tests.support import tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_worker_threads")]

FAST = override_settings(TROCCAS_HINT_BUDGET_MS=20, TROCCAS_BOT_PAUSE_SCALE=0)


def _to_scart(code: str, person: Any) -> None:
    """Play now seats the person at 0, dealing first: three passes, the reveal window, then
    the person's Scart."""
    for _ in range(3):
        tables.must(code, person, "deal_next_pass")
    tables.expire_deadline(code)
    assert services.sweep_deadlines() == 1
    assert tables.phase(code) == SCART


def _refused(code: str, user: Any) -> str:
    with pytest.raises(ServiceError) as caught:
        hints.check(code, user)
    return str(caught.value.code)


@FAST
def test_the_dealer_at_a_practice_table_gets_the_best_scart_pairs(owner: Any) -> None:
    room = services.create_practice_table(owner, "easy")
    assert _refused(room.code, owner) == "NOTHING_TO_ADVISE"  # dealing: nothing to choose
    _to_scart(room.code, owner)
    job = hints.check(room.code, owner)
    assert job.version == tables.version(room.code)
    frame = hints.answer(job)
    assert frame["type"] == "hint" and frame["kind"] == "scart"
    assert frame["version"] == job.version
    assert 1 <= len(frame["options"]) <= hints.SHOWN
    st = tables.state(room.code)
    assert st is not None
    allowed = legal_actions(st, 0)["scart_allowed"]
    for option in frame["options"]:
        assert option["type"] == "discard_scart" and set(option["cards"]) <= set(allowed)
    points = [o["points"] for o in frame["options"]]
    assert points == sorted(points, reverse=True)
    # The best pair is one the table takes.
    tables.must(room.code, owner, "discard_scart", cards=frame["options"][0]["cards"])


@FAST
def test_a_card_hint_names_legal_cards_of_the_persons_own_hand(owner: Any) -> None:
    room = services.create_practice_table(owner, "easy")
    code = room.code
    _to_scart(code, owner)
    allowed = legal_actions(tables.state(code), 0)["scart_allowed"]
    tables.must(code, owner, "discard_scart", cards=allowed[:2])
    # The bots play until the person's turn.
    for _ in range(10):
        st = tables.state(code)
        assert st is not None and st.phase == PLAY and st.deal is not None
        if st.deal.turn == 0:
            break
        assert services.play_bot_turn(tables.current_round(code).pk, tables.version(code))
    frame = hints.answer(hints.check(code, owner))
    assert frame["kind"] == "play"
    st = tables.state(code)
    legal = legal_actions(st, 0)["legal_cards"]
    for option in frame["options"]:
        assert option["card"] in legal and set(option["same"]) <= set(legal)
    assert frame["options"][0]["behind"] == 0.0
    tables.must(code, owner, "play_card", card=frame["options"][0]["card"])
    # The person played last in the trick: if their team took it they lead again; otherwise
    # it is a bot's turn and there is nothing to advise the person on.
    st = tables.state(code)
    assert st is not None and st.deal is not None
    if st.deal.turn != 0:
        assert _refused(code, owner) == "NOTHING_TO_ADVISE"
    else:
        assert hints.check(code, owner).version == tables.version(code)


@FAST
def test_no_hint_where_another_person_plays(owner: Any, players: list[Any]) -> None:
    room = tables.seat_table(owner, players)
    tables.advance(room.code, {0: owner, 1: players[0], 2: players[1], 3: players[2]}, SCART)
    st = tables.state(room.code)
    assert st is not None
    dealer = [owner, *players][st.dealer]
    assert _refused(room.code, dealer) == "HINT_NOT_ALLOWED"


@FAST
def test_no_hint_for_someone_not_seated(owner: Any, spectator: Any) -> None:
    room = services.create_practice_table(owner, "easy")
    assert _refused(room.code, spectator) == "NOT_SEATED"
    assert _refused("NOSUCHROOM", owner) == "ROOM_NOT_FOUND"


@FAST
def test_a_table_that_moved_on_answers_for_its_new_version(owner: Any) -> None:
    room = services.create_practice_table(owner, "easy")
    _to_scart(room.code, owner)
    job = hints.check(room.code, owner)
    allowed = legal_actions(tables.state(room.code), 0)["scart_allowed"]
    tables.must(room.code, owner, "discard_scart", cards=allowed[:2])
    message = hints.reply(job, "h1")
    # The Scart is made; a bot leads: the answer now is the refusal, with the request's id.
    assert message == {"type": "teaching.hint", "action_id": "h1", "error": "NOTHING_TO_ADVISE"}
    assert Room.objects.get(pk=room.pk).version == job.version + 1


@FAST
def test_no_hint_at_a_tournaments_table_even_with_bots_only(owner: Any, players: list[Any]
                                                           ) -> None:
    # A director's table where bots fill every other seat still counts for the tournament.
    from tests.clubs import tournament_rows

    room = services.create_practice_table(owner, "easy")
    _to_scart(room.code, owner)
    t = tournament_rows.tournament(players[0])
    entrant = tournament_rows.entrants(t, [owner])[0]
    rnd = tournament_rows.round_of(t, 1)
    tournament_rows.table(rnd, 1, [entrant] * 4, [owner] * 4, room=room)
    assert _refused(room.code, owner) == "HINT_NOT_ALLOWED"

"""Helpers for the bot tests: seat bots, make a player away, drive a table whose bots are
woken by the test itself (the deterministic way; the workers are tested on their own)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import services
from games.engine import MATCH_OVER, PLAY, REVEAL, legal_actions
from games.models import Connection, Match, Room
from games.services.bots.stand_ins import pending_turn
from games.services.tables import load_code, seats_of
from tests.support import tables


def seat_bots(code: str, owner: Any, level: str = "easy", seats: tuple[int, ...] = (1, 2, 3)
              ) -> None:
    for index in seats:
        tables.must(code, owner, "seat_bot", index=index, level=level)


def away(user: Any, code: str, seconds: float) -> None:
    """The player closed their last socket at the table `seconds` ago."""
    room = Room.objects.get(code=code)
    Connection.objects.filter(room=room, user=user).delete()
    gone = timezone.now() - timedelta(seconds=seconds)
    Connection.objects.create(room=room, user=user, channel_name=f"gone-{user.pk}-{code}",
                              last_seen=gone, closed_at=gone)


def bot_to_act(code: str) -> Any:
    t = load_code(code, lock=False)
    turn, _due = pending_turn(t.state, seats_of(t), t.room.owner_id, t.now)
    return turn


def wake(code: str) -> bool:
    """What a bot's wake-up does, called in this thread."""
    rnd = tables.current_round(code)
    return services.play_bot_turn(rnd.pk, tables.version(code))


def play_out(code: str, people: dict[int, Any], *, until: str = MATCH_OVER,
             limit: int = 3000) -> None:
    """Drive the table to `until`: the bots by their wake-ups, the people (by seat) with
    their first legal card, the reveal window by the sweep once it is moved into the past,
    the next deal started by the owner when people are seated."""
    for _ in range(limit):
        st = tables.state(code)
        assert st is not None
        if st.phase == until:
            return
        if bot_to_act(code) is not None:
            assert wake(code)
            continue
        person_step(code, people)
    raise AssertionError(f"{until} not reached")


def person_step(code: str, people: dict[int, Any]) -> None:
    """The one step the table waits for when no bot is to act: the person (by seat) on turn
    plays their first legal card (deals, discards the first allowed cards), the reveal window
    is closed by the sweep once moved into the past, the owner starts the next deal."""
    st = tables.state(code)
    assert st is not None
    if st.phase == REVEAL:
        tables.expire_deadline(code)
        assert services.sweep_deadlines() == 1
    elif st.phase == PLAY:
        assert st.deal is not None and st.deal.turn is not None
        turn = st.deal.turn
        tables.must(code, people[turn], "play_card",
                    card=legal_actions(st, turn)["legal_cards"][0])
    elif st.phase == "DEALING":
        tables.must(code, people[st.dealer], "deal_next_pass")
    elif st.phase == "SCART":
        allowed = legal_actions(st, st.dealer)["scart_allowed"]
        tables.must(code, people[st.dealer], "discard_scart", cards=allowed[:2])
    elif st.phase == "ROUND_OVER":
        tables.must(code, Room.objects.get(code=code).owner, "regame")
    else:  # pragma: no cover
        raise AssertionError(st.phase)


def legal_cards_of_bot(code: str) -> int | None:
    """How many cards the bot to act may play now (None: no bot is to play a card)."""
    turn = bot_to_act(code)
    st = tables.state(code)
    if turn is None or st is None or st.phase != PLAY:
        return None
    return len(legal_actions(st, turn.seat)["legal_cards"])


def current_match(code: str) -> Match:
    return Match.objects.filter(room__code=code).order_by("-number").first()

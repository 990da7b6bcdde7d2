"""games/live/broadcast.py: one change's `state` frames are built once per audience (the view's
shared part encoded once for all), a seat's frame holds its own hand only, the spectators'
frame none (RULES §13; docs/protocol.md §9)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from games import services
from games.engine.cards import ids_of
from games.live import broadcast
from games.services.snapshot import TableSnapshot
from tests.support import tables
from tests.support.live import cards_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


class RecordingLayer:
    """A channel layer that keeps what each group was sent."""

    def __init__(self) -> None:
        self.sent: dict[str, list[dict[str, Any]]] = {}

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.setdefault(group, []).append(message)


@pytest.fixture
def playing(table: tuple[str, dict[int, Any]]) -> TableSnapshot:
    code, by_seat = table
    tables.advance(code, by_seat, "PLAY")
    return services.table_snapshot(code)


def test_each_audience_gets_one_frame_built_once(
        playing: TableSnapshot, monkeypatch: pytest.MonkeyPatch) -> None:
    layer = RecordingLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    built: Counter[int | None] = Counter()
    shared: list[int] = []
    frame, shared_view = broadcast.ChangeFrames.frame, TableSnapshot.shared_view

    def counting_frame(self: broadcast.ChangeFrames, seat: int | None) -> str:
        built[seat] += 1
        return frame(self, seat)

    def counting_shared(self: TableSnapshot) -> dict[str, Any]:
        shared.append(1)
        return shared_view(self)

    monkeypatch.setattr(broadcast.ChangeFrames, "frame", counting_frame)
    monkeypatch.setattr(TableSnapshot, "shared_view", counting_shared)
    broadcast.publish(playing)
    assert built == {seat: 1 for seat in broadcast.AUDIENCES}
    assert len(shared) == 1, "the shared part of the view is encoded once for all audiences"
    assert sorted(layer.sent) == sorted(broadcast.group_name(playing.code, s)
                                        for s in broadcast.AUDIENCES)
    assert all(len(messages) == 1 for messages in layer.sent.values())


def test_a_seats_frame_holds_its_hand_only_the_spectators_none(
        playing: TableSnapshot) -> None:
    frames = broadcast.ChangeFrames(playing)
    seat_map = {str(s.user_id): s.index for s in playing.seats}
    st = playing.state
    assert st.deal is not None
    hands = {seat: set(ids_of(st.deal.hands[seat])) for seat in range(4)}
    for seat in broadcast.AUDIENCES:
        message = broadcast.build_message(frames, seat, seat_map)
        assert message["seat"] == seat and message["version"] == playing.version
        state = json.loads(message["frame"])
        assert state["type"] == "state" and state["view"] == playing.view_for(seat)
        others = set().union(*(h for s, h in hands.items() if s != seat))
        assert not cards_in(state) & others, f"audience {seat} sees another seat's cards"
        if seat is None:
            assert not state["view"].get("hand")
            assert "spectators_refused" in message
        else:
            assert set(state["view"]["hand"]) == hands[seat]
            assert "spectators_refused" not in message

"""A BUOB call refused because of where a jack lies is public (RULES.md §8, §13), over real
websockets: the caller still gets the coded error for their action_id, and every seat and the
spectators get the same `buob_refused` event and a view that no longer offers that suit.

Table (tests/personas.py): owner A/0 deals first, anna B/1 leads trick 1, benedetg A/2,
curdin B/3, and a spectator. The deck is built so that anna holds SK and the owner, dealing,
holds SJ and puts it in the Scart: anna leads SK, and benedetg's call on swords finds no target.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games.models import RoundAction
from tests import personas
from tests.engine.helpers import deck_for
from tests.support import tables
from tests.support.live import TableClient, cards_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]

OWNER, ANNA, BENEDETG, CURDIN = (p.seat for p in personas.SEATED)
SCART = ["SJ", "C2"]
DECK = deck_for(OWNER, {ANNA: ["SK", "S2"], BENEDETG: ["S3"], CURDIN: ["S4"]}, scart=SCART)


def _to_first_trick(owner: Any, players: list[Any]) -> tuple[str, dict[int, Any]]:
    """A seated table in PLAY whose Scart holds SJ, with anna's SK led."""
    room = tables.seat_table(owner, players)
    by_seat = personas.by_seat(owner, players)
    tables.advance(room.code, by_seat, "SCART")
    tables.must(room.code, owner, "discard_scart", cards=SCART)
    tables.must(room.code, by_seat[ANNA], "play_card", card="SK")
    return room.code, by_seat


def _refusals(code: str) -> list[dict[str, Any]]:
    return list(RoundAction.objects.filter(room__code=code, kind="buob_refused")
                .values("actor_seat", "payload"))


def _event(c: TableClient, version: int) -> dict[str, Any]:
    """The one frame of the change at `version` (protocol 2: a `state` with its events)."""
    frames = [f for f in c.frames if f["type"] == "state" and f["version"] == version]
    assert len(frames) == 1 and "events" in frames[0], (c.name, frames)
    return frames[0]


@pytest.mark.asyncio
async def test_a_refused_call_reaches_every_seat_and_the_spectators(
        owner: Any, players: list[Any], spectator: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("games.services.writer.shuffled_deck", lambda: list(DECK))
    code, by_seat = await sync_to_async(_to_first_trick)(owner, players)
    tabs = {seat: await tables.open_tab(user, code, f"seat{seat}")
            for seat, user in by_seat.items()}
    watcher = await tables.open_tab(spectator, code, "spectator")
    everyone = [*tabs.values(), watcher]
    # Before the call, the seats that cannot see the Scart are offered swords.
    assert {s: t.view["buob"]["suits"] for s, t in tabs.items()} == {
        OWNER: [], ANNA: ["S"], BENEDETG: ["S"], CURDIN: ["S"]}
    before = await sync_to_async(tables.fingerprint)(code)

    caller = tabs[BENEDETG]
    action_id = await caller.send("call_buob", suit="S")
    reply = await tables.answer(caller, action_id)
    # The refusal stays a refusal for the caller: the coded error for their action_id.
    assert reply["type"] == "error" and reply["code"] == "BUOB_SUIT_NOT_CANDIDATE", reply
    assert reply["action_id"] == action_id and reply["message"].strip()

    # ... and it is public: stored and logged like an action, one version on.
    version = before[0] + 1
    assert await sync_to_async(tables.fingerprint)(code) == (version, before[1] + 1)
    for c in everyone:
        await c.wait_version(version)
    expected = {"type": "buob_refused", "caller": BENEDETG, "suit": "S",
                "code": "BUOB_SUIT_NOT_CANDIDATE", "trick": 1}
    for c in everyone:
        frame = _event(c, version)
        assert frame["events"] == [expected], c.name
        assert not cards_in(frame["events"]), c.name
        # Nobody is offered swords again in this trick; nothing else moved.
        assert c.view["buob"] == {"call": None, "suits": []}, c.name
        assert c.view["trick"]["cards"] == [[ANNA, "SK"]] and c.view["turn"] == BENEDETG
    assert not [f for t in (tabs[OWNER], tabs[ANNA], tabs[CURDIN], watcher) for f in t.frames
                if f["type"] == "error"], "only the caller is answered with an error"
    logged = await sync_to_async(_refusals)(code)
    assert logged == [{"actor_seat": BENEDETG, "payload": {
        "action": {"type": "call_buob", "suit": "S"}, "code": "BUOB_SUIT_NOT_CANDIDATE"}}]

    # A resend of the same action_id is answered alike and announced no more.
    again = await caller.send("call_buob", action_id=action_id, suit="S")
    reply = await tables.answer(caller, again)
    assert reply["type"] == "error" and reply["code"] == "BUOB_SUIT_NOT_CANDIDATE", reply
    assert await sync_to_async(tables.fingerprint)(code) == (version, before[1] + 1)

    # The trick goes on; the match's transcript replays the refusal (tests/support/fixtures.py).
    out = await sync_to_async(tables.submit)(code, by_seat[BENEDETG], "play_card", card="S3")
    assert out.ok, out
    for c in everyone:
        await c.close()


def test_a_refused_attached_call_is_stored_and_keeps_the_turn_timer(
        owner: Any, players: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the services: anna leads SK with an attached call while SJ lies in the Scart.
    Refused (BUOB_NO_TARGET) and public: one version on, one log row holding the refused
    play_card, SK still in her hand and still her turn, and the turn timer not restarted (a
    refused call gives nobody more time). The conftest's replay check then replays the export,
    refused call included, to the stored state."""
    monkeypatch.setattr("games.services.writer.shuffled_deck", lambda: list(DECK))
    room = tables.seat_table(owner, players, {"turn_seconds": 30})
    by_seat = personas.by_seat(owner, players)
    tables.advance(room.code, by_seat, "SCART")
    tables.must(room.code, owner, "discard_scart", cards=SCART)
    before = tables.fingerprint(room.code)
    deadline = tables.current_round(room.code).deadline
    assert deadline is not None
    out = tables.submit(room.code, by_seat[ANNA], "play_card", card="SK", call_buob=True)
    assert (out.ok, out.code, out.version) == (False, "BUOB_NO_TARGET", before[0] + 1)
    assert tables.fingerprint(room.code) == (before[0] + 1, before[1] + 1)
    assert tables.current_round(room.code).deadline == deadline
    st = tables.state(room.code)
    assert st is not None and st.deal is not None and st.deal.current is not None
    assert st.deal.turn == ANNA and not st.deal.current.cards and st.deal.current.refused == "S"
    assert _refusals(room.code) == [{"actor_seat": ANNA, "payload": {
        "action": {"type": "play_card", "card": "SK", "call_buob": True},
        "code": "BUOB_NO_TARGET"}}]
    tables.must(room.code, by_seat[ANNA], "play_card", card="SK")
    assert tables.state(room.code).deal.current.refused == "S"  # type: ignore[union-attr]

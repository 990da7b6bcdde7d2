"""The end of a match and the way back (issue #14 item 5): "same four again" starts a new match
at the same table with the seats kept, through the services like every command; and the score
sheet's list of the match's deals (the view's `match.deals`, docs/protocol.md)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games import services
from games.engine import CARD_IDS
from games.live.protocol import ProtocolError, parse
from games.models import Match, Room, Round, RoundAction, Seat, Trick
from tests import personas
from tests.support.matches import play_match
from tests.support.tables import advance, cmd, fingerprint, must, phase, submit, version

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(120)]

# An open-ended match that the owner ends after one deal: the shortest match there is.
ONE_DEAL = {"match_deals": 0, "reveal_seconds": 2, "turn_seconds": 0}


def finished(owner: Any, players: list[Any], seed: int = 14,
             **options: Any) -> tuple[str, Match]:
    match = play_match(owner, players, random.Random(seed), {**ONE_DEAL, **options},
                       end_after=1)
    assert match.status == "finished"
    return match.room.code, match


def seat_plan(code: str) -> list[tuple[int, int | None, str]]:
    return sorted((s.user_id, s.index, s.team) for s in Seat.objects.filter(room__code=code))


def test_same_four_again_keeps_the_seats_in_a_new_match(owner: Any, players: list[Any]) -> None:
    code, old = finished(owner, players)
    seats_before = seat_plan(code)
    v = version(code)
    anna = players[0]
    must(code, anna, "rematch", match=old.pk)
    room = Room.objects.get(code=code)
    new = room.current_match
    assert new is not None and new.pk != old.pk and new.number == old.number + 1
    assert new.status == "running"
    assert [p.pk for p in new.players] == [p.pk for p in old.players]
    assert seat_plan(code) == seats_before
    # One step, one version: straight to the first deal, the owner's seat dealing (RULES §3).
    assert room.version == v + 1
    assert phase(code) == "DEALING"
    first = Round.objects.get(match=new)
    assert first.number == 1 and first.dealer == personas.OWNER.seat
    versions = list(RoundAction.objects.filter(room=room).order_by("version")
                    .values_list("version", flat=True))
    assert versions == list(range(1, room.version + 1))
    started = RoundAction.objects.get(room=room, version=room.version)
    assert (started.kind, started.actor_id) == ("start_round", anna.pk)
    view = services.table_snapshot(code).view_for(personas.ANNA.seat)
    assert view["match"]["id"] == new.pk and "deals" not in view["match"]


def test_two_presses_start_one_match_and_the_second_is_told(owner: Any,
                                                            players: list[Any]) -> None:
    code, old = finished(owner, players)
    seen = version(code)
    first = services.submit(code, players[0], cmd("rematch", seen, match=old.pk))
    assert first.ok
    after = fingerprint(code)
    # The second player pressed at the same moment, on the finished match's version.
    second = services.submit(code, players[1], cmd("rematch", seen, match=old.pk))
    assert (second.ok, second.code) == (False, "NEW_MATCH_ALREADY_ON")
    assert fingerprint(code) == after
    assert Match.objects.filter(room__code=code).count() == 2
    # Pressed once more by the first player, it is told the same.
    again = services.submit(code, players[0], cmd("rematch", seen, action_id=None, match=old.pk))
    assert again.code == "NEW_MATCH_ALREADY_ON"


def test_a_resent_press_is_applied_once(owner: Any, players: list[Any]) -> None:
    code, old = finished(owner, players)
    press = cmd("rematch", version(code), match=old.pk)
    assert services.submit(code, players[1], press).ok
    after = fingerprint(code)
    resent = services.submit(code, players[1], press)
    assert resent.ok and resent.duplicate
    assert fingerprint(code) == after


@pytest.mark.parametrize("who", ["outsider", "spectator"])
def test_only_a_seated_player_may_press_it(owner: Any, players: list[Any], who: str,
                                           request: pytest.FixtureRequest) -> None:
    code, old = finished(owner, players)
    before = fingerprint(code)
    out = submit(code, request.getfixturevalue(who), "rematch", match=old.pk)
    assert (out.ok, out.code) == (False, "NOT_SEATED")
    assert fingerprint(code) == before


def test_with_regame_by_owner_only_the_owner_presses_it(owner: Any, players: list[Any]) -> None:
    code, old = finished(owner, players, regame_by="owner")
    before = fingerprint(code)
    out = submit(code, players[2], "rematch", match=old.pk)
    assert (out.ok, out.code) == (False, "NOT_ROOM_OWNER")
    assert fingerprint(code) == before
    must(code, owner, "rematch", match=old.pk)


def test_not_before_the_match_is_over(owner: Any, players: list[Any],
                                      table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    advance(code, by_seat, "ROUND_OVER")
    match = Room.objects.get(code=code).current_match
    before = fingerprint(code)
    out = submit(code, by_seat[1], "rematch", match=match.pk)
    assert (out.ok, out.code) == (False, "WRONG_PHASE")
    # A match id that is not the table's: refused the same way, nothing changes.
    out = submit(code, by_seat[1], "rematch", match=match.pk + 1000)
    assert (out.ok, out.code) == (False, "WRONG_PHASE")
    assert fingerprint(code) == before


def test_the_frame_names_the_finished_match() -> None:
    base = {"type": "rematch", "action_id": "x1", "expected_version": 3}
    frame = parse(json.dumps({**base, "match": 7}))
    assert (frame.type, frame.fields) == ("rematch", {"match": 7})
    for bad, code in (({}, "MISSING_FIELD"), ({"match": "7"}, "INVALID_FIELD")):
        with pytest.raises(ProtocolError) as caught:
            parse(json.dumps({**base, **bad}))
        assert caught.value.code == code


# --- the score sheet's deals ------------------------------------------------------------------

def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def test_the_sheet_lists_every_scored_deal(owner: Any, players: list[Any]) -> None:
    # Several seeds: at least one of them has a BUOB call and the check covers it.
    calls_seen = 0
    for seed in range(3):
        code, match = finished(owner, players, seed=seed, bock=True)
        match.refresh_from_db()
        for seat in (*range(4), None):
            deals = services.table_snapshot(code).view_for(seat)["match"]["deals"]
            assert deals == services.table_snapshot(code).view_for(0)["match"]["deals"]
        rounds = list(Round.objects.filter(match=match).order_by("number"))
        assert [d["number"] for d in deals] == [r.number for r in rounds]
        for d, r in zip(deals, rounds, strict=True):
            mult = 2 if r.is_bock else 1
            assert d["points"] == [r.points_a, r.points_b] and sum(d["points"]) == 72
            assert d["scored"] == [r.points_a * mult, r.points_b * mult]
            assert d["bock"] == r.is_bock and d["dealer"] == r.dealer
            calls = [t for t in Trick.objects.filter(round=r).order_by("number") if t.buob_call]
            assert [(c["trick"], c["caller"], c["suit"], c["mode"]) for c in d["buob"]] == [
                (t.number, t.buob_call["caller"], t.buob_call["suit"], t.buob_call["mode"])
                for t in calls]
            assert all(c["won"] == (t.winner % 2 == c["caller"] % 2)
                       for c, t in zip(d["buob"], calls, strict=True))
            calls_seen += len(calls)
            debt = r.narr_debts.first()
            assert d["narr_debt"] == (None if debt is None else {
                "debtor": debt.debtor, "creditor": debt.creditor, "status": debt.status})
        assert deals[-1]["running"] == [match.total_a, match.total_b]
        # No card of any kind is named in the list.
        assert not _strings(deals) & set(CARD_IDS)
        must(code, owner, "close_room")
    assert calls_seen > 0


def test_no_deal_list_while_a_deal_is_played(table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    advance(code, by_seat, "PLAY")
    assert "deals" not in services.table_snapshot(code).view_for(0)["match"]
    advance(code, by_seat, "ROUND_OVER")
    deals = services.table_snapshot(code).view_for(None)["match"]["deals"]
    assert len(deals) == 1 and deals[0]["running"] == deals[0]["scored"]

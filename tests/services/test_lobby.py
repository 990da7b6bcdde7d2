"""Rooms and the lobby (issue #4 items 1–2; RULES §3, §12, §14).

Seats, teams, the owner's tools (move, kick, hand over, house rules, visibility, spectators,
close), who inherits the room, when a match may start, A-B-A-B seating with the owner's seat
dealing first, and who is shown as connected. Most tests call the one writer directly with
protocol Commands, as the consumer does; the presence and kick tests go over websockets.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import services
from games.engine import team_of
from games.models import MatchStatus, Room, Round, Seat
from tests import personas
from tests.support import tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def reject(code: str, user: Any, type_: str, expected: str, **fields: Any) -> None:
    before = tables.fingerprint(code)
    out = tables.submit(code, user, type_, **fields)
    assert not out.ok and out.code == expected, out
    assert tables.fingerprint(code) == before


def seats(code: str) -> dict[int, tuple[int, str]]:
    """index → (user id, team) of every seated player."""
    return {s.index: (s.user_id, s.team)
            for s in Seat.objects.filter(room__code=code, index__isnull=False)}


def owner_id(code: str) -> int:
    return Room.objects.get(code=code).owner_id


# --- seats -------------------------------------------------------------------------------

def test_take_seat_fills_team_slots_by_parity(owner: Any, players: list[Any]) -> None:
    anna, benedetg, curdin = players
    room = services.create_room(owner)  # the owner sits in team A, seat 0
    code = room.code
    tables.must(code, anna, "take_seat", team="A")
    tables.must(code, benedetg, "take_seat", team="B", index=3)
    tables.must(code, curdin, "take_seat", team="B")
    assert seats(code) == {0: (owner.pk, "A"), 1: (curdin.pk, "B"), 2: (anna.pk, "A"),
                           3: (benedetg.pk, "B")}


def test_take_seat_refusals(owner: Any, players: list[Any], outsider: Any,
                            spectator: Any) -> None:
    anna, benedetg, curdin = players
    code = services.create_room(owner).code
    tables.must(code, anna, "take_seat", team="A")
    reject(code, benedetg, "take_seat", "TEAM_FULL", team="A")
    reject(code, benedetg, "take_seat", "SEAT_TAKEN", team="A", index=2)
    reject(code, benedetg, "take_seat", "SEAT_TAKEN", team="A", index=0)
    reject(code, benedetg, "take_seat", "INVALID_FIELD", team="B", index=2)
    reject(code, anna, "take_seat", "ALREADY_SEATED", team="A")
    tables.must(code, benedetg, "take_seat", team="B", index=1)
    tables.must(code, curdin, "take_seat", team="B")
    reject(code, outsider, "take_seat", "TEAM_FULL", team="B")
    reject(code, spectator, "take_seat", "TEAM_FULL", team="A")


def test_switching_team_and_leaving(owner: Any, players: list[Any]) -> None:
    anna, benedetg, _ = players
    code = services.create_room(owner).code
    tables.must(code, anna, "take_seat", team="A")
    # A seated player may change team (and seat) while there is room there.
    tables.must(code, anna, "take_seat", team="B")
    assert seats(code)[1] == (anna.pk, "B") and 2 not in seats(code)
    tables.must(code, anna, "take_seat", team="B", index=3)
    assert seats(code)[3] == (anna.pk, "B") and 1 not in seats(code)
    tables.must(code, anna, "leave_seat")
    assert anna.pk not in {u for u, _ in seats(code).values()}
    reject(code, anna, "leave_seat", "NOT_SEATED")
    reject(code, benedetg, "leave_seat", "NOT_SEATED")


def test_seats_are_fixed_during_a_match(owner: Any, players: list[Any],
                                        outsider: Any) -> None:
    anna, benedetg, curdin = players
    room = tables.seat_table(owner, players)
    code = room.code
    tables.must(code, owner, "start_round")
    reject(code, outsider, "take_seat", "MATCH_IN_PROGRESS", team="A")
    reject(code, anna, "take_seat", "MATCH_IN_PROGRESS", team="A")
    reject(code, anna, "leave_seat", "MATCH_IN_PROGRESS")
    reject(code, owner, "leave_seat", "MATCH_IN_PROGRESS")
    reject(code, owner, "move_player", "MATCH_IN_PROGRESS", player=anna.pk, index=3)
    reject(code, owner, "kick", "MATCH_IN_PROGRESS", player=curdin.pk)
    reject(code, owner, "set_options", "MATCH_IN_PROGRESS", options={"reveal_seconds": 9})
    assert seats(code)[2] == (benedetg.pk, "A")


# --- the owner's tools -------------------------------------------------------------------

def test_move_player_to_a_free_seat_and_swap(owner: Any, players: list[Any]) -> None:
    anna, benedetg, curdin = players
    code = services.create_room(owner).code
    tables.must(code, anna, "take_seat", team="B")       # 1
    tables.must(code, benedetg, "take_seat", team="A")   # 2
    # To a free seat of the other team: the team follows the seat.
    tables.must(code, owner, "move_player", player=benedetg.pk, index=3)
    assert seats(code) == {0: (owner.pk, "A"), 1: (anna.pk, "B"), 3: (benedetg.pk, "B")}
    # Onto a taken seat: the two players swap seats (and teams).
    tables.must(code, owner, "move_player", player=anna.pk, index=0)
    assert seats(code) == {0: (anna.pk, "A"), 1: (owner.pk, "B"), 3: (benedetg.pk, "B")}
    tables.must(code, curdin, "take_seat", team="A")
    tables.must(code, owner, "move_player", player=curdin.pk, index=3)
    assert seats(code) == {0: (anna.pk, "A"), 1: (owner.pk, "B"), 2: (benedetg.pk, "A"),
                           3: (curdin.pk, "B")}
    # Only the owner, and only seated players.
    reject(code, anna, "move_player", "NOT_ROOM_OWNER", player=curdin.pk, index=1)
    outsider_id = max(u for u, _ in seats(code).values()) + 1000
    reject(code, owner, "move_player", "NOT_IN_ROOM", player=outsider_id, index=1)


def test_kick(owner: Any, players: list[Any], outsider: Any) -> None:
    anna, benedetg, _ = players
    code = services.create_room(owner).code
    tables.must(code, anna, "take_seat", team="B")
    reject(code, benedetg, "kick", "NOT_ROOM_OWNER", player=anna.pk)
    reject(code, owner, "kick", "CANNOT_TARGET_SELF", player=owner.pk)
    reject(code, owner, "kick", "NOT_IN_ROOM", player=outsider.pk)
    tables.must(code, owner, "kick", player=anna.pk)
    assert 1 not in seats(code)
    # A kicked player may sit down again (a kick is not a ban).
    tables.must(code, anna, "take_seat", team="B")


def test_transfer_owner(owner: Any, players: list[Any], outsider: Any) -> None:
    anna, benedetg, _ = players
    code = services.create_room(owner).code
    tables.must(code, anna, "take_seat", team="B")
    reject(code, anna, "transfer_owner", "NOT_ROOM_OWNER", player=anna.pk)
    reject(code, owner, "transfer_owner", "CANNOT_TARGET_SELF", player=owner.pk)
    reject(code, owner, "transfer_owner", "NOT_IN_ROOM", player=outsider.pk)
    tables.must(code, owner, "transfer_owner", player=anna.pk)
    assert owner_id(code) == anna.pk
    # The old owner has lost the owner's tools; the new one has them.
    reject(code, owner, "kick", "NOT_ROOM_OWNER", player=anna.pk)
    tables.must(code, anna, "set_options", name="Anna's table")


def test_owner_leaving_hands_the_room_to_the_longest_seated(owner: Any,
                                                            players: list[Any]) -> None:
    anna, benedetg, curdin = players
    code = services.create_room(owner).code
    tables.must(code, anna, "take_seat", team="B")       # first to sit down after the owner
    tables.must(code, benedetg, "take_seat", team="A")
    # anna left and came back: she is now seated more recently than benedetg.
    tables.must(code, anna, "leave_seat")
    tables.must(code, anna, "take_seat", team="B")
    # Switching team keeps a player's seniority.
    tables.must(code, benedetg, "take_seat", team="B", index=3)
    tables.must(code, curdin, "take_seat", team="A")
    tables.must(code, owner, "leave_seat")
    assert owner_id(code) == benedetg.pk
    tables.must(code, benedetg, "move_player", player=curdin.pk, index=0)
    # The new owner leaving hands it on again: anna (back before curdin sat down).
    tables.must(code, benedetg, "leave_seat")
    assert owner_id(code) == anna.pk
    reject(code, benedetg, "kick", "NOT_ROOM_OWNER", player=curdin.pk)


def test_last_seated_owner_leaving_keeps_the_room(owner: Any) -> None:
    code = services.create_room(owner).code
    tables.must(code, owner, "leave_seat")
    assert owner_id(code) == owner.pk
    tables.must(code, owner, "take_seat", team="B")


def test_set_options(owner: Any, players: list[Any]) -> None:
    anna = players[0]
    code = services.create_room(owner).code
    new = {"reveal_seconds": 10, "match_deals": 8, "turn_seconds": 30, "bock": True,
           "bock_triggers": ["tie"], "scart_forbidden": "none", "buob_caller": "king_team",
           "regame_by": "owner", "reveal_persist": True}
    tables.must(code, owner, "set_options", options=new)
    room = Room.objects.get(code=code)
    for key, value in new.items():
        assert room.options[key] == value
    reject(code, anna, "set_options", "NOT_ROOM_OWNER", options={"reveal_seconds": 5})
    for bad in ({"reveal_seconds": 1}, {"reveal_seconds": 31}, {"match_deals": 5},
                {"turn_seconds": 10}, {"turn_seconds": 121}, {"scart_forbidden": "all"},
                {"bock_triggers": ["sometimes"]}, {"bock": "yes"}, {"no_such_rule": 1},
                {"reveal_seconds": "5"}):
        reject(code, owner, "set_options", "INVALID_OPTIONS", options=bad)
    assert Room.objects.get(code=code).options == room.options
    # A partial update changes the named rule and keeps every other one.
    tables.must(code, owner, "set_options", options={"reveal_seconds": 7})
    assert Room.objects.get(code=code).options == {**room.options, "reveal_seconds": 7}


def test_options_only_between_matches_but_room_settings_any_time(owner: Any,
                                                                 players: list[Any]) -> None:
    room = tables.seat_table(owner, players)
    code = room.code
    by_seat = personas.by_seat(owner, players)
    tables.advance(code, by_seat, "PLAY")
    reject(code, owner, "set_options", "MATCH_IN_PROGRESS", options={"reveal_seconds": 9})
    # Invalid and during a match: the match is the reason given (checked first).
    reject(code, owner, "set_options", "MATCH_IN_PROGRESS", options={"reveal_seconds": 99})
    # Visibility, spectators and the name are the room's, not house rules.
    tables.must(code, owner, "set_options", visibility="private", allow_spectators=False,
                name="  Sunday table ")
    room = Room.objects.get(code=code)
    assert (room.visibility, room.allow_spectators, room.name) == ("private", False,
                                                                   "Sunday table")


def test_visibility_decides_the_listing(owner: Any) -> None:
    code = services.create_room(owner).code
    assert Room.objects.listed().filter(code=code).exists()
    tables.must(code, owner, "set_options", visibility="private")
    assert not Room.objects.listed().filter(code=code).exists()
    tables.must(code, owner, "set_options", visibility="public")
    assert Room.objects.listed().filter(code=code).exists()


def test_allow_spectators_decides_who_may_watch(owner: Any, players: list[Any],
                                                outsider: Any) -> None:
    room = tables.seat_table(owner, players, allow_spectators=True)
    code = room.code
    tables.must(code, owner, "start_round")
    assert services.may_watch(code, outsider) is None
    tables.must(code, owner, "set_options", allow_spectators=False)
    assert services.may_watch(code, outsider) == "SPECTATORS_NOT_ALLOWED"
    assert services.may_watch(code, players[0]) is None


def test_close_room(owner: Any, players: list[Any]) -> None:
    anna = players[0]
    room = tables.seat_table(owner, players)
    code = room.code
    by_seat = personas.by_seat(owner, players)
    tables.advance(code, by_seat, "REVEAL")   # a timer is running
    match = Room.objects.get(code=code).current_match
    reject(code, anna, "close_room", "NOT_ROOM_OWNER")
    tables.must(code, owner, "close_room")
    room = Room.objects.get(code=code)
    assert room.closed is not None and not Room.objects.listed().filter(code=code).exists()
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED and match.finished is not None
    # The timer is gone: no sweep will move the abandoned deal.
    assert Round.objects.get(match=match).deadline is None
    Round.objects.filter(match=match).update(deadline=timezone.now() - timedelta(seconds=1),
                                             deadline_kind="reveal")
    assert services.sweep_deadlines() == 0
    # Every further action, by anyone, is refused with ROOM_CLOSED.
    reject(code, owner, "set_options", "ROOM_CLOSED", name="again")
    reject(code, owner, "close_room", "ROOM_CLOSED")
    reject(code, owner, "deal_next_pass", "ROOM_CLOSED")
    reject(code, anna, "leave_seat", "ROOM_CLOSED")
    reject(code, owner, "transfer_owner", "ROOM_CLOSED", player=anna.pk)


def test_closing_a_lobby(owner: Any, players: list[Any]) -> None:
    code = services.create_room(owner).code
    tables.must(code, owner, "close_room")
    reject(code, players[0], "take_seat", "ROOM_CLOSED", team="B")
    reject(code, owner, "start_round", "ROOM_CLOSED")


# --- starting a match --------------------------------------------------------------------

def test_start_needs_two_against_two(owner: Any, players: list[Any]) -> None:
    anna, benedetg, curdin = players
    code = services.create_room(owner).code
    reject(code, owner, "start_round", "TEAMS_NOT_BALANCED")
    tables.must(code, anna, "take_seat", team="B")
    tables.must(code, benedetg, "take_seat", team="A")
    reject(code, owner, "start_round", "TEAMS_NOT_BALANCED")  # three players
    tables.must(code, curdin, "take_seat", team="B")
    reject(code, anna, "start_round", "NOT_ROOM_OWNER")
    tables.must(code, owner, "start_round")
    assert tables.phase(code) == "DEALING"


def test_owner_must_be_seated_to_start(owner: Any, players: list[Any],
                                       make_user: Any) -> None:
    # RULES §3: the owner's seat deals first, so an owner without a seat cannot start.
    dora = make_user("dora")
    code = services.create_room(owner, take_seat=None).code
    for p, team in zip([*players, dora], ("A", "B", "A", "B"), strict=True):
        tables.must(code, p, "take_seat", team=team)
    reject(code, owner, "start_round", "OWNER_NOT_SEATED")
    # With the owner standing and the table one short, the owner's seat is still the reason.
    tables.must(code, dora, "leave_seat")
    reject(code, owner, "start_round", "OWNER_NOT_SEATED")
    tables.must(code, owner, "take_seat", team="B")
    tables.must(code, owner, "start_round")
    st = tables.state(code)
    assert st is not None and st.dealer == st.first_dealer == 3


@pytest.mark.parametrize("owner_team, owner_index", [("A", 0), ("B", 1), ("A", 2), ("B", 3)])
def test_abab_seating_and_the_owners_seat_deals_first(owner: Any, players: list[Any],
                                                      owner_team: str,
                                                      owner_index: int) -> None:
    code = services.create_room(owner, take_seat=None).code
    tables.must(code, owner, "take_seat", team=owner_team, index=owner_index)
    for p in players:
        free = "A" if sum(1 for _, t in seats(code).values() if t == "A") < 2 else "B"
        tables.must(code, p, "take_seat", team=free)
    tables.must(code, owner, "start_round")
    room = Room.objects.get(code=code)
    match = room.current_match
    # A-B-A-B: team A on the even seats, team B on the odd ones, everyone where they sat.
    assert all(team == team_of(index) for index, (_, team) in seats(code).items())
    players_by_seat = [match.player_0_id, match.player_1_id, match.player_2_id,
                       match.player_3_id]
    assert players_by_seat == [seats(code)[i][0] for i in range(4)]
    assert players_by_seat[owner_index] == owner.pk
    st = tables.state(code)
    assert st is not None and st.deal is not None
    assert st.dealer == st.first_dealer == st.deal.dealer == owner_index


def test_new_match_returns_to_the_lobby_and_the_owner_deals_first_again(
        owner: Any, players: list[Any]) -> None:
    room = tables.seat_table(owner, players, {"match_deals": 0})
    code = room.code
    by_seat = personas.by_seat(owner, players)
    tables.advance(code, by_seat, "ROUND_OVER")
    tables.must(code, owner, "regame")  # the owner's regame moves the dealer to seat 1
    tables.advance(code, by_seat, "ROUND_OVER")
    reject(code, players[0], "end_match", "NOT_ROOM_OWNER")
    tables.must(code, owner, "end_match")
    assert tables.phase(code) == "MATCH_OVER"
    reject(code, players[0], "new_match", "NOT_ROOM_OWNER")
    # Seats stay fixed until the owner starts a new match.
    reject(code, players[0], "leave_seat", "MATCH_IN_PROGRESS")
    tables.must(code, owner, "new_match")
    assert tables.phase(code) == "LOBBY"
    tables.must(code, owner, "move_player", player=players[0].pk, index=3)  # lobby again
    tables.must(code, owner, "start_round")
    st = tables.state(code)
    assert st is not None and st.dealer == 0 and st.totals == (0, 0)


# --- who is connected --------------------------------------------------------------------

@pytest.mark.asyncio
async def test_lobby_shows_who_is_connected(owner: Any, players: list[Any],
                                            outsider: Any) -> None:
    anna = players[0]
    code = (await sync_to_async(services.create_room)(owner)).code
    await sync_to_async(tables.must)(code, anna, "take_seat", team="B")
    owner_tab = await tables.open_tab(owner, code, "owner")
    me = next(s for s in owner_tab.view["seats"] if s["index"] == 0)
    assert me["connected"] is True and me["is_owner"] is True
    anna_seat = next(s for s in owner_tab.view["seats"] if s["index"] == 1)
    assert anna_seat["connected"] is False
    anna_tab = await tables.open_tab(anna, code, "anna")
    seen = await owner_tab.wait_for(lambda m: m["type"] == "presence"
                                    and anna.pk in m["connected"], timeout=10)
    assert sorted(seen["connected"]) == sorted([owner.pk, anna.pk])
    assert next(s for s in anna_tab.view["seats"] if s["index"] == 1)["connected"] is True
    # A watcher is connected too (the presence list is everyone at the table).
    watcher = await tables.open_tab(outsider, code, "outsider")
    await owner_tab.wait_for(lambda m: m["type"] == "presence"
                             and outsider.pk in m["connected"], timeout=10)
    await watcher.close()
    await anna_tab.close()
    left = await owner_tab.wait_for(lambda m: m["type"] == "presence"
                                    and anna.pk not in m["connected"]
                                    and outsider.pk not in m["connected"], timeout=10)
    assert left["connected"] == [owner.pk]
    # The seat is kept, shown as away, in the next full view.
    await owner_tab.send_raw('{"type": "sync"}')
    state = await owner_tab.wait_for(lambda m: m["type"] == "state", timeout=10)
    anna_seat = next(s for s in state["view"]["seats"] if s["index"] == 1)
    assert anna_seat["player"]["id"] == anna.pk and anna_seat["connected"] is False
    await owner_tab.close()


@pytest.mark.asyncio
async def test_kicked_player_becomes_a_watcher(owner: Any, players: list[Any]) -> None:
    anna = players[0]
    code = (await sync_to_async(services.create_room)(owner)).code
    await sync_to_async(tables.must)(code, anna, "take_seat", team="B")
    anna_tab = await tables.open_tab(anna, code, "anna")
    assert anna_tab.view["seat"] == 1
    owner_tab = await tables.open_tab(owner, code, "owner")
    v = owner_tab.version
    action_id = await owner_tab.send("kick", player=anna.pk)
    assert (await tables.answer(owner_tab, action_id))["type"] == "ack"
    kicked = await anna_tab.wait_version(v + 1)
    assert kicked["view"]["seat"] is None
    assert [s["index"] for s in kicked["view"]["seats"]] == [0]
    # Her former seat's actions are no longer hers.
    action_id = await anna_tab.send("leave_seat")
    assert (await tables.answer(anna_tab, action_id))["code"] == "NOT_SEATED"
    await anna_tab.close()
    await owner_tab.close()

"""The invariants the database itself enforces (issue: "constraints in the database where they
belong"). Each test writes a row that breaks exactly one rule and expects IntegrityError."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from games import services
from games.models import (
    INVITE_ALPHABET,
    INVITE_LENGTH,
    Match,
    MatchStatus,
    NarrDebt,
    Room,
    Round,
    RoundAction,
    Seat,
    Trick,
)

from .factories import full_table

pytestmark = pytest.mark.django_db


def broken(**_: object) -> pytest.RaisesContext:
    return pytest.raises(IntegrityError)


# full_table's action log is the services' own: a row written here by hand takes a table version
# and a deal sequence number nobody holds yet, unless the test is about the one it breaks.
def free_version(table) -> int:
    return RoundAction.objects.filter(room=table.room).aggregate(m=Max("version"))["m"] + 1


def free_sequence(table) -> int:
    return RoundAction.objects.filter(round=table.round).aggregate(m=Max("sequence"))["m"] + 1


def test_a_user_takes_one_seat_per_room(owner, players):
    room = Room.objects.create(owner=owner)
    Seat.objects.create(room=room, user=owner, team="A")
    with broken(), transaction.atomic():
        Seat.objects.create(room=room, user=owner, team="B")


def test_a_seat_index_is_unique_per_room_once_set(owner, players):
    room = Room.objects.create(owner=owner)
    Seat.objects.create(room=room, user=owner, team="A", index=0)
    # Unnumbered lobby seats do not collide with each other.
    Seat.objects.create(room=room, user=players[0], team="B")
    Seat.objects.create(room=room, user=players[1], team="A")
    with broken(), transaction.atomic():
        Seat.objects.create(room=room, user=players[2], team="A", index=0)
    # The same index in another room is fine.
    other = Room.objects.create(owner=players[2])
    Seat.objects.create(room=other, user=players[2], team="A", index=0)


@pytest.mark.parametrize("index", [4, 7])
def test_a_seat_index_is_0_to_3(owner, index):
    room = Room.objects.create(owner=owner)
    with broken(), transaction.atomic():
        Seat.objects.create(room=room, user=owner, team="A", index=index)


def test_a_team_is_a_or_b(owner):
    room = Room.objects.create(owner=owner)
    with broken(), transaction.atomic():
        Seat.objects.create(room=room, user=owner, team="C")


def test_one_running_match_per_room(owner, players):
    table = full_table(owner, players)
    users = [owner, *players]
    seats = {f"player_{i}": u for i, u in enumerate(users)}
    with broken(), transaction.atomic():
        Match.objects.create(room=table.room, number=2, **seats)
    # Ending the running one makes room for the next.
    Match.objects.filter(pk=table.match.pk).update(
        status=MatchStatus.FINISHED, finished=timezone.now(), winner="A"
    )
    Match.objects.create(room=table.room, number=2, **seats)
    # Another room may run its own match at the same time.
    other = Room.objects.create(owner=owner)
    Match.objects.create(room=other, number=1, **seats)


def test_a_running_match_has_no_end_and_an_ended_one_has(owner, players):
    table = full_table(owner, players)
    with broken(), transaction.atomic():
        Match.objects.filter(pk=table.match.pk).update(finished=timezone.now())
    with broken(), transaction.atomic():
        Match.objects.filter(pk=table.match.pk).update(status=MatchStatus.ABANDONED)
    with broken(), transaction.atomic():
        Match.objects.filter(pk=table.match.pk).update(winner="A")


def test_match_numbers_are_unique_per_room(owner, players):
    table = full_table(owner, players)
    Match.objects.filter(pk=table.match.pk).update(
        status=MatchStatus.ABANDONED, finished=timezone.now()
    )
    users = {f"player_{i}": u for i, u in enumerate([owner, *players])}
    with broken(), transaction.atomic():
        Match.objects.create(room=table.room, number=1, **users)


def test_action_ids_are_unique_across_all_deals(owner, players):
    table = full_table(owner, players)
    second = Round.objects.create(match=table.match, number=2, dealer=1, deck=[],
                                  engine_state={})
    with broken(), transaction.atomic():
        RoundAction.objects.create(room=table.room, round=second, version=free_version(table),
                                   sequence=1, kind="play_card", action_id=table.action.action_id)
    RoundAction.objects.create(room=table.room, round=second, version=free_version(table),
                               sequence=1, kind="play_card", action_id="another-id")


def test_action_sequence_is_unique_per_deal(owner, players):
    table = full_table(owner, players)
    version = free_version(table)
    with broken(), transaction.atomic():
        RoundAction.objects.create(room=table.room, round=table.round, version=version,
                                   sequence=table.action.sequence, kind="play_card")
    RoundAction.objects.create(room=table.room, round=table.round, version=version,
                               sequence=free_sequence(table), kind="play_card")


def test_table_version_is_unique_per_room(owner, players):
    table = full_table(owner, players)
    with broken(), transaction.atomic():
        RoundAction.objects.create(room=table.room, round=table.round, version=table.action.version,
                                   sequence=free_sequence(table), kind="play_card")
    # Lobby actions belong to no deal but still take the next table version.
    RoundAction.objects.create(room=table.room, version=free_version(table), kind="take_seat")


def test_the_action_log_is_append_only(owner, players):
    table = full_table(owner, players)
    table.action.payload = {"card": "SJ"}
    with pytest.raises(TypeError, match="append-only"):
        table.action.save()
    table.action.refresh_from_db()
    assert table.action.payload == {"card": "T21"}


def test_system_actions_get_a_fresh_action_id(owner, players):
    table = full_table(owner, players)
    version, sequence = free_version(table), free_sequence(table)
    first = RoundAction.objects.create(room=table.room, round=table.round, version=version,
                                       sequence=sequence, kind="turn_timeout")
    second = RoundAction.objects.create(room=table.room, round=table.round, version=version + 1,
                                        sequence=sequence + 1, kind="turn_timeout")
    assert first.action_id and second.action_id and first.action_id != second.action_id
    assert first.actor is None and first.actor_seat is None


def test_deal_numbers_are_unique_per_match(owner, players):
    table = full_table(owner, players)
    with broken(), transaction.atomic():
        Round.objects.create(match=table.match, number=1, dealer=1, deck=[], engine_state={})


def test_a_deadline_names_its_timer(owner, players):
    table = full_table(owner, players)
    with broken(), transaction.atomic():
        Round.objects.filter(pk=table.round.pk).update(deadline=timezone.now())
    with broken(), transaction.atomic():
        Round.objects.filter(pk=table.round.pk).update(deadline_kind="turn")
    Round.objects.filter(pk=table.round.pk).update(deadline=timezone.now(), deadline_kind="turn")


def test_deal_points_add_up_to_72(owner, players):
    table = full_table(owner, players)
    with broken(), transaction.atomic():
        Round.objects.filter(pk=table.round.pk).update(points_a=40, points_b=40)
    with broken(), transaction.atomic():
        Round.objects.filter(pk=table.round.pk).update(points_a=40)
    Round.objects.filter(pk=table.round.pk).update(points_a=36, points_b=36)


def test_trick_numbers_are_unique_per_deal_and_1_to_19(owner, players):
    table = full_table(owner, players)
    with broken(), transaction.atomic():
        Trick.objects.create(round=table.round, number=1, leader=0)
    with broken(), transaction.atomic():
        Trick.objects.create(round=table.round, number=20, leader=0)
    with broken(), transaction.atomic():
        Trick.objects.create(round=table.round, number=2, leader=4)


def test_at_most_one_narr_debt_per_deal(owner, players):
    table = full_table(owner, players)
    with broken(), transaction.atomic():
        NarrDebt.objects.create(round=table.round, debtor="B", creditor="A")


def test_a_team_cannot_owe_itself(owner, players):
    table = full_table(owner, players)
    NarrDebt.objects.filter(pk=table.debt.pk).delete()
    with broken(), transaction.atomic():
        NarrDebt.objects.create(round=table.round, debtor="A", creditor="A")


def test_a_settled_debt_names_its_card(owner, players):
    table = full_table(owner, players)
    with broken(), transaction.atomic():
        NarrDebt.objects.filter(pk=table.debt.pk).update(status="settled")
    NarrDebt.objects.filter(pk=table.debt.pk).update(status="settled", paid_card="C1")


def test_invite_codes_are_unique_and_readable(owner):
    codes = {Room.objects.create(owner=owner).code for _ in range(30)}
    assert len(codes) == 30
    for code in codes:
        assert len(code) == INVITE_LENGTH
        assert set(code) <= set(INVITE_ALPHABET)
    room = Room.objects.create(owner=owner)
    with broken(), transaction.atomic():
        Room.objects.create(owner=owner, code=room.code)


def test_room_options_default_to_rules_14(owner):
    room = services.create_room(owner)
    assert room.options["reveal_seconds"] == 5
    assert room.options["bock_triggers"] == ["tie", "all_tricks"]
    assert services.rules_of(room).match_deals == 4


def test_room_options_are_validated_and_completed(owner):
    room = services.create_room(owner, {"bock": True, "turn_seconds": 30})
    assert room.options["bock"] is True and room.options["reveal_seconds"] == 5
    for bad in ({"reveal_seconds": 99}, {"no_such_rule": 1}):
        with pytest.raises(services.ServiceError) as excinfo:
            services.create_room(owner, bad)
        assert excinfo.value.code == "INVALID_OPTIONS"


def test_game_history_protects_its_players(owner, players):
    from django.db.models import ProtectedError

    full_table(owner, players)
    with pytest.raises(ProtectedError):
        players[0].delete()

"""The writer's hot path (games/services/sql.py, bench/ws_load.py): the rows it reads are the rows
the ORM reads, a card played costs a fixed handful of statements, and the log stays contiguous."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.engine import PLAY, legal_actions
from games.models import Connection, Match, Room, Round, RoundAction, Seat
from games.services import sql as hot_sql
from tests.support import tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]



def _fields(obj: Any) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def _to_first_card(code: str, by_seat: dict[int, Any]) -> tuple[int, str]:
    """Play the deal up to its first trick: the seat on turn and a card it may play."""
    st = tables.advance(code, by_seat, PLAY)
    assert st is not None and st.deal is not None and st.deal.turn is not None
    return st.deal.turn, legal_actions(st, st.deal.turn)["legal_cards"][0]


def test_the_table_rows_are_the_orm_rows(table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    tables.advance(code, by_seat, PLAY)
    loaded = hot_sql.load_table(code, lock=False)
    assert loaded is not None
    room, match, rnd = loaded
    assert _fields(room) == _fields(Room.objects.get(code=code))
    assert _fields(match) == _fields(Match.objects.get(pk=room.current_match_id))
    latest = Round.objects.filter(match=match).order_by("-number").first()
    assert _fields(rnd) == _fields(latest)
    assert rnd.deadline is None or rnd.deadline.tzinfo is not None
    assert room.current_match is match and rnd.match is match  # no lazy query later


def test_a_lobby_has_no_match_and_no_deal(table: tuple[str, dict[int, Any]]) -> None:
    code, _ = table
    room, match, rnd = hot_sql.load_table(code, lock=True)  # type: ignore[misc]
    assert (room.code, match, rnd) == (code, None, None)
    assert hot_sql.load_table("NOSUCH", lock=False) is None


def test_seat_rows_carry_names_and_presence(table: tuple[str, dict[int, Any]],
                                            players: list[Any]) -> None:
    code, by_seat = table
    room = Room.objects.get(code=code)
    Connection.objects.create(room=room, user=players[1], channel_name="test.here",
                              last_seen=timezone.now())
    rows = hot_sql.seat_rows(room.pk, timezone.now() - services.PRESENCE_TIMEOUT)
    assert [r.index for r in rows] == [0, 1, 2, 3]
    for row in rows:
        seat = Seat.objects.select_related("user").get(room=room, index=row.index)
        assert (row.team, row.user_id, row.joined) == (seat.team, seat.user_id, seat.joined)
        assert row.name == (seat.user.display_name or seat.user.username)
        assert row.online == (seat.user_id == players[1].pk)


def _statements(ctx: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in ctx.captured_queries
            if not q["sql"].upper().startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))]


def test_a_card_played_is_a_fixed_handful_of_statements_and_its_log_row(
        table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    turn, card = _to_first_card(code, by_seat)
    before = RoundAction.objects.filter(room__code=code).count()
    play = tables.cmd("play_card", tables.version(code), card=card)
    with CaptureQueriesContext(connection) as ctx:
        out = services.submit(code, by_seat[turn], play)
    assert out.ok and not out.duplicate
    statements = _statements(ctx)
    # Load (room, match, deal and the seats as one JSON column), then UPDATE deal, INSERT log
    # row and UPDATE room version: on PostgreSQL the three writes are one statement (WITH).
    assert "json_agg" in statements[0] or "json_group_array" in statements[0]
    if connection.vendor == "postgresql":
        assert len(statements) == 2, statements
        assert statements[1].startswith("WITH ") and statements[1].count("UPDATE") == 2
        assert "INSERT INTO" in statements[1]
    else:
        assert len(statements) == 4, statements
    assert not any("MAX(" in s.upper() for s in statements)
    log = list(RoundAction.objects.filter(round=tables.current_round(code))
               .order_by("sequence").values_list("sequence", flat=True))
    assert log == list(range(1, len(log) + 1))  # the deal's counter, contiguous
    assert RoundAction.objects.filter(room__code=code).count() == before + 1


def test_a_resent_action_is_acknowledged_once_without_a_lookup_first(
        table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    turn, card = _to_first_card(code, by_seat)
    first = tables.cmd("play_card", tables.version(code), action_id="click", card=card)
    assert services.submit(code, by_seat[turn], first).ok
    fingerprint = tables.fingerprint(code)
    # The same action_id again, at the old version and at the new one: refused either way
    # (stale; the card is gone), then found in the log and acknowledged as a duplicate.
    for expected in (first.expected_version, tables.version(code)):
        again = tables.cmd("play_card", expected, action_id="click", card=card)
        out = services.submit(code, by_seat[turn], again)
        assert (out.ok, out.duplicate) == (True, True)
        assert tables.fingerprint(code) == fingerprint


def test_a_resent_command_that_would_apply_again_is_rolled_back(
        table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    owner = by_seat[0]
    rename = tables.cmd("set_options", tables.version(code), action_id="rename", name="Stiva")
    assert services.submit(code, owner, rename).ok
    fingerprint = tables.fingerprint(code)
    # Valid again at the new version: applying it breaks the log's unique action_id, the
    # transaction rolls back, and the client gets the acknowledgement it missed.
    again = tables.cmd("set_options", tables.version(code), action_id="rename", name="Stiva")
    out = services.submit(code, owner, again)
    assert (out.ok, out.duplicate) == (True, True)
    assert tables.fingerprint(code) == fingerprint


def _signed_in_on_turn(table: tuple[str, dict[int, Any]], client: Any
                       ) -> tuple[str, Any, str, tuple[str, list[Any]]]:
    """The table at its first card: the seat on turn's player signed in through `client`,
    a card it may play and its session's statement (accounts.sessions)."""
    from accounts.sessions import signed_in_statement

    code, by_seat = table
    turn, card = _to_first_card(code, by_seat)
    player = by_seat[turn]
    client.force_login(player)
    session = signed_in_statement(player.pk, player.password, client.session.session_key)
    assert session is not None
    return code, player, card, session


@pytest.mark.parametrize("optimistic", [True, False])
def test_the_senders_session_is_checked_by_the_statement_that_reads_the_table(
        table: tuple[str, dict[int, Any]], client: Any, settings: Any, optimistic: bool
) -> None:
    code, player, card, session = _signed_in_on_turn(table, client)
    settings.TROCCAS_OPTIMISTIC_WRITES = optimistic
    play = tables.cmd("play_card", tables.version(code), card=card)
    with CaptureQueriesContext(connection) as ctx:
        out = services.submit(code, player, play, session=session)
    assert out.ok
    statements = _statements(ctx)
    postgresql = connection.vendor == "postgresql"
    assert len(statements) == (2 if postgresql else 4), statements
    # Read as committed by an optimistic write (tests/services/test_writer_optimistic.py), else
    # locked (PostgreSQL; SQLite's transactions are IMMEDIATE).
    assert ("FOR UPDATE" in statements[0]) == (postgresql and not optimistic)
    assert "EXISTS(SELECT 1 FROM" in statements[0]


def test_a_command_after_the_session_ended_changes_nothing(
        table: tuple[str, dict[int, Any]], client: Any) -> None:
    code, player, card, session = _signed_in_on_turn(table, client)
    client.logout()
    fingerprint = tables.fingerprint(code)
    play = tables.cmd("play_card", tables.version(code), card=card)
    out = services.submit(code, player, play, session=session)
    assert (out.ok, out.code) == (False, "NOT_AUTHENTICATED")
    assert tables.fingerprint(code) == fingerprint
    # A room that does not exist: the session is still what is answered.
    assert services.submit("NOSUCH", player, play, session=session).code == "NOT_AUTHENTICATED"


def _prepared_here() -> int:
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_prepared_statements")
        return cur.fetchone()[0]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL prepares statements")
@pytest.mark.parametrize("prepared", [True, False])
def test_the_hot_path_prepares_its_statements_unless_told_not_to(
        table: tuple[str, dict[int, Any]], settings: Any, prepared: bool) -> None:
    code, by_seat = table
    turn, card = _to_first_card(code, by_seat)
    settings.TROCCAS_PREPARED_STATEMENTS = prepared
    connection.close()  # a new connection: nothing prepared on it yet
    before = _prepared_here()
    out = services.submit(code, by_seat[turn], tables.cmd("play_card", tables.version(code),
                                                          card=card))
    assert out.ok
    # The locked table with its seats, and the one write; nothing when turned off (a pooler
    # that loses prepared statements), and the card is played the same.
    assert _prepared_here() - before == (2 if prepared else 0)
    assert RoundAction.objects.filter(round=tables.current_round(code), kind="play_card",
                                      payload__card=card).exists()


def test_the_seats_read_with_the_table_are_the_seat_rows(
        table: tuple[str, dict[int, Any]], players: list[Any]) -> None:
    code, _ = table
    room = Room.objects.get(code=code)
    now = timezone.now()
    # One player online, one away since a closed socket, one whose socket went silent.
    Connection.objects.create(room=room, user=players[0], channel_name="test.online",
                              last_seen=now)
    Connection.objects.create(room=room, user=players[1], channel_name="test.closed",
                              last_seen=now - timedelta(minutes=3),
                              closed_at=now - timedelta(minutes=2))
    Connection.objects.create(room=room, user=players[2], channel_name="test.silent",
                              last_seen=now - timedelta(minutes=5))
    since = now - services.PRESENCE_TIMEOUT
    loaded, checked = hot_sql.load_table_with(code, online_since=since)
    assert loaded is not None and checked is None
    assert loaded.seats == hot_sql.seat_rows(room.pk, since)
    by_user = {s.user_id: s for s in loaded.seats}
    assert by_user[players[0].pk].online and by_user[players[0].pk].away_since is None
    assert by_user[players[1].pk].away_since == now - timedelta(minutes=2)
    assert by_user[players[2].pk].away_since == (now - timedelta(minutes=5)
                                                 + services.PRESENCE_TIMEOUT)
    assert all(s.joined.tzinfo is not None for s in loaded.seats)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's row locks")
def test_a_table_locked_after_another_writer_is_read_as_that_writer_left_it(
        table: tuple[str, dict[int, Any]]) -> None:
    import threading
    import time

    from django.db import connections, transaction

    code, by_seat = table
    tables.advance(code, by_seat, PLAY)
    rnd = tables.current_round(code)
    holding, done = threading.Event(), threading.Event()

    def other_writer() -> None:
        # Another process's writer: holds the room's lock, changes the deal and the version,
        # commits while this test's load waits for the lock.
        try:
            with transaction.atomic():
                hot_sql.load_table_with(code, online_since=timezone.now())
                holding.set()
                time.sleep(0.5)
                Round.objects.filter(pk=rnd.pk).update(actions_logged=rnd.actions_logged + 100)
                Room.objects.filter(code=code).update(version=rnd.match.room.version + 1)
        finally:
            connections.close_all()
            done.set()

    thread = threading.Thread(target=other_writer)
    thread.start()
    assert holding.wait(10)
    with transaction.atomic():
        loaded, _ = hot_sql.load_table_with(code, online_since=timezone.now())
    thread.join(10)
    assert done.is_set() and loaded is not None and loaded.round is not None
    # The room row and the deal as the other writer left them, not as before it committed.
    assert loaded.room.version == rnd.match.room.version + 1
    assert loaded.round.actions_logged == rnd.actions_logged + 100

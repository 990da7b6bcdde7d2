"""A player's move written without BEGIN, COMMIT and the room's lock (issue #16;
games/services/sql.py `unlocked_block`, `write_checked`): the table is read as committed, then
one statement compare-and-sets the version and writes the rest only if that matched. A move
that meets another writer, or must write more than that one statement (a deal scored, a new
deal's row), runs again under the lock; nothing of the first attempt is written or announced.

PostgreSQL only (SQLite has one writer at a time and no data-modifying WITH)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import PLAY, ROUND_OVER, legal_actions
from games.models import Room, Round, RoundAction, after_commit
from games.services import sql as hot_sql
from tests.support import tables

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="optimistic writes are PostgreSQL's"),
    pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


class Announced:
    """Records what the writer hands to the live layer after commit."""

    def __init__(self) -> None:
        self.versions: list[int] = []

    def publish(self, snap: Any) -> None:
        self.versions.append(snap.version)

    def publish_presence(self, code: str, frame: Any) -> None:
        pass


@pytest.fixture
def announced(monkeypatch: pytest.MonkeyPatch) -> Announced:
    recorder = Announced()
    port = after_commit.effects()
    assert port is not None
    monkeypatch.setattr(after_commit, "_effects", dataclasses.replace(
        port, publish=recorder.publish, publish_presence=recorder.publish_presence))
    return recorder


def _on_turn(code: str, by_seat: dict[int, Any]) -> tuple[Any, str]:
    st = tables.state(code)
    assert st is not None and st.deal is not None and st.deal.turn is not None
    turn = st.deal.turn
    return by_seat[turn], legal_actions(st, turn)["legal_cards"][0]


def test_a_card_is_read_and_written_by_two_statements_outside_a_transaction(
        table: tuple[str, dict[int, Any]], announced: Announced) -> None:
    code, by_seat = table
    tables.advance(code, by_seat, PLAY)
    announced.versions.clear()
    player, card = _on_turn(code, by_seat)
    version = tables.version(code)
    # Whether a transaction was open when each statement was sent: the locked path sends
    # its write inside the BEGIN psycopg sent before its first statement.
    status: list[int] = []

    def spy(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        status.append(connection.connection.info.transaction_status)
        return execute(sql, params, many, context)

    with CaptureQueriesContext(connection) as ctx, connection.execute_wrapper(spy):
        out = services.submit(code, player, tables.cmd("play_card", version, card=card))
    assert out.ok and out.version == version + 1
    # (Django logs its BEGIN and COMMIT markers whatever the driver sends; `status` tells.)
    statements = [q["sql"] for q in ctx.captured_queries
                  if q["sql"] not in ("BEGIN", "COMMIT")]
    assert len(statements) == 2, statements
    assert "FOR UPDATE" not in statements[0] and "json_agg" in statements[0]
    assert statements[1].startswith("WITH cas AS (UPDATE") and "INSERT INTO" in statements[1]
    from psycopg.pq import TransactionStatus
    assert status == [TransactionStatus.IDLE, TransactionStatus.IDLE]
    # Written and announced once, after the write.
    assert RoundAction.objects.filter(room__code=code, version=version + 1,
                                      kind="play_card").count() == 1
    assert announced.versions == [version + 1]
    assert not connection.in_atomic_block and connection.get_autocommit()


def _bump_elsewhere(code: str) -> None:
    """Another process's writer commits a new version of the table (its own connection)."""
    def run() -> None:
        try:
            Room.objects.filter(code=code).update(version=tables.version(code) + 1)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(10)


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], list[bool]]:
    """Install another writer between a move's read and its checked write at a table; the
    returned list gets each checked write's answer."""
    def install(code: str) -> list[bool]:
        tried: list[bool] = []
        write_checked = hot_sql.write_checked

        def racing(statements: Any, cas: Any) -> bool:
            _bump_elsewhere(code)
            tried.append(write_checked(statements, cas))
            return tried[-1]

        monkeypatch.setattr(hot_sql, "write_checked", racing)
        return tried

    return install


def _first_card(table: tuple[str, dict[int, Any]], announced: Announced
                ) -> tuple[str, Any, str, Round]:
    code, by_seat = table
    tables.advance(code, by_seat, PLAY)
    announced.versions.clear()
    player, card = _on_turn(code, by_seat)
    return code, player, card, tables.current_round(code)


def test_a_move_that_meets_another_writer_runs_again_under_the_lock(
        table: tuple[str, dict[int, Any]], announced: Announced,
        race: Callable[[str], list[bool]]) -> None:
    code, player, card, rnd = _first_card(table, announced)
    log = RoundAction.objects.filter(room__code=code).count()
    tried = race(code)
    # A bot's or a script's command without an expected version: valid at any version.
    out = services.submit(code, player, tables.cmd("play_card", None, card=card))
    assert tried == [False]
    assert out.ok
    after = Round.objects.get(pk=rnd.pk)
    # Applied once, by the locked run, after the other writer's version.
    assert after.version == rnd.version + 2 == tables.version(code)
    assert after.actions_logged == rnd.actions_logged + 1
    assert RoundAction.objects.filter(room__code=code).count() == log + 1
    assert announced.versions == [rnd.version + 2]


def test_a_stale_move_that_meets_another_writer_is_refused_and_writes_nothing(
        table: tuple[str, dict[int, Any]], announced: Announced,
        race: Callable[[str], list[bool]]) -> None:
    code, player, card, rnd = _first_card(table, announced)
    state = Round.objects.get(pk=rnd.pk).engine_state
    tried = race(code)
    out = services.submit(code, player, tables.cmd("play_card", rnd.version, card=card))
    assert tried == [False]
    assert (out.ok, out.code) == (False, "STALE_VERSION")
    after = Round.objects.get(pk=rnd.pk)
    assert after.engine_state == state and after.version == rnd.version
    assert not RoundAction.objects.filter(room__code=code, version__gt=rnd.version).exists()
    assert announced.versions == []


def test_the_card_that_ends_a_deal_is_written_under_the_lock(
        table: tuple[str, dict[int, Any]], announced: Announced,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal's score moves the match's totals: a write before the compare-and-set, so the
    optimistic attempt stops before it reaches the database and the move runs locked."""
    code, by_seat = table
    tables.advance(code, by_seat, PLAY)
    announced.versions.clear()
    refused: list[str] = []
    reads_only = hot_sql._reads_only

    def spy(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        try:
            return reads_only(execute, sql, params, many, context)
        except hot_sql.NeedsLock:
            refused.append(sql.split(None, 1)[0])
            raise

    monkeypatch.setattr(hot_sql, "_reads_only", spy)
    played = 0
    while tables.phase(code) == PLAY:
        player, card = _on_turn(code, by_seat)
        assert services.submit(code, player, tables.cmd("play_card", tables.version(code),
                                                        card=card)).ok
        played += 1
    assert tables.phase(code) == ROUND_OVER and played == 76
    # The last card's first write is the match's totals; before it only a Narr debt can
    # have sent a card to the lock (every other card was written optimistically).
    assert refused[-1] == "UPDATE" and len(refused) <= 3, refused
    assert tables.current_round(code).points_a is not None
    first = tables.version(code) - played + 1
    assert announced.versions == list(range(first, first + played))


def test_nothing_but_reads_and_the_checked_write_reaches_the_database(
        table: tuple[str, dict[int, Any]]) -> None:
    code, _ = table
    version = tables.version(code)
    with pytest.raises(hot_sql.NeedsLock), hot_sql.unlocked_block():
        Room.objects.filter(code=code).update(name="Never")
    assert Room.objects.get(code=code).name != "Never"
    assert tables.version(code) == version
    assert not connection.in_atomic_block and connection.get_autocommit()

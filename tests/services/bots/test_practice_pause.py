"""A practice table waits for its person (issue #24 item 2): the last socket of its one person
closing pauses the match (not while a second tab is open); while paused no bot acts, no
stand-in plays for the person and no timer fires; a socket of theirs opening again resumes
it, wakes the bot whose turn it is, and the match goes on where it was. The same on a
process's death (the stale-connection purge).

The bots are woken by the test itself (tests/support/bots.py), as in test_stand_ins.py.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.engine import DEALING, PLAY, REVEAL
from games.models import Connection, Match, Round, RoundAction
from games.models.presence import STALE_AFTER
from games.services.bots import wakeups as bot_wakeups
from tests.support import bots as helpers
from tests.support import tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120),
              pytest.mark.usefixtures("no_worker_threads")]



@pytest.fixture
def woken(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, Any]]:
    """The bots' wake-ups sent after commit (not run: the test wakes the bots itself)."""
    sent: list[tuple[int, int, Any]] = []
    monkeypatch.setattr(bot_wakeups, "schedule",
                        lambda r, v, when=None: sent.append((r, v, when)))
    return sent


def _practice(owner: Any, until: str = PLAY) -> str:
    """Play now, driven to `until`: in PLAY seat 1 (a bot) leads, the bot is to act."""
    code = services.create_practice_table(owner, "easy").code
    helpers.play_out(code, {0: owner}, until=until)
    return code


def _match(code: str) -> Match:
    return helpers.current_match(code)


def test_the_last_tab_closing_pauses_the_match_and_coming_back_resumes_it(
        owner: Any, woken: list[tuple[int, int, Any]]) -> None:
    code = _practice(owner)
    assert helpers.bot_to_act(code) is not None
    services.connect(code, owner, "tab-1")
    services.connect(code, owner, "tab-2")
    # One tab of two closes: the player is still at the table, nothing pauses.
    services.disconnect(code, "tab-1")
    assert _match(code).paused_at is None
    version = tables.version(code)
    # The last one closes: paused in the same transaction, at a new version, announced.
    services.disconnect(code, "tab-2")
    match = _match(code)
    assert match.paused_at is not None
    assert tables.version(code) == version + 1
    assert RoundAction.objects.filter(room__code=code).order_by("-version").first().kind == "pause"
    shown = services.table_snapshot(code).view_for(None)["match"]
    assert shown["practice"] is True and shown["paused_at"] == match.paused_at.timestamp()
    # While paused: the bot on turn does not move, woken directly or by the sweep.
    before = tables.fingerprint(code)
    assert helpers.wake(code) is False
    assert services.play_bot_turn(tables.current_round(code).pk, version) is False  # stale
    assert tables.fingerprint(code) == before
    # Back: resumed, the bot on turn woken after commit, and it plays on where it was.
    woken.clear()
    services.connect(code, owner, "tab-3")
    assert _match(code).paused_at is None
    assert woken == [(tables.current_round(code).pk, tables.version(code), None)]
    assert RoundAction.objects.filter(room__code=code).order_by("-version").first().kind == (
        "resume")
    st = tables.state(code)
    assert st is not None and st.phase == PLAY and st.deal is not None and st.deal.turn == 1
    assert helpers.wake(code) is True
    trick = services.table_snapshot(code).view_for(None)["trick"]
    assert [seat for seat, _card in trick["cards"]] == [1]  # the lead, played
    # The match finishes as any other: the replay check of every test holds it.
    helpers.play_out(code, {0: owner})


def test_the_sweep_wakes_no_bot_of_a_paused_match(owner: Any, settings: Any,
                                                  woken: list[tuple[int, int, Any]]) -> None:
    code = _practice(owner)
    settings.TROCCAS_SWEEP_SECONDS = -60  # every table counts as idle for the sweep
    assert services.sweep_bot_turns() == 1  # the bot on turn, before the pause
    services.connect(code, owner, "tab")
    services.disconnect(code, "tab")
    woken.clear()
    assert services.sweep_bot_turns() == 0 and woken == []


def test_no_timer_fires_while_paused_and_it_keeps_the_time_it_had_left(owner: Any) -> None:
    code = _practice(owner, until=REVEAL)
    services.connect(code, owner, "tab")
    services.disconnect(code, "tab")
    match = _match(code)
    assert match.paused_at is not None
    # The table waited an hour, and the reveal window (5 s) ran out meanwhile.
    rnd = tables.current_round(code)
    left = rnd.deadline - match.paused_at
    Match.objects.filter(pk=match.pk).update(paused_at=match.paused_at - timedelta(hours=1))
    Round.objects.filter(pk=rnd.pk).update(deadline=rnd.deadline - timedelta(hours=1))
    assert services.sweep_deadlines() == 0
    assert tables.phase(code) == REVEAL
    services.connect(code, owner, "back")
    deadline = tables.current_round(code).deadline
    assert deadline is not None
    # What it had left when it paused, counted from now (a second's slack for the test).
    assert abs((deadline - timezone.now()) - left) < timedelta(seconds=1)
    assert services.sweep_deadlines() == 0 and tables.phase(code) == REVEAL
    tables.expire_deadline(code)
    assert services.sweep_deadlines() == 1 and tables.phase(code) != REVEAL


def test_no_stand_in_plays_for_the_person_of_a_practice_table(owner: Any) -> None:
    # The player deals first; away far beyond the grace period (a row left without the pause,
    # as by a process that died before the purge), nobody deals in their name.
    code = _practice(owner, until=DEALING)
    helpers.away(owner, code, 3600)
    assert helpers.bot_to_act(code) is None and helpers.wake(code) is False
    shown = {s["index"]: s for s in services.table_snapshot(code).seats_json()}
    assert shown[0]["stand_in"] is False


def test_a_process_that_died_pauses_the_table_through_the_purge(owner: Any) -> None:
    code = _practice(owner)
    services.connect(code, owner, "killed")
    Connection.objects.filter(channel_name="killed").update(
        last_seen=timezone.now() - STALE_AFTER - timedelta(seconds=5))
    assert services.purge_stale_connections() == 1
    assert _match(code).paused_at is not None
    assert helpers.wake(code) is False
    services.connect(code, owner, "new-tab")
    assert _match(code).paused_at is None and helpers.wake(code) is True


def test_a_table_of_people_never_pauses(owner: Any, players: list[Any]) -> None:
    room = tables.seat_table(owner, players)
    tables.must(room.code, owner, "start_round")
    services.connect(room.code, owner, "tab")
    services.disconnect(room.code, "tab")
    assert _match(room.code).paused_at is None


def test_a_spectator_neither_pauses_nor_resumes_a_practice_table(owner: Any,
                                                                 outsider: Any) -> None:
    code = _practice(owner)
    services.connect(code, owner, "tab")
    services.connect(code, outsider, "watching")
    services.disconnect(code, "watching")
    assert _match(code).paused_at is None
    services.disconnect(code, "tab")
    services.connect(code, outsider, "watching-again")
    assert _match(code).paused_at is not None and helpers.wake(code) is False

"""Timers through the services, as the embedded mode runs them (ARCHITECTURE.md §8; RULES §5,
§12): the deadline is a column, `sweep_deadlines` fires what is overdue exactly once,
`fire_deadline` ignores a stale or early wake-up, the first request after a deadline applies
it first, and the turn timer plays the lowest-value legal card.

The clock never moves: a test "waits" by moving the deal's deadline into the past with a
queryset update. No sleeps, no timing asserts.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.engine import CARD_IDS, apply, legal_actions, legal_cards
from games.engine.cards import points
from games.models import Round, RoundAction
from tests import personas
from tests.support import tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


@pytest.fixture
def by_seat(owner: Any, players: list[Any]) -> dict[int, Any]:
    return personas.by_seat(owner, players)


def _table(by_seat: dict[int, Any], options: dict[str, Any] | None = None) -> str:
    return tables.seat_table(by_seat[0], [by_seat[1], by_seat[2], by_seat[3]], options).code


def _system_actions(code: str) -> list[tuple[str, int | None, Any]]:
    return list(RoundAction.objects.filter(room__code=code, actor__isnull=True)
                .order_by("version").values_list("kind", "actor_seat", "version"))


def _lowest(cards: list[str]) -> list[str]:
    """RULES §12: lowest point value, ties by canonical index."""
    return sorted(cards, key=lambda c: (points(CARD_IDS.index(c)), CARD_IDS.index(c)))


def test_overdue_reveal_is_fired_once_by_the_sweep(by_seat: dict[int, Any]) -> None:
    code = _table(by_seat)
    tables.advance(code, by_seat, "REVEAL")
    rnd = tables.current_round(code)
    assert rnd.deadline_kind == "reveal" and rnd.deadline > timezone.now()
    # Not due yet: the sweep leaves it alone.
    assert services.sweep_deadlines() == 0
    assert tables.phase(code) == "REVEAL"
    tables.expire_deadline(code)
    v, n = tables.fingerprint(code)
    assert services.sweep_deadlines() == 1
    assert tables.phase(code) == "SCART"
    assert tables.fingerprint(code) == (v + 1, n + 1)
    assert _system_actions(code) == [("end_reveal", None, v + 1)]
    rnd.refresh_from_db()
    assert rnd.deadline is None and rnd.deadline_kind == ""  # no turn timer in this room
    # A second sweep (another process, the next tick) finds nothing to do.
    assert services.sweep_deadlines() == 0
    assert tables.fingerprint(code) == (v + 1, n + 1)


def test_fire_deadline_ignores_stale_early_and_unknown_wakeups(by_seat: dict[int, Any]
                                                               ) -> None:
    code = _table(by_seat)
    tables.advance(code, by_seat, "REVEAL")
    rnd = tables.current_round(code)
    before = tables.fingerprint(code)
    # Early: the deadline has not passed.
    assert services.fire_deadline(rnd.pk, rnd.version) is False
    tables.expire_deadline(code)
    # Stale: armed at a version the table has left; and a round that does not exist.
    assert services.fire_deadline(rnd.pk, rnd.version - 1) is False
    assert services.fire_deadline(rnd.pk, rnd.version + 1) is False
    assert services.fire_deadline(rnd.pk + 1000, rnd.version) is False
    assert tables.fingerprint(code) == before
    assert tables.phase(code) == "REVEAL"
    # The right wake-up fires once; a duplicate of it does nothing.
    assert services.fire_deadline(rnd.pk, rnd.version) is True
    assert services.fire_deadline(rnd.pk, rnd.version) is False
    assert tables.fingerprint(code) == (before[0] + 1, before[1] + 1)
    assert [k for k, _, _ in _system_actions(code)] == ["end_reveal"]


def test_request_after_the_deadline_applies_it_first(by_seat: dict[int, Any]) -> None:
    code = _table(by_seat)
    st = tables.advance(code, by_seat, "REVEAL")
    assert st is not None
    v = tables.version(code)
    tables.expire_deadline(code)
    # The dealer saw the table at v (REVEAL) and discards: the overdue END_REVEAL is applied
    # first, then the scart — which is accepted although v is now one behind.
    cards = legal_actions(apply(st, {"type": "end_reveal"})[0], 0)["scart_allowed"][:2]
    out = services.submit(code, by_seat[0], tables.cmd("discard_scart", v, cards=cards))
    assert out.ok and out.version == v + 2, out
    kinds = list(RoundAction.objects.filter(room__code=code, version__gt=v)
                 .order_by("version").values_list("kind", "actor_seat"))
    assert kinds == [("end_reveal", None), ("discard_scart", 0)]
    assert tables.phase(code) == "PLAY"
    assert services.sweep_deadlines() == 0


def test_refused_request_after_the_deadline_still_applies_it(by_seat: dict[int, Any]
                                                             ) -> None:
    # The timer is the table's, not the requester's: a request that is itself refused (a
    # non-dealer trying to deal, an older version) still moves the overdue table on.
    code = _table(by_seat)
    tables.advance(code, by_seat, "REVEAL")
    v = tables.version(code)
    tables.expire_deadline(code)
    out = services.submit(code, by_seat[2], tables.cmd("deal_next_pass", v - 1))
    assert not out.ok and out.code == "STALE_VERSION"
    assert tables.phase(code) == "SCART" and tables.version(code) == v + 1
    assert [k for k, _, _ in _system_actions(code)] == ["end_reveal"]


def test_turn_timer_plays_the_lowest_value_legal_card(by_seat: dict[int, Any]) -> None:
    code = _table(by_seat, {"turn_seconds": 15})
    st = tables.advance(code, by_seat, "PLAY")
    # Eight overdue turns in a row: two whole tricks, following suit where it must.
    for _ in range(8):
        assert st is not None and st.deal is not None
        rnd = tables.current_round(code)
        assert rnd.deadline_kind == "turn" and rnd.deadline > timezone.now()
        turn = st.deal.turn
        assert turn is not None
        expected = _lowest(legal_cards(st, turn))[0]
        tables.expire_deadline(code)
        v = tables.version(code)
        assert services.sweep_deadlines() == 1
        assert services.sweep_deadlines() == 0
        after = tables.state(code)
        assert after is not None and after.deal is not None
        played = [c for t in (*after.deal.tricks, after.deal.current) if t is not None
                  for c in t.cards]
        assert (turn, CARD_IDS.index(expected)) in played
        assert CARD_IDS.index(expected) not in _hand(after, turn)
        log = RoundAction.objects.get(room__code=code, version=v + 1)
        assert (log.kind, log.actor_id, log.actor_seat) == ("turn_timeout", None, None)
        st = after


def _hand(st: Any, seat: int) -> set[int]:
    mask = st.deal.hands[seat]
    return {i for i in range(len(CARD_IDS)) if mask >> i & 1}


def test_turn_timer_deals_and_discards_for_the_dealer(by_seat: dict[int, Any]) -> None:
    code = _table(by_seat, {"turn_seconds": 15})
    tables.must(code, by_seat[0], "start_round")
    # DEALING: each timeout deals the next pass.
    for passes in (1, 2, 3):
        assert Round.objects.get(match__room__code=code).deadline_kind == "turn"
        tables.expire_deadline(code)
        assert services.sweep_deadlines() == 1
        st = tables.state(code)
        assert st is not None and st.deal is not None and st.deal.passes == passes
    assert tables.phase(code) == "REVEAL"
    tables.expire_deadline(code)
    assert services.sweep_deadlines() == 1
    st = tables.state(code)
    assert st is not None and st.phase == "SCART" and st.deal is not None
    # SCART: the two allowed cards of lowest point value.
    expected = _lowest(legal_actions(st, st.dealer)["scart_allowed"])[:2]
    tables.expire_deadline(code)
    assert services.sweep_deadlines() == 1
    st = tables.state(code)
    assert st is not None and st.phase == "PLAY" and st.deal is not None
    assert st.deal.scart is not None
    assert sorted(st.deal.scart) == sorted(CARD_IDS.index(c) for c in expected)
    kinds = [k for k, _, _ in _system_actions(code)]
    assert kinds == ["turn_timeout"] * 3 + ["end_reveal", "turn_timeout"]


def _play_turn(code: str, by_seat: dict[int, Any]) -> None:
    st = tables.state(code)
    assert st is not None and st.deal is not None and st.deal.turn is not None
    turn = st.deal.turn
    tables.must(code, by_seat[turn], "play_card", card=legal_cards(st, turn)[0])


def test_one_wake_up_per_deal_not_one_per_card(by_seat: dict[int, Any],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #16: a card played under a turn timer moves the deadline later; the wake-up
    already armed comes first and re-arms itself then, so no wake-up is sent per card."""
    code = _table(by_seat, {"turn_seconds": 30})
    tables.advance(code, by_seat, "PLAY")
    rnd = tables.current_round(code)
    armed_at = rnd.wakeup_at
    assert armed_at is not None and timezone.now() < armed_at <= rnd.deadline
    sent: list[tuple[int, Any]] = []
    monkeypatch.setattr("games.services.wakeups.schedule",
                        lambda round_id, when: sent.append((round_id, when)))
    # The owner renames the room mid-deal, and three cards are played: a new deadline each
    # time, no new wake-up.
    tables.must(code, by_seat[0], "set_options", name="Friday table")
    for _ in range(3):
        _play_turn(code, by_seat)
    rnd.refresh_from_db()
    assert sent == []
    assert rnd.wakeup_at == armed_at < rnd.deadline
    # The armed wake-up comes (early for the deadline now standing): it fires nothing and
    # re-arms itself for that deadline, once.
    before = tables.fingerprint(code)
    assert services.wake(rnd.pk, armed_at) is False
    rnd.refresh_from_db()
    assert sent == [(rnd.pk, rnd.deadline)] and rnd.wakeup_at == rnd.deadline
    # A duplicate of it is no longer the deal's armed wake-up: it arms nothing.
    assert services.wake(rnd.pk, armed_at) is False
    assert len(sent) == 1 and tables.fingerprint(code) == before
    # The re-armed one, once the deadline has passed, plays the turn.
    tables.expire_deadline(code)
    assert services.wake(rnd.pk, rnd.wakeup_at) is True
    assert tables.fingerprint(code) == (before[0] + 1, before[1] + 1)
    assert [k for k, _, _ in _system_actions(code)][-1] == "turn_timeout"


def test_a_wake_up_that_is_not_the_armed_one_still_fires_a_due_deadline(
        by_seat: dict[int, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    code = _table(by_seat, {"turn_seconds": 30})
    tables.advance(code, by_seat, "PLAY")
    rnd = tables.current_round(code)
    sent: list[tuple[int, Any]] = []
    monkeypatch.setattr("games.services.wakeups.schedule",
                        lambda round_id, when: sent.append((round_id, when)))
    tables.expire_deadline(code)
    stray = timezone.now()  # armed for no deal's time
    before = tables.fingerprint(code)
    assert services.wake(rnd.pk, stray) is True
    assert tables.fingerprint(code) == (before[0] + 1, before[1] + 1)
    # Due deadlines only: the next turn's deadline stands, and the stray arms nothing.
    assert services.wake(rnd.pk, stray) is False
    assert services.wake(rnd.pk + 1000, stray) is False
    assert tables.fingerprint(code) == (before[0] + 1, before[1] + 1)


def test_a_deadline_earlier_than_the_armed_wake_up_arms_its_own(
        by_seat: dict[int, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The reveal window (seconds) after a dealing pass under a long turn timer: the wake-up
    armed for the turn would come too late, so the window gets one of its own."""
    code = _table(by_seat, {"turn_seconds": 120, "reveal_seconds": 5})
    sent: list[tuple[int, Any]] = []
    monkeypatch.setattr("games.services.wakeups.schedule",
                        lambda round_id, when: sent.append((round_id, when)))
    tables.advance(code, by_seat, "REVEAL")
    rnd = tables.current_round(code)
    assert rnd.deadline_kind == "reveal"
    # One for the first dealing pass (the passes after it moved its deadline later), one for
    # the reveal window.
    assert len(sent) == 2 and sent[0][1] > rnd.deadline
    assert sent[1] == (rnd.pk, rnd.deadline) and rnd.wakeup_at == rnd.deadline

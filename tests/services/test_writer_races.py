"""Concurrent writers on PostgreSQL (ARCHITECTURE.md §5: one writer per room, and a version).

Threads call `services.submit` at the same moment (a barrier releases them together), each on
its own database connection, as several ASGI processes would. Whatever the interleaving:
an action is applied at most once, of two different actions on the same version exactly one
wins and the other is told STALE_VERSION, and the action log's versions stay contiguous.
(SQLite serialises writers with IMMEDIATE transactions and is not raced here.)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from games import services
from games.engine import apply, legal_actions
from games.models import Round, RoundAction
from tests.support import tables
from tests.support.tables import cmd

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="races need concurrent writers: PostgreSQL only"),
]

# Deck seed 25 (tests/support/fixtures.py seeded_decks), first legal card and the two lowest
# allowed scart cards: after trick 1's first card (a king of cups) every seat may call BUOB
# on cups, and seat 2 is on turn.
BUOB_SEED = 25


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together; each thread closes its connection."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        try:
            barrier.wait(timeout=30)
            return call()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def assert_contiguous(code: str) -> None:
    versions = list(RoundAction.objects.filter(room__code=code).order_by("version")
                    .values_list("version", flat=True))
    assert versions == list(range(1, tables.version(code) + 1))
    for rnd in Round.objects.filter(match__room__code=code):
        seqs = list(rnd.actions.order_by("sequence").values_list("sequence", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))



def test_same_action_from_eight_threads_is_applied_once(
        table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    tables.advance(code, by_seat, "DEALING")
    for n in (1, 2, 3):
        v, count = tables.fingerprint(code)
        command = cmd("deal_next_pass", v, action_id=f"pass-{n}")
        outcomes = race([lambda c=command: services.submit(code, by_seat[0], c)] * 8)
        assert all(o.ok for o in outcomes), outcomes
        assert sum(not o.duplicate for o in outcomes) == 1, outcomes
        assert tables.fingerprint(code) == (v + 1, count + 1)
        assert RoundAction.objects.filter(action_id__endswith=f":{by_seat[0].pk}:pass-{n}",
                                          room__code=code).count() == 1
        st = tables.state(code)
        assert st is not None and st.deal is not None and st.deal.passes == n
    assert_contiguous(code)


def test_eight_retries_with_new_ids_on_one_version(table: tuple[str, dict[int, Any]]
                                                   ) -> None:
    # A client that resends with fresh action_ids: the version lets only one through.
    code, by_seat = table
    tables.advance(code, by_seat, "DEALING")
    v, count = tables.fingerprint(code)
    outcomes = race([lambda: services.submit(code, by_seat[0], cmd("deal_next_pass", v))
                     for _ in range(8)])
    assert sum(o.ok for o in outcomes) == 1, outcomes
    assert {o.code for o in outcomes if not o.ok} == {"STALE_VERSION"}
    assert tables.fingerprint(code) == (v + 1, count + 1)
    assert_contiguous(code)


def test_seat_grabs_on_one_version(owner: Any, players: list[Any], outsider: Any,
                                   spectator: Any) -> None:
    code = services.create_room(owner).code
    contenders = [*players, outsider, spectator]
    v = tables.version(code)
    outcomes = race([lambda u=u: services.submit(code, u, cmd("take_seat", v, team="B",
                                                              index=1))
                     for u in contenders])
    assert sum(o.ok for o in outcomes) == 1, outcomes
    assert {o.code for o in outcomes if not o.ok} == {"STALE_VERSION"}
    assert tables.version(code) == v + 1
    assert_contiguous(code)


def _to_buob_moment(code: str, by_seat: dict[int, Any]) -> Any:
    tables.advance(code, by_seat, "PLAY")
    st = tables.state(code)
    assert st is not None and st.deal is not None
    turn = st.deal.turn
    tables.must(code, by_seat[turn], "play_card",
                card=legal_actions(st, turn)["legal_cards"][0])
    st = tables.state(code)
    assert st is not None and st.deal is not None and st.deal.turn == 2
    for seat in range(4):
        assert legal_actions(st, seat)["buob_suits"] == ["C"], "the seeded deal changed"
    return st


def test_two_seats_calling_buob_at_once(table: tuple[str, dict[int, Any]],
                                        seeded_decks: Any) -> None:
    code, by_seat = table
    seeded_decks(BUOB_SEED)
    st = _to_buob_moment(code, by_seat)
    # Alone, either call would be accepted.
    for seat in (0, 3):
        apply(st, {"type": "call_buob", "seat": seat, "suit": "C"})
    v, count = tables.fingerprint(code)
    outcomes = race([lambda s=s: services.submit(code, by_seat[s], cmd("call_buob", v,
                                                                       suit="C"))
                     for s in (0, 3)])
    assert sorted((o.ok, o.code) for o in outcomes) == [(False, "STALE_VERSION"),
                                                        (True, None)]
    assert tables.fingerprint(code) == (v + 1, count + 1)
    winner = (0, 3)[[o.ok for o in outcomes].index(True)]
    log = RoundAction.objects.get(room__code=code, version=v + 1)
    assert (log.kind, log.actor_seat) == ("call_buob", winner)
    st = tables.state(code)
    assert st is not None and st.deal is not None and st.deal.current is not None
    assert st.deal.current.buob is not None and st.deal.current.buob.caller == winner
    assert_contiguous(code)


def test_play_on_turn_against_a_buob_call(table: tuple[str, dict[int, Any]],
                                          seeded_decks: Any) -> None:
    code, by_seat = table
    seeded_decks(BUOB_SEED)
    st = _to_buob_moment(code, by_seat)
    card = legal_actions(st, 2)["legal_cards"][0]
    apply(st, {"type": "play_card", "seat": 2, "card": card})
    apply(st, {"type": "call_buob", "seat": 1, "suit": "C"})
    v, count = tables.fingerprint(code)
    outcomes = race([
        lambda: services.submit(code, by_seat[2], cmd("play_card", v, card=card)),
        lambda: services.submit(code, by_seat[1], cmd("call_buob", v, suit="C")),
    ])
    assert sorted((o.ok, o.code) for o in outcomes) == [(False, "STALE_VERSION"),
                                                        (True, None)]
    assert tables.fingerprint(code) == (v + 1, count + 1)
    kind = RoundAction.objects.get(room__code=code, version=v + 1).kind
    assert kind == ("play_card" if outcomes[0].ok else "call_buob")
    assert_contiguous(code)


def test_timer_and_players_racing_at_the_deadline(table: tuple[str, dict[int, Any]]
                                                  ) -> None:
    # The reveal window is over: two sweeps, two timer tasks and the dealer's scart (sent on
    # the version the dealer saw, before END_REVEAL) arrive together. END_REVEAL is applied
    # exactly once, and before the scart.
    code, by_seat = table
    st = tables.advance(code, by_seat, "REVEAL")
    assert st is not None
    rnd = tables.current_round(code)
    tables.expire_deadline(code)
    v, count = tables.fingerprint(code)
    with_scart = apply(st, {"type": "end_reveal"})[0]
    cards = legal_actions(with_scart, 0)["scart_allowed"][:2]
    scart = cmd("discard_scart", v, cards=cards)
    outcomes = race([
        services.sweep_deadlines, services.sweep_deadlines,
        lambda: services.fire_deadline(rnd.pk, rnd.version),
        lambda: services.fire_deadline(rnd.pk, rnd.version),
        lambda: services.submit(code, by_seat[0], scart),
    ])
    assert sum(bool(o) for o in outcomes[:4]) <= 1, "the timer fired twice"
    kinds = list(RoundAction.objects.filter(room__code=code, version__gt=v)
                 .order_by("version").values_list("kind", flat=True))
    if outcomes[4].ok:
        # The usual case: the scart's own request applied the overdue timer first.
        assert kinds == ["end_reveal", "discard_scart"]
        assert tables.fingerprint(code) == (v + 2, count + 2)
        assert tables.phase(code) == "PLAY"
    else:
        # A timer thread got there first: the dealer acted on a version that is gone and is
        # told so (and resynced by the consumer) — never a double END_REVEAL.
        assert outcomes[4].code == "STALE_VERSION"
        assert kinds == ["end_reveal"]
        assert tables.phase(code) == "SCART"
    assert_contiguous(code)

"""The playout fast path (games/engine/fast.py) is the engine's rules, not a second reading.

From random points of random deals (random house rules, random BUOB calls before the branch,
accepted or refused, and random Bock deals), the rest of the deal is played twice with the same
random choices: by the reference loop — `legal_actions` and `apply`, one card at a time — and
by `fast.playout` / `FastDeal`. Both must give the same trick winners, the same piles, the same
Narr debt (status, card, when settled) and the same points (RULES.md §7, §9, §10), and draw the
same random numbers. A tenth of the deals also compare the legal cards at every step.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import (
    PLAY,
    ROUND_OVER,
    MatchState,
    PublicRefusal,
    RuleError,
    apply,
    legal_actions,
    new_match_state,
)
from games.engine import events as ev
from games.engine.cards import CARD_IDS, INDEX, SUITS
from games.engine.fast import FastDeal, playout
from games.engine.playout import random_action, random_options, shuffled_deck
from games.engine.state import BuobMode, NarrDebt

# The suite's run: 3,000 random deals (a few seconds of CPU on a quiet core, every branch the
# counters below ask for seen many times over). Issue #15's 10,000 deals run with `-m slow`.
DEALS = 3_000
SLOW_DEALS = 10_000


def _cards_played(state: MatchState) -> int:
    deal = state.deal
    assert deal is not None and deal.current is not None
    return 4 * len(deal.tricks) + len(deal.current.cards)


def branch_state(rng: random.Random) -> MatchState:
    """A random table in PLAY: random options, sometimes a Bock deal, random play with BUOB
    calls by every seat up to a random card of the deal, sometimes right after a call."""
    options = random_options(rng)
    state = new_match_state(options, rng.randrange(4))
    if options.bock and rng.random() < 0.5:
        state = state._replace(bock_pending=rng.randint(1, 4))  # as after a Bock trigger
    state, _ = apply(state, {"type": "start_round", "deck": shuffled_deck(rng)})
    want_call = rng.random() < 0.3
    # Cards to play before the branch: from trick 1 to mid trick 19; a branch after a call is
    # looked for early in the deal, while most suits' kings are still eligible.
    target = rng.randrange(24 if want_call else 76)
    while state.phase != PLAY or _cards_played(state) < target:
        state = _step(state, random_action(state, rng, buob_rate=0.5))
    if want_call:
        # Play on until a BUOB call is accepted in the open trick, and branch there.
        while _cards_played(state) < 75 and not _open_call(state):
            state = _step(state, {"type": "call_buob", "seat": rng.randrange(4),
                                  "suit": rng.choice((None, None, *SUITS))})
            if not _open_call(state) and _cards_played(state) < 75:
                state = _step(state, random_action(state, rng, buob_rate=0.0))
    assert state.phase == PLAY
    return state


def _open_call(state: MatchState) -> bool:
    deal = state.deal
    return deal is not None and deal.current is not None and deal.current.buob is not None


def _step(state: MatchState, action: dict[str, Any]) -> MatchState:
    try:
        return apply(state, action)[0]
    except PublicRefusal as refusal:
        return refusal.state
    except RuleError:
        return state


def reference(state: MatchState, rng: random.Random, check: FastDeal | None = None
              ) -> tuple[MatchState, ev.DealScored]:
    """The rest of the deal through the public API: each seat plays
    rng.choice(sorted legal card ints). With `check`, the fast deal follows card by card and
    must offer the same legal cards at every step."""
    scored: ev.DealScored | None = None
    while state.phase == PLAY:
        deal = state.deal
        assert deal is not None and deal.turn is not None
        legal = sorted(INDEX[c] for c in legal_actions(state, deal.turn)["legal_cards"])
        if check is not None:
            assert check.turn == deal.turn
            assert check.legal_cards() == legal
        card = rng.choice(legal)
        state, events = apply(state, {"type": "play_card", "seat": deal.turn,
                                      "card": CARD_IDS[card]})
        if check is not None:
            check.play(card)
        scored = next((e for e in events if isinstance(e, ev.DealScored)), scored)
    assert scored is not None
    return state, scored


def test_fast_playout_equals_apply_on_random_deals() -> None:
    _compare(DEALS)


@pytest.mark.slow
@pytest.mark.timeout(900)  # CPU-bound: a loaded machine takes many times the quiet figure
def test_fast_playout_equals_apply_on_ten_thousand_random_deals() -> None:
    _compare(SLOW_DEALS)


def _compare(deals: int) -> None:
    rng = random.Random(1511)
    seen: dict[str, int] = {"buob_open": 0, "debts": 0, "debts_at_end": 0, "bock": 0,
                            "mid_trick": 0}
    for n in range(deals):
        state = branch_state(rng)
        deal = state.deal
        assert deal is not None and deal.current is not None
        seed = rng.getrandbits(64)
        stepped = FastDeal.from_state(state) if n % 10 == 0 else None

        ref_rng, fast_rng, deal_rng = (random.Random(seed) for _ in range(3))
        end, scored = reference(state, ref_rng, check=stepped)
        points = playout(state, fast_rng)
        fast = FastDeal.from_state(state)
        fast_points = fast.play_randomly(deal_rng)

        final = end.deal
        assert final is not None and final.points is not None
        assert points == fast_points == scored.points == final.points
        assert sum(points) == 72
        assert fast_rng.getstate() == ref_rng.getstate() == deal_rng.getstate()
        for other in (fast, stepped):
            if other is None:
                continue
            assert other.finished
            assert other.winners == [t.winner for t in final.tricks]
            assert tuple(other.piles) == final.piles
            assert other.debt == final.narr_debt
            assert other.points() == final.points
            assert other.multiplier == scored.multiplier
        assert end.phase in (ROUND_OVER, "MATCH_OVER")

        if deal.current.buob is not None:
            seen["buob_open"] += 1
            seen[deal.current.buob.mode] = seen.get(deal.current.buob.mode, 0) + 1
        seen["mid_trick"] += bool(deal.current.cards)
        seen["bock"] += deal.is_bock
        if isinstance(final.narr_debt, NarrDebt):
            seen["debts"] += 1
            seen["debts_at_end"] += final.narr_debt.settled_at == "end"
    # The random branch points must reach what the fast path repeats of the rules.
    assert seen["buob_open"] > deals // 20
    assert all(seen[mode] > 0 for mode in BuobMode)  # forced, deferred and self calls
    assert seen["mid_trick"] > deals // 2
    assert seen["bock"] > deals // 20
    assert seen["debts"] > deals // 20
    assert seen["debts_at_end"] > 0


def _play_state() -> MatchState:
    rng = random.Random(7)
    state = branch_state(rng)
    while state.deal is not None and state.deal.current is not None and (
            state.deal.current.buob is not None):
        state = branch_state(rng)
    return state


def test_an_illegal_card_is_refused_with_the_engines_code_and_changes_nothing() -> None:
    rng = random.Random(3)
    refused = 0
    for _ in range(200):
        state = branch_state(rng)
        deal = state.deal
        assert deal is not None and deal.turn is not None
        fast = FastDeal.from_state(state)
        legal = fast.legal_mask()
        for card in range(len(CARD_IDS)):
            if legal >> card & 1:
                continue
            with pytest.raises(RuleError) as fast_error:
                fast.play(card)
            with pytest.raises(RuleError) as engine_error:
                apply(state, {"type": "play_card", "seat": deal.turn, "card": CARD_IDS[card]})
            assert fast_error.value.code == engine_error.value.code
            refused += 1
        assert fast.hands == list(deal.hands) and fast.turn == deal.turn
        assert fast.cards == list(deal.current.cards)  # type: ignore[union-attr]
    assert refused > 1000


def test_the_fast_path_starts_only_in_play_and_leaves_the_state_alone() -> None:
    lobby = new_match_state()
    with pytest.raises(RuleError) as error:
        FastDeal.from_state(lobby)
    assert error.value.code == "WRONG_PHASE"
    state = _play_state()
    before = state.deal
    playout(state, random.Random(1))
    assert state.deal is before and state.phase == PLAY
    fast = FastDeal.from_state(state)
    branch = fast.copy()
    branch.play_randomly(random.Random(2))
    assert branch.finished and not fast.finished
    assert fast.hands == list(state.deal.hands)  # type: ignore[union-attr]
    with pytest.raises(RuleError):
        fast.points()  # the deal is not over
    with pytest.raises(RuleError):
        branch.play(0)  # nor may a finished one go on

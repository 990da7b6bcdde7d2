"""BUOB calls only where they are likely to be accepted (issue #27 item 3; RULES §8).

Trick 1, Curdin deals, so the owner leads; the owner's partner is Benedetg."""

from __future__ import annotations

import pytest

from games import bots
from games.bots import calls
from games.bots.knowledge import build
from games.bots.sampling import Sampler
from games.engine import view
from games.engine.cards import INDEX
from tests.engine.helpers import ANNA, BENEDETG, CURDIN, OWNER, play, setup

LEVELS = ("easy", "strong")


def test_the_easy_bot_leading_its_king_attaches_a_call_the_scart_alone_could_refuse() -> None:
    # The owner leads its king of swords without the jack: only the scart's 2 cards of 59
    # places could hold it.
    state = setup({OWNER: ["SK", "S5", "T3"], ANNA: ["SJ", "S2"]}, void={OWNER: "CRB"})
    action = bots.decide(view(state, OWNER), [], level="easy", seed=5)
    assert action == {"type": "play_card", "seat": OWNER, "card": "SK", "call_buob": True,
                      "buob_suit": "S"}


@pytest.mark.parametrize("level", LEVELS)
def test_the_kings_player_following_with_it_attaches_a_call(level: str) -> None:
    # Benedetg deals (so it knows the scart) and plays its one sword, its king, last, on its
    # partner's lead: the jack lies in another hand, the call is certain to be accepted.
    state = setup({CURDIN: ["S2"], OWNER: ["S3"], ANNA: ["SJ", "S9"], BENEDETG: ["SK", "T4"]},
                  void={BENEDETG: "S"}, dealer=BENEDETG)
    state = play(play(play(state, CURDIN, "S2"), OWNER, "S3"), ANNA, "S9")
    v = view(state, BENEDETG)
    assert v["legal_cards"] == ["SK"]
    action = bots.decide(v, [], level=level, seed=5, samples=4)
    assert action == {"type": "play_card", "seat": BENEDETG, "card": "SK", "call_buob": True,
                      "buob_suit": "S"}


@pytest.mark.parametrize("level", LEVELS)
def test_no_call_for_a_partners_king_whose_player_may_hold_the_jack(level: str) -> None:
    # The owner led SK; for Benedetg the jack is as likely in the owner's hand (refused) as in
    # Anna's or Curdin's: about two chances in three, under the bar of nine in ten.
    state = setup({OWNER: ["SK"], ANNA: ["SJ", "S2"], BENEDETG: ["S5", "S6"]})
    state = play(play(state, OWNER, "SK"), ANNA, "S2")
    action = bots.decide(view(state, BENEDETG), [], level=level, seed=5, samples=4)
    assert action["type"] == "play_card"
    assert "call_buob" not in action


def test_the_dealer_never_calls_for_a_jack_in_its_own_scart() -> None:
    # Curdin discarded SJ; its partner Anna is winning the trick with SK.
    state = setup({OWNER: ["S3"], ANNA: ["SK"], BENEDETG: ["S4"], CURDIN: ["S6", "S7"]},
                  scart=["SJ", "C2"])
    state = play(play(play(state, OWNER, "S3"), ANNA, "SK"), BENEDETG, "S4")
    v = view(state, CURDIN)
    know = build(v, [])
    assert calls.acceptance(know, Sampler(know), "S", ANNA) == 0.0
    assert calls.sampled_acceptance(know, Sampler(know), "S", ANNA, seed=1) == 0.0
    action = bots.decide(v, [], level="easy", seed=5)
    assert action["type"] == "play_card" and "call_buob" not in action


def test_a_jack_pinned_to_a_hand_is_certain() -> None:
    state = setup({OWNER: ["SK"], ANNA: ["SJ", "S2"], BENEDETG: ["S5", "S6"]})
    state = play(play(state, OWNER, "SK"), ANNA, "S2")
    know = build(view(state, BENEDETG), [])
    know.pinned[ANNA] |= 1 << INDEX["SJ"]  # as a reveal or an earlier exchange would show it
    assert calls.acceptance(know, Sampler(know), "S", OWNER) == 1.0
    assert calls.sampled_acceptance(know, Sampler(know), "S", OWNER, seed=3) == 1.0
    know.pinned[ANNA] = 0
    know.pinned[OWNER] |= 1 << INDEX["SJ"]
    assert calls.acceptance(know, Sampler(know), "S", OWNER) == 0.0


def test_the_two_estimates_agree_where_nothing_constrains_the_jack() -> None:
    state = setup({OWNER: ["SK"], ANNA: ["S2"], BENEDETG: ["S5", "S6"]})
    state = play(play(state, OWNER, "SK"), ANNA, "S2")
    know = build(view(state, BENEDETG), [])
    instant = calls.acceptance(know, Sampler(know), "S", OWNER)
    sampled = calls.sampled_acceptance(know, Sampler(know), "S", OWNER, seed=11, samples=400)
    # Owner 18 cards, Anna 18, Curdin 19, the scart 2: 37 of 57 places take a call, the
    # scart's 2 counting JACK_IN_SCART times.
    assert instant == pytest.approx(37 / (57 + (calls.JACK_IN_SCART - 1) * 2))
    assert sampled == pytest.approx(instant, abs=0.08)


def test_no_call_on_a_king_an_opponent_after_it_has_shown_it_can_trump() -> None:
    state = setup({OWNER: ["SK", "C5"], ANNA: ["SJ", "S2"]})
    know = build(view(state, OWNER), [])
    king = INDEX["SK"]
    assert calls.attached_call(know, king, calls.instant(know)) == "S"
    know.voids[ANNA].add("S")  # as a swords trick Anna did not follow would have shown
    assert calls.attached_call(know, king, calls.instant(know)) is None


def test_a_sampled_share_is_judged_less_its_sampling_error() -> None:
    # 36 of 40 samples (0.9) is too close to call; 38 of 40 is not; a certainty stays one.
    assert calls.cautious(36 / 40, 40) < calls.CALL_AT
    assert calls.cautious(38 / 40, 40) >= calls.CALL_AT
    assert calls.cautious(1.0, 40) == 1.0
    assert calls.cautious(0.0, 40) == 0.0


def test_the_sampled_estimate_keeps_a_likely_call_for_most_seeds() -> None:
    # Benedetg plays its king of swords; the jack is in the scart (2 of 57 places, weighed
    # JACK_IN_SCART times) or in a hand that takes the call: a chance of 0.93, which one round
    # of 40 samples often puts under 0.9 less its error. Further rounds settle most of them.
    state = setup({OWNER: ["S2"], ANNA: ["S3"], BENEDETG: ["SK", "T4"], CURDIN: ["SJ", "S9"]},
                  void={BENEDETG: "S"})
    state = play(play(state, OWNER, "S2"), ANNA, "S3")
    know = build(view(state, BENEDETG), [])
    made = sum(calls.attached_call(know, INDEX["SK"], calls.sampled(know, seed)) == "S"
               for seed in range(40))
    assert made >= 28
    one_round = sum(calls.attached_call(know, INDEX["SK"], calls.sampled(know, seed, rounds=1))
                    == "S" for seed in range(40))
    assert one_round < made

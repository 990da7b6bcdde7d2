"""A review of one's own play in a deal (issue #28 item 3; games/teaching/reviews.py): each
decision judged from what the player knew, only their own cards in it, kept with the deal and
shown to them alone, and "try again from here" at practice tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from games import services
from games.engine import ROUND_OVER, view
from games.engine.cards import INDEX
from games.models import DealReview, Match, ReviewStatus, Round
from games.teaching import reviews
from tests.support import bots as helpers
from tests.support import tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_worker_threads")]
FAST = override_settings(TROCCAS_REVIEW_BUDGET_MS=15)
SAMPLES = 6


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The reviews handed to a runner (none runs: the test calls `work` itself)."""
    sent: list[int] = []
    monkeypatch.setattr(reviews, "_enqueue", sent.append)
    return sent


def _played_deal(owner: Any) -> tuple[Match, Round]:
    room = services.create_practice_table(owner, "easy")
    helpers.play_out(room.code, {0: owner}, until=ROUND_OVER)
    rnd = tables.current_round(room.code)
    return rnd.match, rnd


def _dealt(rnd: Round, seat: int) -> set[str]:
    """Every card the seat held in the deal (its 19 or 21), from the deck (RULES.md §5)."""
    d = rnd.dealer
    order = [(d + 1) % 4, (d + 2) % 4, (d + 3) % 4, d]
    deck = list(rnd.deck)
    hands: dict[int, list[str]] = {s: [] for s in range(4)}
    i = 0
    for size in (6, 6):
        for s in order:
            hands[s] += deck[i:i + size]
            i += size
    for s in order:
        size = 9 if s == d else 7
        hands[s] += deck[i:i + size]
        i += size
    return set(hands[seat])


@FAST
def test_a_review_judges_each_decision_with_only_the_players_cards(
        client: Client, owner: Any, queued: list[int]) -> None:
    match, rnd = _played_deal(owner)
    client.force_login(owner)
    url = reverse("games:deal_review", args=[match.pk, rnd.number])
    page = client.get(url)
    assert page.status_code == 200 and page.context["review"] is None
    assert client.post(url).status_code == 302
    review = DealReview.objects.get(round=rnd, user=owner)
    assert queued == [review.pk] and review.status == ReviewStatus.QUEUED
    # Asking again is the same review, not a second one.
    client.post(url)
    assert DealReview.objects.filter(round=rnd).count() == 1 and queued == [review.pk]
    reviews.work(review.pk, samples=SAMPLES)
    review.refresh_from_db()
    assert review.status == ReviewStatus.DONE and review.done == review.total
    found = reviews.decisions(rnd, 0)
    assert review.total == len(found) >= 5
    mine = _dealt(rnd, 0)
    for row in review.result:
        cards = row["played"] if isinstance(row["played"], list) else [row["played"]]
        best = row["best"] if isinstance(row["best"], list) else [row["best"]]
        assert set(cards) | set(best) <= mine, row
        if row["costly"]:
            assert row["loss"] >= reviews.COSTLY
    shown = client.get(url)
    assert shown.status_code == 200 and shown.context["summary"]["decisions"] == review.total
    state = client.get(reverse("games:deal_review_state", args=[match.pk, rnd.number])).json()
    assert state == {"status": "done", "done": review.total, "total": review.total}


@FAST
def test_a_review_is_the_players_alone(client: Client, owner: Any, spectator: Any,
                                       queued: list[int]) -> None:
    match, rnd = _played_deal(owner)
    reviews.ask(owner, match, rnd.number)
    client.force_login(spectator)
    for name in ("games:deal_review", "games:deal_review_state"):
        assert client.get(reverse(name, args=[match.pk, rnd.number])).status_code == 404
    assert client.post(reverse("games:deal_review", args=[match.pk, rnd.number])
                       ).status_code == 404
    assert DealReview.objects.filter(round=rnd).count() == 1


@FAST
def test_a_deal_still_being_played_has_no_review(client: Client, owner: Any,
                                                 queued: list[int]) -> None:
    room = services.create_practice_table(owner, "easy")
    rnd = tables.current_round(room.code)
    client.force_login(owner)
    response = client.post(reverse("games:deal_review", args=[rnd.match_id, rnd.number]))
    assert response.status_code == 302 and not DealReview.objects.exists() and queued == []


def _swap(state: Any, x: str, y: str) -> Any:
    deal = state.deal
    hands = list(deal.hands)
    bx, by = 1 << INDEX[x], 1 << INDEX[y]
    for s, h in enumerate(hands):
        if h & bx:
            hands[s] = (h & ~bx) | by
        elif h & by:
            hands[s] = (h & ~by) | bx
    return state._replace(deal=deal._replace(hands=tuple(hands)))


def test_the_verdicts_do_not_change_with_the_cards_the_player_had_not_seen(owner: Any) -> None:
    """No peeking: two hidden cards of the same suit swapped between the other hands (the
    follow and trump duties stay the same for both) before a decision — the player's view is
    the same, and so is the verdict."""
    _match, rnd = _played_deal(owner)
    checked = 0
    for d in reviews.decisions(rnd, 0)[1:6]:
        deal = d.state.deal
        reveal = set() if deal.reveal is None else {c for c in deal.reveal}
        held = {s: [c for c, i in INDEX.items() if deal.hands[s] >> i & 1 and i not in reveal]
                for s in (1, 2, 3)}
        pair = next(((x, y) for x in held[1] for y in held[3] + held[2]
                     if x[0] == y[0] and x != "NARR" and y != "NARR"), None)
        if pair is None:
            continue
        other = reviews.Decision(d.version, d.trick, _swap(d.state, *pair), d.events, d.action)
        assert view(other.state, 0) == view(d.state, 0)
        assert other.state.deal.hands != d.state.deal.hands
        first = reviews.judge(d, 0, seed=7, budget=10, samples=SAMPLES)
        assert reviews.judge(other, 0, seed=7, budget=10, samples=SAMPLES) == first
        checked += 1
    assert checked >= 2


@FAST
def test_try_again_opens_a_practice_table_at_that_position(client: Client, owner: Any,
                                                           queued: list[int]) -> None:
    match, rnd = _played_deal(owner)
    review = reviews.ask(owner, match, rnd.number)
    reviews.work(review.pk, samples=SAMPLES)
    review.refresh_from_db()
    row = next(r for r in review.result if r["kind"] == "play" and r["trick"] >= 3)
    d = next(x for x in reviews.decisions(rnd, 0) if x.version == row["version"])
    before = view(d.state, 0)
    client.force_login(owner)
    response = client.post(reverse("games:deal_review_try", args=[match.pk, rnd.number]),
                           {"version": row["version"]})
    assert response.status_code == 302
    code = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    now = services.table_snapshot(code).view_for(0)
    for key in ("phase", "hand", "trick", "legal_cards", "dealer", "turn", "tricks_won",
                "last_trick"):
        assert now[key] == before[key], key
    assert now["seat"] == 0 and now["actions"]["play"]
    # The new table goes on: the person plays the other card this time.
    tables.must(code, owner, "play_card", card=now["legal_cards"][-1])


@FAST
def test_try_again_only_for_a_decision_of_the_review(client: Client, owner: Any,
                                                     queued: list[int]) -> None:
    match, rnd = _played_deal(owner)
    review = reviews.ask(owner, match, rnd.number)
    reviews.work(review.pk, samples=SAMPLES)
    client.force_login(owner)
    url = reverse("games:deal_review_try", args=[match.pk, rnd.number])
    rooms = Match.objects.count()
    assert client.post(url, {"version": "1"}).status_code == 302
    assert client.post(url, {"version": "x"}).status_code == 302
    assert Match.objects.count() == rooms


def test_a_costly_card_that_ends_the_trick_says_why() -> None:
    """Where the player's card ends the trick, the review says what the better card does
    (the lessons' positions: the learner plays the fourth card)."""
    from games.teaching import lesson_files, lessons

    counting = lesson_files.lesson("cards-and-counting")
    who = lesson_files.lesson("who-wins")
    narr = lesson_files.lesson("narr")
    assert counting is not None and who is not None and narr is not None

    def why(found: Any, scene: int, played: str, best: str) -> str:
        state = lessons.setup(found.scenes[scene]).state
        return reviews._why(state, 0, {"type": "play_card", "seat": 0, "card": played},
                            {"type": "play_card", "seat": 0, "card": best})

    # The partner's il mund takes the trick either way: the king brings more points.
    assert why(counting, 0, "R2", "RK") == "richer"
    # Coins: the 1 takes the trick, the 10 does not.
    assert why(who, 0, "R10", "R1") == "wins"
    # Team B's trump takes it either way: the queen gives fewer points than the king.
    assert why(narr, 0, "CK", "CQ") == "cheaper"
    assert why(who, 0, "R3", "R10") == ""

"""Teaching's figures (issue #28 item 5): hints, reviews and the course.

    python bench/teaching.py [--hints 50] [--reviews 3] [--seed 1]

The embedded mode, as `make run` serves it: a throwaway SQLite file, migrated; the bot pool's
worker threads (settings.TROCCAS_BOT_THREADS) play the bots and work the hints out, the bots
without their pause. One person plays practice tables against three easy bots and asks for a
hint at each of their decisions (the Scart, each card with a choice) until `--hints` hints:
each is timed from the hand-over to the bot pool (games/live/bot_pool.py `hint`, what the
table's socket does) to the answer arriving on the socket's channel, at the product's hint
budget (settings.TROCCAS_HINT_BUDGET_MS). Then `--reviews` of the deals played are reviewed,
each on one worker (this thread: games/teaching/reviews.py `work`) at the product's review
budget, timed from start to the stored result. Last, every lesson of the course is played
through by its right moves (games/teaching/lessons.py `solve`).

The last line: `teaching: hint p50 X ms p95 Y ms, review of a deal p50 Z s, lessons N`
(targets: hint p95 ≤ 500 ms, a review ≤ 25 s on one worker).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def _wait_for_person(code: str, timeout: float = 30.0) -> Any:
    """The table once the person (seat 0) has something to do, or the deal is scored."""
    from games.engine import DEALING, REVEAL, ROUND_OVER, SCART
    from games.services.tables import load_code

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        t = load_code(code, lock=False)
        st = t.state
        if st is not None and (st.phase in (ROUND_OVER, REVEAL)
                               or (st.phase in (DEALING, SCART) and st.dealer == 0)
                               or (st.deal is not None and st.deal.turn == 0)):
            return st
        time.sleep(0.005)
    raise SystemExit(f"table {code}: the bots did not play within {timeout} s")


def _hint(code: str, user: Any) -> float | None:
    """One hint through the bot pool, timed to its answer (handed back where the table's
    socket would have it sent to its channel); None if there is nothing to advise."""
    from games.live import bot_pool
    from games.services.errors import ServiceError
    from games.teaching import hints

    try:
        job = hints.check(code, user)
    except ServiceError:
        return None
    answered = threading.Event()
    got: list[dict[str, Any]] = []

    def deliver(message: dict[str, Any]) -> None:
        got.append(message)
        answered.set()

    t0 = time.perf_counter()
    if not bot_pool.embedded.hint(job, "bench", "bench", deliver):
        raise SystemExit("the bot pool is not running")
    if not answered.wait(30):
        raise SystemExit("no answer to a hint within 30 s")
    took = time.perf_counter() - t0
    return took if "frame" in got[0] else None


def _step(code: str, user: Any) -> None:
    """The person's move: deal, the Scart, their first legal card, or the next deal; the
    reveal window is closed as its timer would (moved into the past, then the sweep)."""
    from django.utils import timezone

    from games import services
    from games.engine import DEALING, REVEAL, ROUND_OVER, SCART, legal_actions
    from games.models import Round
    from games.services.commands import Command
    from games.services.tables import load_code

    t = load_code(code, lock=False)
    st = t.state
    assert st is not None and t.round is not None
    if st.phase == REVEAL:
        Round.objects.filter(pk=t.round.pk).update(deadline=timezone.now())
        services.sweep_deadlines()
        return
    if st.phase == DEALING:
        kind, fields = "deal_next_pass", {}
    elif st.phase == SCART:
        kind, fields = "discard_scart", {"cards": legal_actions(st, 0)["scart_allowed"][:2]}
    elif st.phase == ROUND_OVER:
        kind, fields = "regame", {}
    else:
        kind, fields = "play_card", {"card": legal_actions(st, 0)["legal_cards"][0]}
    out = services.submit(code, user, Command(kind, os.urandom(8).hex(), t.room.version, fields))
    if not out.ok and out.code not in ("STALE_VERSION", "NOT_YOUR_TURN", "WRONG_PHASE"):
        raise SystemExit(f"{kind} refused: {out.code}")


def _scored(code: str) -> Any:
    from games.models import Round

    return Round.objects.filter(match__room__code=code, points_a__isnull=False).order_by(
        "-pk").first()


def run(hint_count: int, review_count: int) -> None:
    from django.conf import settings

    from accounts.models import User
    from games import services
    from games.live import bot_pool
    from games.models import DealReview, Round
    from games.teaching import lesson_files, lessons, reviews

    user = User.objects.create_user(username="learner", display_name="Learner",
                                    password=None)
    room = services.create_practice_table(user, "easy")
    code = room.code
    bot_pool.embedded.ensure_started()
    times: list[float] = []
    deals: dict[int, Round] = {}
    started = time.perf_counter()
    # Until enough hints and enough scored deals to review: the person asks at each of
    # their decisions, then makes it.
    for _ in range(20_000):
        if len(times) >= hint_count and len(deals) >= review_count:
            break
        _wait_for_person(code)
        rnd = _scored(code)
        if rnd is not None:
            deals.setdefault(rnd.pk, rnd)
        if len(times) < hint_count:
            took = _hint(code, user)
            if took is not None:
                times.append(took)
        _step(code, user)
    bot_pool.embedded.stop()
    played = time.perf_counter() - started
    review_times: list[float] = []
    judged = 0
    for rnd in list(deals.values())[:review_count]:
        review = reviews.ask(user, rnd.match, rnd.number)
        t0 = time.perf_counter()
        reviews.work(review.pk)
        review_times.append(time.perf_counter() - t0)
        review = DealReview.objects.get(pk=review.pk)
        if review.status != "done":
            raise SystemExit(f"review of deal {rnd.number}: {review.status}")
        judged += review.total
    # The course: every lesson finished by its right moves.
    count = 0
    for found in lesson_files.lessons():
        for scene in range(len(found.scenes)):
            lessons.solve(found, scene)
        count += 1
    ms = [t * 1000 for t in times]
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} (1 min) at the end;"
          f" bot threads {settings.TROCCAS_BOT_THREADS}")
    print(f"hints: {len(ms)} at a {settings.TROCCAS_HINT_BUDGET_MS} ms budget over "
          f"{len(deals)} scored deals ({played:.0f} s of play): p50 {statistics.median(ms):.0f}"
          f" ms, p95 {p95(ms):.0f} ms, max {max(ms):.0f} ms")
    print(f"reviews: {len(review_times)} deals, {judged} decisions judged at a "
          f"{settings.TROCCAS_REVIEW_BUDGET_MS} ms budget on one worker: "
          + ", ".join(f"{t:.1f} s" for t in review_times))
    print(f"teaching: hint p50 {statistics.median(ms):.0f} ms p95 {p95(ms):.0f} ms, "
          f"review of a deal p50 {statistics.median(review_times):.1f} s, lessons {count}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hints", type=int, default=50)
    parser.add_argument("--reviews", type=int, default=3)
    args = parser.parse_args()
    # The bots play as soon as they decided (no pause): the bench measures the teaching work.
    os.environ["TROCCAS_BOT_PAUSE_SCALE"] = "0"
    from bench.ws_load import backend

    with backend("embedded"):
        run(args.hints, args.reviews)


if __name__ == "__main__":
    main()

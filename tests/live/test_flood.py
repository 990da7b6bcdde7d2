"""games/live/flood.py: the token bucket both sockets put in front of their frames
(docs/protocol.md §4 "Flood limits"), on a clock the test moves."""

from __future__ import annotations

from games.live.flood import BURST, CLOSE_AFTER, PER_SECOND, WINDOW, Bucket, Verdict


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_is_read_then_frames_are_dropped_and_answered_now_and_then() -> None:
    clock = Clock()
    bucket = Bucket(clock)
    assert [bucket.take() for _ in range(int(BURST))] == [Verdict.READ] * int(BURST)
    drops = [bucket.take() for _ in range(20)]
    # The first drop and every 10th are answered (RATE_LIMITED), the others are silent.
    assert drops[0] is Verdict.ANSWER
    assert drops[9] is Verdict.ANSWER and drops[19] is Verdict.ANSWER
    assert all(d is Verdict.DROP for i, d in enumerate(drops) if i not in (0, 9, 19))


def test_the_bucket_refills_at_its_rate_up_to_the_burst() -> None:
    clock = Clock()
    bucket = Bucket(clock)
    for _ in range(int(BURST)):
        bucket.take()
    assert bucket.take() is not Verdict.READ
    clock.now += 1.0  # PER_SECOND tokens
    assert [bucket.take() for _ in range(int(PER_SECOND))] == [Verdict.READ] * int(PER_SECOND)
    assert bucket.take() is not Verdict.READ
    clock.now += 3600.0  # a long quiet spell refills to the burst, no more
    assert sum(bucket.take() is Verdict.READ for _ in range(int(BURST) + 5)) == int(BURST)


def test_a_socket_that_keeps_flooding_is_closed() -> None:
    clock = Clock()
    bucket = Bucket(clock)
    for _ in range(int(BURST)):
        bucket.take()
    verdicts = [bucket.take() for _ in range(CLOSE_AFTER)]
    assert verdicts[-1] is Verdict.CLOSE
    assert Verdict.CLOSE not in verdicts[:-1]


def test_drops_spread_beyond_the_window_do_not_close() -> None:
    clock = Clock()
    bucket = Bucket(clock, per_second=0.0, burst=0.0)  # every frame is a drop
    for _ in range(CLOSE_AFTER * 3):
        assert bucket.take() is not Verdict.CLOSE
        clock.now += WINDOW / (CLOSE_AFTER - 1)

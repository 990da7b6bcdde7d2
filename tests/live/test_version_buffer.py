"""games/live/version_buffer.py: a socket's table updates in version order (docs/protocol.md §8),
without sockets."""

from __future__ import annotations

from games.live.version_buffer import GAP_HELD, Arrival, VersionBuffer


def _sent(buf: VersionBuffer[str], version: int) -> None:
    buf.sent_version(version)


def test_before_any_state_every_update_is_forwarded() -> None:
    buf: VersionBuffer[str] = VersionBuffer()
    assert buf.arrive(7, "v7") is Arrival.FORWARD


def test_the_next_version_is_forwarded_an_older_one_is_stale() -> None:
    buf: VersionBuffer[str] = VersionBuffer()
    _sent(buf, 4)
    assert buf.arrive(5, "v5") is Arrival.FORWARD
    assert buf.is_stale(3) and not buf.is_stale(4) and not buf.is_stale(5)


def test_an_update_ahead_is_held_until_the_gap_fills() -> None:
    buf: VersionBuffer[str] = VersionBuffer()
    _sent(buf, 4)
    assert buf.arrive(7, "v7") is Arrival.ARM  # the first held arms the gap check
    assert buf.arrive(6, "v6") is Arrival.HOLD  # already armed
    assert buf.next_ready() is None  # 5 is still missing
    assert buf.arrive(5, "v5") is Arrival.FORWARD
    _sent(buf, 5)
    released = []
    while (update := buf.next_ready()) is not None:
        released.append(update)
        _sent(buf, int(update[1:]))
    assert released == ["v6", "v7"] and not buf.held


def test_a_resync_makes_held_updates_stale() -> None:
    buf: VersionBuffer[str] = VersionBuffer()
    _sent(buf, 2)
    buf.arrive(4, "v4")
    buf.arrive(6, "v6")
    _sent(buf, 5)  # a resync sent the whole view at version 5
    assert buf.next_ready() == "v6" and not buf.held


def test_the_gap_check_resyncs_only_if_updates_are_still_held() -> None:
    buf: VersionBuffer[str] = VersionBuffer()
    _sent(buf, 1)
    assert buf.arrive(3, "v3") is Arrival.ARM
    assert buf.gap_armed_fired() is True  # still held: ask for table.gap
    assert buf.give_up() is True and not buf.held
    assert buf.give_up() is False  # nothing left to give up: no second resync
    # Disarmed: the next gap arms a new check.
    assert buf.arrive(5, "v5") is Arrival.ARM


def test_a_gap_that_filled_in_time_needs_no_resync() -> None:
    buf: VersionBuffer[str] = VersionBuffer()
    _sent(buf, 1)
    buf.arrive(3, "v3")
    buf.arrive(2, "v2")
    _sent(buf, 2)
    assert buf.next_ready() == "v3"
    _sent(buf, 3)
    assert buf.gap_armed_fired() is False


def test_too_many_held_updates_resync_at_once() -> None:
    buf: VersionBuffer[int] = VersionBuffer()
    _sent(buf, 0)
    answers = [buf.arrive(v, v) for v in range(2, GAP_HELD + 3)]
    assert answers[0] is Arrival.ARM
    assert all(a is Arrival.HOLD for a in answers[1:-1])
    assert answers[-1] is Arrival.RESYNC and not buf.held

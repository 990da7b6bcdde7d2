"""Celery tasks — thin doors into the services, each idempotent (ARCHITECTURE.md §8)."""

from __future__ import annotations

from datetime import datetime

from asgiref.sync import async_to_sync
from celery import shared_task
from channels.layers import get_channel_layer

from games import services
from games.clubs import rounds
from games.services import matchmaking
from games.talk import online
from games.teaching import hints, reviews


@shared_task(name="games.wake_deal", ignore_result=True)
def wake_deal_task(round_id: int, at: str) -> bool:
    """A deal's wake-up armed for `at` (ISO 8601): fires its deadline if due, else re-arms
    itself for it if it is still the deal's armed one (services.wake)."""
    return services.wake(round_id, datetime.fromisoformat(at))


@shared_task(name="games.fire_deadline", ignore_result=True)
def fire_deadline_task(round_id: int, version: int) -> bool:
    """Fire a deal's timer if it is due; does nothing if the table moved on since `version`.
    (The wake-ups of before one-per-deal, still queued during an upgrade, come here.)"""
    return services.fire_deadline(round_id, version)


@shared_task(name="games.sweep_deadlines", ignore_result=True)
def sweep_deadlines_task() -> int:
    """Fire every overdue deadline and wake every bot whose turn was lost: heals lost tasks
    and restarted workers."""
    return services.sweep_deadlines() + services.sweep_bot_turns()


@shared_task(name="games.bot_turn", ignore_result=True)
def bot_turn_task(round_id: int, version: int, due: float | None = None) -> bool:
    """A bot's turn; does nothing if the table moved on since `version`. `due` (when the bot
    was to act) lets this worker process shrink its bots' budget when it falls behind."""
    return services.wake_bot(round_id, version, due)


@shared_task(name=hints.HINT_TASK, ignore_result=True)
def hint_task(code: str, user_id: int, version: int, channel_name: str,
              action_id: str | None = None) -> None:
    """A hint for a player's socket (games/teaching/hints.py): computed here, on a bot
    worker, and sent to that socket alone. Ids only in the message: never a card."""
    message = hints.reply(hints.HintJob(code, user_id, version), action_id)
    async_to_sync(get_channel_layer().send)(channel_name, message)


@shared_task(name=reviews.REVIEW_TASK, ignore_result=True)
def review_task(review_id: int) -> None:
    """A deal's review (games/teaching/reviews.py), on a bot worker: its id only in the
    message, never a card."""
    reviews.work(review_id)


@shared_task(name="games.purge_connections", ignore_result=True)
def purge_connections_task() -> int:
    """Remove the Connection rows (and the site sockets' presence rows) of sockets whose
    process died without cleaning up; then end the matches nobody is at (issue #25 item 1:
    after the purge, so a dead process's rows count as gone)."""
    return (services.purge_stale_connections() + online.purge_stale()
            + services.sweep_idle_matches())


@shared_task(name="games.sweep_queue", ignore_result=True)
def sweep_queue_task() -> int:
    """Find a game's sweep: end expired and abandoned waits, form what can be formed."""
    return matchmaking.sweep()


@shared_task(name="games.sweep_tournaments", ignore_result=True)
def sweep_tournaments_task() -> int:
    """Every due tournament round transition (games/clubs/rounds.py), each made once."""
    return rounds.sweep_tournaments()

"""What a command changed, stored: the engine's action applied and persisted (the deal's row,
its tricks and Narr debts, the log), a public refusal recorded, and the version's
compare-and-set that writes it all (ARCHITECTURE.md §5); then the announcement
(games/services/announce.py).
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from games.engine import CARD_IDS, MATCH_OVER, MatchState, PublicRefusal, apply, resign, to_json
from games.engine.codec import buob_public, trick_row_cards
from games.engine.errors import RuleError
from games.engine.events import BuobRefused
from games.history import standings
from games.models import MatchStatus, NarrDebt, Round, Trick
from games.services import newcomers, sql
from games.services.announce import announce
from games.services.errors import ServiceError
from games.services.tables import ROOM_FIELDS, Table, room_fields
from games.services.timers import aim_wakeup, next_deadline

# The action log's kind for a public refusal (RULES.md §8): the refused engine action is in
# its payload with the code, `{"action": {"type": "call_buob", "suit": "S"}, "code": ...}`.
REFUSAL_KIND = BuobRefused.kind


def bump(t: Table) -> int:
    """The table's next version (written by `finish`'s compare-and-set)."""
    t.room.version += 1
    t.changed = True
    return t.room.version


def version_write(t: Table) -> tuple[str, list[Any]]:
    """The version's compare-and-set, with the room's other columns if the command changed
    them."""
    fields = ["version"]
    if room_fields(t.room) != t.room_was:
        fields += ROOM_FIELDS
    return sql.update_statement(t.room, fields, version_was=t.version_before)


def finish(t: Table) -> None:
    """Compare-and-set the version, then schedule the broadcast and the timer after commit."""
    if not t.changed:
        return
    cas = version_write(t)
    if t.optimistic:
        # Read without the lock: the compare-and-set decides, in the same statement as the
        # writes it guards (nothing is written if another writer came first).
        if not sql.write_checked(t.deferred, cas):
            raise sql.NeedsLock("the table moved since it was read")
    else:
        # The deferred writes and the compare-and-set in one statement; under the room's lock
        # the compare-and-set cannot fail, and if it ever did the transaction rolls back whole.
        updated = sql.write_all([*t.deferred, cas])
        if updated != 1:
            raise ServiceError("STALE_VERSION")
    t.deferred.clear()
    announce(t)


def log_action(t: Table, rnd: Round | None, user: Any, seat: int | None, kind: str,
               payload: dict[str, Any], key: str | None, version: int, *,
               later: bool = False) -> None:
    """Append one accepted action to the log (RoundAction, append-only); `later`: with the
    version's compare-and-set in `finish` (Table.later)."""
    # A deal's actions are numbered by its own counter, bumped and saved with the round row
    # in `apply_engine` before this (no MAX(sequence) query on every action).
    sequence = rnd.actions_logged if rnd is not None else None
    insert = sql.insert_action_statement(
        room_id=t.room.pk, round_id=rnd.pk if rnd is not None else None, sequence=sequence,
        version=version, actor_id=user.pk if user is not None else None, actor_seat=seat,
        kind=kind, payload=payload, action_id=key or f"system:{secrets.token_hex(12)}",
        created=t.now,
    )
    if later:
        t.later(insert)
    else:
        sql.write_all([insert])


# What an action can change in an existing round row (an UPDATE of these alone: the deck and
# the match never change, and the row is written on every action).
_ROUND_PLAY_FIELDS = ["engine_state", "version", "actions_logged", "phase", "is_bock", "deadline",
                      "deadline_kind", "points_a", "points_b", "finished"]
_ROUND_ARMED_FIELDS = [*_ROUND_PLAY_FIELDS, "wakeup_at"]


def apply_engine(t: Table, action: dict[str, Any], user: Any, seat: int | None,
                 key: str | None) -> None:
    """Apply one engine action and persist everything it changed (raises RuleError).

    A public refusal (PublicRefusal, RULES.md §8) is not raised: it is stored and logged like
    an accepted action, announced after commit to every audience, and `t.refusal` holds its
    code for the sender's answer."""
    assert t.state is not None and t.match is not None
    try:
        new_state, events = apply(t.state, action)
    except PublicRefusal as refusal:
        _record_refusal(t, action, refusal, user, seat, key)
        return
    version = bump(t)
    kind = action["type"]
    deal = new_state.deal
    assert deal is not None
    rnd = t.round
    created = kind in ("start_round", "regame")
    if created:
        rnd = Round(
            match=t.match, number=deal.number, dealer=deal.dealer, deck=action["deck"],
            engine_state={}, version=version, phase=new_state.phase, is_bock=deal.is_bock,
            started=t.now,
        )
        t.round = rnd
    assert rnd is not None
    rnd.engine_state = to_json(new_state)
    rnd.version = version
    rnd.actions_logged += 1  # this action's sequence in the deal's log (`log_action`)
    rnd.phase = new_state.phase
    rnd.is_bock = deal.is_bock
    rnd.deadline, rnd.deadline_kind = next_deadline(new_state, t.now)
    armed = aim_wakeup(rnd, t.now)
    scored = deal.points is not None and rnd.points_a is None
    if deal.points is not None and scored:
        rnd.points_a, rnd.points_b = deal.points
        rnd.finished = t.now
    if created:
        rnd.save()
    else:
        # Sent with the log row and the version in `finish` (nothing reads it before). The
        # wake-up's time only when this command armed one: a wake-up re-arming itself writes
        # it too (`deadlines.wake`), and must not be overwritten by a stale copy.
        t.later(sql.update_statement(rnd, _ROUND_ARMED_FIELDS if armed else _ROUND_PLAY_FIELDS))
    _persist_tricks_and_debts(t, rnd, new_state, events, t.now)
    payload = {k: v for k, v in action.items() if k not in ("deck", "seat", "type")}
    log_action(t, rnd, user, seat, kind, payload, key, version, later=True)
    match = t.match
    before = (match.total_a, match.total_b, match.deals_played, match.bock_pending,
              match.status)
    match.total_a, match.total_b = new_state.totals
    match.deals_played = new_state.deals_played
    match.bock_pending = new_state.bock_pending
    if new_state.phase == MATCH_OVER and match.status == MatchStatus.RUNNING:
        match.status = MatchStatus.FINISHED
        match.winner = new_state.winner or ""
        match.finished = t.now
    # Most actions leave the match row alone (totals move only when a deal is scored): skip
    # the write then, it is one of the few queries on every card played.
    if kind in ("start_round",) or before != (match.total_a, match.total_b, match.deals_played,
                                              match.bock_pending, match.status):
        match.save()
    if before[4] == MatchStatus.RUNNING and match.status == MatchStatus.FINISHED:
        # Issue #7: standings and ratings are updated in the transaction that ends the match
        # (from the rows: the deal's and the log's are written first).
        t.write_deferred()
        standings.record_match(match)
    if scored:
        # The newcomers' funnel (games/services/newcomers.py), once the match's row is written
        # (its totals: the first write of a scored deal) and the deal's row with it (the count
        # reads the scored deals).
        t.write_deferred()
        newcomers.deal_scored(t, rnd)
        if match.status == MatchStatus.FINISHED and before[4] == MatchStatus.RUNNING:
            newcomers.match_finished(t)
    t.state = new_state
    t.events.extend(events)


def resign_match(t: Table, user: Any, seat: int, key: str | None) -> None:
    """A seated person gives the running match up (the RESIGN command): the engine's `resign`
    rule ends it, won by the other team; the deal's row keeps its cards as they lay, with no
    timer left; the match row names who resigned, and a rated match is counted as any ended
    one (giving up never spares a rating). Raises RuleError (MATCH_OVER, WRONG_PHASE)."""
    match, rnd = t.match, t.round
    if match is None or rnd is None or t.state is None:
        raise RuleError("WRONG_PHASE")
    if match.status != MatchStatus.RUNNING:
        raise RuleError("MATCH_OVER")
    new_state, events = resign(t.state, seat)
    version = bump(t)
    rnd.engine_state = to_json(new_state)
    rnd.version = version
    rnd.actions_logged += 1
    rnd.phase = new_state.phase
    rnd.deadline, rnd.deadline_kind = None, ""
    t.later(sql.update_statement(rnd, _ROUND_PLAY_FIELDS))
    log_action(t, rnd, user, seat, "resign", {}, key, version, later=True)
    match.status = MatchStatus.FINISHED
    match.winner = new_state.winner or ""
    match.finished = t.now
    match.resigned_by_id = user.pk
    match.save()
    t.write_deferred()
    standings.record_match(match)
    t.state = new_state
    t.events.extend(events)


def _record_refusal(t: Table, action: dict[str, Any], refusal: PublicRefusal, user: Any,
                    seat: int | None, key: str | None) -> None:
    """Store a public refusal: the deal's new state (the refused suits of the open trick), a log
    row under the command's own action_id (a resend gets the same refusal, see the writer) and
    its `buob_refused` event for the broadcast. The deal's timer is left as it was: a refused
    call gives nobody more time (refused calls would otherwise hold a turn timer off for
    good); `finish` re-arms its wake-up at the new version."""
    rnd = t.round
    assert rnd is not None
    version = bump(t)
    rnd.engine_state = to_json(refusal.state)
    rnd.version = version
    rnd.actions_logged += 1
    t.later(sql.update_statement(rnd, ["engine_state", "version", "actions_logged"]))
    refused = {k: v for k, v in action.items() if k != "seat"}
    log_action(t, rnd, user, seat, REFUSAL_KIND, {"action": refused, "code": refusal.code.value},
               key, version, later=True)
    t.state = refusal.state
    t.events.extend(refusal.events)
    t.refusal = refusal.code.value


def _persist_tricks_and_debts(t: Table, rnd: Round, state: MatchState, events: list[Any],
                              now: datetime) -> None:
    deal = state.deal
    assert deal is not None
    for e in events:
        if e.kind != "trick_won":
            continue
        trick = deal.tricks[e.trick - 1]
        # Written with the log row and the version (nothing reads it before the commit).
        t.later(sql.insert_statement(Trick, {
            "round_id": rnd.pk, "number": trick.number, "leader": trick.leader,
            "cards": trick_row_cards(trick), "winner": trick.winner, "completed": now,
            "buob_call": buob_public(trick.buob)}))
    if not any(e.kind in ("narr_debt_created", "narr_debt_settled") for e in events):
        return
    t.write_deferred()  # a debt names its trick row
    for e in events:
        if e.kind == "narr_debt_created":
            NarrDebt.objects.create(
                round=rnd, debtor=e.debtor, creditor=e.creditor,
                trick=Trick.objects.filter(round=rnd, number=e.trick).first(), created=now,
            )
        elif e.kind == "narr_debt_settled":
            NarrDebt.objects.filter(round=rnd).update(
                status="settled", paid_card=CARD_IDS[e.card], settled=now)

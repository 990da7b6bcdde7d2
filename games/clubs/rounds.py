"""The round runner (issue #26 item 5): a tournament's rounds run themselves.

    advance_tournament(tournament_id, now=None) -> int   every transition that is due
    sweep_tournaments(now=None) -> int                   advance_tournament for each running
                                                         or due tournament
    pair_round(round, repair=False)                      pair a round now (the director's
                                                         re-pair before it starts)

The transitions, each made **exactly once**: a compare-and-set on the status column
(`...filter(pk=..., status=OLD).update(status=NEW)`) inside `transaction.atomic()` together
with everything the transition writes. Of two workers racing for one transition, the second's
update waits on the first's row lock (PostgreSQL) or on the database's one writer (SQLite) and
then matches no row: it returns without doing anything. A worker killed in the middle rolls the
whole transition back, its status included, and the next sweep makes it from the start.

1. The tournament's start (`starts_at`): registration -> running; a registered entrant who did
   not check in (a pair: both players) is out from round 1 (`out_from_round = 1`); the rounds
   of every stage are created if the tournament has none yet (one `round_minutes +
   break_minutes` apart).
2. A round is **paired** (scheduled -> paired) a minute before its start, once the round before
   it is closed (a late round moves the next one: it is paired and started as soon as the one
   before closes): pairs Swiss (`pairing.pair_swiss`) or individuals with rotating partners
   (`pairing.pair_individual`) over the standings of the stage so far (`ranking.standings`),
   with every earlier meeting, partnership and bye of the tournament as history; a stage's
   round-robin pairs follow a fixed circle schedule. A stage after the first seeds the top
   `advance` of the stage before. One TournamentTable per table (a fixed pair on seats 0/2,
   the other on 1/3; rotating partners likewise by partnership) and a TournamentBye per bye or
   sit-out. A duplicate stage's round gets its decks (one shuffled deck per deal of the
   Partie), which every table's writer reads (games/models/tournaments.py `planned_deck`).
3. A round **starts** (paired -> running) at its start: each table's room is created through
   the services with the four seated (seat 0's player its owner and first dealer; a player
   not at the table yet is away from that moment, so the stand-in plays for them after the
   room's grace period), the
   tournament's house rules and talk mode, no spectators; its match is started by seat 0's
   `start_round`; the round's clock ends `round_minutes` later. Each player is told "your table
   is ready": a notification (the site socket's unread badge, and its list links the table), a
   `table_ready` frame on their site sockets with the room's link, and an e-mail when they
   asked for invitations by e-mail (the one e-mail preference the site has) and the site's
   address is configured (TROCCAS_SITE_URL: a sweep has no request to read it from).
   A stage played **at the real tables** (a village hall: Stage.venue) opens no room: each
   player is told their table's number (the notification names it; the frame has `room:
   null` and links the round's page, which lists the tables), and the director types each
   table's deal scores at the desk (games/clubs/desk.py `enter_result`).
4. A round **closes** (running -> closed) when every table has its result. A finished match's
   result is copied into its table (each table once, by its own compare-and-set on `outcome`):
   card points = the match totals, deal scores from its deals, the seats a bot played (seated,
   or standing in for an away player: a bot's logged card). At the clock, a table still playing
   is finished as the tournament's `unfinished` says: `as_stands` ends its match through the
   services (staff_end_match: abandoned, rating unchanged) and scores it as it stands (outcome
   AS_STANDS); `director` ends its match the same way but leaves the table pending, and the
   round waits for the director's adjudication (games/clubs/desk.py) — never silently.
   The clock scores nothing at the real tables (there is no match to end): such a round
   closes when the director has entered or adjudicated every table.
5. After the last round of the last stage: the tournament is finished.

How quickly a finished table is noticed: by the sweep, every TROCCAS_TOURNAMENT_SWEEP_SECONDS
(5 s by default; Celery beat's "sweep-tournaments" in the distributed mode, the embedded timer
loop otherwise: one code path, `sweep_tournaments`). A sweep that finds nothing due costs one
query per running tournament, so no hook from the services into this layer (which they may not
import) is needed; the round's close, and the next round's pairing, follow a finished table by
at most that interval. Every transition, and every result copied into a table, tells the
tournament's open pages at once, after its commit (games/clubs/push.py): they read again.

Tournament rooms refuse every lobby command, a new match and the owner's end of a match
(TOURNAMENT_TABLE_LOCKED, games/services/lobby.py `check_not_tournament`); the Partie ends
after `match_deals` deals, the house rules' own end.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from games import services
from games.clubs import pairing, push, ranking
from games.engine.options import Options
from games.models import (
    Entrant,
    EntrantStatus,
    Match,
    MatchStatus,
    NoticeKind,
    ResultAdjustment,
    Room,
    Round,
    RoundAction,
    RoundStatus,
    Stage,
    StageFormat,
    TableOutcome,
    Tiebreak,
    Tournament,
    TournamentBye,
    TournamentRound,
    TournamentStatus,
    TournamentTable,
    Unfinished,
)
from games.models.after_commit import Effects, on_commit
from games.services import Command, ServiceError
from games.talk import notifications

__all__ = ["PAIR_BEFORE", "advance_tournament", "pair_round", "sweep_tournaments"]

log = logging.getLogger(__name__)

# A round is paired this long before its start (so its pairings can be read), once the round
# before it is closed.
PAIR_BEFORE = timedelta(minutes=1)
# The most transitions one call makes (a tournament has at most a few dozen rounds, each with
# three transitions): a bound, never reached, against a loop that would not end.
_MAX_STEPS = 500


# --- the sweep ------------------------------------------------------------------------------

def sweep_tournaments(now: datetime | None = None) -> int:
    """Every due transition of every running tournament and of every one whose start has
    come; the number of transitions made. A tournament that fails is logged and left for the
    next sweep; the others go on."""
    now = now or timezone.now()
    ids = list(Tournament.objects.filter(
        Q(status=TournamentStatus.RUNNING)
        | Q(status=TournamentStatus.REGISTRATION, starts_at__lte=now)).values_list(
            "pk", flat=True))
    done = 0
    for tournament_id in ids:
        try:
            done += advance_tournament(tournament_id, now)
        except Exception:  # the next sweep tries again
            log.exception("tournament %s: a round transition failed", tournament_id)
    return done


def advance_tournament(tournament_id: int, now: datetime | None = None) -> int:
    """Make every transition of the tournament that is due at `now`, in order; the number
    made (by this call: one made by another worker meanwhile is not counted)."""
    now = now or timezone.now()
    made = 0
    for _ in range(_MAX_STEPS):
        step = _next_step(tournament_id, now)
        if step is None:
            return made
        if step():
            made += 1
    raise AssertionError("a tournament's transitions did not come to an end")  # pragma: no cover


def _next_step(tournament_id: int, now: datetime) -> Callable[[], bool] | None:
    """The next due transition (a callable making it, True if this call made it), or None."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    if tournament.status == TournamentStatus.REGISTRATION:
        if tournament.starts_at > now:
            return None
        return lambda: _start_tournament(tournament, now)
    if tournament.status != TournamentStatus.RUNNING:
        return None
    rnd = (TournamentRound.objects.filter(tournament=tournament)
           .exclude(status=RoundStatus.CLOSED).order_by("number").first())
    if rnd is None:
        return lambda: _finish_tournament(tournament, now)
    if rnd.status == RoundStatus.SCHEDULED:
        if rnd.starts_at - PAIR_BEFORE > now:
            return None
        return lambda: _pair(rnd, now, repair=False)
    if rnd.status == RoundStatus.PAIRED:
        if rnd.starts_at > now:
            return None
        return lambda: _start_round(rnd, now)
    # Running: copy what finished, finish what the clock ended, close when all are done.
    progressed = _collect_results(rnd, now)
    if TournamentTable.objects.filter(round=rnd, outcome=TableOutcome.PENDING).exists():
        if progressed:
            return lambda: True
        return None
    return lambda: _close_round(rnd, now)


# --- 1. the tournament's start and end ------------------------------------------------------

def _checked_in(entrant: Entrant, pairs: bool) -> bool:
    if entrant.checked_in is None:
        return False
    return not pairs or entrant.partner_checked_in is not None


def _start_tournament(tournament: Tournament, now: datetime) -> bool:
    with transaction.atomic():
        if not Tournament.objects.filter(pk=tournament.pk,
                                         status=TournamentStatus.REGISTRATION).update(
                status=TournamentStatus.RUNNING):
            return False
        registered = Entrant.objects.filter(tournament=tournament,
                                            status=EntrantStatus.REGISTERED,
                                            out_from_round__isnull=True)
        absent = [e.pk for e in registered if not _checked_in(e, tournament.is_pairs)]
        Entrant.objects.filter(pk__in=absent).update(out_from_round=1)
        _create_rounds(tournament)
        push.changed(tournament.pk, "round")
    return True


def _create_rounds(tournament: Tournament) -> None:
    """The rounds of every stage, if the tournament has none yet (the tournament's creation
    may have made them already, with their own times)."""
    if TournamentRound.objects.filter(tournament=tournament).exists():
        return
    step = timedelta(minutes=tournament.round_minutes + tournament.break_minutes)
    number = 0
    rows = []
    for stage in Stage.objects.filter(tournament=tournament).order_by("number"):
        for _ in range(stage.rounds):
            rows.append(TournamentRound(stage=stage, tournament=tournament, number=number + 1,
                                        starts_at=tournament.starts_at + number * step))
            number += 1
    TournamentRound.objects.bulk_create(rows)


def _finish_tournament(tournament: Tournament, now: datetime) -> bool:
    with transaction.atomic():
        if not Tournament.objects.filter(pk=tournament.pk,
                                         status=TournamentStatus.RUNNING).update(
                status=TournamentStatus.FINISHED, finished=now):
            return False
        push.changed(tournament.pk, "round")
    return True


# --- 2. pairing -----------------------------------------------------------------------------

def pair_round(tournament_round: TournamentRound, *, repair: bool = False) -> bool:
    """Pair a round now (scheduled -> paired); with `repair`, pair a paired round again (the
    director's re-pair before the start: its tables and byes are replaced). False if another
    worker paired it first; ROUND_ALREADY_STARTED once it runs or is closed."""
    now = timezone.now()
    status = TournamentRound.objects.filter(pk=tournament_round.pk).values_list(
        "status", flat=True).first()
    if status in (RoundStatus.RUNNING, RoundStatus.CLOSED):
        raise ServiceError("ROUND_ALREADY_STARTED")
    if repair and status == RoundStatus.PAIRED:
        return _pair(tournament_round, now, repair=True)
    return _pair(tournament_round, now, repair=False)


def _pair(rnd: TournamentRound, now: datetime, *, repair: bool) -> bool:
    old = RoundStatus.PAIRED if repair else RoundStatus.SCHEDULED
    tournament = rnd.tournament
    with transaction.atomic():
        decks = _decks(tournament, rnd.stage)
        if not TournamentRound.objects.filter(pk=rnd.pk, status=old).update(
                status=RoundStatus.PAIRED, paired_at=now, decks=decks):
            if repair:  # started meanwhile
                raise ServiceError("ROUND_ALREADY_STARTED")
            return False
        if repair:
            TournamentTable.objects.filter(round=rnd).delete()
            TournamentBye.objects.filter(round=rnd).delete()
        tables, byes = _pairing_of(tournament, rnd)
        entrants = {e.pk: e for e in Entrant.objects.filter(tournament=tournament)}
        TournamentTable.objects.bulk_create([
            TournamentTable(round=rnd, number=n, seat_entrants=seats,
                            seat_players=[_player_of(entrants[e], seats, i)
                                          for i, e in enumerate(seats)])
            for n, seats in enumerate(tables, start=1)])
        TournamentBye.objects.bulk_create([TournamentBye(round=rnd, entrant_id=e) for e in byes])
        push.changed(tournament.pk, "round")
    return True


def _decks(tournament: Tournament, stage: Stage) -> list[list[str]]:
    if not stage.duplicate:
        return []
    deals = Options.from_json(tournament.options or None).match_deals
    return [services.shuffled_deck() for _ in range(deals)]


def _player_of(entrant: Entrant, seats: Sequence[int], index: int) -> int:
    """The user on seat `index`: a fixed pair's player on its first seat, the partner on its
    second; an individual is their own."""
    if entrant.partner_id is None:
        return entrant.player_id
    first = seats.index(entrant.pk)
    return entrant.player_id if index == first else entrant.partner_id


def _active(tournament: Tournament, number: int) -> list[Entrant]:
    """The entrants who may be paired in round `number` (entry order)."""
    out = Q(out_from_round__isnull=True) | Q(out_from_round__gt=number)
    rows = Entrant.objects.filter(out, tournament=tournament,
                                  status=EntrantStatus.REGISTERED).order_by("registered", "pk")
    if tournament.is_pairs:
        return [e for e in rows if e.partner_id is not None]
    return list(rows)


def _rounds_of(stage: Stage, before: int) -> list[int]:
    return list(TournamentRound.objects.filter(stage=stage, number__lt=before)
                .order_by("number").values_list("pk", flat=True))


def _field_of_round(round_id: int) -> set[int]:
    """The entrants a paired round holds (at a table or with a bye)."""
    field: set[int] = set()
    for seats in TournamentTable.objects.filter(round_id=round_id).values_list(
            "seat_entrants", flat=True):
        field.update(seats)
    field.update(TournamentBye.objects.filter(round_id=round_id).values_list(
        "entrant_id", flat=True))
    return field


def _standings(tournament: Tournament, round_ids: Iterable[int], entrants: Iterable[int]
               ) -> list[ranking.Standing]:
    """ranking.standings over the results of `round_ids` (and the director's adjustments)."""
    round_ids = list(round_ids)
    parties = []
    for seats, a, b in (TournamentTable.objects.filter(round_id__in=round_ids)
                        .exclude(outcome=TableOutcome.PENDING)
                        .values_list("seat_entrants", "card_points_a", "card_points_b")):
        if a is None or b is None:
            continue
        if tournament.is_pairs:
            parties.append(ranking.Partie((seats[0],), (seats[1],), a, b))
        else:
            parties.append(ranking.Partie((seats[0], seats[2]), (seats[1], seats[3]), a, b))
    byes = [ranking.Bye(e, tournament.bye_match_points, tournament.bye_card_points)
            for e in TournamentBye.objects.filter(round_id__in=round_ids).values_list(
                "entrant_id", flat=True)]
    everyone = set(entrants)
    byes += [ranking.Bye(e, mp, cp) for e, mp, cp in ResultAdjustment.objects.filter(
        tournament=tournament, entrant_id__in=everyone).values_list(
            "entrant_id", "match_points", "card_points")]
    table = ranking.standings(everyone, parties, byes,
                              card_points_first=tournament.tiebreak == Tiebreak.CARD_POINTS_FIRST)
    return [s for s in table if s.entrant in everyone]


def _field(tournament: Tournament, rnd: TournamentRound) -> list[int]:
    """The round's entrants in seed order: the stage's standings so far (its first round: the
    stage before's standings, its top `advance`; the first stage: entry order)."""
    active = [e.pk for e in _active(tournament, rnd.number)]
    stage = rnd.stage
    earlier = _rounds_of(stage, rnd.number)
    if earlier:
        stage_field = _field_of_round(earlier[0])
        members = [e for e in active if e in stage_field]
        return [s.entrant for s in _standings(tournament, earlier, members)]
    before = Stage.objects.filter(tournament=tournament, number__lt=stage.number).order_by(
        "-number").first()
    if before is None:
        return active
    previous = _rounds_of(before, rnd.number)
    previous_field = _field_of_round(previous[0]) if previous else set(active)
    members = [e for e in active if e in previous_field]
    seeded = [s.entrant for s in _standings(tournament, previous, members)]
    return seeded if stage.advance is None else seeded[:stage.advance]


def _points(tournament: Tournament, rnd: TournamentRound, field: list[int]) -> dict[int, int]:
    earlier = _rounds_of(rnd.stage, rnd.number)
    return {s.entrant: s.match_points for s in _standings(tournament, earlier, field)}


def _history(tournament: Tournament, number: int
             ) -> tuple[list[list[int]], list[int]]:
    """Every earlier table's entrants by seat, and every earlier bye, of the tournament."""
    tables = list(TournamentTable.objects.filter(round__tournament=tournament,
                                                 round__number__lt=number)
                  .values_list("seat_entrants", flat=True))
    byes = list(TournamentBye.objects.filter(round__tournament=tournament,
                                             round__number__lt=number)
                .values_list("entrant_id", flat=True))
    return tables, byes


def _pairing_of(tournament: Tournament, rnd: TournamentRound
                ) -> tuple[list[list[int]], list[int]]:
    """The round's tables (entrant ids by seat) and byes."""
    field = _field(tournament, rnd)
    if tournament.is_pairs and rnd.stage.format == StageFormat.ROUND_ROBIN:
        return _circle(tournament, rnd, field)
    points = _points(tournament, rnd, field)
    entrants = [pairing.Entrant(e, points.get(e, 0)) for e in field]
    tables, byes = _history(tournament, rnd.number)
    if tournament.is_pairs:
        swiss = pairing.pair_swiss(entrants, [(s[0], s[1]) for s in tables], byes)
        return ([[a, b, a, b] for a, b in swiss.pairs],
                [] if swiss.bye is None else [swiss.bye])
    partners = [(s[0], s[2]) for s in tables] + [(s[1], s[3]) for s in tables]
    opponents = [(s[x], s[y]) for s in tables for x in (0, 2) for y in (1, 3)]
    individual = pairing.pair_individual(entrants, partners, opponents, byes)
    return ([[t.team_a[0], t.team_b[0], t.team_a[1], t.team_b[1]] for t in individual.tables],
            list(individual.sit_out))


def _circle(tournament: Tournament, rnd: TournamentRound, field: list[int]
            ) -> tuple[list[list[int]], list[int]]:
    """A round robin's fixed circle schedule: the stage's entrants by entry id (an odd count
    with a blank, whose opponent has the bye), the first fixed, the others turning one place
    a round. An entrant out since the stage began leaves a blank too, so the schedule holds."""
    stage = rnd.stage
    earlier = _rounds_of(stage, rnd.number)
    members = sorted(_field_of_round(earlier[0]) if earlier else field)
    playing = set(field)
    circle: list[int | None] = list(members)
    if len(circle) % 2:
        circle.append(None)
    if len(circle) < 2:
        return [], [e for e in members if e in playing]
    turn = len(earlier) % (len(circle) - 1)
    rest = circle[1:]
    rest = rest[len(rest) - turn:] + rest[:len(rest) - turn]
    order = [circle[0], *rest]
    tables: list[list[int]] = []
    byes: list[int] = []
    half = len(order) // 2
    for i in range(half):
        a, b = order[i], order[len(order) - 1 - i]
        a = a if a in playing else None
        b = b if b in playing else None
        if a is not None and b is not None:
            tables.append([a, b, a, b])
        elif a is not None or b is not None:
            byes.append(a if a is not None else b)  # type: ignore[arg-type]
    return tables, byes


# --- 3. the start ---------------------------------------------------------------------------

def _room_options(tournament: Tournament) -> dict[str, Any]:
    return {**(tournament.options or {}), "table_talk": tournament.talk}


def _start_round(rnd: TournamentRound, now: datetime) -> bool:
    tournament = rnd.tournament
    users = get_user_model().objects
    with transaction.atomic():
        if not TournamentRound.objects.filter(pk=rnd.pk, status=RoundStatus.PAIRED).update(
                status=RoundStatus.RUNNING, started_at=now,
                clock_ends_at=now + timedelta(minutes=tournament.round_minutes)):
            return False
        tables = list(TournamentTable.objects.filter(round=rnd, room__isnull=True,
                                                     outcome=TableOutcome.PENDING)
                      .order_by("number"))
        people = users.in_bulk({p for t in tables for p in t.seat_players})
        frames: list[tuple[int, dict[str, Any]]] = []
        at_hall = rnd.stage.at_real_tables
        for table in tables:
            players = [people[p] for p in table.seat_players]
            if at_hall:  # no room: the director enters the result from the desk
                frames += _tell_seat(tournament, rnd, table, players)
                continue
            room = open_table(tournament, rnd, table, players)
            frames += _tell_ready(tournament, rnd, table, room, players)
        on_commit(_announce(frames))
        push.changed(tournament.pk, "round")
    return True


def open_table(tournament: Tournament, rnd: TournamentRound, table: TournamentTable,
               players: list[Any]) -> Room:
    """The table's room, its four seated, linked to the table, its match started by seat 0."""
    name = f"{tournament.name} · {rnd.number}.{table.number}"
    room = services.create_seated_room(players, _room_options(tournament), name=name[:60])
    table.room = room
    table.save(update_fields=["room"])
    outcome = services.submit(room.code, players[0], Command("start_round", None, None))
    if not outcome.ok:
        raise ServiceError(outcome.code or "INVALID_ACTION")
    return room


def _tell_ready(tournament: Tournament, rnd: TournamentRound, table: TournamentTable,
                room: Room, players: list[Any]) -> list[tuple[int, dict[str, Any]]]:
    """"Your table is ready" to each (a person) of the table: a notification, an e-mail
    after commit if they asked for invitations by e-mail, and the site-socket frame with the
    link, returned for _announce to send with the whole round's."""
    frames: list[tuple[int, dict[str, Any]]] = []
    for player in players:
        if player.is_bot:
            continue
        notice = notifications.notify(player.pk, NoticeKind.TABLE_READY, tournament.director,
                                      room, announce=False)
        with translation.override(player.preferred_language or settings.LANGUAGE_CODE):
            # The room's own address in the player's language; the sentence the page shows.
            link = room.get_absolute_url()
            text = notifications.text_of(notice)
        frames.append((player.pk, {"type": "table_ready", "room": room.code,
                                   "table": table.number, "url": link,
                                   "text": text, "tournament": tournament.pk,
                                   "round": rnd.number}))
        if player.invite_emails and player.mail_address and settings.TROCCAS_SITE_URL:
            transaction.on_commit(_mail_to(player, rnd.number, settings.TROCCAS_SITE_URL + link))
    return frames


def _tell_seat(tournament: Tournament, rnd: TournamentRound, table: TournamentTable,
               players: list[Any]) -> list[tuple[int, dict[str, Any]]]:
    """A round at the real tables: each player learns their table's number (a notification
    naming the table, and the site-socket frame with `room: null`, linking the round's page,
    where the tables are listed). No e-mail: the players are in the hall."""
    url_args = {"pk": tournament.pk, "number": rnd.number}
    frames: list[tuple[int, dict[str, Any]]] = []
    for player in players:
        if player.is_bot:
            continue
        notice = notifications.notify(player.pk, NoticeKind.TABLE_READY, tournament.director,
                                      tournament=tournament, table=table, announce=False)
        with translation.override(player.preferred_language or settings.LANGUAGE_CODE):
            link = reverse("games:tournament_round", kwargs=url_args)
            text = notifications.text_of(notice)
        frames.append((player.pk, {"type": "table_ready", "room": None, "table": table.number,
                                   "url": link, "text": text, "tournament": tournament.pk,
                                   "round": rnd.number}))
    return frames


def _announce(ready: list[tuple[int, dict[str, Any]]]) -> Callable[[Effects], None]:
    """After commit, each player's new unread count and then their `table_ready` frame, the
    whole round's in one go: the counts read in one query and the frames sent in one trip to
    the event loop (a trip and a count per player were half of a 32-table round's start)."""
    def send(port: Effects) -> None:
        counts = notifications.unread_counts(user for user, _ in ready)
        frames: list[tuple[int, dict[str, Any]]] = []
        for user, frame in ready:
            frames += [(user, {"type": "notices", "unread": counts[user]}), (user, frame)]
        port.publish_site_frames(frames)
    return send


def _mail_to(player: Any, number: int, link: str) -> Callable[[], None]:
    return lambda: _send_email(player, number, link)


def _send_email(player: Any, number: int, link: str) -> None:
    address = player.mail_address
    if not address:
        return
    with translation.override(player.preferred_language or settings.LANGUAGE_CODE):
        context = {"player": player.public_name, "round": number, "link": link}
        subject = "".join(render_to_string("games/email/table_ready_subject.txt",
                                           context).splitlines()).strip()
        body = render_to_string("games/email/table_ready.txt", context)
    try:
        send_mail(subject, body, None, [address])
    except Exception:  # the notification stands
        log.exception("table-ready e-mail to user %s failed", player.pk)


# --- 4. results and the close ---------------------------------------------------------------

def _collect_results(rnd: TournamentRound, now: datetime) -> bool:
    """Copy each finished match into its table; at the clock, finish the tables still
    playing as the tournament says. Whether anything changed."""
    changed = False
    clock = rnd.clock_ends_at is not None and rnd.clock_ends_at <= now
    tournament = rnd.tournament
    for table in TournamentTable.objects.filter(round=rnd, outcome=TableOutcome.PENDING,
                                                room__isnull=False):
        assert table.room_id is not None
        match = Match.objects.filter(room_id=table.room_id).order_by("-number").first()
        if match is None:
            continue
        if match.status == MatchStatus.FINISHED:
            changed |= _record(tournament, table, match, TableOutcome.PLAYED, now)
        elif clock:
            # Still playing, or ended early without a result (the idle sweep's abandon).
            changed |= _at_the_clock(tournament, table, now)
    return changed


def _at_the_clock(tournament: Tournament, table: TournamentTable, now: datetime) -> bool:
    assert table.room_id is not None
    room = Room.objects.get(pk=table.room_id)
    with transaction.atomic():
        ended = services.staff_end_match(room, tournament.director)
        match = Match.objects.filter(room=room).order_by("-number").first()
        assert match is not None
        if match.status == MatchStatus.FINISHED:  # its last card came first
            return _record(tournament, table, match, TableOutcome.PLAYED, now)
        if tournament.unfinished == Unfinished.DIRECTOR:
            # Stopped, left pending: the director adjudicates (games/clubs/desk.py).
            if ended:
                push.changed(tournament.pk, "table")
            return ended
        return _record(tournament, table, match, TableOutcome.AS_STANDS, now) or ended


def _record(tournament: Tournament, table: TournamentTable, match: Match, outcome: str,
            now: datetime) -> bool:
    """The match's result into its table, once (a compare-and-set on the table's outcome)."""
    deals = [[a or 0, b or 0] for a, b in Round.objects.filter(
        match=match, finished__isnull=False).order_by("number").values_list(
            "points_a", "points_b")]
    players = [match.player_0, match.player_1, match.player_2, match.player_3]
    bots = {i for i, p in enumerate(players) if p is not None and p.is_bot}
    bots |= {seat for seat in RoundAction.objects.filter(
        round__match=match, actor__is_bot=True, actor_seat__isnull=False).values_list(
            "actor_seat", flat=True) if seat is not None}
    if not TournamentTable.objects.filter(pk=table.pk, outcome=TableOutcome.PENDING).update(
            outcome=outcome, card_points_a=match.total_a, card_points_b=match.total_b,
            deal_scores=deals, bot_seats=sorted(bots), finished=now):
        return False
    push.changed(tournament.pk, "table")
    return True


def _close_round(rnd: TournamentRound, now: datetime) -> bool:
    with transaction.atomic():
        if not TournamentRound.objects.filter(pk=rnd.pk, status=RoundStatus.RUNNING).update(
                status=RoundStatus.CLOSED, closed_at=now):
            return False
        push.changed(rnd.tournament_id, "round")
    return True

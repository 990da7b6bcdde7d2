"""A tournament before and around play (issue #26 item 2): its creation by a director, the
registration of entrants (individuals, or fixed pairs of friends) with a capacity and a
waiting list, withdrawal, and the check-in before the start. Each refusal is a ServiceError
with a stable code; nothing changes then.

Every change of a tournament's entrants locks the tournament's row first
(`select_for_update`; SQLite serialises writers anyway), so two players taking the last place,
or a withdrawal racing a registration, count one after the other.

What the round runner reads from here: `checked_in_entrants` (round 1's pairing) and each
entrant's `status` and `out_from_round` (a withdrawal during the tournament: later rounds pair
around them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games.clubs.membership import DIRECTING, clean_text, is_director, member_role
from games.clubs.push import changed as tell_pages
from games.engine.errors import OptionsError
from games.engine.options import Options
from games.models import (
    Club,
    Entrant,
    EntrantKind,
    EntrantStatus,
    NoticeKind,
    RoundStatus,
    Spectators,
    Stage,
    StageFormat,
    StageVenue,
    TableTalk,
    Tiebreak,
    Tournament,
    TournamentRound,
    TournamentStatus,
    Unfinished,
)
from games.models.tournaments import NAME_MAX
from games.services.errors import ServiceError
from games.services.rooms import with_default_turn_timer
from games.talk import notifications
from games.talk.blocks import is_blocked_either_way
from games.talk.friends import are_friends

__all__ = ["MAX_CAPACITY", "MAX_ROUNDS", "MAX_STAGES", "StagePlan", "check_in",
           "checked_in_entrants", "create_tournament", "entrant_of", "is_checked_in",
           "may_direct", "may_watch", "register", "round_start", "visible_tournaments",
           "waiting_list", "withdraw"]

MAX_STAGES = 4
MAX_ROUNDS = 15
MAX_CAPACITY = 512
# A round robin of n pairs plays n - 1 rounds: more than 16 pairs would need more rounds than
# a stage may hold.
MAX_ROUND_ROBIN_PAIRS = MAX_ROUNDS + 1
MAX_CHECKIN_MINUTES = 24 * 60
LIVE_ENTRIES = (EntrantStatus.REGISTERED, EntrantStatus.WAITING)


@dataclass(frozen=True)
class StagePlan:
    """One stage as the director asks for it: Swiss or round robin over `rounds` tournament
    rounds; a later stage seeds the best `advance` of the stage before."""

    format: str = StageFormat.SWISS
    rounds: int = 1
    advance: int | None = None
    duplicate: bool = False
    # Online (rooms of the site) or at a hall's real tables (the director enters results).
    venue: str = StageVenue.ONLINE

    @classmethod
    def of(cls, raw: Any) -> StagePlan:
        if isinstance(raw, StagePlan):
            plan = raw
        elif not isinstance(raw, dict) or set(raw) - {"format", "rounds", "advance",
                                                      "duplicate", "venue"}:
            raise ServiceError("TOURNAMENT_STAGES_INVALID")
        else:
            plan = cls(format=raw.get("format", StageFormat.SWISS),
                       rounds=raw.get("rounds", 1), advance=raw.get("advance"),
                       duplicate=raw.get("duplicate", False),
                       venue=raw.get("venue", StageVenue.ONLINE))
        if (plan.format not in StageFormat.values or not _is_int(plan.rounds)
                or not (plan.advance is None or _is_int(plan.advance))
                or not isinstance(plan.duplicate, bool)
                or not isinstance(plan.venue, str) or plan.venue not in StageVenue.values):
            raise ServiceError("TOURNAMENT_STAGES_INVALID")
        if plan.duplicate and plan.venue == StageVenue.REAL_TABLES:
            raise ServiceError("DUPLICATE_NOT_AT_REAL_TABLES")
        return plan


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_stages(stages: list[StagePlan], pairs: bool, capacity: int) -> None:
    if not 1 <= len(stages) <= MAX_STAGES:
        raise ServiceError("TOURNAMENT_STAGES_INVALID")
    least = 2 if pairs else 4
    field = capacity
    for number, stage in enumerate(stages):
        if not 1 <= stage.rounds <= MAX_ROUNDS:
            raise ServiceError("TOURNAMENT_STAGES_INVALID")
        if number == 0:
            if stage.advance is not None:
                raise ServiceError("TOURNAMENT_STAGES_INVALID")
        else:
            if stage.advance is None or not least <= stage.advance <= field:
                raise ServiceError("TOURNAMENT_STAGES_INVALID")
            field = stage.advance
        if stage.format == StageFormat.ROUND_ROBIN and (
                not pairs or field > MAX_ROUND_ROBIN_PAIRS):
            raise ServiceError("TOURNAMENT_STAGES_INVALID")


def round_start(starts_at: datetime, index: int, round_minutes: int,
                break_minutes: int) -> datetime:
    """When round `index` (0-based over all stages) is scheduled to start."""
    return starts_at + timedelta(minutes=index * (round_minutes + break_minutes))


def _choice(value: Any, values: list[str]) -> str:
    if value not in values:
        raise ServiceError("INVALID_FIELD")
    return str(value)


def _bounded(value: Any, low: int, high: int, code: str = "INVALID_FIELD") -> int:
    if not _is_int(value) or not low <= value <= high:
        raise ServiceError(code)
    return int(value)


def create_tournament(
        director: Any, *, club: Club | None = None, name: str, language: str,
        entrant_kind: str = EntrantKind.INDIVIDUAL, options: dict[str, Any] | None = None,
        talk: str = TableTalk.PHRASES, spectators: str = Spectators.OFF,
        tiebreak: str = Tiebreak.MATCH_POINTS_FIRST, unfinished: str = Unfinished.AS_STANDS,
        bye_match_points: int = 2, bye_card_points: int = 0, capacity: int = 64,
        registration_opens: datetime | None = None, registration_closes: datetime,
        checkin_minutes: int = 30, starts_at: datetime, round_minutes: int = 60,
        break_minutes: int = 5, stages: list[Any]) -> Tournament:
    """A new tournament directed by `director`, with its stages and every round scheduled:
    round k (0-based over all stages) starts at `starts_at + k * (round + break)`.

    A club's tournament is created by the club's owner or a director
    (TOURNAMENT_NOT_DIRECTOR);
    an open one by any signed-in player. The house rules of every Partie (RULES.md §14,
    `match_deals` its length) are checked as a room's are (INVALID_OPTIONS); the table
    talk is the tournament's (`phrases` or `silent`) and goes into them; without a
    `turn_seconds` the Partie has the people's default turn timer."""
    if not getattr(director, "is_authenticated", False):
        raise ServiceError("NOT_AUTHENTICATED")
    name = clean_text(name, NAME_MAX, required=True)
    if language not in dict(settings.LANGUAGES):
        raise ServiceError("INVALID_FIELD")
    entrant_kind = _choice(entrant_kind, EntrantKind.values)
    talk = _choice(talk, TableTalk.values)
    spectators = _choice(spectators, Spectators.values)
    tiebreak = _choice(tiebreak, Tiebreak.values)
    unfinished = _choice(unfinished, Unfinished.values)
    bye_match_points = _bounded(bye_match_points, 0, 2)
    bye_card_points = _bounded(bye_card_points, 0, 10_000)
    pairs = entrant_kind == EntrantKind.PAIRS
    capacity = _bounded(capacity, 2 if pairs else 4, MAX_CAPACITY)
    # A missing turn timer is the people's default, as for a room a person opens.
    raw = with_default_turn_timer(options)
    if not isinstance(raw, dict):
        raise ServiceError("INVALID_OPTIONS")
    try:
        opts = Options.from_json({**raw, "table_talk": talk}).to_json()
    except OptionsError:
        raise ServiceError("INVALID_OPTIONS") from None
    if opts["match_deals"] == 0:  # a Partie has a fixed number of deals
        raise ServiceError("INVALID_OPTIONS")
    now = timezone.now()
    opens = registration_opens or now
    checkin_minutes = _bounded(checkin_minutes, 1, MAX_CHECKIN_MINUTES,
                               "TOURNAMENT_SCHEDULE_INVALID")
    round_minutes = _bounded(round_minutes, 5, 600, "TOURNAMENT_SCHEDULE_INVALID")
    break_minutes = _bounded(break_minutes, 0, 240, "TOURNAMENT_SCHEDULE_INVALID")
    if not all(isinstance(t, datetime) and timezone.is_aware(t)
               for t in (opens, registration_closes, starts_at)):
        raise ServiceError("TOURNAMENT_SCHEDULE_INVALID")
    if not (opens < registration_closes <= starts_at and starts_at > now):
        raise ServiceError("TOURNAMENT_SCHEDULE_INVALID")
    plans = [StagePlan.of(raw) for raw in stages] if isinstance(stages, list | tuple) else []
    _check_stages(plans, pairs, capacity)
    with transaction.atomic():
        if club is not None:
            club = Club.objects.select_for_update().filter(pk=club.pk).first()
            if club is None:
                raise ServiceError("CLUB_NOT_FOUND")
            if not is_director(club, director):
                raise ServiceError("TOURNAMENT_NOT_DIRECTOR")
        tournament = Tournament.objects.create(
            name=name, club=club, director=director, language=language,
            entrant_kind=entrant_kind, options=opts, talk=talk, spectators=spectators,
            tiebreak=tiebreak, unfinished=unfinished, bye_match_points=bye_match_points,
            bye_card_points=bye_card_points, capacity=capacity, registration_opens=opens,
            registration_closes=registration_closes, checkin_minutes=checkin_minutes,
            starts_at=starts_at, round_minutes=round_minutes, break_minutes=break_minutes,
            created=now)
        index = 0
        for number, plan in enumerate(plans, start=1):
            stage = Stage.objects.create(tournament=tournament, number=number,
                                         format=plan.format, rounds=plan.rounds,
                                         advance=plan.advance, duplicate=plan.duplicate,
                                         venue=plan.venue)
            TournamentRound.objects.bulk_create(
                TournamentRound(stage=stage, tournament=tournament, number=index + k + 1,
                                starts_at=round_start(starts_at, index + k, round_minutes,
                                                      break_minutes))
                for k in range(plan.rounds))
            index += plan.rounds
    return tournament


# --- who sees and who directs -------------------------------------------------------------

def visible_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments `user` may see: every open one, and a club's to its members."""
    mine = Q(club__isnull=True)
    if getattr(user, "is_authenticated", False):
        mine |= Q(club__memberships__user_id=user.pk)
    return Tournament.objects.filter(mine).distinct()


def may_watch(user: Any, tournament_id: int) -> bool:
    """Whether `user` may follow the tournament's changes on the site socket (games/clubs/
    push.py): the tournament is one they may see."""
    return visible_tournaments(user).filter(pk=tournament_id).exists()


def may_direct(tournament: Tournament, user: Any) -> bool:
    """Its director; for a club's tournament also the club's owner and directors."""
    if not getattr(user, "is_authenticated", False):
        return False
    if tournament.director_id == user.pk:
        return True
    return tournament.club_id is not None and member_role(
        tournament.club_id, user) in DIRECTING


# --- entrants -----------------------------------------------------------------------------

def _locked(tournament: Tournament | int) -> Tournament:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    row = Tournament.objects.select_for_update().filter(pk=pk).first()
    if row is None:
        raise ServiceError("TOURNAMENT_NOT_FOUND")
    return row


def _live_entries(tournament: Tournament) -> QuerySet[Entrant]:
    return Entrant.objects.filter(tournament=tournament, status__in=LIVE_ENTRIES)


def entrant_of(tournament: Tournament, user: Any) -> Entrant | None:
    """`user`'s entry (as the player or the partner), registered or waiting; None if none."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (_live_entries(tournament).filter(Q(player_id=user.pk) | Q(partner_id=user.pk))
            .select_related("player", "partner").first())


def waiting_list(tournament: Tournament) -> QuerySet[Entrant]:
    """The waiting entrants in registration order (the first is promoted first)."""
    return (Entrant.objects.filter(tournament=tournament, status=EntrantStatus.WAITING)
            .select_related("player", "partner").order_by("registered", "pk"))


def registration_open(tournament: Tournament, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return (tournament.status == TournamentStatus.REGISTRATION
            and tournament.registration_opens <= now < tournament.registration_closes)


def checkin_opens(tournament: Tournament) -> datetime:
    return tournament.starts_at - timedelta(minutes=tournament.checkin_minutes)


def checkin_open(tournament: Tournament, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return (tournament.status == TournamentStatus.REGISTRATION
            and checkin_opens(tournament) <= now < tournament.starts_at)


def _may_enter(tournament: Tournament, user: Any) -> None:
    if tournament.club_id is not None and member_role(tournament.club_id, user) is None:
        raise ServiceError("TOURNAMENT_MEMBERS_ONLY")


def register(user: Any, tournament: Tournament | int, partner: Any = None) -> Entrant:
    """`user` enters (with `partner`, a friend, for a pairs tournament), while registration
    is open. Beyond the capacity the entry waits in line (status WAITING). The partner is
    told through the notifications."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("NOT_AUTHENTICATED")
    with transaction.atomic():
        row = _locked(tournament)
        if not registration_open(row):
            raise ServiceError("TOURNAMENT_REGISTRATION_CLOSED")
        _may_enter(row, user)
        partner_user: User | None = None
        if row.is_pairs:
            if partner is None:
                raise ServiceError("TOURNAMENT_PARTNER_NEEDED")
            partner_id = partner if isinstance(partner, int) else partner.pk
            partner_user = User.objects.filter(pk=partner_id, is_active=True,
                                               is_bot=False).first()
            if partner_user is None:
                raise ServiceError("PLAYER_NOT_FOUND")
            if partner_user.pk == user.pk:
                raise ServiceError("CANNOT_TARGET_SELF")
            if is_blocked_either_way(user.pk, partner_user.pk):
                raise ServiceError("PLAYER_BLOCKED")
            if not are_friends(user.pk, partner_user.pk):
                raise ServiceError("NOT_FRIENDS")
            _may_enter(row, partner_user)
        elif partner is not None:
            raise ServiceError("INVALID_FIELD")
        people = [user.pk] + ([partner_user.pk] if partner_user is not None else [])
        if _live_entries(row).filter(Q(player_id__in=people) | Q(partner_id__in=people)
                                     ).exists():
            raise ServiceError("TOURNAMENT_ALREADY_ENTERED")
        taken = _live_entries(row).filter(status=EntrantStatus.REGISTERED).count()
        status = EntrantStatus.REGISTERED if taken < row.capacity else EntrantStatus.WAITING
        now = timezone.now()
        fields = {"partner": partner_user, "status": status, "registered": now,
                  "checked_in": None, "partner_checked_in": None, "withdrawn": None,
                  "out_from_round": None}
        # A player who withdrew before may enter again: their row, at the end of the line.
        entrant, _ = Entrant.objects.update_or_create(tournament=row, player_id=user.pk,
                                                      defaults=fields)
        if partner_user is not None:
            notifications.notify(partner_user.pk, NoticeKind.TOURNAMENT_PARTNER, user,
                                 tournament=row)
        tell_pages(row.pk, "entrants")
    return entrant


def _next_round_unpaired(tournament: Tournament) -> int:
    """The first round not yet paired (one past the last if every round is)."""
    rounds = TournamentRound.objects.filter(tournament=tournament)
    first = (rounds.filter(status=RoundStatus.SCHEDULED).order_by("number")
             .values_list("number", flat=True).first())
    if first is not None:
        return int(first)
    last = rounds.order_by("-number").values_list("number", flat=True).first()
    return int(last or 0) + 1


def withdraw(user: Any, tournament: Tournament | int) -> Entrant:
    """`user` (the player or the partner) withdraws their entry. Before the start the place
    is freed and the first waiting entrant takes it (and is told); during the tournament the
    entry is out from the next round not yet paired (later rounds pair around it)."""
    with transaction.atomic():
        row = _locked(tournament)
        if row.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise ServiceError("TOURNAMENT_OVER")
        entrant = entrant_of(row, user)
        if entrant is None:
            raise ServiceError("TOURNAMENT_NOT_ENTERED")
        was_registered = entrant.status == EntrantStatus.REGISTERED
        now = timezone.now()
        entrant.status = EntrantStatus.WITHDRAWN
        entrant.withdrawn = now
        if row.status == TournamentStatus.RUNNING:
            entrant.out_from_round = _next_round_unpaired(row)
        entrant.save(update_fields=["status", "withdrawn", "out_from_round"])
        if row.status == TournamentStatus.REGISTRATION and was_registered:
            _promote(row, actor=user)
        tell_pages(row.pk, "entrants")
    return entrant


def _promote(tournament: Tournament, *, actor: Any) -> Entrant | None:
    """The first waiting entrant takes a freed place; its players are told."""
    taken = _live_entries(tournament).filter(status=EntrantStatus.REGISTERED).count()
    if taken >= tournament.capacity:
        return None
    first = waiting_list(tournament).first()
    if first is None:
        return None
    first.status = EntrantStatus.REGISTERED
    first.save(update_fields=["status"])
    for person in (first.player_id, first.partner_id):
        if person is not None:
            notifications.notify(person, NoticeKind.TOURNAMENT_PLACE, actor,
                                 tournament=tournament)
    return first


def check_in(user: Any, tournament: Tournament | int) -> Entrant:
    """`user` checks in, in the window [start - checkin_minutes, start). A pair is checked
    in once both of its players are. A waiting entrant may check in too: promoted at the
    last minute, they are ready. Checking in twice changes nothing."""
    with transaction.atomic():
        row = _locked(tournament)
        if not checkin_open(row):
            raise ServiceError("TOURNAMENT_CHECKIN_CLOSED")
        entrant = entrant_of(row, user)
        if entrant is None:
            raise ServiceError("TOURNAMENT_NOT_ENTERED")
        now = timezone.now()
        if entrant.player_id == user.pk and entrant.checked_in is None:
            entrant.checked_in = now
            entrant.save(update_fields=["checked_in"])
        elif entrant.partner_id == user.pk and entrant.partner_checked_in is None:
            entrant.partner_checked_in = now
            entrant.save(update_fields=["partner_checked_in"])
    return entrant


def is_checked_in(entrant: Entrant) -> bool:
    return entrant.checked_in is not None and (
        entrant.partner_id is None or entrant.partner_checked_in is not None)


def checked_in_entrants(tournament: Tournament) -> QuerySet[Entrant]:
    """Round 1's field: the registered entrants who checked in (both players of a pair), in
    registration order. A player who has not checked in is dropped from round 1's pairing."""
    rows = Entrant.objects.filter(tournament=tournament, status=EntrantStatus.REGISTERED,
                                  checked_in__isnull=False, out_from_round__isnull=True)
    if tournament.is_pairs:
        rows = rows.filter(partner_checked_in__isnull=False)
    return rows.select_related("player", "partner").order_by("registered", "pk")

"""The director's desk (issue #26 item 6): what a tournament's director sees of the current
round's tables, and their actions on it.

Who: the tournament's director; for a club's tournament also the club's owner and directors
(TOURNAMENT_NOT_DIRECTOR for anyone else). Each action runs in one transaction that also
writes its DirectorAction row (kind, payload, reason, actor): the audit log on the tournament
page (`describe` says each in words). A refusal is a ServiceError; nothing changes then.

The live picture (`desk_tables`) holds public information only: the phase, the deal, the
match total, which seats are away and which a bot plays; never a card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.bots import bot_account
from games import services
from games.bots import LEVELS
from games.clubs import push
from games.clubs.membership import is_director
from games.models import (
    DirectorAction,
    Entrant,
    EntrantStatus,
    MatchStatus,
    ResultAdjustment,
    RoundStatus,
    TableOutcome,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from games.services.errors import ServiceError
from games.text.table import ui_strings

__all__ = ["DeskTable", "adjudicate", "adjust", "current_round", "describe", "desk_tables",
           "enter_result", "is_tournament_director", "pause", "repair", "require_director",
           "resume", "substitute", "withdraw"]

REASON_MAX = 200
# A deal's score typed by hand is at most this (far above any real deal's count).
MAX_DEAL_POINTS = 10_000


def is_tournament_director(tournament: Tournament, user: Any) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if tournament.director_id == user.pk:
        return True
    return tournament.club_id is not None and is_director(tournament.club_id, user)


def require_director(tournament: Tournament, user: Any) -> None:
    if not is_tournament_director(tournament, user):
        raise ServiceError("TOURNAMENT_NOT_DIRECTOR")


def _reason(reason: Any, *, required: bool = False) -> str:
    if not isinstance(reason, str):
        raise ServiceError("INVALID_FIELD")
    clean = " ".join(reason.split())
    if len(clean) > REASON_MAX or (required and not clean):
        raise ServiceError("INVALID_FIELD")
    return clean


# What each action changes on the tournament's pages (games/clubs/push.py). A re-pair says
# so through the round runner's pairing, which it calls.
_CHANGES = {"pause": "table", "resume": "table", "substitute": "table", "withdraw": "entrants",
            "adjudicate": "table", "enter_result": "table", "adjust": "adjustment"}


def _log(tournament: Tournament, actor: Any, kind: str, payload: dict[str, Any],
         reason: str = "") -> DirectorAction:
    """The action's audit row; its pages are told after the commit."""
    if kind in _CHANGES:
        push.changed(tournament.pk, _CHANGES[kind])
    return DirectorAction.objects.create(tournament=tournament, actor=actor, kind=kind,
                                         payload=payload, reason=reason)


def _table(tournament: Tournament, table_id: int, *, lock: bool = True) -> TournamentTable:
    qs = TournamentTable.objects.filter(pk=table_id, round__tournament=tournament)
    # Only the table's row is locked (a room may be missing: the outer join's side).
    qs = qs.select_for_update(of=("self",)) if lock else qs
    table = qs.select_related("round", "round__stage", "room").first()
    if table is None:
        raise ServiceError("NOT_FOUND")
    return table


def _int(value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError("INVALID_FIELD")
    return int(value)


def _check_online(table: TournamentTable) -> None:
    """A table of a stage played at the real tables has no room: nothing online to pause,
    resume or seat a bot at (REAL_TABLE_NO_ROOM)."""
    if table.room_id is None and table.round.stage.at_real_tables:
        raise ServiceError("REAL_TABLE_NO_ROOM")


def _running_room(table: TournamentTable) -> bool:
    room = table.room
    if room is None or room.closed is not None:
        return False
    match = room.current_match
    return match is not None and match.status == MatchStatus.RUNNING


# --- the live picture -------------------------------------------------------------------------

def current_round(tournament: Tournament) -> TournamentRound | None:
    """The round being played, else the next one to be, else the last."""
    rounds = list(tournament.rounds.order_by("number"))
    for status in (RoundStatus.RUNNING, RoundStatus.PAIRED, RoundStatus.SCHEDULED):
        for rnd in rounds:
            if rnd.status == status:
                return rnd
    return rounds[-1] if rounds else None


@dataclass(frozen=True)
class DeskTable:
    id: int
    number: int
    room_code: str | None
    outcome: str
    phase: str
    deal: int
    totals: tuple[int, int] | None
    paused: bool
    away: list[int]
    bots: list[int]
    names: list[str]

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "table": self.number, "room": self.room_code,
                "outcome": self.outcome, "phase": self.phase, "deal": self.deal,
                "totals": list(self.totals) if self.totals is not None else None,
                "paused": self.paused, "away": self.away, "bots": self.bots,
                "names": self.names}


def desk_tables(rnd: TournamentRound) -> list[DeskTable]:
    """Each table of the round as the desk shows it (public information only)."""
    from games.clubs.results import round_results

    labels = ui_strings()
    by_number = {r.number: r for r in round_results(rnd)}
    out = []
    for t in rnd.tables.select_related("room").order_by("number"):
        names = [s.name for s in by_number[t.number].seats]
        phase, deal, totals, paused, away = "", 0, None, False, []
        if t.outcome != TableOutcome.PENDING:
            phase = str(TableOutcome(t.outcome).label)
            totals = (t.card_points_a or 0, t.card_points_b or 0)
            deal = len(t.deal_scores or [])
        elif rnd.stage.at_real_tables:
            phase = _("Playing at the real table")
        elif t.room is not None:
            snap = services.table_snapshot(t.room.code)
            state = snap.state
            phase = labels.get(f"phase_{state.phase}", str(state.phase))
            deal = state.deals_played + (1 if state.deal is not None else 0)
            totals = (int(state.totals[0]), int(state.totals[1]))
            paused = bool(snap.match and snap.match.get("paused_at"))
            away = sorted(services.away_seats(t.room.code))
        out.append(DeskTable(t.pk, t.number, t.room.code if t.room else None, t.outcome, phase,
                             deal, totals, paused, away, sorted(t.bot_seats or []), names))
    return out


# --- actions ---------------------------------------------------------------------------------

def pause(tournament: Tournament, director: Any, table_id: int, reason: str = "") -> bool:
    """Pause a table's running match: no bot, stand-in or timer acts until it resumes."""
    require_director(tournament, director)
    reason = _reason(reason)
    with transaction.atomic():
        table = _table(tournament, table_id)
        if table.outcome != TableOutcome.PENDING:
            raise ServiceError("TOURNAMENT_TABLE_FINISHED")
        _check_online(table)
        if table.room is None:
            raise ServiceError("TABLE_NOT_RUNNING")
        changed = services.director_pause(table.room.pk, director)
        _log(tournament, director, "pause", {"table": table.number, "round": table.round.number},
             reason)
    return changed


def resume(tournament: Tournament, director: Any, table_id: int, reason: str = "") -> bool:
    require_director(tournament, director)
    reason = _reason(reason)
    with transaction.atomic():
        table = _table(tournament, table_id)
        _check_online(table)
        if table.room is None:
            raise ServiceError("TABLE_NOT_RUNNING")
        changed = services.director_resume(table.room.pk, director)
        _log(tournament, director, "resume",
             {"table": table.number, "round": table.round.number}, reason)
    return changed


def substitute(tournament: Tournament, director: Any, table_id: int, seat: int, *,
               user: Any = None, bot_level: str = "", reason: str = "") -> None:
    """Put a person (`user`) or a bot (`bot_level`) on a seat of an unfinished table. A bot's
    seat is flagged (bot_seats): the match is unrated and the entrant excluded from prizes.
    The seat keeps its entrant: the substitute plays for them."""
    require_director(tournament, director)
    reason = _reason(reason)
    seat = _int(seat, 0, 3)
    if (user is None) == (not bot_level):
        raise ServiceError("INVALID_FIELD")
    if bot_level and bot_level not in LEVELS:
        raise ServiceError("INVALID_FIELD")
    with transaction.atomic():
        table = _table(tournament, table_id)
        if table.outcome != TableOutcome.PENDING:
            raise ServiceError("TOURNAMENT_TABLE_FINISHED")
        if bot_level:  # a reserve may sit down at a hall's table; a bot has nowhere to play
            _check_online(table)
        newcomer = user if user is not None else bot_account(bot_level, seat)
        players = list(table.seat_players or [None] * 4)
        if newcomer.pk in players:
            raise ServiceError("ALREADY_SEATED_THERE")
        replaced = players[seat] if seat < len(players) else None
        if _running_room(table):
            assert table.room is not None
            services.substitute_seat(table.room.pk, seat, newcomer, director)
        players[seat] = newcomer.pk
        table.seat_players = players
        fields = ["seat_players"]
        if bot_level and seat not in (table.bot_seats or []):
            table.bot_seats = sorted([*(table.bot_seats or []), seat])
            fields.append("bot_seats")
        table.save(update_fields=fields)
        _log(tournament, director, "substitute",
             {"table": table.number, "round": table.round.number, "seat": seat,
              "player": newcomer.pk, "name": str(newcomer.public_name), "bot": bool(bot_level),
              "replaced": replaced}, reason)


def withdraw(tournament: Tournament, director: Any, entrant_id: int, reason: str = "") -> int:
    """Withdraw an entrant: from the next round not yet paired on, they are paired no more
    (what they scored stays in the standings). Returns that round's number."""
    require_director(tournament, director)
    reason = _reason(reason)
    with transaction.atomic():
        entrant = (Entrant.objects.select_for_update()
                   .filter(pk=entrant_id, tournament=tournament).first())
        if entrant is None:
            raise ServiceError("NOT_FOUND")
        if entrant.status == EntrantStatus.WITHDRAWN:
            raise ServiceError("ENTRANT_WITHDRAWN")
        rounds = tournament.rounds.all()
        unpaired = [r.number for r in rounds if r.status == RoundStatus.SCHEDULED]
        out_from = min(unpaired) if unpaired else max([r.number for r in rounds], default=0) + 1
        entrant.status = EntrantStatus.WITHDRAWN
        entrant.withdrawn = timezone.now()
        entrant.out_from_round = out_from
        entrant.save(update_fields=["status", "withdrawn", "out_from_round"])
        _log(tournament, director, "withdraw",
             {"entrant": entrant.pk, "name": str(entrant), "out_from_round": out_from}, reason)
    return out_from


def repair(tournament: Tournament, director: Any, number: int, reason: str = "") -> None:
    """Pair a round again before it starts (after a withdrawal, a late arrival): the round
    runner's `pair_round(round, repair=True)`."""
    require_director(tournament, director)
    reason = _reason(reason)
    with transaction.atomic():
        rnd = (TournamentRound.objects.select_for_update()
               .filter(tournament=tournament, number=number).first())
        if rnd is None:
            raise ServiceError("NOT_FOUND")
        if rnd.status not in (RoundStatus.SCHEDULED, RoundStatus.PAIRED):
            raise ServiceError("ROUND_ALREADY_STARTED")
        # The round runner (games/clubs/rounds.py), written beside this module.
        from games.clubs.rounds import (  # type: ignore[import-not-found, unused-ignore]
            pair_round,
        )

        pair_round(rnd, repair=True)
        _log(tournament, director, "repair", {"round": number}, reason)


def _end_room(table: TournamentTable, director: Any) -> None:
    if _running_room(table):
        assert table.room is not None
        services.staff_end_match(table.room, director)


def adjudicate(tournament: Tournament, director: Any, table_id: int, card_points_a: int,
               card_points_b: int, reason: str = "") -> None:
    """Decide an unfinished table's Partie: the card points per team the director typed
    (outcome ADJUDICATED); the room's match, if still on, ends."""
    require_director(tournament, director)
    reason = _reason(reason)
    a = _int(card_points_a, -MAX_DEAL_POINTS * 100, MAX_DEAL_POINTS * 100)
    b = _int(card_points_b, -MAX_DEAL_POINTS * 100, MAX_DEAL_POINTS * 100)
    with transaction.atomic():
        table = _table(tournament, table_id)
        if table.outcome != TableOutcome.PENDING:
            raise ServiceError("TOURNAMENT_TABLE_FINISHED")
        _end_room(table, director)
        table.outcome = TableOutcome.ADJUDICATED
        table.card_points_a, table.card_points_b = a, b
        table.finished = timezone.now()
        table.save(update_fields=["outcome", "card_points_a", "card_points_b", "finished"])
        _log(tournament, director, "adjudicate",
             {"table": table.number, "round": table.round.number, "card_points": [a, b]},
             reason)


def enter_result(tournament: Tournament, director: Any, table_id: int,
                 deal_scores: Any, reason: str = "") -> None:
    """A Partie played over a real table (a village hall): each deal's [points A, points B]
    as the director typed them (outcome ENTERED, card points their sums)."""
    require_director(tournament, director)
    reason = _reason(reason)
    if not isinstance(deal_scores, list) or not 1 <= len(deal_scores) <= 100:
        raise ServiceError("INVALID_FIELD")
    deals: list[list[int]] = []
    for pair in deal_scores:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ServiceError("INVALID_FIELD")
        deals.append([_int(p, -MAX_DEAL_POINTS, MAX_DEAL_POINTS) for p in pair])
    with transaction.atomic():
        table = _table(tournament, table_id)
        if table.outcome != TableOutcome.PENDING:
            raise ServiceError("TOURNAMENT_TABLE_FINISHED")
        _end_room(table, director)
        table.outcome = TableOutcome.ENTERED
        table.deal_scores = deals
        table.card_points_a = sum(d[0] for d in deals)
        table.card_points_b = sum(d[1] for d in deals)
        table.finished = timezone.now()
        table.save(update_fields=["outcome", "deal_scores", "card_points_a", "card_points_b",
                                  "finished"])
        _log(tournament, director, "enter_result",
             {"table": table.number, "round": table.round.number, "deals": len(deals),
              "card_points": [table.card_points_a, table.card_points_b]}, reason)


def adjust(tournament: Tournament, director: Any, entrant_id: int, match_points: int,
           card_points: int, reason: str) -> ResultAdjustment:
    """Add match and card points (either may be negative) to an entrant's totals, with the
    reason every reader of the audit log sees."""
    require_director(tournament, director)
    reason = _reason(reason, required=True)
    match_points = _int(match_points, -1000, 1000)
    card_points = _int(card_points, -MAX_DEAL_POINTS * 100, MAX_DEAL_POINTS * 100)
    if match_points == 0 and card_points == 0:
        raise ServiceError("INVALID_FIELD")
    with transaction.atomic():
        entrant = Entrant.objects.filter(pk=entrant_id, tournament=tournament).first()
        if entrant is None:
            raise ServiceError("NOT_FOUND")
        adjustment = ResultAdjustment.objects.create(
            tournament=tournament, entrant=entrant, match_points=match_points,
            card_points=card_points, reason=reason)
        _log(tournament, director, "adjust",
             {"entrant": entrant.pk, "name": str(entrant), "match_points": match_points,
              "card_points": card_points}, reason)
    return adjustment


# --- the audit log in words ------------------------------------------------------------------

def describe(action: DirectorAction) -> str:
    """One director action as a sentence in the active language."""
    p = action.payload or {}
    args = {k: p.get(k, "") for k in ("table", "round", "seat", "name", "out_from_round",
                                      "match_points", "card_points", "deals")}
    if action.kind == "pause":
        return _("Paused table %(table)s of round %(round)s.") % args
    if action.kind == "resume":
        return _("Resumed table %(table)s of round %(round)s.") % args
    if action.kind == "substitute":
        args["seat"] = int(p.get("seat", 0)) + 1
        if p.get("bot"):
            return _("A bot took seat %(seat)s at table %(table)s of round %(round)s.") % args
        return _("%(name)s took seat %(seat)s at table %(table)s of round %(round)s.") % args
    if action.kind == "withdraw":
        return _("Withdrew %(name)s from round %(out_from_round)s on.") % args
    if action.kind == "repair":
        return _("Paired round %(round)s again.") % args
    if action.kind in ("adjudicate", "enter_result"):
        points = p.get("card_points") or [0, 0]
        args["a"], args["b"] = points[0], points[1]
        if action.kind == "adjudicate":
            return _("Adjudicated table %(table)s of round %(round)s: %(a)s to %(b)s card "
                     "points.") % args
        return _("Entered the result of table %(table)s of round %(round)s from a real "
                 "table: %(a)s to %(b)s card points.") % args
    if action.kind == "adjust":
        return _("Adjusted the result of %(name)s: %(match_points)+d match points, "
                 "%(card_points)+d card points.") % {**args,
                                                     "match_points": int(p.get("match_points",
                                                                               0)),
                                                     "card_points": int(p.get("card_points",
                                                                              0))}
    return action.kind

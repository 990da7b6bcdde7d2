"""The tournaments in the JSON API (issue #26, "any client can take part"; docs/protocol.md
"Tournaments"): list the tournaments one may see, read one (its schedule, stages, entrants
and one's own entry), register, withdraw and check in. The API's doors (games/views/api.py
`endpoint`): JSON bodies only, errors as {code, message[, field]}, one call of
games/clubs/tournaments.py per request."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils import timezone

from games.clubs import tournaments
from games.engine.errors import ErrorCode
from games.models import Entrant, EntrantStatus, Tournament, TournamentStatus
from games.views.api import ApiError, _json, _json_body, _require_user, endpoint

LISTED = 100


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


def _person(user: Any) -> dict[str, Any] | None:
    return None if user is None else {"id": user.pk, "name": user.public_name}


def summary_json(request: HttpRequest, t: Tournament) -> dict[str, Any]:
    return {
        "id": t.pk, "name": t.name, "status": t.status, "entrant_kind": t.entrant_kind,
        "language": t.language,
        "club": None if t.club is None else {"id": t.club.pk, "name": t.club.name},
        "director": _person(t.director),
        "starts_at": _iso(t.starts_at), "capacity": t.capacity,
        "url": request.build_absolute_uri(t.get_absolute_url()),
    }


def entrant_json(e: Entrant) -> dict[str, Any]:
    return {"id": e.pk, "player": _person(e.player), "partner": _person(e.partner),
            "status": e.status, "checked_in": tournaments.is_checked_in(e)}


def me_json(t: Tournament, user: Any) -> dict[str, Any] | None:
    """The viewer's own entry and what they may do now (None when not signed in)."""
    if not user.is_authenticated:
        return None
    entrant = tournaments.entrant_of(t, user)
    now = timezone.now()
    body: dict[str, Any] = {
        "entrant": None, "waiting_position": None, "checked_in": False,
        "partner_checked_in": None,
        "may_register": entrant is None and tournaments.registration_open(t, now),
        "may_withdraw": entrant is not None and t.status in (TournamentStatus.REGISTRATION,
                                                             TournamentStatus.RUNNING),
        "may_check_in": False,
    }
    if entrant is None:
        return body
    body["entrant"] = entrant_json(entrant)
    if entrant.status == EntrantStatus.WAITING:
        line = list(tournaments.waiting_list(t).values_list("pk", flat=True))
        body["waiting_position"] = line.index(entrant.pk) + 1
    mine, theirs = ((entrant.checked_in, entrant.partner_checked_in)
                    if entrant.player_id == user.pk
                    else (entrant.partner_checked_in, entrant.checked_in))
    body["checked_in"] = mine is not None
    if entrant.partner_id is not None:
        body["partner_checked_in"] = theirs is not None
    body["may_check_in"] = mine is None and tournaments.checkin_open(t, now)
    return body


def detail_json(request: HttpRequest, t: Tournament) -> dict[str, Any]:
    rows = list(Entrant.objects.filter(tournament=t).exclude(status=EntrantStatus.WITHDRAWN)
                .select_related("player", "partner").order_by("registered", "pk"))
    return {
        **summary_json(request, t),
        "options": t.options, "talk": t.talk, "spectators": t.spectators,
        "tiebreak": t.tiebreak, "unfinished": t.unfinished,
        "bye": {"match_points": t.bye_match_points, "card_points": t.bye_card_points},
        "schedule": {
            "registration_opens": _iso(t.registration_opens),
            "registration_closes": _iso(t.registration_closes),
            "checkin_opens": _iso(tournaments.checkin_opens(t)),
            "starts_at": _iso(t.starts_at),
            "round_minutes": t.round_minutes, "break_minutes": t.break_minutes,
        },
        "stages": [{"number": s.number, "format": s.format, "rounds": s.rounds,
                    "advance": s.advance, "duplicate": s.duplicate, "venue": s.venue}
                   for s in t.stages.order_by("number")],
        "rounds": [{"number": r.number, "stage": r.stage.number, "status": r.status,
                    "starts_at": _iso(r.starts_at)}
                   for r in t.rounds.select_related("stage").order_by("number")],
        "entrants": [entrant_json(e) for e in rows if e.status == EntrantStatus.REGISTERED],
        "waiting": [entrant_json(e) for e in rows if e.status == EntrantStatus.WAITING],
        "me": me_json(t, request.user),
    }


def _tournament(request: HttpRequest, pk: int | str) -> Tournament:
    found = (tournaments.visible_tournaments(request.user).filter(pk=int(pk))
             .select_related("club", "director").first())
    if found is None:
        raise ApiError(ErrorCode.TOURNAMENT_NOT_FOUND)
    return found


def _list(request: HttpRequest) -> JsonResponse:
    status = request.GET.get("status", "")
    seen = tournaments.visible_tournaments(request.user).select_related("club", "director")
    if status:
        if status not in TournamentStatus.values:
            raise ApiError(ErrorCode.INVALID_FIELD, "status")
        seen = seen.filter(status=status)
    rows = seen.order_by("-starts_at", "-pk")[:LISTED]
    return _json({"tournaments": [summary_json(request, t) for t in rows]})


def _detail(request: HttpRequest, pk: str) -> JsonResponse:
    return _json(detail_json(request, _tournament(request, pk)))


def _register(request: HttpRequest, pk: str) -> JsonResponse:
    user = _require_user(request)
    data = _json_body(request)
    partner = data.get("partner")
    if partner is not None and (not isinstance(partner, int) or isinstance(partner, bool)):
        raise ApiError(ErrorCode.INVALID_FIELD, "partner")
    t = _tournament(request, pk)
    tournaments.register(user, t, partner=partner)
    response = _json({"me": me_json(t, user)}, 201)
    response["Location"] = request.build_absolute_uri(
        reverse("api_tournament", kwargs={"pk": t.pk}))
    return response


def _withdraw(request: HttpRequest, pk: str) -> JsonResponse:
    user = _require_user(request)
    _json_body(request)
    t = _tournament(request, pk)
    entrant = tournaments.withdraw(user, t)
    return _json({"entrant": entrant_json(entrant),
                  "out_from_round": entrant.out_from_round})


def _check_in(request: HttpRequest, pk: str) -> JsonResponse:
    user = _require_user(request)
    _json_body(request)
    t = _tournament(request, pk)
    tournaments.check_in(user, t)
    return _json({"me": me_json(t, user)})


tournaments_view = endpoint(GET=_list)
tournament_view = endpoint(GET=_detail)
register_view = endpoint(POST=_register)
withdraw_view = endpoint(POST=_withdraw)
check_in_view = endpoint(POST=_check_in)

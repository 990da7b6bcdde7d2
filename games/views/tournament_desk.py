"""The director's desk (issue #26 item 6): its page, its live JSON and its actions.

Thin doors: each action is one function of games/clubs/desk.py. The page posts forms (a
message says what happened or why not); the JSON API takes the same fields as a JSON body
(games/views/api.py `endpoint`: no CSRF token, the Origin check, errors as {code, message}).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.models import User
from games.bots import LEVELS
from games.clubs import desk, tournaments
from games.engine.errors import ErrorCode, TroccasError
from games.engine.options import Options
from games.models import Entrant, Tournament
from games.services.errors import ServiceError
from games.text.errors import message_for
from games.views.api import ApiError, _json, _json_body, _require_user, endpoint
from games.views.tournament_results import REFRESH_SECONDS, live_config, tournament_url

ACTIONS = ("pause", "resume", "substitute", "withdraw", "repair", "adjudicate",
           "enter_result", "adjust")


def desk_json(tournament: Tournament) -> dict[str, Any]:
    rnd = desk.current_round(tournament)
    return {"tournament": tournament.pk,
            "round": ({"number": rnd.number, "status": rnd.status,
                       "venue": rnd.stage.venue} if rnd else None),
            "tables": [t.json() for t in desk.desk_tables(rnd)] if rnd else []}


def _int(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise ServiceError("INVALID_FIELD")


def _deal_scores(value: Any) -> Any:
    """A list of [a, b] (JSON), or the page's text "a-b" one deal a line."""
    if isinstance(value, str):
        out = []
        for line in value.splitlines():
            if line.strip():
                parts = line.replace(",", " ").replace("-", " ").replace(":", " ").split()
                if len(parts) != 2:
                    raise ServiceError("INVALID_FIELD")
                out.append([_int(parts[0]), _int(parts[1])])
        return out
    return value


def run_action(tournament: Tournament, user: Any, action: str, data: dict[str, Any]) -> Any:
    """Call the desk's `action` with the fields of `data` (a form or a JSON body)."""
    reason = data.get("reason", "") or ""
    if action == "pause":
        return desk.pause(tournament, user, _int(data.get("table")), reason)
    if action == "resume":
        return desk.resume(tournament, user, _int(data.get("table")), reason)
    if action == "substitute":
        person = None
        # The page's form names the person by username, a client may also give the id.
        username = str(data.get("username") or "").strip()
        if username or data.get("player") not in (None, ""):
            people = User.objects.filter(is_active=True, is_bot=False)
            person = (people.filter(username__iexact=username) if username
                      else people.filter(pk=_int(data.get("player")))).first()
            if person is None:
                raise ServiceError("PLAYER_NOT_FOUND")
        return desk.substitute(tournament, user, _int(data.get("table")),
                               _int(data.get("seat")), user=person,
                               bot_level=str(data.get("bot") or ""), reason=reason)
    if action == "withdraw":
        return desk.withdraw(tournament, user, _int(data.get("entrant")), reason)
    if action == "repair":
        return desk.repair(tournament, user, _int(data.get("round")), reason)
    if action == "adjudicate":
        return desk.adjudicate(tournament, user, _int(data.get("table")),
                               _int(data.get("card_points_a")), _int(data.get("card_points_b")),
                               reason)
    if action == "enter_result":
        return desk.enter_result(tournament, user, _int(data.get("table")),
                                 _deal_scores(data.get("deal_scores")), reason)
    if action == "adjust":
        return desk.adjust(tournament, user, _int(data.get("entrant")),
                           _int(data.get("match_points", 0)), _int(data.get("card_points", 0)),
                           reason)
    raise ServiceError("NOT_FOUND")


@login_required
def desk_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not desk.is_tournament_director(tournament, request.user):
        if not tournaments.may_watch(request.user, tournament.pk):
            raise Http404  # a club's tournament is not even named to an outsider
        return render(request, "games/tournaments/refused.html", {
            "tournament": tournament, "code": "TOURNAMENT_NOT_DIRECTOR",
            "message": message_for("TOURNAMENT_NOT_DIRECTOR")}, status=403)
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action not in ACTIONS:
                raise ServiceError("NOT_FOUND")
            run_action(tournament, request.user, action, request.POST.dict())
            messages.success(request, _("Done: it is in the audit log."))
        except TroccasError as exc:
            messages.error(request, message_for(exc.code))
        return redirect("games:tournament_desk", pk=pk)
    rnd = desk.current_round(tournament)
    tables = desk.desk_tables(rnd) if rnd else []
    at_hall = rnd is not None and rnd.stage.at_real_tables
    return render(request, "games/tournaments/desk.html", {
        "tournament": tournament, "round": rnd, "tournament_url": tournament_url(tournament),
        "tables": tables, "at_hall": at_hall,
        # At the real tables: a result sheet per table still to enter, once the round is on.
        "sheets": ([t for t in tables if t.outcome == "pending"]
                   if at_hall and rnd is not None and rnd.status == "running" else []),
        "deals": Options.from_json(tournament.options or None).match_deals,
        "entrants": Entrant.objects.filter(tournament=tournament)
        .select_related("player", "partner"),
        "levels": LEVELS,
        "live_config": live_config(request, tournament,
                                   json=reverse("api_tournament_desk", kwargs={"pk": pk}),
                                   page=request.path, seconds=REFRESH_SECONDS, round_now=rnd),
    })


# --- JSON API --------------------------------------------------------------------------------

def _director_tournament(request: HttpRequest, pk: int) -> tuple[Tournament, User]:
    user = _require_user(request)
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        raise ApiError(ErrorCode.NOT_FOUND)
    desk.require_director(tournament, user)
    return tournament, user


def _api_desk(request: HttpRequest, pk: int) -> JsonResponse:
    tournament, _user = _director_tournament(request, pk)
    return _json(desk_json(tournament))


def _api_action(request: HttpRequest, pk: int, action: str) -> JsonResponse:
    if action not in ACTIONS:
        raise ApiError(ErrorCode.NOT_FOUND)
    tournament, user = _director_tournament(request, pk)
    data = _json_body(request)
    result = run_action(tournament, user, action, data)
    body: dict[str, Any] = {"ok": True, "action": action}
    if action == "withdraw":
        body["out_from_round"] = result
    if action in ("pause", "resume"):
        body["changed"] = bool(result)
    if action == "adjust":
        body["adjustment"] = result.pk
    return _json(body)


api_desk = endpoint(GET=_api_desk)
api_action = endpoint(POST=_api_action)

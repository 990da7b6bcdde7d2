"""A tournament's results (issue #26 item 7): the live standings, each round's pairings and
results, the Rangliste as PDF and CSV, the schedule as iCalendar, and their JSON doors.

Thin doors (ARCHITECTURE.md §9): games/clubs/results.py and rangliste.py compute; a replay is
linked only once the round closed (the replay itself keeps duplicate decks secret).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import NoReverseMatch, reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from games.clubs import rangliste, results, tournaments
from games.clubs.desk import is_tournament_director
from games.engine.errors import ErrorCode
from games.models import RoundStatus, Tournament, TournamentRound
from games.views.api import ApiError, _json, endpoint

# How often a tournament's live page asks its door again while it is visible
# (static/js/tournament_live.js). Behind a site socket, which pushes every change of the
# tournament (games/clubs/push.py), only for a frame lost while the socket was away; without
# one (a visitor who is not signed in) as often as before the push. The desk keeps the short
# one: its tables' deals and totals move with every card, which is no tournament change.
FALLBACK_SECONDS = 30
REFRESH_SECONDS = 10


def tournament_url(tournament: Tournament) -> str:
    """The tournament's own page (games/views/tournaments.py), or its standings while that
    page is not routed."""
    try:
        return tournament.get_absolute_url()
    except NoReverseMatch:
        return reverse("games:tournament_standings", kwargs={"pk": tournament.pk})


def live_config(request: HttpRequest, tournament: Tournament, *, json: str | None = None,
                page: str | None = None, seconds: int | None = None,
                round_now: TournamentRound | None = None) -> dict[str, Any]:
    """What tournament_live.js reads: the JSON door to redraw from, or the page whose
    [data-live-region] parts to swap (or both: the desk), the poll's interval and the
    tournament its site-socket frames name."""
    if seconds is None:
        seconds = FALLBACK_SECONDS if request.user.is_authenticated else REFRESH_SECONDS
    return {"json": json, "page": page, "seconds": seconds, "tournament": tournament.pk,
            "round": ({"number": round_now.number, "status": round_now.status}
                      if round_now is not None else None)}


def visible_or_404(request: HttpRequest, pk: int) -> Tournament:
    """The tournament, if the viewer may see it (a club's tournament only to its members,
    like its own page): its results are no more public than the tournament."""
    found = tournaments.visible_tournaments(request.user).filter(pk=pk).first()
    if found is None:
        raise Http404
    return found


def _filename(tournament: Tournament, ext: str) -> str:
    return f"rangliste-{slugify(tournament.name) or tournament.pk}.{ext}"


def standings_json(tournament: Tournament) -> dict[str, Any]:
    return {"tournament": tournament.pk, "name": tournament.name,
            "tiebreak": tournament.tiebreak,
            "standings": [row.json() for row in results.standing_rows(tournament)],
            # Each round's status, in words too (the page's list of rounds follows it).
            "rounds": [{"number": r.number, "status": r.status,
                        "status_text": str(r.get_status_display())}
                       for r in tournament.rounds.order_by("number")]}


@require_GET
def standings_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_or_404(request, pk)
    return render(request, "games/tournaments/standings.html", {
        "tournament": tournament, "rows": results.standing_rows(tournament),
        "tournament_url": tournament_url(tournament),
        "rounds": tournament.rounds.order_by("number"),
        "is_director": is_tournament_director(tournament, request.user),
        "live_config": live_config(request, tournament,
                                   json=reverse("api_tournament_standings", kwargs={"pk": pk})),
    })


def _round(request: HttpRequest, pk: int, number: int) -> TournamentRound:
    rnd = (TournamentRound.objects.select_related("tournament")
           .filter(tournament__in=tournaments.visible_tournaments(request.user),
                   tournament_id=pk, number=number).first())
    if rnd is None:
        raise ApiError(ErrorCode.NOT_FOUND)
    return rnd


def round_json(request: HttpRequest, rnd: TournamentRound) -> dict[str, Any]:
    closed = rnd.status == RoundStatus.CLOSED
    tables = []
    for table in results.round_results(rnd):
        body = table.json()
        body["replay"] = (request.build_absolute_uri(
            reverse("games:match", kwargs={"pk": table.match_id}))
            if closed and table.match_id is not None else None)
        tables.append(body)
    byes = [{"entrant": b.entrant_id, "name": str(b.entrant)}
            for b in rnd.byes.select_related("entrant__player", "entrant__partner")]
    return {"tournament": rnd.tournament_id, "round": rnd.number, "status": rnd.status,
            "starts_at": rnd.starts_at.isoformat(),
            "clock_ends_at": rnd.clock_ends_at.isoformat() if rnd.clock_ends_at else None,
            "tables": tables, "byes": byes}


@require_GET
def round_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = visible_or_404(request, pk)
    rnd = get_object_or_404(TournamentRound.objects.select_related("stage"),
                            tournament=tournament, number=number)
    # The viewer's own table (at the real tables, what they came to this page to find).
    mine = None
    if request.user.is_authenticated:
        mine = next((n for n, seats in rnd.tables.values_list("number", "seat_players")
                     if request.user.pk in (seats or [])), None)
    return render(request, "games/tournaments/round.html", {
        "tournament": tournament, "round": rnd, "tables": results.round_results(rnd),
        "closed": rnd.status == RoundStatus.CLOSED, "at_hall": rnd.stage.at_real_tables,
        "my_table": mine,
        "byes": rnd.byes.select_related("entrant__player", "entrant__partner"),
    })


@require_GET
def rangliste_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_or_404(request, pk)
    response = HttpResponse(rangliste.rangliste_pdf(tournament), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{_filename(tournament, "pdf")}"'
    return response


@require_GET
def rangliste_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_or_404(request, pk)
    response = HttpResponse(rangliste.rangliste_csv(tournament),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(tournament, "csv")}"'
    return response


@require_GET
def schedule_ical(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_or_404(request, pk)
    url = request.build_absolute_uri(tournament_url(tournament))
    return HttpResponse(rangliste.schedule_ical(tournament, url),
                        content_type="text/calendar; charset=utf-8")


# --- JSON API --------------------------------------------------------------------------------

def _tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = tournaments.visible_tournaments(request.user).filter(pk=pk).first()
    if tournament is None:
        raise ApiError(ErrorCode.NOT_FOUND)
    return tournament


def _api_standings(request: HttpRequest, pk: int) -> JsonResponse:
    return _json(standings_json(_tournament(request, pk)))


def _api_round(request: HttpRequest, pk: int, number: int) -> JsonResponse:
    return _json(round_json(request, _round(request, pk, number)))


api_standings = endpoint(GET=_api_standings)
api_round = endpoint(GET=_api_round)

"""The tournament pages (issue #26 item 2): the list (upcoming, running, past), a new
tournament, a tournament's page (its schedule, the rules of its Partie, its entrants and the
waiting list, and the register, withdraw and check-in buttons with what they wait for), and
each POST that changes an entry. Thin doors: each POST calls one function of
games/clubs/tournaments.py and says what happened (or the refusal's sentence) on the page.

The results pages (standings, Rangliste, calendar, the director's desk) and the audit log are
linked when they exist (`results_links`, `audit_template`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from accounts.signed_in import signed_in_user
from games.clubs import tournaments
from games.clubs.membership import DIRECTING
from games.engine.errors import TroccasError
from games.engine.options import Options
from games.forms import TournamentForm
from games.models import (
    Club,
    DirectorAction,
    Entrant,
    EntrantStatus,
    Membership,
    Tournament,
    TournamentStatus,
)
from games.services.errors import ServiceError
from games.talk import friends
from games.text.errors import message_for
from games.text.options import house_rules
from games.views.tournament_results import live_config

# The pages other parts of the tournament add (results, exports, the desk): linked when
# their route exists, by url name, with the tournament's pk.
RESULTS_PAGES = (
    ("games:tournament_standings", "standings"),
    ("games:tournament_rangliste_pdf", "rangliste_pdf"),
    ("games:tournament_rangliste_csv", "rangliste_csv"),
    ("games:tournament_ical", "ical"),
    ("games:tournament_desk", "desk"),
)
AUDIT_TEMPLATE = "games/tournaments/_audit_log.html"


def results_links(tournament: Tournament) -> dict[str, str]:
    """The url of each results page whose route exists, keyed by its short name."""
    links: dict[str, str] = {}
    for name, key in RESULTS_PAGES:
        try:
            links[key] = reverse(name, kwargs={"pk": tournament.pk})
        except NoReverseMatch:
            continue
    return links


def audit_template() -> str | None:
    try:
        get_template(AUDIT_TEMPLATE)
    except TemplateDoesNotExist:
        return None
    return AUDIT_TEMPLATE


def when(moment: datetime) -> str:
    """A moment in the site's time zone and the active language's short format."""
    return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def visible_or_404(user: Any, pk: int) -> Tournament:
    found = (tournaments.visible_tournaments(user).filter(pk=pk)
             .select_related("club", "director").first())
    if found is None:
        raise Http404
    return found


def directed_clubs(user: Any) -> list[tuple[int, str]]:
    rows = (Membership.objects.filter(user_id=user.pk, role__in=DIRECTING)
            .select_related("club").order_by("club__name"))
    return [(m.club_id, m.club.name) for m in rows]


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    seen = tournaments.visible_tournaments(request.user).select_related("club")
    return render(request, "games/tournaments/list.html", {
        "upcoming": list(seen.filter(status=TournamentStatus.REGISTRATION)
                         .order_by("starts_at", "pk")),
        "running": list(seen.filter(status=TournamentStatus.RUNNING)
                        .order_by("starts_at", "pk")),
        "past": list(seen.filter(status__in=(TournamentStatus.FINISHED,
                                             TournamentStatus.CANCELLED))
                     .order_by("-starts_at", "-pk")[:50]),
    })


@login_required
def create_tournament(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    clubs = directed_clubs(user)
    initial: dict[str, Any] = {"language": request.LANGUAGE_CODE}
    club_arg = request.GET.get("club", "")
    if club_arg.isdigit() and int(club_arg) in {pk for pk, _ in clubs}:
        initial["club"] = int(club_arg)
    form = TournamentForm(request.POST or None, initial=initial, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        club = Club.objects.filter(pk=data["club"]).first() if data["club"] else None
        try:
            tournament = tournaments.create_tournament(
                user, club=club, name=data["name"], language=data["language"],
                entrant_kind=data["entrant_kind"], options=form.options(), talk=data["talk"],
                spectators=data["spectators"], tiebreak=data["tiebreak"],
                unfinished=data["unfinished"], bye_match_points=data["bye_match_points"],
                bye_card_points=data["bye_card_points"], capacity=data["capacity"],
                registration_opens=data["registration_opens"],
                registration_closes=data["registration_closes"],
                checkin_minutes=data["checkin_minutes"], starts_at=data["starts_at"],
                round_minutes=data["round_minutes"], break_minutes=data["break_minutes"],
                stages=form.stages())
        except TroccasError as exc:
            form.add_error(None, message_for(exc.code))
        else:
            messages.success(request, _("Your tournament has been created."))
            return redirect(tournament)
    return render(request, "games/tournaments/create.html", {"form": form})


def my_state(tournament: Tournament, user: Any, entrant: Entrant | None) -> dict[str, Any]:
    """What the viewer may do now, and the sentence that says what they wait for."""
    now = timezone.now()
    state: dict[str, Any] = {"entrant": entrant, "can_register": False,
                             "can_withdraw": False, "can_check_in": False, "notes": []}
    notes: list[str] = state["notes"]
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        return state
    if entrant is None:
        if tournaments.registration_open(tournament, now):
            state["can_register"] = True
        elif tournament.status == TournamentStatus.REGISTRATION and (
                now < tournament.registration_opens):
            notes.append(_("Registration opens at %(time)s.")
                         % {"time": when(tournament.registration_opens)})
        else:
            notes.append(_("Registration is closed."))
        return state
    state["can_withdraw"] = True
    if entrant.status == EntrantStatus.WAITING:
        place = list(tournaments.waiting_list(tournament).values_list("pk", flat=True))
        notes.append(_("You are number %(position)s on the waiting list.")
                     % {"position": place.index(entrant.pk) + 1})
    elif tournament.status == TournamentStatus.REGISTRATION:
        notes.append(_("You are entered."))
    if tournament.status != TournamentStatus.REGISTRATION:
        return state
    mine = (entrant.checked_in if entrant.player_id == user.pk
            else entrant.partner_checked_in)
    if mine is not None:
        if tournaments.is_checked_in(entrant):
            notes.append(_("You have checked in."))
        else:
            notes.append(_("You have checked in; your partner has not yet."))
    elif tournaments.checkin_open(tournament, now):
        state["can_check_in"] = True
    elif now < tournaments.checkin_opens(tournament):
        notes.append(_("Check-in opens at %(time)s.")
                     % {"time": when(tournaments.checkin_opens(tournament))})
    return state


@require_GET
def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    user = request.user
    tournament = visible_or_404(user, pk)
    rows = list(Entrant.objects.filter(tournament=tournament)
                .exclude(status=EntrantStatus.WITHDRAWN)
                .select_related("player", "partner").order_by("registered", "pk"))
    entrant = tournaments.entrant_of(tournament, user)
    rounds = list(tournament.rounds.select_related("stage").order_by("number"))
    partners: list[User] = []
    if tournament.is_pairs and user.is_authenticated and entrant is None:
        partners = friends.friends_of(user)
    return render(request, "games/tournaments/tournament.html", {
        "tournament": tournament,
        "stages": list(tournament.stages.order_by("number")),
        "rounds": rounds,
        "checkin_opens": tournaments.checkin_opens(tournament),
        "house_rules": house_rules(Options.from_json(tournament.options)),
        "entrants": [e for e in rows if e.status == EntrantStatus.REGISTERED],
        "waiting": [e for e in rows if e.status == EntrantStatus.WAITING],
        "me": my_state(tournament, user, entrant),
        "partners": partners,
        "directing": tournaments.may_direct(tournament, user),
        "results_links": results_links(tournament),
        "audit_template": audit_template(),
        "audit_log": list(DirectorAction.objects.filter(tournament=tournament)
                          .select_related("actor")),
        "live_config": live_config(request, tournament, page=request.path),
    })


def _act(request: HttpRequest, pk: int, done: str, call: Any) -> HttpResponse:
    user = signed_in_user(request)
    tournament = visible_or_404(user, pk)
    try:
        call(user, tournament)
    except TroccasError as exc:
        messages.error(request, message_for(exc.code))
    else:
        messages.success(request, done)
    return redirect(tournament)


@login_required
@require_POST
def register(request: HttpRequest, pk: int) -> HttpResponse:
    raw = request.POST.get("partner", "")

    def call(user: User, tournament: Tournament) -> object:
        partner: int | None = None
        if raw:
            if not (raw.isascii() and raw.isdigit() and len(raw) < 12):
                raise ServiceError("PLAYER_NOT_FOUND")
            partner = int(raw)
        return tournaments.register(user, tournament, partner=partner)
    return _act(request, pk, _("You are registered."), call)


@login_required
@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, _("Your entry has been withdrawn."), tournaments.withdraw)


@login_required
@require_POST
def check_in(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, _("You have checked in."), tournaments.check_in)

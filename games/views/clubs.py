"""The club pages (issue #26 item 1): the list with a search, a new club, a club's page (its
members with their roles and, for members, who is online; its open tables; the join, request
and leave buttons; the owner's and directors' member management) and each POST that changes
a membership. Thin doors: each POST calls one function of games/clubs/ and says what happened
(or the refusal's translated sentence) on the club's page."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from accounts.signed_in import signed_in_user
from games.clubs import club_tables, membership
from games.engine.errors import TroccasError
from games.forms import ClubForm
from games.models import Block, Club, ClubInvite, ClubInviteKind, Role, TournamentStatus
from games.services.errors import ServiceError
from games.talk import friends, online
from games.text.errors import message_for

PAGE_SIZE = 30


@require_GET
def club_list(request: HttpRequest) -> HttpResponse:
    query = " ".join(request.GET.get("q", "")[:40].split())
    clubs = Club.objects.annotate(member_count=Count("memberships"))
    if query:
        clubs = clubs.filter(name__icontains=query) | clubs.filter(region__icontains=query)
    page = Paginator(clubs.order_by("name"), PAGE_SIZE).get_page(request.GET.get("page"))
    mine = (list(Club.objects.filter(memberships__user_id=request.user.pk).order_by("name"))
            if request.user.is_authenticated else [])
    return render(request, "games/clubs/list.html", {"page": page, "q": query, "mine": mine})


@login_required
def create_club(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None,
                    initial={"language": request.LANGUAGE_CODE})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = membership.create_club(
                signed_in_user(request), data["name"], description=data["description"],
                region=data["region"], language=data["language"], admission=data["admission"])
        except TroccasError as exc:
            form.add_error(None, message_for(exc.code))
        else:
            messages.success(request, _("Your club has been created."))
            return redirect(club)
    return render(request, "games/clubs/create.html", {"form": form})


@require_GET
def club_page(request: HttpRequest, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    user = request.user
    role = membership.member_role(club, user)
    rows = list(membership.members(club))
    here: set[int] = set()
    if role is not None:
        # Who is online, for members only, and never across a block either way (issue #25
        # item 6's rule: presence is for people who chose each other).
        ids = [m.user_id for m in rows if m.user_id != user.pk]
        hidden = set(Block.objects.filter(blocker_id=user.pk, blocked_id__in=ids)
                     .values_list("blocked_id", flat=True))
        hidden |= set(Block.objects.filter(blocked_id=user.pk, blocker_id__in=ids)
                      .values_list("blocker_id", flat=True))
        here = online.online_ids([i for i in ids if i not in hidden])
    directing = role in membership.DIRECTING
    requests = (list(ClubInvite.objects.filter(club=club, kind=ClubInviteKind.REQUEST)
                     .select_related("user")) if directing else [])
    invited = (user.is_authenticated and ClubInvite.objects.filter(
        club=club, user_id=user.pk, kind=ClubInviteKind.INVITATION).exists())
    asked = (user.is_authenticated and ClubInvite.objects.filter(
        club=club, user_id=user.pk, kind=ClubInviteKind.REQUEST).exists())
    invitable: list[User] = []
    if role is not None:
        member_ids = {m.user_id for m in rows}
        invitable = [f for f in friends.friends_of(user) if f.pk not in member_ids]
    # The club's tournaments are for its members (games/clubs/tournaments.py
    # visible_tournaments): upcoming and running first, then the past ones.
    held = club.tournaments.all() if role is not None else club.tournaments.none()
    return render(request, "games/clubs/club.html", {
        "upcoming_tournaments": list(held.filter(status__in=(
            TournamentStatus.REGISTRATION, TournamentStatus.RUNNING)).order_by("starts_at")),
        "past_tournaments": list(held.filter(status__in=(
            TournamentStatus.FINISHED, TournamentStatus.CANCELLED))
            .order_by("-starts_at")[:20]),
        "club": club, "role": role, "is_member": role is not None, "directing": directing,
        "is_owner": role == Role.OWNER,
        "members": [{"m": m, "online": m.user_id in here} for m in rows],
        "tables": list(club_tables.open_tables(club)) if role is not None else [],
        "standings": club_tables.season_standings(club),
        "season": timezone.now().year,
        "requests": requests, "invited": invited, "asked": asked, "invitable": invitable,
    })


def _int(raw: str) -> int | None:
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else None


def _act(request: HttpRequest, pk: int, action: Callable[[User, int], object],
         done: str) -> HttpResponse:
    try:
        action(signed_in_user(request), pk)
    except TroccasError as exc:
        messages.error(request, message_for(exc.code))
    else:
        messages.success(request, done)
    return redirect("games:club", pk=pk)


def _on_member(request: HttpRequest, pk: int,
               action: Callable[[User, int, int], object], done: str) -> HttpResponse:
    target = _int(request.POST.get("user", ""))

    def call(user: User, club_id: int) -> object:
        if target is None:
            raise ServiceError("PLAYER_NOT_FOUND")
        return action(user, club_id, target)
    return _act(request, pk, call, done)


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, membership.join, _("Welcome to the club."))


@login_required
@require_POST
def ask(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, membership.request_to_join,
                _("Your request to join has been sent to the club's directors."))


@login_required
@require_POST
def accept_invitation(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, membership.accept_invitation, _("Welcome to the club."))


@login_required
@require_POST
def refuse_invitation(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, membership.refuse_invitation,
                _("The invitation has been declined."))


@login_required
@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, membership.leave, _("You have left the club."))


@login_required
@require_POST
def accept_request(request: HttpRequest, pk: int) -> HttpResponse:
    return _on_member(request, pk, membership.accept_request, _("The player is a member now."))


@login_required
@require_POST
def refuse_request(request: HttpRequest, pk: int) -> HttpResponse:
    return _on_member(request, pk, membership.refuse_request,
                      _("The request to join has been refused."))


@login_required
@require_POST
def invite(request: HttpRequest, pk: int) -> HttpResponse:
    return _on_member(request, pk, membership.invite, _("Your invitation has been sent."))


@login_required
@require_POST
def remove(request: HttpRequest, pk: int) -> HttpResponse:
    return _on_member(request, pk, membership.remove_member,
                      _("The member has been removed from the club."))


@login_required
@require_POST
def hand_over(request: HttpRequest, pk: int) -> HttpResponse:
    return _on_member(request, pk, membership.hand_over,
                      _("The club has been handed over; you are a director now."))


@login_required
@require_POST
def set_role(request: HttpRequest, pk: int) -> HttpResponse:
    role = request.POST.get("role", "")

    def call(user: User, club_id: int, target: int) -> object:
        return membership.set_role(user, club_id, target, role)
    return _on_member(request, pk, call, _("The role has been changed."))


@login_required
@require_POST
def new_table(request: HttpRequest, pk: int) -> HttpResponse:
    """A member opens a club table with the standard house rules and sits down."""
    club = get_object_or_404(Club, pk=pk)
    try:
        room = club_tables.open_club_table(signed_in_user(request), club)
    except TroccasError as exc:
        messages.error(request, message_for(exc.code))
        return redirect(club)
    return redirect(room)

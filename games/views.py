"""Site pages: home (announcements, open tables, how to start), FAQ, a room's page and the
invite-code form. The live table itself is served over the websocket (games.routing)."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from .models import Announcement, FAQEntry, Match, MatchStatus, Room, Seat, Team
from .options_display import house_rules

OPEN_TABLES_SHOWN = 20
ANNOUNCEMENTS_SHOWN = 3


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    rooms = (
        Room.objects.listed()
        .select_related("owner")
        .annotate(seat_count=Count("seats"))
        .order_by("-created")[:OPEN_TABLES_SHOWN]
    )
    announcements = Announcement.objects.filter(published=True)[:ANNOUNCEMENTS_SHOWN]
    return render(
        request,
        "games/home.html",
        {"rooms": rooms, "announcements": announcements},
    )


@require_GET
def faq(request: HttpRequest) -> HttpResponse:
    entries = FAQEntry.objects.filter(published=True)
    return render(request, "games/faq.html", {"entries": entries})


@require_GET
def room(request: HttpRequest, code: str) -> HttpResponse:
    room = get_object_or_404(
        Room.objects.select_related("owner").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user"))
        ),
        code=code.lower(),
    )
    seats = list(room.seats.all())
    running = (
        Match.objects.filter(room=room, status=MatchStatus.RUNNING)
        .select_related("player_0", "player_1", "player_2", "player_3")
        .first()
    )
    return render(
        request,
        "games/room.html",
        {
            "room": room,
            "teams": [
                (Team.A.label, [s for s in seats if s.team == Team.A]),
                (Team.B.label, [s for s in seats if s.team == Team.B]),
            ],
            "running_match": running,
            "house_rules": house_rules(room.rules),
        },
    )


@require_GET
def join(request: HttpRequest) -> HttpResponse:
    """The home page's invite-code form: find the room or say why not."""
    code = "".join(request.GET.get("code", "").split()).lower()
    if not code:
        messages.error(request, _("Please enter an invite code."))
        return redirect("games:home")
    found = Room.objects.filter(code=code).first()
    if found is None:
        messages.error(request, _("No room has the invite code “%(code)s”.") % {"code": code[:16]})
        return redirect("games:home")
    if not found.is_open:
        messages.error(request, _("This room has been closed."))
        return redirect("games:home")
    return redirect(found)

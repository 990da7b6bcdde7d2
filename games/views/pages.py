"""Site pages: home (announcements, open tables, how to start), FAQ, a room's page and the
invite-code form. The live table itself is served over the websocket (games.live.routing)."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, F, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import BOT_LEVEL_NAMES
from accounts.signed_in import signed_in_user
from games import services
from games.bots import DEFAULT_LEVEL, LEVELS
from games.engine.errors import ErrorCode
from games.forms import CreateRoomForm, HouseRulesForm
from games.models import Announcement, FAQEntry, Match, MatchStatus, Room, Seat, Team
from games.talk import invitations, online
from games.text.cards import card_names
from games.text.errors import message_for
from games.text.options import house_rules, rule_words
from games.text.table import ui_strings
from games.text.talk import talk_words
from games.views.js_modules import TABLE_ENTRY, module_graph

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
        {"rooms": rooms, "announcements": announcements,
         "practice_games": practice_games(request.user),
         "bot_levels": [(level, BOT_LEVEL_NAMES[level]) for level in LEVELS],
         "default_bot_level": DEFAULT_LEVEL},
    )


def practice_games(user: object) -> list[Match]:
    """The player's practice matches still on (only bots besides them; paused while they are
    away, games/services/pause.py): the home page's "Continue your game" (issue #24 item 2).
    At most as many as an account may have bot tables."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        Match.objects.for_user(user)
        .filter(status=MatchStatus.RUNNING, room__closed__isnull=True,
                room__current_match=F("pk"))
        .annotate(bots=Count("room__seats", filter=Q(room__seats__user__is_bot=True)),
                  seated=Count("room__seats", filter=Q(room__seats__index__isnull=False)))
        .filter(bots=3, seated=4)
        .select_related("room").order_by("-started")[:settings.TROCCAS_MAX_BOT_TABLES])


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
    user = request.user
    if room.club_id is not None and (not user.is_authenticated
                                     or services.club_outsider(room, user)):
        # Issue #26 item 1: a club's table is for its members; its page would show who plays.
        messages.error(request, message_for("CLUB_TABLE_MEMBERS_ONLY"))
        return redirect("games:home")
    if (user.is_authenticated and not any(s.user_id == user.pk for s in seats)
            and services.owner_blocked(room, user)):
        # Issue #17: the owner of this private room blocked this player; the page would show
        # its players and rules, and its socket refuses them anyway.
        messages.error(request, message_for("BLOCKED_FROM_ROOM"))
        return redirect("games:home")
    running = (
        Match.objects.filter(room=room, status=MatchStatus.RUNNING)
        .select_related("player_0", "player_1", "player_2", "player_3")
        .first()
    )
    me = ({"id": user.pk, "name": user.public_name} if user.is_authenticated else None)
    config = {
        "code": room.code,
        "ws": f"/ws/rooms/{room.code}/",
        "me": me,
        "sprite": static("cards/cards.svg"),
        "login": f"{reverse('accounts:login')}?next={room.get_absolute_url()}",
        "home": reverse("games:home"),
        # The score sheet links a finished match's page (its replay) under this one.
        "matches": reverse("games:matches"),
        # Without a language prefix: the link opens in each invitee's own language (their
        # saved preference, else their browser's); a prefixed URL would now win over it.
        "invite": request.build_absolute_uri(
            room.get_absolute_url().removeprefix(f"/{get_language()}")),
        # Issue #14 item 6: the help links into the rules page; a signed-in player's sound
        # choice is saved with the page's CSRF token, an anonymous one stays in the browser.
        "rules": reverse("games:rules"),
        "favicon_turn": static("img/favicon-turn.svg"),
        "sounds": user.table_sounds if user.is_authenticated else None,
        "sounds_url": reverse("games:table_sounds") if user.is_authenticated else None,
        # Issue #24 item 15: "play a single legal card by itself", changed from the drawer.
        "single_card": user.play_single_card if user.is_authenticated else None,
        "single_card_url": reverse("games:play_single_card") if user.is_authenticated else None,
        "csrf": get_token(request) if user.is_authenticated else None,
    }
    # Issue #17: a seated player of an open room invites a friend from the drawer.
    invitable = None
    if user.is_authenticated and room.is_open and any(s.user_id == user.pk for s in seats):
        friends = invitations.invitable_friends(user, room)
        here = online.online_ids(f.pk for f in friends)
        invitable = [{"user": f, "online": f.pk in here} for f in friends]
    # The live table's ES modules: an import map points each one at its hashed static URL, so
    # the modules' own relative imports ("./net.js") are cached forever like every other static
    # file, and the page preloads them all at once instead of discovering them import by import.
    # The list is the entry's import graph (js_modules.py); static/js/protocol.js holds JSDoc
    # types only and is never fetched. (The replay viewer's page has its own small map:
    # games/history/match_detail.html.)
    modules = {
        f"{settings.STATIC_URL}{path}": static(path) for path in module_graph(TABLE_ENTRY)
    }
    import_map = json.dumps({"imports": modules})
    # Static URLs hold no markup; escape anyway so the JSON can never close its <script>.
    import_map = mark_safe(import_map.replace("<", "\\u003c"))  # noqa: S308 - JSON of static URLs, "<" escaped
    return render(
        request,
        "games/room.html",
        {
            "table_config": config,
            "ui_strings": ui_strings(),
            "card_names": card_names(),
            "import_map": import_map,
            "table_modules": list(modules.values()),
            "table_js": static(TABLE_ENTRY),
            "rules_form": HouseRulesForm(initial=services.rules_of(room).to_json(),
                                         auto_id="rule_%s"),
            "room": room,
            "teams": [
                (Team.A.label, [s for s in seats if s.team == Team.A]),
                (Team.B.label, [s for s in seats if s.team == Team.B]),
            ],
            "running_match": running,
            "house_rules": house_rules(services.rules_of(room)),
            "rule_words": rule_words(),
            "talk_words": talk_words(),
            "invitable": invitable,
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


@login_required
@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """The home page's Play now: a practice table against three bots at the chosen level, the
    first deal started; the player lands on it — or back on the home page, told why, past
    their open bot tables' cap."""
    level = request.POST.get("level", "")
    if level not in LEVELS:
        messages.error(request, message_for("BOT_LEVEL_UNKNOWN"))
        return redirect("games:home")
    try:
        room = services.create_practice_table(signed_in_user(request), level)
    except services.ServiceError as refused:
        # BOT_TABLES_CAPPED (issue #25 item 1): the sentence says to finish or close one; the
        # home page lists them under "Continue your game".
        messages.error(request, message_for(refused.code))
        return redirect("games:home")
    return redirect(room)


@login_required
@require_http_methods(["GET", "POST"])
def create_room(request: HttpRequest) -> HttpResponse:
    """The house-rules form; a valid POST opens the room and seats its owner."""
    form = CreateRoomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            room = services.open_room(
                signed_in_user(request), form.options(), name=data["name"],
                visibility=data["visibility"], allow_spectators=data["allow_spectators"],
                take_seat=data["team"])
        except services.ServiceError as exc:
            if exc.code in (ErrorCode.TOO_MANY_OPEN_ROOMS,
                            ErrorCode.ROOM_CREATION_RATE_LIMITED):
                form.add_error(None, message_for(exc.code))
            else:
                form.add_error(None, _("These house rules are not valid: check the values "
                                       "and try again."))
        else:
            return redirect(room)
    return render(request, "games/create_room.html", {"form": form})

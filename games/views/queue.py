"""Find a game (issue #24 item 15): the find page and the queue's JSON doors.

Thin doors (ARCHITECTURE.md §9): parse, call one function of games/services/matchmaking.py,
render. The API doors are the JSON API's (games/views/api.py `endpoint`): JSON bodies only,
the Origin check instead of a CSRF token, errors as {code, message} in the request's language.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.models import BOT_LEVEL_NAMES
from games.bots import DEFAULT_LEVEL, LEVELS
from games.engine.errors import ErrorCode
from games.forms import FindGameForm
from games.models import QueueStatus
from games.services import matchmaking
from games.views.api import ApiError, _json, _json_body, _require_user, endpoint

# A room's address with this stand-in for its code: the page builds the table's address from
# it when a `queue_table` frame names the room.
_CODE = "room-code"


def _view_json(view: matchmaking.QueueView | None) -> dict[str, Any]:
    if view is None:
        return {"status": None}
    body = view.frame()
    del body["type"]
    body["room"] = view.room
    return body


def _strings() -> dict[str, str]:
    """The sentences static/js/find.js fills in (in the page's language)."""
    minutes = settings.TROCCAS_QUEUE_MAX_WAIT // 60
    return {
        "waiting": _("Players waiting for house rules compatible with yours (you included): "
                     "%(n)s"),
        "waited": _("You have waited %(time)s."),
        "bots_in": _("Bots are offered in %(time)s."),
        "expired": _("No table formed within %(minutes)s minutes: nobody else waited for house "
                     "rules compatible with yours. Try again, perhaps with more rules on "
                     "“any”.") % {"minutes": minutes},
        "gone": _("You were away too long and lost your place in the queue."),
        "left": _("You left the queue."),
        "formed": _("A table has formed: taking you there…"),
    }


@require_GET
def find_game(request: HttpRequest) -> HttpResponse:
    """The find page: the choices, or the wait as it stands (the site socket keeps it live)."""
    view = matchmaking.view_of(request.user) if request.user.is_authenticated else None
    config = {
        "join": reverse("api_queue"), "leave": reverse("api_queue_leave"),
        "bots": reverse("api_queue_bots"),
        "room": reverse("games:room", kwargs={"code": _CODE}), "code": _CODE,
        "queue": _view_json(view),
    }
    return render(request, "games/find.html", {
        "form": FindGameForm(bots_after=matchmaking.BOTS_AFTER_CHOICES),
        "view": view, "waiting": view is not None and view.status == QueueStatus.WAITING,
        "bot_levels": [(level, BOT_LEVEL_NAMES[level]) for level in LEVELS],
        "default_bot_level": DEFAULT_LEVEL,
        "find_config": config, "find_strings": _strings(),
        "max_wait_minutes": settings.TROCCAS_QUEUE_MAX_WAIT // 60,
    })


# --- the JSON doors --------------------------------------------------------------------------

def _status(request: HttpRequest) -> JsonResponse:
    user = _require_user(request)
    return _json(_view_json(matchmaking.view_of(user)))


def _join(request: HttpRequest) -> JsonResponse:
    user = _require_user(request)
    data = _json_body(request)
    rules = data.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise ApiError(ErrorCode.INVALID_OPTIONS, "rules")
    bots_after = data.get("bots_after")
    if bots_after not in matchmaking.BOTS_AFTER_CHOICES or isinstance(bots_after, bool):
        raise ApiError(ErrorCode.INVALID_FIELD, "bots_after")
    view = matchmaking.join(user, rules, bots_after)
    return _json(_view_json(view), 201)


def _leave(request: HttpRequest) -> JsonResponse:
    user = _require_user(request)
    _json_body(request)
    matchmaking.leave(user)
    return _json({"ok": True})


def _bots(request: HttpRequest) -> JsonResponse:
    user = _require_user(request)
    level = _json_body(request).get("level", "easy")
    if not isinstance(level, str):
        raise ApiError(ErrorCode.INVALID_FIELD, "level")
    room = matchmaking.play_with_bots(user, level)
    return _json({"room": room.code, "url": room.get_absolute_url()}, 201)


queue_view = endpoint(GET=_status, POST=_join)
queue_leave_view = endpoint(POST=_leave)
queue_bots_view = endpoint(POST=_bots)

"""The small JSON API (issue #4 item 3; docs/protocol.md "HTTP API").

Log in and out, open a room, list the open public rooms and read one's own view of a table:
what a bot or a script needs before it opens the table's websocket. A thin door
(ARCHITECTURE.md §9): parse the JSON, call one service, render. Errors are always
{"code", "message"} with the message in the request's language, the same codes and sentences
as the websocket's (games.text.errors).

Cross-site request forgery (docs/decisions.md "The JSON API and CSRF"): the API takes no CSRF
token. Every POST must carry a JSON body (`Content-Type: application/json`), which a page on
another site can only send through a CORS preflight that this server never grants; the
session cookie is SameSite=Lax, so a browser does not attach it to another site's POST; and a
request whose Origin header names another site is refused outright.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.db.models import Count, Q
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.csrf import csrf_exempt

from accounts.backends import was_rate_limited
from accounts.models import User
from accounts.validators import is_showable
from games import services
from games.engine.errors import ErrorCode, OptionsError, TroccasError
from games.engine.json_depth import too_deep
from games.engine.options import Options
from games.models import MatchStatus, Room
from games.services.rooms import with_default_turn_timer
from games.services.snapshot import room_json as shared_room_json
from games.text.errors import message_for

ROOMS_PER_PAGE = 50
# A create-room body is a few hundred bytes; anything much larger is not a client of ours.
MAX_BODY_BYTES = 16 * 1024
MAX_NAME = 60

Handler = Callable[..., JsonResponse]


class ApiError(TroccasError):
    """A refusal of the API: a stable code and optionally the offending field. Its HTTP
    status is the code's (games.engine.errors.HTTP_STATUS, 400 if not listed)."""

    def __init__(self, code: ErrorCode | str, field: str | None = None) -> None:
        super().__init__(code)
        self.field = field


def error_response(error: TroccasError) -> JsonResponse:
    """{code, message[, field]} with the error's status: the message in the language active
    for this request."""
    body: dict[str, Any] = {"code": error.code, "message": message_for(error.code)}
    field = error.field if isinstance(error, ApiError) else None
    if field is not None:
        body["field"] = field
    return _json(body, error.status)


def _json(body: dict[str, Any], status: int = 200) -> JsonResponse:
    response = JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
    # Views and sessions change with every move: no proxy or browser may keep a copy.
    add_never_cache_headers(response)
    return response


def endpoint(**methods: Handler) -> Callable[..., JsonResponse]:
    """One URL, one handler per HTTP method; a TroccasError (ApiError, or a service's
    ServiceError) becomes the JSON error body, with the error's own status.

    CSRF-exempt on purpose (see the module docstring): POSTs are guarded by `_json_body`
    and `_check_origin` instead of a token, so non-browser clients need no token dance."""

    @csrf_exempt
    def view(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        handler = methods.get(request.method or "")
        if handler is None:
            response = error_response(ApiError(ErrorCode.METHOD_NOT_ALLOWED))
            response["Allow"] = ", ".join(sorted(methods))
            return response
        try:
            if request.method == "POST":
                _check_origin(request)
            return handler(request, *args, **kwargs)
        except TroccasError as exc:
            return error_response(exc)

    return view


# --- request guards ----------------------------------------------------------------------

def _check_origin(request: HttpRequest) -> None:
    """A browser sends Origin with every POST: it must be this site (or a trusted origin).

    Non-browser clients send none and are let through; they hold no victim's cookies."""
    origin = request.headers.get("Origin")
    if origin is None:
        return
    own = f"{request.scheme}://{request.get_host()}"
    if origin != own and origin not in settings.CSRF_TRUSTED_ORIGINS:
        raise ApiError(ErrorCode.CSRF_FAILED)


# Far beyond any real listing (20 rooms a page); a later page is refused, not clamped.
MAX_PAGE = 100_000


def _json_body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object. Only application/json is read: a form-encoded or
    text/plain body is what a cross-site <form> can send, so it is refused unread."""
    if request.content_type != "application/json":
        raise ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE)
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isdigit() or int(length) > MAX_BODY_BYTES:
        raise ApiError(ErrorCode.MESSAGE_TOO_LARGE)
    raw = request.body
    if len(raw) > MAX_BODY_BYTES:  # a body sent without Content-Length
        raise ApiError(ErrorCode.MESSAGE_TOO_LARGE)
    if not raw.strip():
        return {}
    try:
        # The websocket's depth bound: 1,000 levels of "[[[[" made the decoder recurse into a
        # RecursionError and a 500 page (issue #13).
        if too_deep(raw.decode("utf-8")):
            raise ApiError(ErrorCode.MALFORMED_MESSAGE)
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ApiError(ErrorCode.MALFORMED_MESSAGE) from None
    if not isinstance(data, dict):
        raise ApiError(ErrorCode.MALFORMED_MESSAGE)
    return data


def _require_user(request: HttpRequest) -> User:
    if not request.user.is_authenticated:
        raise ApiError(ErrorCode.NOT_AUTHENTICATED)
    return request.user


# --- JSON shapes ---------------------------------------------------------------------------

def room_urls(request: HttpRequest, code: str) -> dict[str, str]:
    """The invite link (page, in the request's language) and the table's websocket."""
    page = request.build_absolute_uri(reverse("games:room", kwargs={"code": code}))
    scheme = "wss" if request.is_secure() else "ws"
    return {"url": page, "websocket": f"{scheme}://{request.get_host()}/ws/rooms/{code}/"}


def room_json(request: HttpRequest, room: Room, seats_taken: int, running: bool
              ) -> dict[str, Any]:
    return {
        **shared_room_json(room),
        "seats_taken": seats_taken,
        "running": running,
        "created": room.created.isoformat(),
        **room_urls(request, room.code),
    }


# --- log in / out ------------------------------------------------------------------------

def _login(request: HttpRequest) -> JsonResponse:
    data = _json_body(request)
    for name in ("username", "password"):
        if name not in data:
            raise ApiError(ErrorCode.MISSING_FIELD, name)
        if not isinstance(data[name], str) or not data[name] or len(data[name]) > 4096:
            raise ApiError(ErrorCode.INVALID_FIELD, name)
    username, password = data["username"], data["password"]
    # The site's one backend reserves the attempt on the log-in limiter before it checks the
    # password (accounts/backends.py): the same counters as the log-in page and the admin.
    user = authenticate(request, username=username, password=password)
    if user is None:
        if was_rate_limited(request):
            raise ApiError(ErrorCode.RATE_LIMITED)
        raise ApiError(ErrorCode.INVALID_CREDENTIALS)
    login(request, user)
    return _json({"user": {"id": user.pk, "username": user.get_username(),
                           "display_name": user.display_name}})


def _logout(request: HttpRequest) -> JsonResponse:
    _json_body(request)  # JSON only, like every POST here (an empty body is fine)
    logout(request)
    return _json({"ok": True})


# --- rooms ---------------------------------------------------------------------------------

def _create_room(request: HttpRequest) -> JsonResponse:
    user = _require_user(request)
    data = _json_body(request)
    # No turn_seconds named: the people's default turn timer (docs/protocol.md §2).
    options = with_default_turn_timer(data.get("options"))
    try:
        Options.from_json(options)
    except OptionsError as exc:
        # Checked here too (create_room checks again) only to name the offending option.
        raise ApiError(ErrorCode.INVALID_OPTIONS, "options" if exc.key == "options"
                       else f"options.{exc.key}") from None
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_NAME or not is_showable(name):
        raise ApiError(ErrorCode.INVALID_FIELD, "name")
    visibility = data.get("visibility", "public")
    if visibility not in ("public", "private"):
        raise ApiError(ErrorCode.INVALID_FIELD, "visibility")
    allow_spectators = data.get("allow_spectators", True)
    if not isinstance(allow_spectators, bool):
        raise ApiError(ErrorCode.INVALID_FIELD, "allow_spectators")
    team = data.get("team", "A")
    if team not in ("A", "B", None):
        raise ApiError(ErrorCode.INVALID_FIELD, "team")
    # A ServiceError (e.g. INVALID_OPTIONS) answers with its own code and status (`endpoint`).
    room = services.open_room(user, options, name=name, visibility=visibility,
                              allow_spectators=allow_spectators, take_seat=team)
    body: dict[str, Any] = {"code": room.code, **room_urls(request, room.code),
                            "room": room_json(request, room, 0 if team is None else 1, False)}
    response = _json(body, 201)
    response["Location"] = body["url"]
    return response


def _list_rooms(request: HttpRequest) -> JsonResponse:
    raw = request.GET.get("page", "1")
    # Bounded before it reaches SQL: a page of 10**30 overflowed the OFFSET (a 500, issue #13).
    if not raw.isdigit() or len(raw) > 6 or not 1 <= int(raw) <= MAX_PAGE:
        raise ApiError(ErrorCode.INVALID_FIELD, "page")
    page = int(raw)
    listed = Room.objects.listed()
    # Two queries whatever the page holds: the count, then the page with its owner, seat
    # count and running flag joined in (no query per room).
    count = listed.count()
    rows = (
        listed.select_related("owner", "current_match")
        .annotate(seats_taken=Count("seats", filter=Q(seats__index__isnull=False)))
        .order_by("-created", "-pk")[(page - 1) * ROOMS_PER_PAGE:page * ROOMS_PER_PAGE]
    )
    rooms = [
        # seats_taken is the annotation above; RoomQuerySet (QuerySet["Room"]) iterates as
        # plain Room, so the type checker cannot see it.
        room_json(request, r, r.seats_taken,  # type: ignore[attr-defined]
                  r.current_match is not None
                  and r.current_match.status == MatchStatus.RUNNING)
        for r in rows
    ]
    pages = max(1, -(-count // ROOMS_PER_PAGE))
    return _json({"count": count, "page": page, "pages": pages,
                  "per_page": ROOMS_PER_PAGE, "rooms": rooms})


def _room_view(request: HttpRequest, code: str) -> JsonResponse:
    user = _require_user(request)
    code = code.lower()
    # The websocket's own admission rule: unknown room, spectators not allowed.
    refusal = services.may_watch(code, user)
    if refusal is not None:
        raise ApiError(refusal)  # 404 ROOM_NOT_FOUND, 403 SPECTATORS_NOT_ALLOWED
    try:
        snap = services.table_snapshot(code)
    except Room.DoesNotExist:
        raise ApiError(ErrorCode.ROOM_NOT_FOUND) from None
    return _json(snap.state_message(snap.seat_of(user.pk)))


def _not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    raise ApiError(ErrorCode.NOT_FOUND)


login_view = endpoint(POST=_login)
logout_view = endpoint(POST=_logout)
rooms_view = endpoint(GET=_list_rooms, POST=_create_room)
room_view = endpoint(GET=_room_view)
not_found_view = endpoint(GET=_not_found, POST=_not_found, PUT=_not_found, PATCH=_not_found,
                          DELETE=_not_found)

"""A player's own table preferences, saved from the table's page (issue #14 item 6, issue #24
item 15).

Two preferences so far, both off by default: the quiet table sounds, and "play a single legal
card by itself". Unlike the JSON API (games/views/api.py), these endpoints are for the site's
own pages only and are guarded by Django's CSRF token (the page sends it in the X-CSRFToken
header): a page on another site can neither read the token nor change a player's choice.
"""

from __future__ import annotations

import json

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST

from accounts.signed_in import signed_in_user
from games.engine.errors import ErrorCode, TroccasError
from games.views.api import ApiError, error_response

# {"play_single_card": false} is 27 bytes; anything much larger is not the table's script.
MAX_BODY_BYTES = 1024


@require_POST
def table_sounds(request: HttpRequest) -> JsonResponse:
    """Save the signed-in player's choice of table sounds: {"table_sounds": bool} in, the saved
    value out. Anonymous visitors keep theirs in the browser (localStorage) and are refused."""
    return _save_flag(request, "table_sounds")


@require_POST
def play_single_card(request: HttpRequest) -> JsonResponse:
    """Save whether the table plays the player's only legal card by itself (issue #24 item
    15): {"play_single_card": bool} in, the saved value out. Signed-in players only."""
    return _save_flag(request, "play_single_card")


def _save_flag(request: HttpRequest, field: str) -> JsonResponse:
    """One boolean of the signed-in player's own account, named by `field` (never by the
    request): the body names no user, so a player changes only their own."""
    try:
        value = _parse(request, field)
    except TroccasError as exc:
        return error_response(exc)
    user = signed_in_user(request)  # _parse refused an anonymous visitor
    if getattr(user, field) != value:
        setattr(user, field, value)
        user.save(update_fields=[field])
    return JsonResponse({field: getattr(user, field)})


def _parse(request: HttpRequest, field: str) -> bool:
    if not request.user.is_authenticated:
        raise ApiError(ErrorCode.NOT_AUTHENTICATED)
    if request.content_type != "application/json":
        raise ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE)
    if len(request.body) > MAX_BODY_BYTES:
        raise ApiError(ErrorCode.MESSAGE_TOO_LARGE)
    try:
        body = json.loads(request.body)
    except ValueError as exc:
        raise ApiError(ErrorCode.MALFORMED_MESSAGE) from exc
    if not isinstance(body, dict) or field not in body:
        raise ApiError(ErrorCode.MISSING_FIELD, field)
    value = body[field]
    # A bool only: 1, "yes" or "false" would be guesses about what the client meant.
    if not isinstance(value, bool):
        raise ApiError(ErrorCode.INVALID_FIELD, field)
    return value

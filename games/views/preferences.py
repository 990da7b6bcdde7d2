"""A player's own table preferences, saved from the table's menu (issue #14 item 6).

One preference so far: the quiet table sounds, off by default. Unlike the JSON API
(games/views/api.py), this endpoint is for the site's own pages only and is guarded by Django's
CSRF token (the page sends it in the X-CSRFToken header): a page on another site can neither
read the token nor switch a player's sounds on.
"""

from __future__ import annotations

import json

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST

from accounts.signed_in import signed_in_user
from games.engine.errors import ErrorCode, TroccasError
from games.views.api import ApiError, error_response

# {"table_sounds": true} is 21 bytes; anything much larger is not the table's script.
MAX_BODY_BYTES = 1024


@require_POST
def table_sounds(request: HttpRequest) -> JsonResponse:
    """Save the signed-in player's choice of table sounds: {"table_sounds": bool} in, the saved
    value out. Anonymous visitors keep theirs in the browser (localStorage) and are refused."""
    try:
        value = _parse(request)
    except TroccasError as exc:
        return error_response(exc)
    user = signed_in_user(request)  # _parse refused an anonymous visitor
    if user.table_sounds != value:
        user.table_sounds = value
        user.save(update_fields=["table_sounds"])
    return JsonResponse({"table_sounds": user.table_sounds})


def _parse(request: HttpRequest) -> bool:
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
    if not isinstance(body, dict) or "table_sounds" not in body:
        raise ApiError(ErrorCode.MISSING_FIELD, "table_sounds")
    value = body["table_sounds"]
    # A bool only: 1, "yes" or "false" would be guesses about what the client meant.
    if not isinstance(value, bool):
        raise ApiError(ErrorCode.INVALID_FIELD, "table_sounds")
    return value

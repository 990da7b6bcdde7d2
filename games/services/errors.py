"""The services' own refusals (RULES.md §12: "permissions are the web layer's")."""

from __future__ import annotations

from games.engine.errors import ErrorCode, TroccasError


class ServiceError(TroccasError):
    """A web-layer rejection with a stable code (an ErrorCode); nothing changed.

    Its HTTP `status` is the code's (games.engine.errors.HTTP_STATUS), 400 by default."""

    def __init__(self, code: ErrorCode | str) -> None:
        super().__init__(code)

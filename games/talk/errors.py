"""Talk's refusals: a stable code (an ErrorCode), its sentence in games/text/errors.py."""

from __future__ import annotations

from games.engine.errors import ErrorCode, TroccasError


class TalkError(TroccasError):
    """A message, mute or report that was refused; nothing was stored or announced."""

    def __init__(self, code: ErrorCode | str) -> None:
        super().__init__(code)

"""The services' own refusals (RULES.md §12: "permissions are the web layer's")."""

from __future__ import annotations


class ServiceError(Exception):
    """A web-layer rejection with a stable code; nothing changed."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code

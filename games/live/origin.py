"""The websocket handshake's Origin check (cross-site websocket hijacking; docs/protocol.md §3).

Channels' AllowedHostsOriginValidator compares the Origin's host name with ALLOWED_HOSTS only,
so a page on another port or scheme of the same host (http://127.0.0.1:9000, or plain http next
to https) could open a signed-in player's socket. Here the whole origin - scheme, host and
port - must be one the site trusts, the rule of Django's CSRF check (and of the JSON API):

* the site's own origin: the handshake's scheme (ws → http, wss → https; behind a proxy, as
  SECURE_PROXY_SSL_HEADER says) with its Host header, that host being one of ALLOWED_HOSTS; a
  browser cannot forge Host, so this is exactly "the page came from where the socket goes";
* or one of CSRF_TRUSTED_ORIGINS, compared exactly (e.g. the public https:// name when a proxy
  forwards to another host and port).

A handshake without an Origin is refused, as before: every browser sends one, and the tests and
bench/ws_load.py set it. Refusals close before accepting (HTTP 403), with no frame.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(value: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, with the scheme's default port; None if invalid."""
    try:
        parts = urlsplit(value.strip().lower())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not host or parts.path not in ("", "/"):
        return None
    return parts.scheme, host, port if port is not None else _DEFAULT_PORTS[parts.scheme]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
    for key, value in headers:
        if key == name:
            return value.decode("latin1")
    return None


def _allowed_hosts() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:
        hosts = [".localhost", "127.0.0.1", "[::1]"]  # as Django's HttpRequest.get_host
    return hosts


def _scheme(scope: dict[str, Any]) -> str:
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        header, secure = proxy
        name = header.removeprefix("HTTP_").replace("_", "-").lower().encode()
        forwarded = _header(scope, name)
        if forwarded is not None:
            return "https" if forwarded.split(",")[0].strip() == secure else "http"
    return "https" if scope.get("scheme") in ("wss", "https") else "http"


def own_origin(scope: dict[str, Any]) -> tuple[str, str, int] | None:
    """The origin the socket was opened on, if its Host is one of ALLOWED_HOSTS."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _ = split_domain_port(host.lower())
    if not domain or not validate_host(domain, _allowed_hosts()):
        return None
    return _origin(f"{_scheme(scope)}://{host}")


def origin_allowed(scope: dict[str, Any]) -> bool:
    raw = _header(scope, b"origin")
    if raw is None:
        return False
    origin = _origin(raw)
    if origin is None:
        return False
    if origin == own_origin(scope):
        return True
    return any(_matches(origin, trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS)


def _matches(origin: tuple[str, str, int], trusted: str) -> bool:
    """Exactly the trusted origin, or a subdomain of a `scheme://*.domain[:port]` one (the
    wildcard form CSRF_TRUSTED_ORIGINS allows)."""
    wildcard = "://*." in trusted
    pattern = _origin(trusted.replace("://*.", "://", 1) if wildcard else trusted)
    if pattern is None:
        return False
    if not wildcard:
        return origin == pattern
    scheme, host, port = origin
    return (scheme, port) == (pattern[0], pattern[2]) and host.endswith("." + pattern[1])


class OriginValidator:
    """ASGI middleware: the socket proceeds only from a trusted origin (read per handshake,
    so settings overridden in tests apply)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("OriginValidator only guards websockets")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

"""Failed log-in counting on the cache: per username and address, and per address alone.

Fixed windows keep this to two cache keys per attempt; the cache is process-local in the
embedded mode and Redis in the distributed mode, so the limit holds across ASGI processes.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    # The ASGI server fills REMOTE_ADDR (uvicorn from X-Forwarded-For only when told to trust
    # the proxy), so the header is never read here where a client could forge it.
    return request.META.get("REMOTE_ADDR") or "unknown"


def _key(kind: str, *parts: str) -> str:
    digest = hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:32]
    return f"login-fail:{kind}:{digest}"


def _keys(request: HttpRequest, username: str) -> tuple[str, str]:
    address = client_address(request)
    return _key("user", username.strip().casefold(), address), _key("ip", address)


def is_blocked(request: HttpRequest, username: str) -> bool:
    """True when this username from this address, or this address alone, failed too often."""
    limits = settings.LOGIN_RATE_LIMIT
    user_key, ip_key = _keys(request, username)
    counts = cache.get_many([user_key, ip_key])
    return (
        counts.get(user_key, 0) >= limits["per_user"]
        or counts.get(ip_key, 0) >= limits["per_ip"]
    )


def record_failure(request: HttpRequest, username: str) -> None:
    window = settings.LOGIN_RATE_LIMIT["window_seconds"]
    for key in _keys(request, username):
        # add() starts the window only if none is running; incr() is atomic on Redis.
        cache.add(key, 0, timeout=window)
        try:
            cache.incr(key)
        except ValueError:
            # The key expired between add() and incr(): start a fresh window at one failure.
            cache.set(key, 1, timeout=window)


def reset(request: HttpRequest, username: str) -> None:
    """A successful log-in clears the username's counter (not the address's)."""
    user_key, _ip_key = _keys(request, username)
    cache.delete(user_key)

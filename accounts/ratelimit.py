"""Attempts counted on the cache: log-ins per username and address and per address alone;
password resets per mailbox and per address, and confirmation links per account (`hit`).

Every way to log in (the log-in page, the JSON API, the admin) authenticates through
accounts.backends.RateLimitedModelBackend, which reserves the attempt here before any password
is checked.

Fixed windows keep this to two cache keys per attempt; the cache is process-local in the
embedded mode and Redis in the distributed mode, so the limit holds across ASGI processes.
"""

from __future__ import annotations

import contextlib
import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    # The ASGI server fills REMOTE_ADDR (uvicorn from X-Forwarded-For only when told to trust
    # the proxy), so the header is never read here where a client could forge it.
    return request.META.get("REMOTE_ADDR") or "unknown"


def _key(kind: str, *parts: str, prefix: str = "login-fail") -> str:
    digest = hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:32]
    return f"{prefix}:{kind}:{digest}"


def _keys(request: HttpRequest, username: str) -> tuple[str, str]:
    address = client_address(request)
    return _key("user", username.strip().casefold(), address), _key("ip", address)


def _count(key: str, window: int) -> int:
    # add() starts the window only if none is running; incr() is atomic (Redis, and the
    # local-memory cache under its lock), so concurrent attempts each get their own number.
    cache.add(key, 0, timeout=window)
    try:
        return int(cache.incr(key))
    except ValueError:
        # The key expired between add() and incr(): start a fresh window at one attempt.
        cache.set(key, 1, timeout=window)
        return 1


def reserve(request: HttpRequest, username: str) -> bool:
    """Count one log-in attempt *before* its password is checked; False if it is over the
    limit (then the password must not be checked at all).

    Reserving first is what makes the limit hold under concurrency: 25 simultaneous attempts
    draw the numbers 1 to 25, and only the first `per_user` get a password check (issue #13).
    A successful log-in gives its reservation back (`release`)."""
    limits = settings.LOGIN_RATE_LIMIT
    window = limits["window_seconds"]
    user_key, ip_key = _keys(request, username)
    # The address first, and the username only for an attempt the address allows: with both
    # counted at once, concurrent attempts could draw a low number on one key and a high one
    # on the other, and fewer than `per_user` would get their check.
    if _count(ip_key, window) > limits["per_ip"]:
        return False
    return _count(user_key, window) <= limits["per_user"]


def release(request: HttpRequest, username: str) -> None:
    """A successful log-in: clear the username's counter and give the address its attempt
    back, so the address counts failures only."""
    user_key, ip_key = _keys(request, username)
    cache.delete(user_key)
    with contextlib.suppress(ValueError):  # the window ended meanwhile
        cache.decr(ip_key)


def hit(kind: str, subject: str, limit: int, window: int) -> bool:
    """Count one attempt of `kind` (a password reset, a confirmation link) for `subject` (an
    address, a mailbox, an account id); False once it is over `limit` in the `window`
    (seconds). The same fixed windows as the log-ins, under keys of their own."""
    return _count(_key(kind, subject, prefix="limit"), window) <= limit

"""The one authentication backend: Django's ModelBackend behind the log-in rate limiter.

Because every log-in — the site's page, the JSON API, the admin's own log-in page — ends in
`django.contrib.auth.authenticate`, limiting here guards them all with the same counters
(issue #13: the admin log-in was not limited, and its failures were not counted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts import ratelimit

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

# Set on the request when its attempt was refused unchecked, so a form can say why.
RATE_LIMITED_FLAG = "_troccas_login_rate_limited"


class RateLimited(PermissionDenied):
    """Too many attempts: `authenticate()` stops at once and returns None."""


def was_rate_limited(request: HttpRequest | None) -> bool:
    return bool(getattr(request, RATE_LIMITED_FLAG, False))


class RateLimitedModelBackend(ModelBackend):
    def user_can_authenticate(self, user: User | AnonymousUser | None) -> bool:
        # A bot account (User.is_bot) plays through the services only: no password, no
        # session, whatever is stored on its row.
        return not getattr(user, "is_bot", False) and super().user_can_authenticate(user)

    def authenticate(self, request: HttpRequest | None, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> User | None:
        if request is None or not username:
            # No request (a management command, the test client's login()): nothing to
            # count against; Django's own checks still apply.
            return super().authenticate(request, username=username, password=password,
                                        **kwargs)
        if not ratelimit.reserve(request, username):
            setattr(request, RATE_LIMITED_FLAG, True)
            raise RateLimited
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            ratelimit.release(request, username)
        return user

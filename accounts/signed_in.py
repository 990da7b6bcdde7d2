"""The signed-in player of a request, typed as the site's own user model.

django-stubs types `request.user` as `User | AnonymousUser`. A view behind `login_required`
(or `LoginRequiredMixin`, or after its own `is_authenticated` refusal) only ever sees a
signed-in player, but the type checker cannot follow the decorator: this one function says so
once, instead of a cast in every view.
"""

from __future__ import annotations

from typing import cast

from django.http import HttpRequest

from .models import User


def signed_in_user(request: HttpRequest) -> User:
    """`request.user` where the caller has already made sure the visitor is signed in.

    A cast, not a check: the guard in front of the view is the check, and a second one here
    would change nothing a visitor sees. Never call it where an anonymous visitor can arrive.
    """
    return cast(User, request.user)

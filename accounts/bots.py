"""The bots' accounts: one per level and seat, made the first time a table needs it.

A bot sits at a table as a player (a Seat row pointing at its account), so the seats, the
matches, the action log and the history need nothing of their own for it. Its account can
never log in: the password is unusable and the backend refuses any account flagged `is_bot`
(accounts/backends.py); sign-up reserves the `bot-` prefix of their usernames.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.models import User

# Names from the Surselva, one per seat, so the four bots of a practice table differ.
_NAMES = ("Gion", "Mengia", "Flurin", "Ursina")


def bot_account(level: str, seat: int) -> User:
    """The bot account that plays `level` on seat `seat` (0–3), created if it is missing."""
    username = f"bot-{level}-{seat + 1}"
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user
    try:
        with transaction.atomic():
            user = User(username=username, display_name=_NAMES[seat], is_bot=True,
                        bot_level=level)
            user.set_unusable_password()
            user.save()
            return user
    except IntegrityError:
        # Made at the same moment by another table: use that one.
        return User.objects.get(username=username)

"""Names people choose (display names, room names) are shown to everyone at the table: they
must be plain text. Refused: control characters (NUL among them, which PostgreSQL cannot store),
lone surrogates (text that is not Unicode at all, which no database can store), and the bidi
controls that can make a name read backwards or swallow the text after it on other players'
screens. Joiners (used inside emoji) and ordinary letters of every script stay allowed.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Embedding, override and isolate controls, and the marks that flip a run's direction.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")


def is_plain_text(value: str) -> bool:
    """True if `value` is safe to show as a name to other people."""
    for ch in value:
        if ch in BIDI_CONTROLS:
            return False
        if unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn"):
            return False
    return True


def validate_plain_text(value: str) -> None:
    """A form validator: ValidationError (code `invalid_characters`) unless plain text."""
    if not is_plain_text(value):
        raise ValidationError(_("Use letters, digits, spaces and punctuation only."),
                              code="invalid_characters")

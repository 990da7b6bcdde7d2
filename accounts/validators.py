"""Names people choose (display names, room names) and what they say at a table are shown to
everyone there: they must be plain text. Refused: control characters (NUL among them, which
PostgreSQL cannot store), lone surrogates (text that is not Unicode at all, which no database
can store), and the bidi controls that can make a name read backwards or swallow the text after
it on other players' screens. Joiners (used inside emoji) and ordinary letters of every script
stay allowed.

Before any check and before storing (issue #25 item 10), text is NFKC-normalised and its
default-ignorable characters — invisible by definition, the zero-width space among them — are
dropped: "b\u200bad" or a full-width "ｂａｄ" is then "bad" for the blocked-word list as for
the reader. A text with no visible character at all (only spaces, joiners, Hangul fillers, a
blank Braille cell) is refused, and so is one that stacks more than MAX_MARKS combining marks
on one character (the "zalgo" text that runs over the lines above and below it).
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Embedding, override and isolate controls, and the marks that flip a run's direction.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15), which
# Python's unicodedata does not expose; the bidi controls above are among them.
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Kept after a symbol (an emoji): the zero-width joiner that glues 👨‍👩‍👧 together and the
# variation selector that asks for the emoji form. They draw nothing of their own there.
_EMOJI_GLUE = frozenset("\u200d\ufe0f")
# Characters that draw nothing though no Unicode property says so.
_BLANK = frozenset("\u2800\u3164\uffa0\u115f\u1160")
# Combining marks one character may carry: Vietnamese needs two, no language needs four.
MAX_MARKS = 3


def is_ignorable(ch: str) -> bool:
    """Whether `ch` is a default-ignorable code point (drawn as nothing)."""
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def normalise(value: str) -> str:
    """`value` NFKC-normalised, without its default-ignorable characters (but the emoji glue
    right after a symbol). What is stored and what every check reads."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFKC", value):
        if is_ignorable(ch) and not (
                ch in _EMOJI_GLUE and out and unicodedata.category(out[-1]) in ("So", "Sk")):
            continue
        out.append(ch)
    return "".join(out)


def matchable(value: str) -> str:
    """`value` as the blocked-word list reads it: normalised, with no ignorable left at all
    and case-folded."""
    return "".join(ch for ch in normalise(value) if not is_ignorable(ch)).casefold()


def has_visible(value: str) -> bool:
    """Whether `value` draws anything: a character that is no space, separator, format or
    combining mark, nor a blank one."""
    return any(unicodedata.category(ch)[0] not in ("Z", "C", "M") and ch not in _BLANK
               and not is_ignorable(ch) for ch in value)


def too_many_marks(value: str) -> bool:
    """Whether some character of `value` carries more than MAX_MARKS combining marks."""
    run = 0
    for ch in value:
        if unicodedata.category(ch) in ("Mn", "Me"):
            run += 1
            if run > MAX_MARKS:
                return True
        else:
            run = 0
    return False


def is_showable(value: str) -> bool:
    """True if `value` may be shown as a name or said at a table: plain text as typed (a bidi
    control is refused, not silently dropped), and once normalised something visible in it
    unless it is empty, and no stack of combining marks."""
    if not is_plain_text(value):
        return False
    clean = normalise(value)
    # Empty (or only spaces) is no name; a name of invisible characters is refused.
    return (value.strip() == "" or has_visible(clean)) and not too_many_marks(clean)


def is_plain_text(value: str) -> bool:
    """True if `value` is safe to show as a name to other people."""
    for ch in value:
        if ch in BIDI_CONTROLS:
            return False
        if unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn"):
            return False
    return True


def validate_plain_text(value: str) -> None:
    """A form validator: ValidationError unless `value` (normalised) is showable — code
    `invalid_characters`, `invisible` or `too_many_marks`. The form's clean method stores the
    normalised value (`normalise`)."""
    if not is_plain_text(value):
        raise ValidationError(_("Use letters, digits, spaces and punctuation only."),
                              code="invalid_characters")
    typed, value = value, normalise(value)
    if typed.strip() and not has_visible(value):
        raise ValidationError(_("Write at least one visible letter, digit or sign."),
                              code="invisible")
    if too_many_marks(value):
        raise ValidationError(_("Too many accents on one letter: write it plainly."),
                              code="too_many_marks")

"""The table talk panel's words (static/js/talk.js), in the active language, with the quick
phrase palette."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

# The limit and the palette are the talk rows' (games/models/talk.py): text and talk are
# neighbours in the layers and never import each other.
from games.models import QuickPhrase, ReportReason
from games.models.talk import MAX_CHARS, MAX_REPORT_NOTE


def talk_words() -> dict[str, Any]:
    language = (get_language() or "en").split("-")[0]
    return {
        "title": _("Table talk"),
        "table": _("Table"),
        "spectators": _("Spectators"),
        "open": _("Talk"),
        "close": _("Hide talk"),
        "label": _("Your message"),
        "placeholder": _("Say something to the table"),
        "spectator_placeholder": _("Chat with the other spectators"),
        "send": _("Send"),
        "phrases": _("Quick phrases"),
        "mute": _("Mute %(name)s"),
        "unmute": _("Unmute %(name)s"),
        "report": _("Report this message by %(name)s"),
        "reported": _("Reported: thank you, staff will look at it."),
        # A report asks why (issue #24 item 14): one of the reasons, and a note if they like.
        "report_title": _("Why do you report this message by %(name)s?"),
        "report_reasons": [{"key": key, "text": str(label)} for key, label in ReportReason.choices],
        "report_note": _("Anything to add (optional)"),
        "report_send": _("Report"),
        "report_cancel": _("Cancel"),
        "report_max": MAX_REPORT_NOTE,
        "empty": _("Nothing said yet."),
        "public_note": _("Everything said here is read by the whole table and the spectators."),
        "spectator_note": _("Only spectators read this chat; the players never see it."),
        "silent": _("This is a silent table: no talk."),
        "phrases_only": _("Only the quick phrases may be said at this table."),
        # The score bar's talk button counts what came while the panel was closed (issue #24):
        # "_one" for 1, the other for any other count (static/js/views/talk_badge.js).
        "unread_one": ngettext("%(n)s new message", "%(n)s new messages", 1),
        "unread": ngettext("%(n)s new message", "%(n)s new messages", 2),
        "max": MAX_CHARS,
        "palette": QuickPhrase.palette(language),
    }

"""The admin of table talk (issue #17): the quick-phrase palette (translated tabs), blocked
words, the messages and reports with their context, and suspensions.

Staff moderate through the actions: hiding a message removes it from every socket at once and
from the replay (games.talk.moderation.hide); suspending stops a user's talk for a while.
Messages and reports are never edited by hand.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from modeltranslation.admin import TabbedTranslationAdmin

from games.models import (
    BlockedWord,
    QuickPhrase,
    TalkMessage,
    TalkMute,
    TalkReport,
    TalkSuspension,
)
from games.talk import moderation


def shown_text(message: TalkMessage) -> str:
    phrase = message.phrase
    return phrase.text if phrase is not None else message.text


def replay_link(message: TalkMessage) -> SafeString | str:
    """The match page's replay at the moment the message was said (static/js/replay.js reads
    the `#v<version>` fragment)."""
    if message.match_id is None:
        return "—"
    url = reverse("games:match", args=[message.match_id]) + f"#v{message.version}"
    label = (_("deal %(deal)s, trick %(trick)s") % {"deal": message.deal or "—",
                                                    "trick": message.trick or "—"})
    return format_html('<a href="{}">{}</a>', url, label)


class _Moderate(admin.ModelAdmin[Any]):
    """The actions every talk list shares, for staff who may change talk messages."""

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm("games.change_talkmessage"))

    def _messages(self, queryset: QuerySet[Any]) -> QuerySet[TalkMessage]:
        return queryset

    def _hide(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        count = sum(moderation.hide(m, request.user)
                    for m in self._messages(queryset).select_related("room"))
        self.message_user(
            request, ngettext("%(count)d message hidden.", "%(count)d messages hidden.", count)
            % {"count": count}, messages.SUCCESS)

    def _suspend(self, request: HttpRequest, queryset: QuerySet[Any], days: float) -> None:
        authors = set(self._messages(queryset).values_list("author_id", flat=True))
        for author in authors:
            moderation.suspend(author, days, str(_("suspended from the admin")))
        self.message_user(
            request, ngettext("%(count)d user's talk suspended.",
                              "%(count)d users' talk suspended.", len(authors))
            % {"count": len(authors)}, messages.SUCCESS)


@admin.register(TalkMessage)
class TalkMessageAdmin(_Moderate, admin.ModelAdmin[TalkMessage]):
    list_display = ("pk", "room", "author", "audience", "text_shown", "deal", "trick",
                    "created", "hidden")
    list_filter = ("audience", ("hidden", admin.EmptyFieldListFilter), "created")
    search_fields = ("text", "author__username", "room__code")
    list_select_related = ("room", "author", "phrase")
    readonly_fields = ("room", "match", "audience", "author", "seat", "text", "phrase",
                       "version", "deal", "trick", "created", "hidden", "hidden_by", "replay")
    actions = ["hide_messages", "suspend_day", "suspend_week"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("text"))
    def text_shown(self, obj: TalkMessage) -> str:
        return shown_text(obj)

    @admin.display(description=_("replay"))
    def replay(self, obj: TalkMessage) -> SafeString | str:
        return replay_link(obj)

    @admin.action(description=_("Hide selected messages for everyone"),
                  permissions=["moderate"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[TalkMessage]) -> None:
        self._hide(request, queryset)

    @admin.action(description=_("Suspend the authors' talk for a day"),
                  permissions=["moderate"])
    def suspend_day(self, request: HttpRequest, queryset: QuerySet[TalkMessage]) -> None:
        self._suspend(request, queryset, 1)

    @admin.action(description=_("Suspend the authors' talk for a week"),
                  permissions=["moderate"])
    def suspend_week(self, request: HttpRequest, queryset: QuerySet[TalkMessage]) -> None:
        self._suspend(request, queryset, 7)


@admin.register(TalkReport)
class TalkReportAdmin(_Moderate, admin.ModelAdmin[TalkReport]):
    list_display = ("pk", "reported_text", "reason", "author", "reporter", "created",
                    "resolved", "replay")
    list_filter = ("resolved", "reason", "created")
    list_select_related = ("message__author", "message__phrase", "message__room", "reporter")
    readonly_fields = ("message", "reporter", "created", "reported_text", "author", "replay",
                       "context", "reason", "note")
    fields = ("reported_text", "reason", "note", "author", "reporter", "created", "replay",
              "context", "resolved")
    actions = ["hide_reported", "suspend_day", "mark_resolved"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def _messages(self, queryset: QuerySet[Any]) -> QuerySet[TalkMessage]:
        return TalkMessage.objects.filter(reports__in=queryset).distinct()

    @admin.display(description=_("message"))
    def reported_text(self, obj: TalkReport) -> str:
        return shown_text(obj.message)

    @admin.display(description=_("author"))
    def author(self, obj: TalkReport) -> Any:
        return obj.message.author

    @admin.display(description=_("replay"))
    def replay(self, obj: TalkReport) -> SafeString | str:
        return replay_link(obj.message)

    @admin.display(description=_("context"))
    def context(self, obj: TalkReport) -> SafeString:
        rows = [(("talk-reported" if m.pk == obj.message_id else ""),
                 m.created.strftime("%Y-%m-%d %H:%M:%S"), m.author,
                 shown_text(m), _("hidden") if m.hidden else "")
                for m in moderation.context(obj.message)]
        return format_html(
            '<table class="talk-context"><tbody>{}</tbody></table>',
            format_html_join("", '<tr class="{}"><td>{}</td><td>{}</td><td>{}</td>'
                             "<td>{}</td></tr>", rows))

    @admin.action(description=_("Hide the reported messages for everyone"),
                  permissions=["moderate"])
    def hide_reported(self, request: HttpRequest, queryset: QuerySet[TalkReport]) -> None:
        self._hide(request, queryset)

    @admin.action(description=_("Suspend the authors' talk for a day"),
                  permissions=["moderate"])
    def suspend_day(self, request: HttpRequest, queryset: QuerySet[TalkReport]) -> None:
        self._suspend(request, queryset, 1)

    @admin.action(description=_("Mark as resolved"), permissions=["moderate"])
    def mark_resolved(self, request: HttpRequest, queryset: QuerySet[TalkReport]) -> None:
        queryset.update(resolved=True)


@admin.register(TalkSuspension)
class TalkSuspensionAdmin(admin.ModelAdmin[TalkSuspension]):
    list_display = ("user", "until", "reason", "created")
    list_filter = ("until",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(TalkMute)
class TalkMuteAdmin(admin.ModelAdmin[TalkMute]):
    """Each player's own choice: staff may look (a harassment report), not choose for them."""

    list_display = ("user", "muted", "created")
    search_fields = ("user__username", "muted__username")
    readonly_fields = ("user", "muted", "created")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(QuickPhrase)
class QuickPhraseAdmin(TabbedTranslationAdmin[QuickPhrase]):
    list_display = ("key", "text", "order", "active")
    list_editable = ("order", "active")
    search_fields = ("key", "text")


@admin.register(BlockedWord)
class BlockedWordAdmin(admin.ModelAdmin[BlockedWord]):
    list_display = ("word", "language")
    list_filter = ("language",)
    search_fields = ("word",)

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import User
from .signed_in import signed_in_user

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    # django-stubs makes the admin generic in its model; Django's class takes no subscript at
    # run time, so the parameter is for the type checker alone.
    _UserAdminBase = DjangoUserAdmin[User]
else:
    _UserAdminBase = DjangoUserAdmin


class AnonymisedFilter(admin.SimpleListFilter):
    title = _("anonymised")
    parameter_name = "anonymised"

    def lookups(self, request: HttpRequest,
                model_admin: admin.ModelAdmin[User]) -> list[tuple[str, StrOrPromise]]:
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        if self.value() == "yes":
            return queryset.filter(anonymised_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(anonymised_at__isnull=True)
        return queryset


@admin.register(User)
class UserAdmin(_UserAdminBase):
    list_display = (
        "username",
        "display_name",
        "email",
        "preferred_language",
        "is_active",
        "is_staff",
        "is_bot",
        "date_joined",
        "last_login",
    )
    list_filter = (
        "is_staff",
        "is_superuser",
        "is_active",
        "preferred_language",
        "is_bot",
        AnonymisedFilter,
    )
    search_fields = ("username", "display_name", "email", "first_name", "last_name")
    readonly_fields = ("anonymised_at", "is_bot", "bot_level", "last_login", "date_joined")
    fieldsets = (
        # Django's are always set; `or ()` only because the type allows None.
        *(DjangoUserAdmin.fieldsets or ()),
        (_("Troccas"), {"fields": ("display_name", "preferred_language", "anonymised_at",
                                   "is_bot", "bot_level")}),
    )
    add_fieldsets = (
        *DjangoUserAdmin.add_fieldsets,
        (_("Troccas"), {"fields": ("display_name", "preferred_language")}),
    )
    actions = ["anonymise_users"]

    @admin.action(description=_("Anonymise selected users (keeps their match history)"))
    def anonymise_users(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        count = 0
        # The admin lets only signed-in staff this far.
        me = signed_in_user(request)
        for user in queryset.filter(anonymised_at__isnull=True).exclude(pk=me.pk):
            user.anonymise()
            count += 1
        self.message_user(
            request,
            ngettext("%(count)d user anonymised.", "%(count)d users anonymised.", count)
            % {"count": count},
            messages.SUCCESS,
        )

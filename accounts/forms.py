"""Account forms. Every label, help text and error is an msgid of this project's catalogs, so
each form speaks the player's language, Romansh included (Django has no Romansh catalog)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import password_validation
from django.http import HttpRequest
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .backends import was_rate_limited
from .models import User
from .validators import normalise, validate_plain_text

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    # django-stubs makes these forms generic in their user model; Django's classes take no
    # subscript at run time, so the parameter is for the type checker alone.
    _UserCreationForm = auth_forms.UserCreationForm[User]
    _UserModelForm = forms.ModelForm[User]
    _SetPasswordForm = auth_forms.SetPasswordForm[User]
else:
    _UserCreationForm = auth_forms.UserCreationForm
    _UserModelForm = forms.ModelForm
    _SetPasswordForm = auth_forms.SetPasswordForm

REQUIRED = _("This field is required.")


def translate_required(form: forms.BaseForm) -> None:
    for field in form.fields.values():
        field.error_messages["required"] = REQUIRED
        if isinstance(field, forms.EmailField):
            field.error_messages["invalid"] = _("Enter a valid email address.")


def _choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    # A model field with choices makes a (typed) choice field; BaseForm.fields only says Field.
    return cast(forms.ChoiceField, form.fields[name])


def language_choices() -> list[tuple[str, StrOrPromise]]:
    return [(code, name) for code, name in settings.LANGUAGES]


class SignUpForm(_UserCreationForm):
    error_messages = {"password_mismatch": _("The two passwords do not match.")}

    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("Enter the same password again, to be sure."),
    )

    class Meta:
        model = User
        fields = ("username", "display_name", "email", "preferred_language")
        labels = {
            "username": _("Username"),
            "display_name": _("Display name"),
            "email": _("Email address"),
            "preferred_language": _("Language"),
        }
        help_texts = {"email": _("Optional; needed only to reset a forgotten password.")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.pop("usable_password", None)
        language = _choice_field(self, "preferred_language")
        language.choices = language_choices()
        language.required = True
        language.initial = get_language()
        self.fields["username"].widget.attrs["autocomplete"] = "username"
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self.fields["display_name"].validators.append(validate_plain_text)
        translate_required(self)

    def clean_display_name(self) -> str:
        # Stored as the checks read it: NFKC, no invisible characters (issue #25 item 10).
        return normalise(str(self.cleaned_data.get("display_name") or "")).strip()

    # django-stubs says str, but Django returns None for a name differing only in case.
    def clean_username(self) -> str | None:  # type: ignore[override]
        # Django's UserCreationForm also refuses names differing only in case (returns None).
        username = cast("str | None", super().clean_username())
        if username is None:
            return None
        # Reserved for anonymised accounts (User.anonymise), so a new player can never
        # appear to be a deleted one in someone's match history.
        # "bot-" likewise for the bots' accounts (accounts/bots.py).
        if username.lower().startswith(("deleted-", "bot-")):
            raise forms.ValidationError(_("This username is reserved."), code="reserved")
        return username


class LoginForm(auth_forms.AuthenticationForm):
    """Django's log-in form, rate-limited per username + address and per address."""

    error_messages = {
        "invalid_login": _(
            "Wrong username or password. Both are case-sensitive; please try again."
        ),
        "inactive": _("This account is inactive."),
        "rate_limited": _(
            "Too many failed log-in attempts. Please wait a few minutes and try again."
        ),
    }

    def __init__(self, request: HttpRequest | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = _("Username")
        self.fields["password"].label = _("Password")
        translate_required(self)

    def clean(self) -> dict[str, Any]:
        # The backend reserves the attempt before the password is checked
        # (accounts/backends.py); a refused attempt is told apart from a wrong password.
        try:
            return super().clean()
        except forms.ValidationError:
            if was_rate_limited(self.request):
                raise forms.ValidationError(
                    self.error_messages["rate_limited"], code="rate_limited") from None
            raise


class AdminLoginForm(LoginForm, AdminAuthenticationForm):
    """The admin's log-in: the same limiter and messages, plus the admin's staff check."""

    error_messages = {**LoginForm.error_messages, **AdminAuthenticationForm.error_messages,
                      "rate_limited": LoginForm.error_messages["rate_limited"]}


class ProfileForm(_UserModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email", "preferred_language", "table_sounds",
                  "play_single_card", "bot_speed", "invite_emails")
        labels = {
            "display_name": _("Display name"),
            "email": _("Email address"),
            "preferred_language": _("Language"),
            "table_sounds": _("Table sounds"),
        }
        help_texts = {"email": _("Optional; needed only to reset a forgotten password.")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        language = _choice_field(self, "preferred_language")
        language.choices = language_choices()
        language.required = True
        self.fields["display_name"].validators.append(validate_plain_text)
        # A form posted without it (an older page, a script) keeps the player's choice.
        self.fields["bot_speed"].required = False
        translate_required(self)

    def clean_display_name(self) -> str:
        # Stored as the checks read it: NFKC, no invisible characters (issue #25 item 10).
        return normalise(str(self.cleaned_data.get("display_name") or "")).strip()

    def clean_bot_speed(self) -> str:
        return str(self.cleaned_data.get("bot_speed") or self.instance.bot_speed)


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    error_messages = {
        "password_mismatch": _("The two passwords do not match."),
        "password_incorrect": _("Your current password is not correct. Please enter it again."),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["old_password"].label = _("Current password")
        self.fields["new_password1"].label = _("New password")
        self.fields["new_password2"].label = _("New password again")
        self.fields["new_password2"].help_text = _("Enter the same password again, to be sure.")
        translate_required(self)


class SetPasswordForm(_SetPasswordForm):
    error_messages = {"password_mismatch": _("The two passwords do not match.")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["new_password1"].label = _("New password")
        self.fields["new_password2"].label = _("New password again")
        self.fields["new_password2"].help_text = _("Enter the same password again, to be sure.")
        translate_required(self)


class PasswordResetForm(auth_forms.PasswordResetForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("Email address")
        translate_required(self)

    def get_users(self, email: str) -> Iterator[User]:
        """Only accounts whose address is confirmed get a reset link (issue #25 item 2): an
        address someone merely typed into a profile gets nothing, and the page says the same
        thing either way."""
        candidates = User.objects.filter(confirmed_email__iexact=email, is_active=True,
                                         is_bot=False)
        for user in candidates:
            if (user.email_confirmed and user.has_usable_password()
                    and email.casefold() == user.email.casefold()):
                yield user


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)
        translate_required(self)

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("Your password is not correct."), code="password_incorrect"
            )
        return password

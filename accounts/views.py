"""Account pages: sign up, log in/out, profile, password change and reset, deletion, language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy, translate_url
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST
from django.views.generic import FormView, UpdateView
from django.views.i18n import set_language as django_set_language

from games.models import funnel

from . import email_confirm, forms, ratelimit
from .middleware import set_language_cookie
from .models import User
from .signed_in import signed_in_user
from .site_url import site_url

if TYPE_CHECKING:
    # django-stubs makes the generic views generic in their form (and model); Django's take no
    # subscript at run time, so the parameters are for the type checker alone.
    _SignUpBase = FormView[forms.SignUpForm]
    _ProfileBase = UpdateView[User, forms.ProfileForm]
else:
    _SignUpBase = FormView
    _ProfileBase = UpdateView


def _inner_next_in(url: str, language: str) -> str:
    """`url` with a page address it carries in its own `next` (the log-in page's
    `?next=/de/matches/`) moved to `language` too (issue #24 item 8): otherwise the switcher
    shows the log-in page in the new language and, once signed in, the old one again."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if not any(key == "next" for key, _value in query):
        return url
    moved = []
    for key, value in query:
        if key == "next" and value.startswith("/") and not value.startswith("//"):
            page = translation.get_language_from_path(urlsplit(value).path)
            if page:
                with translation.override(page):
                    value = translate_url(value, language)
        moved.append((key, value))
    return urlunsplit(parts._replace(query=urlencode(moved)))


def in_language(url: str, language: str) -> str:
    """The same page under another language prefix (unchanged if it has none)."""
    return translate_url(url, language) if language else url


class SignUpView(_SignUpBase):
    template_name = "accounts/signup.html"
    form_class = forms.SignUpForm

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.user.is_authenticated:
            return redirect("games:home")
        return super().dispatch(request, *args, **kwargs)

    @method_decorator(sensitive_post_parameters("password1", "password2"))
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: forms.SignUpForm) -> HttpResponse:
        user = form.save()
        # Issue #28 item 5: the newcomers' funnel counts the account (before the sign-in,
        # which may carry a visitor's finished lessons over and count the first one).
        funnel.signed_up(user)
        email_confirm.send_link(self.request, user)
        # The site's one backend (settings.AUTHENTICATION_BACKENDS): a session names the backend
        # that signed it in, and one not listed there is signed out on its next request.
        login(self.request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        with translation.override(user.preferred_language):
            messages.success(self.request, _("Welcome to Troccas Online, %(name)s!")
                             % {"name": user.public_name})
            target = reverse("games:home")
        return set_language_cookie(HttpResponseRedirect(target), user.preferred_language)


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    form_class = forms.LoginForm
    redirect_authenticated_user = True

    def get_success_url(self) -> str:
        # Land in the player's own language straight away, not one redirect later. Asked only
        # once the form is valid, so the player is signed in.
        return in_language(super().get_success_url(),
                           signed_in_user(self.request).preferred_language)


class LogoutView(auth_views.LogoutView):
    # A URL name, which Django resolves when the player logs out (resolve_url).
    next_page = "games:home"


class ProfileView(LoginRequiredMixin, _ProfileBase):
    template_name = "accounts/profile.html"
    form_class = forms.ProfileForm

    def get_object(self, queryset: QuerySet[User] | None = None) -> User:
        return signed_in_user(self.request)

    def form_valid(self, form: forms.ProfileForm) -> HttpResponse:
        user = form.save(commit=False)
        new_address = "email" in form.changed_data
        # A new address is unconfirmed until its link is opened; mail goes nowhere meanwhile.
        if user.email != user.confirmed_email:
            user.confirmed_email = ""
        user.save()
        if new_address:
            email_confirm.send_link(self.request, user)
        with translation.override(user.preferred_language):
            messages.success(self.request, _("Your profile has been saved."))
            if new_address and user.email:
                messages.info(self.request, _(
                    "We sent a link to %(address)s: open it to confirm the address.")
                    % {"address": user.email})
            target = reverse("accounts:profile")
        return set_language_cookie(HttpResponseRedirect(target), user.preferred_language)


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    form_class = forms.PasswordChangeForm
    success_url = reverse_lazy("accounts:password_change_done")


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    form_class = forms.PasswordResetForm
    email_template_name = "accounts/email/password_reset.txt"
    subject_template_name = "accounts/email/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: forms.PasswordResetForm) -> HttpResponse:
        # Over a limit the answer is the same page as always: nothing tells the requester
        # whether a mail went out, or whether the address has an account.
        if not _reset_allowed(self.request, form.cleaned_data["email"]):
            return HttpResponseRedirect(self.get_success_url())
        # The link's site is this one's, never the Host a client sent (accounts/site_url.py).
        site = site_url(self.request)
        self.extra_email_context = {"site": site, "domain": urlsplit(site).netloc}
        return super().form_valid(form)


def _reset_allowed(request: HttpRequest, address: str) -> bool:
    """Count a reset request per client address and, when that allows it, per mailbox."""
    limits = settings.PASSWORD_RESET_RATE_LIMIT
    window = limits["window_seconds"]
    if not ratelimit.hit("reset-ip", ratelimit.client_address(request), limits["per_ip"],
                         window):
        return False
    return ratelimit.hit("reset-address", address.strip().casefold(), limits["per_address"],
                         window)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    form_class = forms.SetPasswordForm
    success_url = reverse_lazy("accounts:password_reset_complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


class EmailConfirmView(View):
    """The link mailed to a new address. Opening it (signed in or not) shows a page whose
    button confirms: a GET changes nothing, so a mail scanner that fetches every link does
    not confirm an address for its reader (docs/decisions.md)."""

    template_name = "accounts/email_confirm.html"

    def get(self, request: HttpRequest, token: str) -> HttpResponse:
        user = email_confirm.user_for(token)
        return render(request, self.template_name, {
            "valid": user is not None, "address": user.email if user else "",
            "done": user is not None and user.email_confirmed})

    def post(self, request: HttpRequest, token: str) -> HttpResponse:
        user = email_confirm.confirm(token)
        if user is None:
            return render(request, self.template_name, {"valid": False}, status=400)
        return render(request, self.template_name,
                      {"valid": True, "done": True, "address": user.email})


@login_required
@require_POST
def email_confirm_again(request: HttpRequest) -> HttpResponse:
    """The profile's "Send the link again", a few times an hour per account."""
    user = signed_in_user(request)
    if not user.email or user.email_confirmed:
        messages.info(request, _("There is no address to confirm."))
    elif email_confirm.send_link_again(request, user):
        messages.success(request, _(
            "We sent a link to %(address)s: open it to confirm the address.")
            % {"address": user.email})
    else:
        messages.error(request, _(
            "You asked for many links in a short time. Please wait a while and try again."))
    return redirect("accounts:profile")


@method_decorator(login_required, name="dispatch")
class DeleteAccountView(View):
    """Deleting an account anonymises it (User.anonymise): history stays, the person goes."""

    template_name = "accounts/delete.html"

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, self.template_name,
                      {"form": forms.DeleteAccountForm(signed_in_user(request))})

    @method_decorator(sensitive_post_parameters("password"))
    def post(self, request: HttpRequest) -> HttpResponse:
        user = signed_in_user(request)
        form = forms.DeleteAccountForm(user, request.POST)
        if not form.is_valid():
            return render(request, self.template_name, {"form": form})
        logout(request)
        user.anonymise()
        messages.success(request, _("Your account has been deleted."))
        return redirect("games:home")


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language (cookie + redirect to the same page in the new language), and for
    a signed-in player the choice also becomes the profile's language, which the middleware
    applies on every later request.

    Django translates `next` to the new language only if it can resolve it, and a prefixed
    path resolves only under its own language: so the page's language is activated first (the
    switcher's request itself carries the cookie's or the browser's language, not the page's).
    """
    next_url = request.POST.get("next") or ""
    page_language = translation.get_language_from_path(urlsplit(next_url).path)
    with translation.override(page_language or translation.get_language()):
        response = django_set_language(request)
    language = request.POST.get("language", "")
    if (isinstance(response, HttpResponseRedirect) and language in dict(settings.LANGUAGES)
            and page_language):
        response["Location"] = _inner_next_in(response["Location"], language)
    if (request.user.is_authenticated and language in dict(settings.LANGUAGES)
            and request.user.preferred_language != language):
        request.user.preferred_language = language
        request.user.save(update_fields=["preferred_language"])
    return response

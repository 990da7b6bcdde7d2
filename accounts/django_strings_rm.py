"""Django's own sentences that reach Romansh pages, marked so they live in our rm catalog.

Django ships no Romansh catalog, so on a /rm/ page every string of Django itself would fall back
to English: month and weekday names (the ``date`` filter and the calendar), ``timesince``, the
validation messages of form fields, django.contrib.auth's forms and validators, and the admin's
log-in page and frame. Translations in the project catalog (LOCALE_PATHS) win over every app's
catalog, so giving these exact msgids a Romansh translation in locale/rm makes Django speak
Romansh.

This module is never imported: it exists for ``makemessages``, which keeps an msgid in our
catalogs only while some source file marks it — without these marks the entries would be
dropped as obsolete at the next run. The msgids are copied verbatim from Django's own .po files
(django/conf/locale, contrib/auth/locale, contrib/admin/locale), contexts included, so they
match what Django looks up. Because makemessages writes every msgid into every catalog, de and fr
carry them too, with Django's own German and French translations (no change for those pages).
Where our own code marks the same msgid ("Log in", "Password"), our translation is the one used.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy, pgettext_lazy

# Django core: dates (django.utils.dates), timesince, form field validation.
DJANGO_CORE = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
    gettext_noop("Monday"),
    gettext_noop("Tuesday"),
    gettext_noop("Wednesday"),
    gettext_noop("Thursday"),
    gettext_noop("Friday"),
    gettext_noop("Saturday"),
    gettext_noop("Sunday"),
    gettext_noop("Mon"),
    gettext_noop("Tue"),
    gettext_noop("Wed"),
    gettext_noop("Thu"),
    gettext_noop("Fri"),
    gettext_noop("Sat"),
    gettext_noop("Sun"),
    gettext_noop("jan"),
    gettext_noop("feb"),
    gettext_noop("mar"),
    gettext_noop("apr"),
    gettext_noop("may"),
    gettext_noop("jun"),
    gettext_noop("jul"),
    gettext_noop("aug"),
    gettext_noop("sep"),
    gettext_noop("oct"),
    gettext_noop("nov"),
    gettext_noop("dec"),
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
    pgettext_lazy("abbrev. month", "Jan."),
    pgettext_lazy("abbrev. month", "Feb."),
    pgettext_lazy("abbrev. month", "March"),
    pgettext_lazy("abbrev. month", "April"),
    pgettext_lazy("abbrev. month", "May"),
    pgettext_lazy("abbrev. month", "June"),
    pgettext_lazy("abbrev. month", "July"),
    pgettext_lazy("abbrev. month", "Aug."),
    pgettext_lazy("abbrev. month", "Sept."),
    pgettext_lazy("abbrev. month", "Oct."),
    pgettext_lazy("abbrev. month", "Nov."),
    pgettext_lazy("abbrev. month", "Dec."),
    gettext_noop("Enter a valid value."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("%(model_name)s with this %(field_label)s already exists."),
    gettext_noop("Null characters are not allowed."),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "n",
    ),
    ngettext_lazy(
        "Ensure this value has at least %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at least %(limit_value)d characters (it has %(show_value)d).",
        "n",
    ),
    ngettext_lazy(
        "%(num)d year",
        "%(num)d years",
        "n",
    ),
    ngettext_lazy(
        "%(num)d month",
        "%(num)d months",
        "n",
    ),
    ngettext_lazy(
        "%(num)d week",
        "%(num)d weeks",
        "n",
    ),
    ngettext_lazy(
        "%(num)d day",
        "%(num)d days",
        "n",
    ),
    ngettext_lazy(
        "%(num)d hour",
        "%(num)d hours",
        "n",
    ),
    ngettext_lazy(
        "%(num)d minute",
        "%(num)d minutes",
        "n",
    ),
    gettext_noop("Forbidden"),
    gettext_noop("CSRF verification failed. Request aborted."),
)

# django.contrib.auth: forms, the User model, password validators.
DJANGO_AUTH = (
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    gettext_noop("This account is inactive."),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("Old password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Email"),
    gettext_noop("A user with that username already exists."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ "
        "characters."
    ),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "n",
    ),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("Password reset on %(site_name)s"),
    gettext_noop("Password"),
)

# django.contrib.admin: the log-in page and the admin's frame.
DJANGO_ADMIN = (
    gettext_noop("Log in"),
    gettext_noop("Forgotten your login credentials?"),
    gettext_noop("Error:"),
    ngettext_lazy(
        "Please correct the error below.",
        "Please correct the errors below.",
        "n",
    ),
    gettext_noop(
        "You are authenticated as %(username)s, but are not authorized to access this page. Would "
        "you like to login to a different account?"
    ),
    gettext_noop(
        "Please enter the correct %(username)s and password for a staff account. Note that both "
        "fields may be case-sensitive."
    ),
    gettext_noop("Welcome,"),
    gettext_noop("View site"),
    gettext_noop("Change password"),
    gettext_noop("Log out"),
    gettext_noop("Home"),
    gettext_noop("Skip to main content"),
    gettext_noop("Breadcrumbs"),
    gettext_noop("Toggle theme (current theme: auto)"),
    gettext_noop("Toggle theme (current theme: dark)"),
    gettext_noop("Toggle theme (current theme: light)"),
    gettext_noop("Documentation"),
    gettext_noop("Log in again"),
    gettext_noop("Thanks for spending some quality time with the web site today."),
    gettext_noop("Recent actions"),
    gettext_noop("My actions"),
    gettext_noop("None available"),
    gettext_noop("Add"),
    gettext_noop("Change"),
    gettext_noop("View"),
    gettext_noop("Delete"),
    gettext_noop("Save"),
    gettext_noop("Save and add another"),
    gettext_noop("Save and continue editing"),
    gettext_noop("Search"),
    gettext_noop("Go"),
    gettext_noop("Filter"),
    gettext_noop("Yes"),
    gettext_noop("No"),
    gettext_noop("Unknown"),
    gettext_noop("Select %s"),
    gettext_noop("Select %s to change"),
    gettext_noop("Action:"),
    gettext_noop("Run the selected action"),
    gettext_noop("%(app)s administration"),
    gettext_noop("Django site admin"),
    gettext_noop("Django administration"),
    gettext_noop("Site administration"),
)

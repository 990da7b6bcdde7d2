"""Django's password validators with their messages in this project's catalogs.

Django has no Romansh translations; these subclasses keep Django's checks and give every
message an msgid our catalogs translate, so a password error speaks the player's language.
"""

from __future__ import annotations

from django.contrib.auth import password_validation as django_validation
from django.utils.translation import gettext, ngettext


class MinimumLengthValidator(django_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short. It must contain at least %(min_length)d character.",
            "This password is too short. It must contain at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}

    def get_help_text(self) -> str:
        return ngettext(
            "Your password must contain at least %(min_length)d character.",
            "Your password must contain at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}


class UserAttributeSimilarityValidator(django_validation.UserAttributeSimilarityValidator):
    def get_error_message(self) -> str:
        return gettext("The password is too similar to the %(verbose_name)s.")

    def get_help_text(self) -> str:
        return gettext("Your password can’t be too similar to your other personal information.")


class CommonPasswordValidator(django_validation.CommonPasswordValidator):
    def get_error_message(self) -> str:
        return gettext("This password is too common.")

    def get_help_text(self) -> str:
        return gettext("Your password can’t be a commonly used password.")


class NumericPasswordValidator(django_validation.NumericPasswordValidator):
    def get_error_message(self) -> str:
        return gettext("This password is entirely numeric.")

    def get_help_text(self) -> str:
        return gettext("Your password can’t be entirely numeric.")

"""Admin-edited content translated per language (django-modeltranslation): each registered
field gets one column per language and the admin shows a tab per language."""

from modeltranslation.translator import TranslationOptions, register

from .models import Announcement, FAQEntry, QuickPhrase


@register(FAQEntry)
class FAQEntryTranslationOptions(TranslationOptions):
    fields = ("question", "answer")
    required_languages = ("en",)


@register(Announcement)
class AnnouncementTranslationOptions(TranslationOptions):
    fields = ("title", "body")
    required_languages = ("en",)


@register(QuickPhrase)
class QuickPhraseTranslationOptions(TranslationOptions):
    fields = ("text",)
    required_languages = ("en",)

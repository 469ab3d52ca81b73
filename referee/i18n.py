"""The text of the window and of the command line, kept in one place for translation: gettext with the catalogues
in ``referee/locale`` (domain ``seven-seconds``), the English one extracted from the code by Babel.

``_("text")`` marks a string and translates it for the user's language (the usual ``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES`` and ``LANG`` settings); ``N_("text")`` only marks one kept in a table, translated where it is shown.
A language with no catalogue shows the English text. A string with values names them, so a translation may put
them where its grammar wants them: ``_("Could not open {path}").format(path=path)``.
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path

DOMAIN = "seven-seconds"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


@lru_cache(maxsize=1)
def translations() -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, fallback=True)


def _(message: str) -> str:
    return translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations().ngettext(singular, plural, n)


def N_(message: str) -> str:
    return message


@lru_cache(maxsize=32)
def translations_for(languages: tuple[str, ...]) -> gettext.NullTranslations:
    """The catalogue for a reader who asked for ``languages`` (best first, e.g. a phone's Accept-Language), not the
    user's own settings: the first of them with a catalogue, English when none has one."""
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=list(languages) or ["en"], fallback=True)


def language_of(languages: tuple[str, ...]) -> str:
    """The language ``translations_for(languages)`` shows: the first asked for with a catalogue, else English."""
    for language in languages:
        found = gettext.find(DOMAIN, localedir=LOCALE_DIR, languages=[language])
        if found is not None:
            return Path(found).parent.parent.name         # gettext falls back from en_GB to en: the one it found
    return "en"

"""Given names: a first name alone names no one in particular.

``Michelle`` or ``Priya`` in a correction's ``deprecates`` reaches every memory about anyone of
that name, so a given name alone is generic (:mod:`nowline._rules.generic`), however rare it
is in a corpus, while another capitalised word of the writer's text (``Michigan``,
``Patriots``, ``Acme``) names a particular thing. Telling them apart takes a list of given
names: ``given_names.txt`` beside this module, the given names of the Faker library's person
providers in 110 locales (all but its bare ``en``, a list of every name ever registered in
the US, places and brands included), in their own scripts, generated once and shipped as
data; never edit it by hand. Regenerate it from a source checkout whose
environment has Faker (the ``dev`` extra)::

    .venv/bin/python -m nowline._rules.names --write

The file is one name per word, wrapped, after a header line that names the Faker version.
Names compare case-insensitively (``casefold``). Faker is MIT-licensed; its name lists come
from public registries and census data.
"""

from __future__ import annotations

import argparse
import functools
import sys
import textwrap
import unicodedata
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "DATA",
    "FAMILY_FIRST_DATA",
    "generate",
    "generate_family_first",
    "given_names",
    "is_family_first_given_name",
    "is_family_first_name",
    "is_given_name",
    "main",
]

DATA = Path(__file__).with_name("given_names.txt")
"""The shipped list of given names."""

FAMILY_FIRST_DATA = Path(__file__).with_name("family_first_names.txt")
"""The shipped list of family names of the languages that write the family name first."""

_WIDTH = 100

# Faker's bare "en" list is every name the US Social Security files ever held, places and
# brands included (Texas, Boston, Berlin, Porsche); its regional English locales keep the
# names people are given.
_LOCALES_LEFT_OUT = frozenset({"en"})

# A provider's lists of given names: by sex, by community (bn_BD, et_EE), and romanized
# (ja_JP, zh_CN, zh_TW: "Yuki", "Wei" as an English text writes them).
_NAME_LISTS = ("first_names", "first_romanized_names")

# The languages that write the family name first (Faker's own format of a name says so for
# zh, ja and hu; Vietnamese does in life, whatever its provider's format): "Wang Wei", "Tanaka
# Hiroshi", "Nguyễn Văn An", "Nagy László" name a person with the given name last.
_FAMILY_FIRST_LOCALES = ("hu_HU", "ja_JP", "ko_KR", "vi_VN", "zh_CN", "zh_TW")
_FAMILY_LISTS = ("last_names", "last_romanized_names")
# Faker's ko_KR lists its family names in Hangul only. These are the commonest in the
# spellings English text uses (Revised Romanization and the older, still usual ones).
_KOREAN_ROMANIZED = (
    "Ahn",
    "Bae",
    "Baek",
    "Cho",
    "Choe",
    "Choi",
    "Chung",
    "Han",
    "Hwang",
    "Im",
    "Jang",
    "Jeon",
    "Jeong",
    "Jo",
    "Jung",
    "Kang",
    "Kim",
    "Ko",
    "Kwon",
    "Lee",
    "Lim",
    "Moon",
    "Oh",
    "Pak",
    "Park",
    "Rhee",
    "Seo",
    "Shin",
    "Son",
    "Song",
    "Yoo",
    "Yoon",
    "Yun",
)


def _sections(path: Path, key: Callable[[str], str]) -> dict[str, frozenset[str]]:
    """Return a shipped list's words, each through ``key``, by section.

    A comment line of one word (``# family``) opens a section; the words before any are
    section ``""``; other comment lines (the header naming the source) are skipped.
    """
    sections: dict[str, set[str]] = {"": set()}
    current = sections[""]
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            name = line[1:].split()
            if len(name) == 1:
                current = sections.setdefault(name[0], set())
            continue
        current.update(key(word) for word in line.split())
    return {name: frozenset(words) for name, words in sections.items()}


@functools.cache
def given_names() -> frozenset[str]:
    """Return the shipped given names, casefolded (read once per process, about 20 ms)."""
    return _sections(DATA, str.casefold)[""]


def is_given_name(word: str) -> bool:
    """Return whether ``word`` (one word) is a given name of the shipped list."""
    return word.casefold() in given_names()


def _unaccented(word: str) -> str:
    """Return ``word`` casefolded without its accents (``Nguyễn`` and ``Nguyen`` alike)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold().replace("đ", "d"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@functools.cache
def _family_first() -> tuple[frozenset[str], frozenset[str]]:
    """Return the shipped family names and given names of the family-first languages.

    Casefolded and unaccented: the file's ``# family`` section, then its ``# given`` one.
    """
    sections = _sections(FAMILY_FIRST_DATA, _unaccented)
    return sections["family"], sections["given"]


def is_family_first_name(word: str) -> bool:
    """Return whether ``word`` is a family name of a language that writes it first.

    ``Wang``, ``Tanaka``, ``Nguyễn`` (or ``Nguyen``), ``Kim``, ``Nagy``: a full name that
    begins with one may end with a given name of those languages
    (:func:`is_family_first_given_name`; :func:`nowline._rules.generic.is_person_name`).
    """
    return _unaccented(word) in _family_first()[0]


def is_family_first_given_name(word: str) -> bool:
    """Return whether ``word`` is a given name of a language that writes the family name first.

    ``Wei``, ``Hiroshi``, ``Anh``, ``László``: only these end a name begun with a family
    name of those languages, so that ``Park Hyatt Sydney`` or ``Major Tom`` (given names of
    other languages) stay things.
    """
    return _unaccented(word) in _family_first()[1]


def _provider_lists(locale: str, prefixes: tuple[str, ...]) -> set[str]:
    """Return the one-word names of one Faker locale's lists whose names start so."""
    import importlib

    try:
        module = importlib.import_module(f"faker.providers.person.{locale}")
    except ModuleNotFoundError:
        return set()
    attrs = {
        attr for c in module.Provider.__mro__ for attr in c.__dict__ if attr.startswith(prefixes)
    }
    found: set[str] = set()
    for attr in sorted(attrs):
        value = next(c.__dict__[attr] for c in module.Provider.__mro__ if attr in c.__dict__)
        names = list(value) if isinstance(value, dict) else value
        if isinstance(names, (list, tuple)):
            found.update(n.strip() for n in names if isinstance(n, str) and " " not in n.strip())
    return found


def generate_family_first() -> tuple[str, list[str], list[str]]:
    """Return Faker's version, and the family and given names of the family-first locales.

    Needs Faker.
    """
    import faker

    family = set(_KOREAN_ROMANIZED)
    given: set[str] = set()
    for locale in _FAMILY_FIRST_LOCALES:
        # zh_TW writes its romanized names in capitals (CHEN): as English text writes them
        family.update(
            n.title() if n.isupper() else n for n in _provider_lists(locale, _FAMILY_LISTS)
        )
        given.update(n.title() if n.isupper() else n for n in _provider_lists(locale, _NAME_LISTS))
    return faker.VERSION, sorted(n for n in family if n), sorted(n for n in given if n)


def generate() -> tuple[str, list[str]]:
    """Return Faker's version and the given names of all its locales (needs Faker)."""
    import faker
    from faker.config import AVAILABLE_LOCALES

    found: set[str] = set()
    for locale in AVAILABLE_LOCALES:
        if locale not in _LOCALES_LEFT_OUT:
            found.update(_provider_lists(locale, _NAME_LISTS))
    return faker.VERSION, sorted(n for n in found if n)


def main(argv: list[str] | None = None) -> int:
    """Rewrite the shipped lists from the installed Faker."""
    parser = argparse.ArgumentParser(
        prog="python -m nowline._rules.names",
        description="Regenerate nowline's lists of names from the installed Faker.",
    )
    parser.add_argument("--write", action="store_true", required=True, help="rewrite the lists")
    parser.add_argument("--file", type=Path, default=DATA, help="the given names' file")
    parser.add_argument(
        "--family-file",
        type=Path,
        default=FAMILY_FIRST_DATA,
        help="the file of family names written first",
    )
    args = parser.parse_args(argv)
    version, given = generate()
    _, family, family_given = generate_family_first()
    files = (
        (args.file, "Given names", {"": given}),
        (args.family_file, "Family names written first", {"family": family, "given": family_given}),
    )
    for path, what, sections in files:
        body = "".join(
            (f"# {name}\n" if name else "")
            + "\n".join(textwrap.wrap(" ".join(names), width=_WIDTH, break_on_hyphens=False))
            + "\n"
            for name, names in sections.items()
        )
        path.write_text(
            f"# {what} of Faker {version}'s person providers (python -m nowline._rules.names "
            f"--write); never edit by hand.\n{body}",
            encoding="utf-8",
        )
        count = sum(len(names) for names in sections.values())
        print(f"{path}: {count:,} names of Faker {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

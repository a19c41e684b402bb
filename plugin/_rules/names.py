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
from pathlib import Path

__all__ = ["DATA", "generate", "given_names", "is_given_name", "main"]

DATA = Path(__file__).with_name("given_names.txt")
"""The shipped list of given names."""

_WIDTH = 100

# Faker's bare "en" list is every name the US Social Security files ever held, places and
# brands included (Texas, Boston, Berlin, Porsche); its regional English locales keep the
# names people are given.
_LOCALES_LEFT_OUT = frozenset({"en"})

# A provider's lists of given names: by sex, by community (bn_BD, et_EE), and romanized
# (ja_JP, zh_CN, zh_TW: "Yuki", "Wei" as an English text writes them).
_NAME_LISTS = ("first_names", "first_romanized_names")


@functools.cache
def given_names() -> frozenset[str]:
    """Return the shipped given names, casefolded (read once per process, about 20 ms)."""
    words = (
        word
        for line in DATA.read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
        for word in line.split()
    )
    return frozenset(word.casefold() for word in words)


def is_given_name(word: str) -> bool:
    """Return whether ``word`` (one word) is a given name of the shipped list."""
    return word.casefold() in given_names()


def generate() -> tuple[str, list[str]]:
    """Return Faker's version and the given names of all its locales (needs Faker)."""
    import importlib

    import faker
    from faker.config import AVAILABLE_LOCALES

    found: set[str] = set()
    for locale in AVAILABLE_LOCALES:
        if locale in _LOCALES_LEFT_OUT:
            continue
        try:
            module = importlib.import_module(f"faker.providers.person.{locale}")
        except ModuleNotFoundError:
            continue
        attrs = {
            attr
            for c in module.Provider.__mro__
            for attr in c.__dict__
            if attr.startswith(_NAME_LISTS)
        }
        for attr in sorted(attrs):
            value = next(c.__dict__[attr] for c in module.Provider.__mro__ if attr in c.__dict__)
            names = list(value) if isinstance(value, dict) else value
            if isinstance(names, (list, tuple)):
                found.update(
                    n.strip() for n in names if isinstance(n, str) and " " not in n.strip()
                )
    return faker.VERSION, sorted(n for n in found if n)


def main(argv: list[str] | None = None) -> int:
    """Rewrite the shipped list from the installed Faker."""
    parser = argparse.ArgumentParser(
        prog="python -m nowline._rules.names",
        description="Regenerate nowline's list of given names from the installed Faker.",
    )
    parser.add_argument("--write", action="store_true", required=True, help="rewrite the list")
    parser.add_argument("--file", type=Path, default=DATA, help="the file to write")
    args = parser.parse_args(argv)
    version, names = generate()
    body = "\n".join(textwrap.wrap(" ".join(names), width=_WIDTH, break_on_hyphens=False))
    args.file.write_text(
        f"# Given names of Faker {version}'s person providers (python -m nowline._rules.names "
        f"--write); never edit by hand.\n{body}\n",
        encoding="utf-8",
    )
    print(f"{args.file}: {len(names):,} given names of Faker {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

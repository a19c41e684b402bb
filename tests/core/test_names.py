"""Given names (``nowline._rules.names``): shipped as data, regenerated from Faker, never edited.

How the name rule does on generated full names of 31 locales is measured in
``tests/guards/test_names.py``; this file checks the list itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from nowline._rules import names


def test_given_names_in_many_scripts_are_known() -> None:
    """Latin names of several languages, and names in their own scripts."""
    for name in ("Michelle", "priya", "José", "Søren", "Dmitri", "Анна", "Yuki", "محمد"):
        assert names.is_given_name(name), name


def test_places_brands_and_words_are_not_given_names() -> None:
    """Faker's bare ``en`` list (every registered US name, places included) is left out."""
    for word in ("Michigan", "Patriots", "Acme", "billing", "Texas", "Boston", "Porsche"):
        assert not names.is_given_name(word), word


def test_the_shipped_file_names_its_source_and_holds_one_name_per_word() -> None:
    """A header naming the Faker version, then names: no spaces inside a name, no repeats."""
    lines = names.DATA.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# Given names of Faker ") and "never edit by hand" in lines[0]
    words = [w for line in lines[1:] for w in line.split()]
    assert len(words) == len(set(words)) > 20_000
    assert words == sorted(words)
    assert len(names.given_names()) <= len(words)


def test_family_names_written_first_are_known_with_and_without_accents() -> None:
    """Chinese, Japanese, Korean, Vietnamese and Hungarian family names; not English words."""
    for name in ("Wang", "Tanaka", "Kim", "Nguyễn", "nguyen", "Đặng", "Dang", "Nagy", "王"):
        assert names.is_family_first_name(name), name
    for word in ("Smith", "Street", "Acme", "Michelle", "Berlin"):
        assert not names.is_family_first_name(word), word
    for word in ("Wei", "Hiroshi", "Anh", "László", "Laszlo"):  # their given names ...
        assert names.is_family_first_given_name(word), word
    for word in ("Sydney", "Tom", "Georges", "Tea"):  # ... and not other languages'
        assert not names.is_family_first_given_name(word), word


def test_the_lists_regenerate_to_the_shipped_files(tmp_path: Path) -> None:
    """``python -m nowline._rules.names --write`` with this Faker writes the same files."""
    faker = pytest.importorskip("faker")
    shipped = names.DATA.read_text(encoding="utf-8")
    if f"Faker {faker.VERSION}'s" not in shipped.splitlines()[0]:
        pytest.skip(f"the list was made with another Faker than {faker.VERSION}")
    given, family = tmp_path / "given_names.txt", tmp_path / "family_first_names.txt"
    assert names.main(["--write", "--file", str(given), "--family-file", str(family)]) == 0
    assert given.read_text(encoding="utf-8") == shipped
    assert family.read_text(encoding="utf-8") == names.FAMILY_FIRST_DATA.read_text("utf-8")

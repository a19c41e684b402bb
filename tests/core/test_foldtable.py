"""The Unicode fold table (``nowline._rules.foldtable``): shipped data, computed, regenerated.

The prefilter builds its Chroma ``$regex`` class from this table; these tests hold that the
shipped data is this Python's folding, that another Unicode version computes its own, and that
the regeneration command rewrites a stale file.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from nowline._rules import foldtable as _foldtable
from nowline._rules import prefilter as _prefilter

Table = tuple[dict[str, str], frozenset[str]]


@pytest.fixture(scope="module")
def computed() -> Table:
    """Return the fold table computed from this Python's unicodedata (once per module)."""
    return _foldtable.compute()


@pytest.fixture
def fresh_prefilter_table() -> Iterator[None]:
    """Clear the prefilter's cached fold table before and after the test."""
    _prefilter._fold_table.cache_clear()
    yield
    _prefilter._fold_table.cache_clear()


def _shipped_version() -> str:
    """Return the Unicode version the shipped table records."""
    return _foldtable.load()[0]


def test_shipped_fold_table_matches_unicodedata(computed: Table) -> None:
    """The shipped table equals a fresh computation, when this Python has its Unicode version."""
    if unicodedata.unidata_version != _shipped_version():
        pytest.skip(
            f"the shipped table is Unicode {_shipped_version()} and this Python has "
            f"{unicodedata.unidata_version}, so the prefilter computes its table at run time "
            "(the other fold-table tests check that path)"
        )
    version, folds, marks = _foldtable.load()
    assert (folds, marks) == computed
    assert _foldtable.render(version, *computed) == _foldtable.DATA.read_text(encoding="ascii")


def test_the_shipped_table_is_data_not_code() -> None:
    """The table is a data file of short lines, and the module that reads it is small."""
    lines = _foldtable.DATA.read_text(encoding="ascii").splitlines()
    assert len(lines) < 1000 and max(len(line) for line in lines) <= 100
    assert len(Path(_foldtable.__file__).read_text(encoding="utf-8").splitlines()) < 200


def test_prefilter_uses_this_pythons_table(computed: Table, fresh_prefilter_table: None) -> None:
    """Whatever the Unicode version, the prefilter's table is this Python's folding."""
    assert _prefilter._fold_table() == computed


def test_prefilter_computes_the_table_for_another_unicode_version(
    computed: Table, fresh_prefilter_table: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the shipped table records another Unicode version, the prefilter computes its own."""
    calls: list[None] = []

    def compute() -> Table:
        """Record the call and return the table computed once for this module."""
        calls.append(None)
        return computed

    _, folds, marks = _foldtable.load()
    monkeypatch.setattr(_foldtable, "load", lambda: ("0.0.0", folds, marks))
    monkeypatch.setattr(_foldtable, "compute", compute)
    assert _prefilter._fold_table() is computed
    assert calls == [None]


def test_computed_table_holds_the_folds_the_prefilter_relies_on(computed: Table) -> None:
    """The computed table maps the tricky characters as NFKC + casefold does, marks included."""
    folds, marks = computed
    assert folds["ß"] == "ss"
    assert folds["ẞ"] == "ss"
    assert folds["İ"] == "i\u0307"
    assert folds["\u212a"] == "k"  # Kelvin sign
    assert folds["\u017f"] == "s"  # long s
    assert folds["ﬁ"] == "fi"
    assert folds["Ａ"] == "a"
    assert folds["．"] == "."
    assert folds["…"] == "..."
    assert "é" not in folds  # precomposed and lowercase already
    assert not any(c.isascii() for c in folds)
    assert not any(0xD800 <= ord(c) < 0xE000 for c in folds)
    assert {"\u0301", "\u0307"} <= marks
    assert "é" not in marks


def test_rendered_table_parses_back(computed: Table) -> None:
    """Rendering a table as the data file and parsing it back gives the same table."""
    assert _foldtable.read(_foldtable.render("9.9.9", *computed)) == ("9.9.9", *computed)


def test_regeneration_command_rewrites_a_stale_table(
    computed: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--check fails on a stale copy of the table; --write makes it this Python's table."""
    monkeypatch.setattr(_foldtable, "compute", lambda: computed)
    shipped = _foldtable.DATA.read_text(encoding="ascii")
    stale = shipped.replace(f"unicode {_shipped_version()}", "unicode 0.0.0", 1)
    stale = stale.replace("folds ", "folds 41:62 ", 1).replace("marks ", "marks 41-41 ", 1)
    copy = tmp_path / "foldtable.txt"
    copy.write_text(stale, encoding="ascii")
    assert _foldtable.read(copy.read_text(encoding="ascii"))[0] == "0.0.0"

    assert _foldtable.main(["--check", "--file", str(copy)]) == 1
    assert _foldtable.main(["--write", "--file", str(copy)]) == 0
    assert _foldtable.main(["--check", "--file", str(copy)]) == 0
    version, folds, marks = _foldtable.read(copy.read_text(encoding="ascii"))
    assert version == unicodedata.unidata_version and (folds, marks) == computed
    if unicodedata.unidata_version == _shipped_version():
        assert copy.read_text(encoding="ascii") == shipped

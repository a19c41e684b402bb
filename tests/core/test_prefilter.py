"""The Chroma-side prefilter never causes a miss, checked through Chroma.

See the README's "Reliability".

Also the fold table it is built from: the shipped data, the table computed at run time on a
Python with another Unicode version, and the command that regenerates the data.
"""

from __future__ import annotations

import importlib.util
import unicodedata
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import chromadb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nowline import _foldtable, _prefilter
from nowline._prefilter import candidate_regex
from nowline.matchers import Matcher

TRICKY = "aAbBsSkKiI/-_. ßẞİıＡａｓ\u212a\u017fﬁﬆ\u0301\u0307éÉ—🚀@:．…1"

Table = tuple[dict[str, str], frozenset[str]]


# ----------------------------------------------------------------------------- fold table


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


def test_shipped_fold_table_matches_unicodedata(computed: Table) -> None:
    """The shipped table equals a fresh computation, when this Python has its Unicode version."""
    if unicodedata.unidata_version != _foldtable.UNIDATA_VERSION:
        pytest.skip(
            f"the shipped table is Unicode {_foldtable.UNIDATA_VERSION} and this Python has "
            f"{unicodedata.unidata_version}, so the prefilter computes its table at run time "
            "(the other fold-table tests check that path)"
        )
    assert _foldtable.load() == computed
    folds_text, marks_text = _foldtable.render(*computed)
    assert (folds_text, marks_text) == (_foldtable._FOLDS, _foldtable._MARKS)


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

    monkeypatch.setattr(_foldtable, "UNIDATA_VERSION", "0.0.0")
    monkeypatch.setattr(_foldtable, "compute", compute)
    monkeypatch.setattr(_foldtable, "load", lambda: pytest.fail("loaded a stale table"))
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
    """Rendering a table as the module's data blocks and parsing it back gives the same table."""
    assert _foldtable._parse(*_foldtable.render(*computed)) == computed


def _load_module(path: Path) -> Any:
    """Import a copy of the fold-table module from ``path``."""
    spec = importlib.util.spec_from_file_location("foldtable_copy", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_regeneration_command_rewrites_a_stale_table(
    computed: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--check fails on a stale copy of the module; --write makes it this Python's table."""
    monkeypatch.setattr(_foldtable, "compute", lambda: computed)
    source = Path(_foldtable.__file__).read_text(encoding="utf-8")
    stale = source.replace(f'"{_foldtable.UNIDATA_VERSION}"', '"0.0.0"', 1)
    stale = stale.replace('_FOLDS = """\\\n', '_FOLDS = """\\\n41:62\n', 1)
    stale = stale.replace('_MARKS = """\n', '_MARKS = """\n41-41 ', 1)
    copy = tmp_path / "_foldtable.py"
    copy.write_text(stale, encoding="utf-8")
    assert _load_module(copy).UNIDATA_VERSION == "0.0.0"

    assert _foldtable.main(["--check", "--file", str(copy)]) == 1
    assert _foldtable.main(["--write", "--file", str(copy)]) == 0
    assert _foldtable.main(["--check", "--file", str(copy)]) == 0
    module = _load_module(copy)
    version = module.UNIDATA_VERSION
    assert version == unicodedata.unidata_version
    assert module.load() == computed
    if unicodedata.unidata_version == _foldtable.UNIDATA_VERSION:
        assert copy.read_text(encoding="utf-8") == source


# ---------------------------------------------------------------------------- the prefilter


def _assert_regex_keeps_every_match(phrase: str, docs: list[str]) -> set[str]:
    """Assert that Chroma's regex returns every doc the matcher finds ``phrase`` in; return them."""
    client = chromadb.EphemeralClient()
    col = client.get_or_create_collection("prefilter", embedding_function=None)
    try:
        ids = [f"d{i}" for i in range(len(docs))]
        embeddings: list[Sequence[float]] = [[1.0, 0.0]] * len(docs)
        col.add(ids=ids, documents=docs, embeddings=embeddings)
        got = set(col.get(where_document={"$regex": candidate_regex([phrase])}, include=[])["ids"])
        matcher = Matcher([(phrase, "p")])
        expected = {i for i, d in zip(ids, docs, strict=True) if matcher.keys(d)}
        assert expected <= got, (phrase, [docs[int(i[1:])] for i in expected - got])
        return expected
    finally:
        client.delete_collection("prefilter")


_PREFILTER_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@_PREFILTER_SETTINGS
@given(
    phrase=st.text(alphabet=TRICKY, min_size=1, max_size=5).filter(
        lambda s: any(c.isalnum() for c in s)
    ),
    docs=st.lists(st.text(alphabet=TRICKY, max_size=12), min_size=1, max_size=8),
)
def test_regex_prefilter_keeps_every_match(phrase: str, docs: list[str]) -> None:
    """Every document in which the matcher finds the phrase is returned by the Chroma regex."""
    _assert_regex_keeps_every_match(phrase, docs)


# Other spellings of a character that fold alike: case, full width, the Kelvin sign, long s.
_FULL_WIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}
_LOOKALIKE = {"k": "\u212a", "s": "\u017f", "i": "İ"}
# What goes around a phrase in a document: often what continues a dotted name (".x", ".3").
_AROUND = st.lists(
    st.sampled_from(["", " ", ".", ".x", ".3", "．b", "-", "a", "/", "@", "…", ")", "é", "ß"]),
    max_size=3,
).map("".join)
_DOTTED_PHRASE = st.tuples(
    st.sampled_from(["", "", "x@", "v"]),
    st.lists(st.text(alphabet="abkKsSıİ019_-ü", min_size=1, max_size=3), min_size=2, max_size=3),
    st.sampled_from(["", "", "."]),
).map(lambda t: t[0] + ".".join(t[1]) + t[2])


def _spellings(c: str) -> list[str]:
    """Return spellings of ``c`` that may fold like it does."""
    return sorted({c, c.upper(), c.lower(), _FULL_WIDTH.get(c, c), _LOOKALIKE.get(c.lower(), c)})


@st.composite
def _phrase_and_docs(draw: st.DrawFn) -> tuple[str, list[str]]:
    """Draw a phrase (often a dotted name) and documents holding respellings of it."""
    phrase = draw(
        st.one_of(
            _DOTTED_PHRASE,
            st.text(alphabet=TRICKY, min_size=1, max_size=5).filter(
                lambda s: any(c.isalnum() for c in s)
            ),
        )
    )
    docs = [phrase]
    for _ in range(draw(st.integers(1, 6))):
        respelled = "".join(draw(st.sampled_from(_spellings(c))) for c in phrase)
        docs.append(draw(_AROUND) + respelled + draw(_AROUND))
    return phrase, docs


@_PREFILTER_SETTINGS
@given(case=_phrase_and_docs())
def test_regex_prefilter_keeps_every_respelled_match(case: tuple[str, list[str]]) -> None:
    """Documents holding a respelled phrase, dotted names included, all pass the Chroma regex."""
    phrase, docs = case
    assert "d0" in _assert_regex_keeps_every_match(phrase, docs)  # the phrase occurs in itself


@pytest.mark.parametrize(
    ("phrase", "docs"),
    [
        ("billing@oldco.example", ["billing@oldco.example.net", "to billing@oldco.example."]),
        ("dara@corp.example", ["dara@corp.example.org", "DARA@CORP.EXAMPLE"]),
        ("v1.2", ["v1.2.3", "upgrade from v1.2.", "v1.2, v1.3", "Ｖ１．２．３", "V1.2"]),
        ("oldco.example", ["mail.oldco.example", "oldco.example.net"]),
        ("metalcraftai/ufo", ["github.com/metalcraftai/ufo.git", "We moved metalcraftai/ufo."]),
    ],
)
def test_regex_prefilter_keeps_dotted_design_examples(phrase: str, docs: list[str]) -> None:
    """Dotted names (the README's "Matching"): the regex keeps every document one occurs in."""
    expected = _assert_regex_keeps_every_match(phrase, docs)
    assert expected  # each phrase occurs in at least one of its documents


def test_regex_prefilter_is_selective() -> None:
    """For an ASCII phrase the class does not include ordinary accented letters or dashes."""
    regex = candidate_regex(["metalcraftai/ufo"])
    assert "metalcraftai" in regex
    assert "\\x{E9}" not in regex and "\\x{2014}" not in regex  # é and the em dash
    assert "\\x{FF4D}" in regex  # full-width m


def test_non_ascii_phrase_uses_an_ascii_anchor() -> None:
    """A phrase with a dash or accent is anchored on its longest ASCII run, not on the dash."""
    regex = candidate_regex(["…world cup? — 1990"])
    assert regex.startswith("(?i)(?:world|") and "\\x{2014}" not in regex
    assert "\\x{6771}" in candidate_regex(["東京"])  # no ASCII anchor: its own characters

"""The Chroma-side prefilter never causes a miss, checked through Chroma.

See the README's "Reliability".

Also the fold table it is built from: the shipped data, the table computed at run time on a
Python with another Unicode version, and the command that regenerates the data.
"""

from __future__ import annotations

from collections.abc import Sequence

import chromadb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nowline._rules.prefilter import candidate_regex
from nowline.matchers import Matcher

TRICKY = "aAbBsSkKiI/-_. ßẞİıＡａｓ\u212a\u017fﬁﬆ\u0301\u0307éÉ—🚀@:．…1"

Table = tuple[dict[str, str], frozenset[str]]


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

"""The Chroma-side prefilter never causes a miss (DESIGN.md §10), checked through Chroma."""

from __future__ import annotations

import os
import unicodedata

import chromadb
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nowline import _foldtable
from nowline._prefilter import candidate_regex
from nowline.matchers import Matcher

TRICKY = "aAbBsSkKiI/-_. ßẞİıＡａｓ\u212a\u017fﬁﬆ\u0301\u0307éÉ—🚀"


def test_shipped_fold_table_matches_unicodedata() -> None:
    """The shipped table equals a fresh computation for this Python's Unicode version."""
    if unicodedata.unidata_version != _foldtable.UNIDATA_VERSION:
        assert os.environ.get("CI") is None, "regenerate plugin/_foldtable.py"
        return
    assert _foldtable.load() == _foldtable.compute()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    phrase=st.text(alphabet=TRICKY, min_size=1, max_size=5).filter(
        lambda s: any(c.isalnum() for c in s)
    ),
    docs=st.lists(st.text(alphabet=TRICKY, max_size=12), min_size=1, max_size=8),
)
def test_regex_prefilter_keeps_every_match(store_path: str, phrase: str, docs: list[str]) -> None:
    """Every document in which the matcher finds the phrase is returned by the Chroma regex."""
    client = chromadb.EphemeralClient()
    col = client.get_or_create_collection("prefilter", embedding_function=None)
    try:
        ids = [f"d{i}" for i in range(len(docs))]
        col.add(ids=ids, documents=docs, embeddings=[[1.0, 0.0]] * len(docs))
        got = set(col.get(where_document={"$regex": candidate_regex([phrase])}, include=[])["ids"])
        matcher = Matcher([(phrase, "p")])
        expected = {i for i, d in zip(ids, docs, strict=True) if matcher.keys(d)}
        assert expected <= got
    finally:
        client.delete_collection("prefilter")


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

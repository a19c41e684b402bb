"""Reusable invariants: each checks one property of a store and fails with a readable diff.

In the style of chroma's ``test/property/invariants.py``: the tests call these after every
step that should preserve them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

import nowline
from tests.reliability.reference import (
    Record,
    all_records,
    expected_links,
    expected_states,
    recall_states,
    stored_links,
)

__all__ = [
    "links_match_reference",
    "recall_matches_reference",
    "same_user_data",
    "store_is_healthy",
    "unreachable",
    "user_view",
]


def _diff(got: dict[str, Any], want: dict[str, Any]) -> str:
    """Return the entries where two {id: value} maps differ, one per line."""
    return "\n".join(
        f"  {k}: got {got.get(k, '<absent>')!r}, want {want.get(k, '<absent>')!r}"
        for k in sorted(set(got) | set(want))
        if got.get(k, "<absent>") != want.get(k, "<absent>")
    )


def links_match_reference(
    collection: Any, scope_key: str | None = None, ignore: Iterable[str] = ()
) -> list[Record]:
    """Assert that every record's stored nowline_by and nowline_role equal the reference's.

    Records in ``ignore`` (written around nowline, so their links lag until repair) are
    left out of the comparison, though they still count as records for the reference.
    """
    records = all_records(collection)
    skip = set(ignore)
    got = {k: v for k, v in stored_links(records).items() if k not in skip}
    want = {k: v for k, v in expected_links(records, scope_key).items() if k not in skip}
    assert got == want, "stored links differ from the reference:\n" + _diff(got, want)
    return records


def unreachable(raw: Any, rid: str) -> bool:
    """Return whether Chroma's own index cannot return a record, even filtered to its id.

    chromadb 1.5.9's HNSW index can lose live records after other records' embeddings are
    updated (chroma-core/chroma#7758); nowline cannot recall what Chroma cannot return.
    """
    emb = raw.get(ids=[rid], include=["embeddings"])["embeddings"]
    res = raw.query(query_embeddings=[emb[0]], ids=[rid], n_results=1, include=[])
    return not res["ids"][0]


def recall_matches_reference(
    collection: Any, scope_key: str | None = None, as_of: Any = None
) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Assert that recall() of every record shows the reference's roles and correction lines.

    Compares each hit's role, direct corrections and now-line corrections; returns
    ``{id: (role, now-line ids)}``.

    A record that recall() leaves out must be one Chroma itself cannot return (see
    :func:`unreachable`); with ``as_of`` (no per-id fallback) at most a tenth may be missing.
    """
    records = all_records(collection)
    cutoff = None
    if as_of is not None:
        cutoff = nowline.to_epoch(as_of)
    got = recall_states(collection, as_of=as_of)
    want = expected_states(records, scope_key, cutoff)
    assert set(got) <= set(want), f"recalled records that must not be: {set(got) - set(want)}"
    missing = sorted(set(want) - set(got))
    if as_of is not None:
        assert len(missing) <= 0.1 * len(want), f"recall(as_of=...) left out {missing}"
    else:
        reachable = [rid for rid in missing if not unreachable(collection.raw, rid)]
        assert not reachable, f"recall() left out records Chroma can return: {reachable}"
    want = {k: v for k, v in want.items() if k in got}
    assert got == want, "recall differs from the reference:\n" + _diff(got, want)
    # The direct corrections are checked above; callers spell out role and now-lines.
    return {rid: (role, now) for rid, (role, _, now) in got.items()}


def user_view(records: list[Record]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Return {id: (document, metadata without nowline_ keys)}: what the user wrote."""
    return {
        r.id: (r.document, {k: v for k, v in r.metadata.items() if not k.startswith("nowline_")})
        for r in records
    }


def same_user_data(a: list[Record], b: list[Record]) -> None:
    """Assert that two stores hold the same ids, documents and user metadata."""
    va, vb = user_view(a), user_view(b)
    assert va == vb, "stores differ:\n" + _diff(va, vb)


def store_is_healthy(raw: Any, sample: int = 25, index_losses: int = 0) -> list[str]:
    """Assert the health checks of the README's "Reliability" on a raw collection; return ids.

    The count equals the number of ids and no id repeats; every embedding is readable and
    finite; querying with stored vectors finds their own records. ``index_losses`` allows that
    many sampled records that Chroma's own index has lost (chroma-core/chroma#7758: after
    deletes and updates, a live record that ``get`` returns is found by no query, even one
    filtered to its id; see :func:`unreachable`). Any other miss fails.
    """
    got = raw.get(include=["embeddings"])
    ids = list(got["ids"])
    assert raw.count() == len(ids) == len(set(ids))
    if not ids:
        return ids
    vectors = np.asarray(got["embeddings"])
    assert vectors.shape[0] == len(ids) and np.isfinite(vectors).all()
    picks = list(range(0, len(ids), max(1, len(ids) // sample)))[:sample]
    res = raw.query(query_embeddings=vectors[picks], n_results=1, include=["distances"])
    lost = []
    for i, row_ids, row_d in zip(picks, res["ids"], res["distances"], strict=True):
        # Duplicate vectors may return a twin; the distance must still be ~0.
        if row_ids and (row_ids[0] == ids[i] or row_d[0] < 1e-5):
            continue
        assert unreachable(raw, ids[i]), (ids[i], row_ids)  # reachable, yet not found: a fault
        lost.append(ids[i])
    assert len(lost) <= index_losses, f"Chroma's index lost {lost}"
    return ids

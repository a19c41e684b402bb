"""Deliveries replayed, reordered, and chains that return to their start: a consistent store.

Each scenario is posted through a real receiver; the store is then checked two ways: what a
recalled memory shows (its direct corrections and the newest of their chains), and that
``repair()`` finds nothing to change (every stored link is the one the rules give).
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

import nowline
from tests.conftest import FakeEmbedding
from tests.serve.conftest import archived, post_github, renamed, serve, transferred

T1, T2, T3 = "2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z", "2026-03-03T10:00:00Z"


def shows(col: nowline.Collection, rid: str) -> tuple[str, list[str], list[str]]:
    """Return a record's role and the deprecated strings of its direct and newest corrections."""
    (hit,) = col.hits([rid])
    return hit.role, [c.deprecates[0] for c in hit.direct], [c.deprecates[0] for c in hit.now]


def consistent(col: nowline.Collection) -> None:
    """Assert that every stored link is what the rules give (repair changes nothing)."""
    report = col.repair()
    assert (report.updated, report.links_added, report.links_removed) == (0, 0, 0)


def deliver(http: httpx.Client, deliveries: list[tuple[str, dict[str, Any]]]) -> list[int]:
    """POST each (delivery id, payload) as a repository event; return the status codes."""
    return [post_github(http, "repository", p, delivery=d).status_code for d, p in deliveries]


def fresh(client: nowline.Client, name: str, memories: dict[str, str]) -> nowline.Collection:
    """Return a new collection of ``client`` holding ``memories``."""
    col = client.create_collection(name, embedding_function=FakeEmbedding())
    for rid, text in memories.items():
        col.remember(text, id=rid, observed_at="2026-01-01")
    return col


CHAIN = {"a": "acme/a ships on Fridays.", "b": "acme/b release notes.", "c": "acme/c is live."}


def test_replayed_deliveries_change_nothing(client: nowline.Client) -> None:
    """Replaying every delivery, in any order, answers 200 and leaves the store as it was."""
    col = fresh(client, "replayed", CHAIN)
    deliveries = [
        ("d1", renamed("a", "acme/b", updated_at=T1)),
        ("d2", renamed("b", "acme/c", updated_at=T2)),
    ]
    with serve(col) as http:
        assert deliver(http, deliveries) == [201, 201]
        before = col.raw.get(include=["metadatas", "documents"])
        replays = deliveries * 3
        random.Random(7).shuffle(replays)
        assert deliver(http, replays) == [200] * 6
    assert col.raw.get(include=["metadatas", "documents"]) == before
    consistent(col)


@pytest.mark.parametrize("order", [[0, 1, 2], [2, 1, 0], [1, 2, 0]])
def test_reordered_deliveries_give_the_same_store(client: nowline.Client, order: list[int]) -> None:
    """A->B, B->C, then C archived, delivered in any order: the event times decide the chain."""
    col = fresh(client, f"order{''.join(map(str, order))}", CHAIN)
    deliveries = [
        ("d1", renamed("a", "acme/b", updated_at=T1)),
        ("d2", renamed("b", "acme/c", updated_at=T2)),
        ("d3", archived("acme/c", updated_at=T3)),
    ]
    with serve(col) as http:
        assert deliver(http, [deliveries[i] for i in order]) == [201] * 3
    assert shows(col, "a") == ("historical", ["acme/a"], ["acme/c"])
    assert shows(col, "b") == ("historical", ["acme/b"], ["acme/c"])
    assert shows(col, "c") == ("historical", ["acme/c"], ["acme/c"])
    consistent(col)


def test_a_rename_back_to_the_old_name_ends_on_the_start(client: nowline.Client) -> None:
    """acme/a -> acme/b -> acme/a: acme/a is current again, and acme/b's memory shows the way back.

    The rename back holds acme/a as its new value, so the first rename no longer reaches the
    memories of acme/a through that name (a rename back revives the old name).
    """
    col = fresh(client, "back", {"a": CHAIN["a"], "b": CHAIN["b"]})
    with serve(col) as http:
        codes = deliver(
            http,
            [
                ("d1", renamed("a", "acme/b", updated_at=T1)),
                ("d2", renamed("b", "acme/a", updated_at=T2)),
            ],
        )
    assert codes == [201, 201]
    back = "GitHub repository acme/b was renamed to acme/a on 2026-03-02; use acme/a."
    (revived,) = col.hits(["a"])
    assert (revived.role, revived.now) == ("current", [])
    (moved,) = col.hits(["b"])
    assert [c.document for c in moved.now] == [back]
    assert col.check("git clone https://github.com/acme/a.git") == []
    roles = {c.deprecates[0]: col.hits([c.id])[0].role for c in col.corrections()}
    assert roles == {"acme/a": "historical", "acme/b": "transition"}  # no cycle
    consistent(col)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("transfer_first", [False, True])
def test_a_transfer_and_a_rename_of_one_repository_in_either_order(
    client: nowline.Client, transfer_first: bool, reverse: bool
) -> None:
    """metalcraftai/ufo ends as ufo-ai/core whichever happened first and however delivered."""
    memories = {"old": "metalcraftai/ufo — PR #1705 passed review.", "mid": "Mirror of the repo."}
    if transfer_first:  # metalcraftai/ufo -> ufo-ai/ufo -> ufo-ai/core
        mid = "ufo-ai/ufo"
        steps = [
            ("t", transferred("metalcraftai", "ufo-ai/ufo", org=True, updated_at=T1)),
            ("r", renamed("ufo", "ufo-ai/core", updated_at=T2)),
        ]
    else:  # metalcraftai/ufo -> metalcraftai/core -> ufo-ai/core
        mid = "metalcraftai/core"
        steps = [
            ("r", renamed("ufo", "metalcraftai/core", updated_at=T1)),
            ("t", transferred("metalcraftai", "ufo-ai/core", updated_at=T2)),
        ]
    memories["mid"] = f"{mid} nightly build is green."
    col = fresh(client, f"tr{int(transfer_first)}{int(reverse)}", memories)
    with serve(col) as http:
        assert deliver(http, steps[::-1] if reverse else steps) == [201, 201]
    for rid, direct in (("old", "metalcraftai/ufo"), ("mid", mid)):
        (hit,) = col.hits([rid])
        assert hit.role == "historical" and hit.direct[0].deprecates == [direct]
        (newest,) = hit.now
        assert newest.document.endswith("use ufo-ai/core."), newest.document
    consistent(col)

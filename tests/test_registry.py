"""Chain resolution and linking rules of the correction registry.

See the README's "Linking" and "What a stale hit shows".
"""

from __future__ import annotations

from nowline._records import CorrectionInfo, scope_token
from nowline._registry import Registry


def _c(
    cid: str,
    doc: str,
    deprecates: list[str],
    t: float,
    scope: object = None,
    about: tuple[str, ...] = (),
) -> CorrectionInfo:
    """Return a correction info."""
    return CorrectionInfo(cid, doc, tuple(deprecates), about, t, t, scope)


def test_chain_resolves_to_newest_leaf() -> None:
    """A link to C1 resolves through C2 to C3 when each names the previous one's string."""
    reg = Registry(
        [
            _c("c1", "a moved to b", ["a"], 1),
            _c("c2", "b moved to c", ["b"], 2),
            _c("c3", "c moved to d", ["c"], 3),
        ]
    )
    assert reg.newest("c1") == "c3"
    assert reg.newest("c1", as_of=2.5) == "c2"
    assert reg.newest("c3") == "c3"


def test_branching_chain_takes_newest_by_time() -> None:
    """Two successors of one correction resolve to the newer one."""
    reg = Registry(
        [
            _c("c1", "x and y moved", ["x"], 1),
            _c("c2", "y is now z... per x and y", ["y"], 5),
            _c("c3", "x and y: see w", ["y"], 3),
        ]
    )
    assert reg.newest("c1") == "c2"


def test_older_correction_never_supersedes_newer_one() -> None:
    """A correction's strings never make a newer correction historical (no cycles)."""
    reg = Registry([_c("old", "b replaced a", ["a"], 1), _c("new", "a replaced b", ["b"], 2)])
    assert reg.links("a replaced b", record_id="new", scope=None, order=(2, 2, "new")) == set()
    assert reg.links("b replaced a", record_id="old", scope=None, order=(1, 1, "old")) == {"new"}
    assert reg.newest("old") == "new" and reg.newest("new") == "new"


def test_dangling_ids_resolve_to_themselves() -> None:
    """An id the registry does not know resolves to itself instead of failing."""
    assert Registry().newest("ghost") == "ghost"


def test_retracted_corrections_do_not_link() -> None:
    """A retracted correction neither links records nor takes part in chains."""
    reg = Registry([_c("c1", "a to b", ["a"], 1), _c("c2", "b to c", ["b"], 2)])
    reg.retract("c2", 10)
    assert reg.links("x b y", record_id="r", scope=None, order=None) == set()
    assert reg.newest("c1") == "c1"
    assert not reg.is_active("c2")


def test_scope_tokens_compare_type_and_value() -> None:
    """Scope values of different types never share a scope; missing keys form their own."""
    assert scope_token({"u": 1}, "u") != scope_token({"u": True}, "u")
    assert scope_token({"u": "1"}, "u") != scope_token({"u": 1}, "u")
    assert scope_token({}, "u") == scope_token(None, "u") != scope_token({"u": "a"}, "u")
    assert scope_token({"u": "a"}, None) == scope_token({}, None)


def test_links_respect_scope_and_as_of() -> None:
    """Links come only from corrections in the same scope and not after as_of."""
    reg = Registry([_c("c", "moved a", ["a"], 5, scope=("str", "alice"))])
    assert reg.links("a", record_id="r", scope=("str", "alice"), order=None) == {"c"}
    assert reg.links("a", record_id="r", scope=("str", "bob"), order=None) == set()
    assert reg.links("a", record_id="r", scope=("str", "alice"), order=None, as_of=4) == set()

"""Chain resolution and linking rules of the correction registry.

See the README's "Linking" and "What a stale hit shows".
"""

from __future__ import annotations

import os
import tempfile
import types

from hypothesis import given, settings
from hypothesis import strategies as st

from nowline._io import snapshot as _snapshot
from nowline._rules.assembly import trips_of
from nowline._rules.records import CorrectionInfo, Scoped, scope_token
from nowline._rules.registry import Registry, closure, narrowed


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
    assert (
        set(reg.direct("a replaced b", record_id="new", scope=Scoped(None), order=(2, 2, "new")))
        == set()
    )
    assert set(
        reg.direct("b replaced a", record_id="old", scope=Scoped(None), order=(1, 1, "old"))
    ) == {"new"}
    assert reg.newest("old") == "new" and reg.newest("new") == "new"


def test_dangling_ids_resolve_to_themselves() -> None:
    """An id the registry does not know resolves to itself instead of failing."""
    assert Registry().newest("ghost") == "ghost"


def test_retracted_corrections_do_not_link() -> None:
    """A retracted correction neither links records nor takes part in chains."""
    reg = Registry([_c("c1", "a to b", ["a"], 1), _c("c2", "b to c", ["b"], 2)])
    reg.retract("c2", 10)
    assert set(reg.direct("x b y", record_id="r", scope=Scoped(None), order=None)) == set()
    assert reg.newest("c1") == "c1"
    assert not reg.is_active("c2")


def test_scope_tokens_compare_type_and_value() -> None:
    """Scope values of different types never share a scope; missing keys form their own."""
    assert scope_token({"u": 1}, "u") != scope_token({"u": True}, "u")
    assert scope_token({"u": "1"}, "u") != scope_token({"u": 1}, "u")
    assert scope_token({}, "u") == scope_token(None, "u") != scope_token({"u": "a"}, "u")


def test_links_respect_scope_and_as_of() -> None:
    """Links come only from corrections in the same scope and not after as_of."""
    reg = Registry([_c("c", "moved a", ["a"], 5, scope=("u", ("str", "alice")))])
    alice, bob = Scoped({"u": "alice"}), Scoped({"u": "bob"})
    assert set(reg.direct("a", record_id="r", scope=alice, order=None)) == {"c"}
    assert set(reg.direct("a", record_id="r", scope=bob, order=None)) == set()
    assert set(reg.direct("a", record_id="r", scope=alice, order=None, as_of=4)) == set()


# ------------------------------------------------------------ automata built in another thread

_TEXTS = [f"deploy org{i}/repo{i} and the {i} notes of team{i}" for i in range(0, 60, 3)]


def _all_links(reg: Registry) -> list[set[str]]:
    """Return the links of every probe text (a plain record of the default scope)."""
    return [set(reg.direct(t, record_id="m", scope=Scoped(None), order=None)) for t in _TEXTS]


def _many() -> list[CorrectionInfo]:
    """Return 60 corrections, each deprecating one slug; every fifth has an anchor."""
    return [
        _c(
            f"c{i}",
            f"org{i}/repo{i} moved",
            [f"org{i}/repo{i}"],
            i,
            scope=None,
            about=(f"team{i}",) if i % 5 == 0 else (),
        )
        for i in range(60)
    ]


def test_a_build_job_made_before_changes_is_brought_up_to_date() -> None:
    """Changes made while the job ran (or before it ran) are in the automata the scan uses."""
    import threading

    reg = Registry(_many())
    job = reg.build_job()
    assert job is not None and reg.build_job() is None  # one job at a time
    thread = threading.Thread(target=job)
    thread.start()
    reg.put(_c("c99", "org3/repo3 moved again", ["org3/repo3"], 99, scope=None))
    reg.retract("c6", 100.0)
    reg.drop("c9")
    reg.put(_c("c12", "org12/repo12 is now org13/repo13", ["org13/repo13"], 12, None))
    thread.join()
    oracle = Registry(reg.infos())
    assert _all_links(reg) == _all_links(oracle)
    assert _all_links(reg)[1] == {"c3", "c99"}  # org3/repo3
    assert _all_links(reg)[2] == set()  # c6 retracted
    assert _all_links(reg)[3] == set()  # c9 dropped
    assert _all_links(reg)[4] == set()  # c12 now deprecates org13/repo13 only


def test_a_failed_or_forked_build_job_leaves_the_build_to_the_first_scan() -> None:
    """A job that raised, or one copied into a forked child without its thread, is not waited on."""
    reg = Registry(_many())
    job = reg.build_job()
    assert job is not None
    job.pid = -1  # type: ignore[attr-defined]  # as in a forked child: the job never runs there
    assert _all_links(reg) == _all_links(Registry(_many()))

    broken = Registry(_many())
    job = broken.build_job()
    assert job is not None
    job.active = None  # type: ignore[attr-defined]  # its build raises
    job()  # fails quietly: the first scan builds in its own thread
    assert _all_links(broken) == _all_links(Registry(_many()))


def _slug(i: int) -> CorrectionInfo:
    """Return a correction of the slug ``w<i>`` with time ``i``."""
    return _c(f"c{i}", f"w{i} moved", [f"w{i}"], i)


def _put_while_scanning(reg: Registry, count: int, text: str) -> list[BaseException]:
    """Put ``count`` slugs in one thread while two threads scan ``text``; return their errors."""
    import threading

    errors: list[BaseException] = []
    done = threading.Event()

    def write() -> None:
        for i in range(count):
            reg.put(_slug(i))
        done.set()

    def scan() -> None:
        try:
            while not done.is_set():
                reg.direct(text, record_id="m", scope=Scoped(None), order=None)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write), *(threading.Thread(target=scan) for _ in "ab")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_corrections_put_while_other_threads_scan_are_all_found() -> None:
    """A writer's puts racing two scanning threads all end up in the automata, with no error.

    Without the registry's lock a scan that rebuilds the matcher while a put adds to it marks
    the matcher built after the put, so later scans miss that put's strings (mutant 11 of
    tests/reliability/test_state_machine_mutants.py, which the state machine rarely shows).
    Without the lock, 8 trials of this failed in the first or second round; ten rounds keep
    the test short.
    """
    import sys

    count, text = 400, " ".join(f"w{i}" for i in range(400))
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        for _ in range(10):
            reg = Registry([_slug(i) for i in range(2000, 2200)])
            assert _put_while_scanning(reg, count, text) == []
            found = set(reg.direct(text, record_id="m", scope=Scoped(None), order=None))
            assert found == {f"c{i}" for i in range(count)}
    finally:
        sys.setswitchinterval(interval)


# ------------------------------------------------------------------- narrowed registries

_WORDS = ["acme/app", "app", "Straße", "STRASSE", "v1.2", "ﬁle", "x-y", "a_b", "ÅB", "q.r", "->"]
_WORDS += ["github.com/acme/app", "https://GitHub.com/acme/app.git", "gitlab.com/acme/app"]
"""The strings, and one value in other spellings: a host before it, a scheme, another host."""
_GLUE = [" ", "/", ".", "-", "", ", ", "\n", "_"]


@st.composite
def _corrections(draw: st.DrawFn) -> list[CorrectionInfo]:
    """Return a few corrections over a small alphabet of strings, with chains and revivals."""
    out = []
    for i in range(draw(st.integers(1, 6))):
        deprecates = draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=2, unique=True))
        words = draw(st.lists(st.sampled_from(_WORDS), max_size=3))
        doc = " ".join(["moved", *words])
        new = tuple(draw(st.lists(st.sampled_from(_WORDS), max_size=1)))
        about = tuple(draw(st.lists(st.sampled_from(_WORDS), max_size=1)))
        retracted = draw(st.sampled_from([None, None, 9.0]))
        out.append(
            CorrectionInfo(
                f"c{i}",
                doc,
                tuple(deprecates),
                about,
                float(i),
                float(i),
                None,
                retracted,
                replaced_by=new,
            )
        )
    return out


def _info(cid: str, deprecates: str, new: str, when: float, doc: str = "") -> CorrectionInfo:
    """Return an active global correction from ``deprecates`` to ``new`` at time ``when``."""
    doc = doc or f"moved from {deprecates} to {new}"
    return CorrectionInfo(cid, doc, (deprecates,), (), when, when, None, None, replaced_by=(new,))


def test_a_narrowed_registry_finds_a_change_back_written_in_another_spelling() -> None:
    """The hook's narrowed registry looks a string's revivers up in every spelling.

    ``https://github.com/acme/app`` → ``x-y`` (given as ``replaced_by``, the text names only
    the old value), then ``x-y`` → ``acme/app``: the URL is current again. The narrowed
    registry once looked the revivers up by the string as written, left the second
    correction out, and tripped on the current repository.
    """
    infos = [
        _info("c0", "https://github.com/acme/app", "x-y", 0.0, "https://github.com/acme/app moved"),
        _info("c1", "x-y", "acme/app", 1.0),
    ]
    text = "git clone https://github.com/acme/app"
    assert trips_of(Registry(infos), text, Scoped(None)) == []
    assert trips_of(narrowed(infos, text), text, Scoped(None)) == []


def test_a_move_to_another_host_is_not_a_change_back() -> None:
    """A path under one host is not the same value under another (§6, "in any spelling").

    ``gitlab.com/acme/app`` → ``github.com/acme/app`` → ``codeberg.org/acme/app``: the last
    step deprecates what the first made new, but holds another host's URL, so the first
    host's URL stays outdated. With hosts dropped, it was revived, and a clone of it passed.
    """
    infos = [
        _info("c0", "gitlab.com/acme/app", "github.com/acme/app", 0.0),
        _info("c1", "github.com/acme/app", "codeberg.org/acme/app", 1.0),
    ]
    registry = Registry(infos)
    text = "git clone https://gitlab.com/acme/app"
    assert [t.correction.id for t in trips_of(registry, text, Scoped(None))] == ["c0"]
    assert not registry.revived(infos[0], "gitlab.com/acme/app")
    # but c0's hits written as the bare path (acme/app) are current again, as codeberg's:
    # c1 is among the corrections whose write relinks c0's records
    assert trips_of(registry, "deploy acme/app", Scoped(None)) == []
    assert registry.revived_by(infos[1]) == ["c0"]
    # the same path with no host on one side is the same value: a change back revives
    back = _info("c2", "codeberg.org/acme/app", "acme/app", 2.0)
    registry = Registry([*infos, back])
    assert registry.revived(infos[0], "gitlab.com/acme/app")
    assert trips_of(registry, text, Scoped(None)) == []


@given(
    _corrections(),
    st.lists(st.tuples(st.sampled_from(_GLUE), st.sampled_from(_WORDS)), max_size=5),
)
@settings(max_examples=300, deadline=None)
def test_a_narrowed_registry_trips_exactly_as_the_full_one(
    infos: list[CorrectionInfo], parts: list[tuple[str, str]]
) -> None:
    """``narrowed`` keeps every correction a text's trips, chains and revivals depend on.

    So does the snapshot's index that ``nowline hook`` reads (on disk, in SQLite).
    """
    text = "".join(glue + word for glue, word in parts)
    full = trips_of(Registry(infos), text, Scoped(None))
    assert trips_of(narrowed(infos, text), text, Scoped(None)) == full
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "nowline", "c0ffee.snapshot.sqlite")
        fresh = types.SimpleNamespace(
            mark="m1:done", listed_wall=1.0, listing_estimate=lambda: 0.1, applied=None
        )
        _snapshot.write(path, _snapshot.state_of(Registry(infos), fresh))
        index = _snapshot.open_index(path)
        assert index is not None and index.mark == "m1:done"
        try:
            assert trips_of(closure(index, text), text, Scoped(None)) == full
        finally:
            index.close()


@given(
    _corrections(),
    st.lists(st.tuples(st.sampled_from(_GLUE), st.sampled_from(_WORDS)), max_size=5),
    st.sampled_from([None, 2.5]),
    _corrections(),
    st.lists(st.tuples(st.sampled_from(["put", "drop", "retract"]), st.integers(0, 7))),
)
@settings(max_examples=200, deadline=None)
def test_a_deferred_registry_reads_exactly_as_the_full_one(
    infos: list[CorrectionInfo],
    parts: list[tuple[str, str]],
    as_of: float | None,
    others: list[CorrectionInfo],
    changes: list[tuple[str, int]],
) -> None:
    """A registry deferred to a snapshot answers every read as the whole registry does.

    Records (a memory with the text, and each correction as a record of its own), in the
    order a process meets them: their verdicts, the corrections beneath them, the lines of a
    check, with and without ``as_of``. Then both take in the same changes (new and edited
    corrections, drops, retractions: a catch-up or a write), which the deferred one notes
    without reading everything, and still answer alike; then it reads everything.
    """
    from nowline._rules import records as R
    from nowline._rules.assembly import hit_of, read_state, with_not_covered

    text = "".join(glue + word for glue, word in parts)
    records = [R.Record("m", text, {})] + [
        R.Record(i.id, i.document, {R.DEPRECATES: list(i.deprecates), R.CORRECTION: True})
        for i in infos
    ]

    def reads(registry: Registry) -> list[object]:
        out: list[object] = []
        for when in dict.fromkeys([as_of, None]):
            out.append(trips_of(registry, text, Scoped(None), when))
            hits = []
            for record in records:
                state = read_state(record, registry, None, when)
                hits.append(hit_of(record, None, state, registry))
                out.append(with_not_covered(hits[-1:], registry))
            out.append(with_not_covered(hits, registry))  # siblings labelled across hits
        return out

    full = reads(Registry(infos))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "nowline", "c0ffee.snapshot.sqlite")
        fresh = types.SimpleNamespace(
            mark="m1:done", listed_wall=1.0, listing_estimate=lambda: 0.1, applied=None
        )
        _snapshot.write(path, _snapshot.state_of(Registry(infos), fresh))
        index = _snapshot.open_index(path)
        assert index is not None
        deferred = Registry()
        deferred.defer(index)
        assert reads(deferred) == full
        assert deferred.deferred  # nothing here needed every correction
        whole = Registry(infos)
        for verb, n in changes:
            for registry in (whole, deferred):
                if verb == "put" and n < len(others):
                    # a new correction, or (same id) an edit of one, ordered after the rest
                    registry.put(others[n]._replace(time=10.0 + n, written=10.0 + n))
                elif verb == "drop":
                    registry.drop(f"c{n}")
                elif verb == "retract":
                    registry.retract(f"c{n}", 9.5)
        records += [R.Record(i.id, i.document, {R.DEPRECATES: list(i.deprecates)}) for i in others]
        full = reads(whole)
        assert reads(deferred) == full and deferred.deferred
        assert len(deferred) == len(whole) and deferred.deferred
        assert deferred.infos() == whole.infos()
        assert not deferred.deferred and reads(deferred) == full


def test_a_narrowed_registry_leaves_out_what_cannot_occur() -> None:
    """Only the corrections whose strings can occur, and what their lines need, are kept."""
    infos = [
        _c("c1", "acme/app moved to acme/web", ["acme/app"], 1),
        _c("c2", "acme/web moved to acme/site", ["acme/web"], 2),
        _c("c3", "other/thing is gone", ["other/thing"], 3),
    ]
    assert set(narrowed(infos, "git clone acme/app").held()) == {"c1", "c2"}
    assert set(narrowed(infos, "nothing here").held()) == set()

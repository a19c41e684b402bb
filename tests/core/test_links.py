"""Write-time linking (``nowline._rules.links``): plans, reach, stored links and repair, from data.

The functions are pure: records and a registry in, a plan or metadata patches out. Each test
builds the records as Chroma would hold them and checks what the write path would store.
"""

from __future__ import annotations

from typing import Any

from nowline._rules import records as R
from nowline._rules.links import (
    batch_metadata,
    plan_write,
    reach_of,
    relink_patches,
    repair_plan,
    stored_links,
    write_reach,
)
from nowline._rules.records import CorrectionInfo, Record, Scoped
from nowline._rules.registry import PlannedRegistry, Registry

MOVE = "Moved from a/b to c/d."


def _correction(cid: str, t: float, deprecates: str = "a/b", **extra: Any) -> Record:
    """Return a stored correction of ``deprecates`` with time ``t``."""
    text = f"Moved from {deprecates} to c/d."
    meta = {R.DEPRECATES: [deprecates], R.TIME: t, R.CORRECTION: True, **extra}
    return Record(cid, text, R.with_new_values(meta, text))


def _info(record: Record) -> CorrectionInfo:
    """Return the correction a stored record is."""
    info = R.correction_info(record)
    assert info is not None
    return info


def _memory(rid: str, text: str, **meta: Any) -> Record:
    """Return a stored memory with time 1."""
    return Record(rid, text, {R.TIME: 1.0, **meta})


# ---------------------------------------------------------------------- stored links


def test_stored_links_are_the_string_ids_of_the_by_list() -> None:
    """Only a list counts, and only its str entries."""
    assert stored_links({R.BY: ["c1", 3, "c2"]}) == ["c1", "c2"]
    assert stored_links({R.BY: "c1"}) == []
    assert stored_links(None) == []


# ---------------------------------------------------------------------- a write's plan


def _plan(op: Any, records: list[Record], known: list[Record], **kw: Any) -> Any:
    """Return the plan of writing ``records`` (as the caller gives them) over ``known``."""
    return plan_write(
        op,
        [r.id for r in records],
        [dict(r.metadata) if r.metadata is not None else None for r in records],
        [r.document for r in records],
        {r.id: r for r in known},
        kw.pop("registry", Registry(_info(r) for r in known if R.is_correction(r.metadata))),
        kw.pop("scope_key", None),
        R.write_stamps(100.0, len(records)),
        **kw,
    )


def test_an_add_of_an_existing_id_and_an_update_of_a_missing_one_do_not_land() -> None:
    """Neither lands (chromadb ignores both): the plan keeps the stored record."""
    stored = _memory("m", "old text")
    add = _plan("add", [Record("m", "new text", None)], [stored])
    assert add.landing == set() and add.records == [stored]
    update = _plan("update", [Record("x", "text", None)], [])
    assert update.landing == set() and update.records[0].id == "x"


def test_a_new_correction_is_marked_and_takes_the_writers_scope_key() -> None:
    """A new correction carries nowline's mark and the writer's scope key; it is put."""
    plan = _plan("add", [Record("c", MOVE, {R.DEPRECATES: ["a/b"], "u": "al"})], [], scope_key="u")
    meta = plan.records[0].metadata
    assert meta[R.CORRECTION] is True and meta[R.SCOPE_KEY] == "u"
    assert [info.id for info in plan.put] == ["c"] and plan.relink == []
    assert plan.put[0].scope == ("u", ("str", "al"))


def test_an_edited_correction_keeps_its_own_scope_key_and_is_relinked() -> None:
    """An edit by a writer with another key keeps the correction's key; its links are redone."""
    stored = _correction("c", 2.0, **{R.SCOPE_KEY: "u", "u": "al"})
    edit = Record("c", "Moved from a/b to e/f.", None)
    plan = _plan("update", [edit], [stored], scope_key="team")
    assert plan.records[0].metadata[R.SCOPE_KEY] == "u"
    assert [info.document for info in plan.put] == ["Moved from a/b to e/f."]
    assert plan.relink == ["c"]


def test_rewriting_a_correction_unchanged_puts_nothing() -> None:
    """A write that leaves a correction's text, strings, scope and time as they were is no put."""
    stored = _correction("c", 2.0, **{R.WRITTEN: 2.0})
    plan = _plan("upsert", [Record("c", stored.document, {"team": "ops"})], [stored])
    assert plan.landing == {"c"} and plan.put == [] and plan.drop == []


def test_a_correction_that_loses_its_strings_is_dropped() -> None:
    """Removing ``deprecates`` in an update makes the record no correction: it is dropped."""
    stored = _correction("c", 2.0)
    plan = _plan("update", [Record("c", None, {R.DEPRECATES: None})], [stored])
    assert plan.drop == ["c"] and plan.put == []


def test_a_retracted_correction_stays_retracted_when_edited() -> None:
    """An edit of a retracted correction keeps it retracted: it is not active."""
    stored = _correction("c", 2.0, **{R.RETRACTED: 50.0})
    registry = Registry([_info(stored)])
    plan = _plan(
        "update", [Record("c", "Moved from a/b to x/y.", None)], [stored], registry=registry
    )
    assert plan.put[0].retracted == 50.0 and plan.active == []


# ------------------------------------------------------------------- what gets stored


def test_an_added_memory_is_stored_with_its_links_and_role() -> None:
    """A new memory that names an active correction's string is stored historical, linked."""
    correction = _correction("c", 2.0)
    registry = Registry([_info(correction)])
    memory = Record("m", "deploy from a/b", {"team": "ops", "gone": None})
    plan = _plan("add", [memory], [correction], registry=registry)
    metas = batch_metadata(
        "add", plan, {}, [memory.metadata], PlannedRegistry(registry, plan.put), None, 100.0
    )
    assert metas == [
        {"team": "ops", R.TIME: 100.0, R.ROLE: "historical", R.BY: ["c"]},
    ]


def test_an_update_removes_only_keys_the_record_had() -> None:
    """In an update a None removes a key; keys the record never had are not sent as None."""
    linked = _memory("m", "deploy from a/b", **{R.ROLE: "historical", R.BY: ["gone"]})
    plain = _memory("p", "nothing to link")
    writes = [Record("m", "deploy from x/y", None), Record("p", "still nothing", None)]
    plan = _plan("update", writes, [linked, plain], registry=Registry())
    known = {"m": linked, "p": plain}
    view = PlannedRegistry(Registry(), plan.put)
    metas = batch_metadata("update", plan, known, None, view, None, 100.0)
    assert metas == [{R.TIME: 1.0, R.ROLE: None, R.BY: None}, {R.TIME: 1.0}]


def test_a_new_correction_is_stamped_changed_and_a_dropped_one_unmarked() -> None:
    """A put correction gets the change stamp; a dropped one loses its mark and scope key."""
    stored = _correction("c", 2.0, **{R.SCOPE_KEY: "u"})
    plan = _plan("update", [Record("c", None, {R.DEPRECATES: None})], [stored])
    registry = Registry([_info(stored)])
    view = PlannedRegistry(registry, [], drop=plan.drop)
    metas = batch_metadata("update", plan, {"c": stored}, [{R.DEPRECATES: None}], view, None, 77.0)
    patch = metas[0]
    assert patch is not None
    assert patch[R.CORRECTION] is False and patch[R.CHANGED] == 77.0
    assert patch[R.SCOPE_KEY] is None and patch[R.DEPRECATES] is None


# ----------------------------------------------------------------------------- reach


def test_reach_is_the_records_that_name_a_string_in_scope() -> None:
    """A correction reaches the memories naming its string in its scope, not the excluded."""
    correction = _info(_correction("c", 2.0, **{R.SCOPE_KEY: "u", "u": "al"}))
    candidates = [
        _memory("al", "deploy from a/b", u="al"),
        _memory("bo", "deploy from a/b", u="bo"),
        _memory("other", "deploy from x/y", u="al"),
        _memory("skip", "a/b again", u="al"),
        Record("nodoc", None, {"u": "al"}),
    ]
    found = reach_of([correction], candidates, Registry(), None, exclude=["skip"])
    assert [r.id for r in found["c"]] == ["al"]


def test_reach_leaves_out_retracted_and_newer_corrections() -> None:
    """A retracted correction is inert and a newer correction is never superseded by an older."""
    older = _info(_correction("old", 2.0))
    newer = _correction("new", 9.0)
    retracted = _correction("dead", 1.0, **{R.RETRACTED: 3.0})
    found = reach_of([older], [newer, retracted], Registry(), None)
    assert found == {"old": []}


def _rename(cid: str, t: float, old: str, new: str) -> CorrectionInfo:
    """Return a correction at time ``t`` that renamed ``old`` to ``new``."""
    return _info(
        Record(
            cid,
            f"{old} was renamed to {new}.",
            {R.DEPRECATES: [old], R.TIME: t, R.REPLACED_BY: [new]},
        )
    )


def test_a_planned_view_is_the_registry_after_the_write_revivals_included() -> None:
    """A string revived by a correction the write drops or edits is outdated again in the view.

    ``back`` renames ``acme/app2`` back to ``acme/app``, which revives ``there``'s string: the
    memory is current. A write that drops ``back``, or edits it to hold another new value,
    makes ``there`` supersede the memory again; the view planned for that write must say so
    before it lands, as the registry says once it has.
    """
    there = _rename("there", 2.0, "acme/app", "acme/app2")
    back = _rename("back", 3.0, "acme/app2", "acme/app")
    texts = ["clone acme/app", "clone acme/app2", "acme/app and acme/app2"]
    judged = {"record_id": "m", "scope": Scoped.of_record({R.TIME: 1.0}, None), "order": None}
    edited = _rename("back", 3.0, "acme/app2", "acme/app3")
    for put, drop in (([], ["back"]), ([edited], [])):
        registry = Registry([there, back])
        assert set(registry.direct(texts[0], **judged)) == set()
        view = PlannedRegistry(registry, put, drop)
        planned = [set(view.direct(t, **judged)) for t in texts]
        registry.apply(put, drop)
        assert planned == [set(registry.direct(t, **judged)) for t in texts]
        assert planned[0] == {"there"}


def test_a_write_judges_each_record_it_reaches_once_while_the_registry_is_as_planned() -> None:
    """The reach's verdicts are the links after the write; a registry changed meanwhile is not.

    ``write_reach`` judges each candidate once against the registry as it will be; applied at
    the version planned over, ``relink_patches`` stores those verdicts as they are. Once
    anything else changed the registry, every record is judged again.
    """
    other = _info(_correction("o", 1.5, "x/y"))
    new = _info(_correction("c", 2.0))
    candidates = [
        _memory("m1", "deploy from a/b"),
        _memory("m2", "a/b and x/y"),
        _memory("near", "a/b-hosted"),
    ]
    registry = Registry([other])
    scanned: list[str] = []
    scan = registry._direct_as

    def counted(text: str, *args: Any, **kwargs: Any) -> Any:
        scanned.append(text)
        return scan(text, *args, **kwargs)

    registry._direct_as = counted  # type: ignore[method-assign]
    reach = write_reach([new], [], candidates, registry, None)
    del registry._direct_as
    assert [r.id for r in reach.found["c"]] == ["m1", "m2"]
    # The registry's automata scan only what the write reaches: a near miss is not scanned.
    assert scanned == ["deploy from a/b", "a/b and x/y"]
    judged = reach.judged(*registry.apply([new]))
    assert judged is not None and set(judged.verdicts) == {"m1", "m2"}
    fresh = relink_patches(reach.found["c"], registry, None)
    assert relink_patches(reach.found["c"], registry, None, judged=judged) == fresh
    assert fresh == (
        ["m1", "m2"],
        [
            {R.BY: ["c"], R.ROLE: "historical"},
            {R.BY: ["c", "o"], R.ROLE: "historical"},
        ],
    )
    # Only the very record judged is reused: a record read again is judged again.
    again = Record("m1", "no longer names it", {R.TIME: 1.0})
    assert relink_patches([again], registry, None, judged=judged) == (
        ["m1"],
        [{R.BY: None, R.ROLE: None}],
    )
    # Another correction enters the registry: the planned verdicts no longer hold.
    registry.put(_info(_correction("p", 1.8, "deploy from")))
    _, metas = relink_patches(reach.found["c"], registry, None, judged=judged)
    assert metas[0] == {R.BY: ["c", "p"], R.ROLE: "historical"}
    # A write applied over another version than the one planned gets no verdicts at all.
    assert reach.judged(registry.version - 1, registry.version) is None


# ------------------------------------------------------------------- relink and repair


def test_relink_sets_links_to_what_the_registry_says_now() -> None:
    """Patches replace stored links with the current ones; ``keep`` ids are left alone."""
    registry = Registry([_info(_correction("c", 2.0))])
    stale = _memory("m", "no longer names it", **{R.BY: ["c"], R.ROLE: "historical"})
    linked = _memory("n", "deploy from a/b")
    ids, metas = relink_patches([stale, linked, _memory("k", "a/b")], registry, None, keep=["k"])
    assert ids == ["m", "n"]
    assert metas == [{R.BY: None, R.ROLE: None}, {R.BY: ["c"], R.ROLE: "historical"}]


def test_repair_fixes_links_roles_marks_and_times_and_counts_them() -> None:
    """Repair patches what differs from the rules and counts links added and removed.

    A correction written around nowline also gets the new values its text states (none here:
    a lone letter is no value), so that a load never reads its text again.
    """
    correction = _correction("c", 2.0, **{R.ROLE: "transition"})
    unmarked = Record("u", "Moved from x/y to z.", {R.DEPRECATES: ["x/y"], R.TIME: 3.0})
    registry = Registry([_info(correction), _info(unmarked)])
    records = [
        correction,
        unmarked,
        _memory("m", "deploy from a/b", **{R.BY: ["gone", "gone"]}),
        Record("was", "plain now", {R.CORRECTION: True, R.TIME: 1.0}),
        Record("untimed", "nothing to see", {"team": "ops"}),
    ]
    plan = repair_plan(records, registry, None, 55.0)
    patches = dict(zip(plan.ids, plan.metas, strict=True))
    assert "c" not in patches
    assert patches["u"] == {
        R.ROLE: "transition",
        R.CORRECTION: True,
        R.CHANGED: 55.0,
        R.NEW: R.with_new_values({R.DEPRECATES: ["x/y"]}, "Moved from x/y to z.")[R.NEW],
    }
    assert patches["m"] == {R.BY: ["c"], R.ROLE: "historical"}
    assert patches["was"] == {R.CORRECTION: False, R.CHANGED: 55.0}
    assert patches["untimed"] == {R.TIME: 0.0}
    assert (plan.links_added, plan.links_removed) == (1, 1)


def test_repair_of_a_consistent_store_patches_nothing() -> None:
    """Records whose stored links, role, mark and time agree with the rules need no patch."""
    correction = _correction("c", 2.0, **{R.ROLE: "transition"})
    memory = _memory("m", "deploy from a/b", **{R.BY: ["c"], R.ROLE: "historical"})
    plan = repair_plan([correction, memory], Registry([_info(correction)]), None, 55.0)
    assert (plan.ids, plan.links_added, plan.links_removed) == ([], 0, 0)

"""The same correction told twice is stored once (DESIGN §6, "a repeat").

A model that calls ``correct`` twice, a retried request, a re-run import: the second
correction has the same text, strings, anchors and new values, in the same scope and from
the same source, while the first stands. Stored again, the first would read as outdated under
its own twin (its text names the strings) and a memory would stay outdated after the first
was retracted. ``correct()`` answers with the standing correction and writes nothing; a
plain ``add`` is refused with :class:`nowline.Repeated`. Anything that says more is stored.
"""

from __future__ import annotations

from typing import Any

import pytest

import nowline
from tests.conftest import snapshot

MOVED = "acme/app moved to acme-inc/app."


@pytest.fixture
def app(memory: nowline.Collection) -> nowline.Collection:
    """Return a store with two memories of acme/app and the correction that moves it."""
    memory.remember("Clone github.com/acme/app to start.", id="clone")
    memory.remember("CI for acme/app is green.", id="ci")
    memory.correct(MOVED, deprecates=["acme/app"], id="first")
    return memory


def test_a_repeat_returns_the_standing_correction_and_writes_nothing(
    app: nowline.Collection,
) -> None:
    """Same strings, anchors and new values (other words, other case): nothing is stored."""
    before = snapshot(app)
    role = app.hits(["first"])[0].role
    report = app.correct("  ACME/app   moved to acme-inc/APP", deprecates=["ACME/app"], id="second")
    assert (report.id, report.stored, report.reached) == ("first", False, 2)
    assert "'first'" in report.notes[0] and "retract('first')" in report.notes[0]
    assert snapshot(app) == before
    assert [c.id for c in app.corrections()] == ["first"]
    hit = app.recall("acme/app", n_results=3)
    assert "superseded" not in hit.render()
    assert app.hits(["first"])[0].role == role != "historical"


def test_retracting_the_standing_correction_makes_the_memories_current(
    app: nowline.Collection,
) -> None:
    """After a repeat, one retract undoes the change: no twin holds the memories."""
    app.correct(MOVED, deprecates=["acme/app"])
    app.retract("first")
    assert [h.role for h in app.hits(["clone", "ci"])] == ["current", "current"]
    assert app.check("git clone https://github.com/acme/app") == []


def test_after_a_retract_the_same_change_is_stored_anew(app: nowline.Collection) -> None:
    """A retracted correction does not stand: telling the change again stores it."""
    app.retract("first")
    report = app.correct(MOVED, deprecates=["acme/app"], id="again")
    assert (report.id, report.stored, report.reached) == ("again", True, 2)


def test_other_words_another_new_value_or_none_say_more_and_are_stored(
    app: nowline.Collection,
) -> None:
    """Other words for the same fields, a different new value, or no new value: stored."""
    more = app.correct(
        "acme/app moved to acme-inc/app; regenerate the deploy key.",
        deprecates=["acme/app"],
        id="more",
    )
    assert more.stored and more.id == "more"
    other = app.correct("acme/app moved to acme-labs/app.", deprecates=["acme/app"], id="labs")
    assert other.stored and other.id == "labs"
    archived = app.correct(
        "acme/app was archived and is read-only.", deprecates=["acme/app"], id="archived"
    )
    assert archived.stored and archived.id == "archived"


def test_other_anchors_or_other_words_without_a_new_value_are_stored(
    memory: nowline.Collection,
) -> None:
    """Another subject is another change; so is another text where no new value is read."""
    memory.remember("Michigan's figure for 1948 was revised; Ohio's 1948 figure too.", id="m")
    text = "The 1948 figures of Michigan and Ohio were withdrawn."
    first = memory.correct(text, deprecates=["1948"], about=["Michigan"], id="mi")
    ohio = memory.correct(text, deprecates=["1948"], about=["Ohio"], id="oh")
    assert (first.stored, ohio.stored, ohio.id) == (True, True, "oh")
    again = memory.correct(text.upper() + "  ", deprecates=["1948"], about=["ohio"])
    assert (again.stored, again.id) == (False, "oh")
    wide = text.replace("1948", "１９４８")
    normalised = memory.correct(wide, deprecates=["1948"], about=["Ohio"])
    assert normalised.stored  # no Unicode normalisation of the text: "10²" is not "102"
    other = memory.correct(
        "The 1948 figures of Michigan and Ohio are under review.",
        deprecates=["1948"],
        about=["Ohio"],
        id="review",
    )
    assert other.stored and other.id == "review"


def test_a_change_back_in_between_makes_the_change_a_new_step(app: nowline.Collection) -> None:
    """acme/app → acme-inc/app → acme/app → acme-inc/app: the third move is stored."""
    app.correct("acme-inc/app was renamed back to acme/app.", deprecates=["acme-inc/app"])
    assert app.hits(["clone"])[0].role == "current"
    report = app.correct(MOVED, deprecates=["acme/app"], id="third")
    assert report.stored and report.id == "third"
    assert app.hits(["clone"])[0].role == "historical"
    assert app.check("git clone https://github.com/acme/app") != []


def test_a_plain_add_of_a_repeat_is_refused(app: nowline.Collection) -> None:
    """``add`` stores what it is given or nothing: a repeat raises ``Repeated``, a ValueError."""
    before = snapshot(app)
    with pytest.raises(nowline.Repeated) as caught:
        app.add(ids=["twin"], documents=[MOVED], metadatas=[{"deprecates": ["acme/app"]}])
    assert isinstance(caught.value, ValueError)
    assert caught.value.standing == "first"
    assert "retract('first')" in str(caught.value)
    assert snapshot(app) == before


def test_two_new_corrections_of_one_change_in_one_add_are_refused(
    memory: nowline.Collection,
) -> None:
    """Twins within one write: the second repeats the first, and nothing is written."""
    memory.remember("Clone github.com/acme/app to start.", id="clone")
    before = snapshot(memory)
    with pytest.raises(nowline.Repeated) as caught:
        memory.add(
            ids=["a", "b"],
            documents=[MOVED, MOVED],
            metadatas=[{"deprecates": ["acme/app"]}, {"deprecates": ["acme/app"]}],
        )
    assert "'a' and 'b' of this write" in str(caught.value) and "retract" not in str(caught.value)
    assert snapshot(memory) == before


def test_editing_the_standing_correction_is_no_repeat(app: nowline.Collection) -> None:
    """An upsert of the correction's own id changes it as before."""
    app.upsert(
        ids=["first"],
        documents=["acme/app moved to acme-inc/app; clone acme-inc/app."],
        metadatas=[{"deprecates": ["acme/app"]}],
    )
    assert app.get(ids=["first"])["documents"] == [
        "acme/app moved to acme-inc/app; clone acme-inc/app."
    ]


def test_a_repeat_in_another_scope_is_its_own_change(scoped: nowline.Collection) -> None:
    """Scopes never share corrections: the same change for another user is stored."""
    scoped.add(
        ids=["m1", "m2"],
        documents=["Clone acme/app.", "Clone acme/app."],
        metadatas=[{"user_id": "u1"}, {"user_id": "u2"}],
    )
    one = scoped.correct(MOVED, deprecates=["acme/app"], metadata={"user_id": "u1"})
    two = scoped.correct(MOVED, deprecates=["acme/app"], metadata={"user_id": "u2"})
    again = scoped.correct(MOVED, deprecates=["acme/app"], metadata={"user_id": "u2"})
    assert one.stored and two.stored and one.id != two.id
    assert (again.stored, again.id) == (False, two.id)


def test_preview_names_the_standing_correction_on_every_surface(
    app: nowline.Collection, store_path: str
) -> None:
    """``preview()``, the preview tool and ``nowline preview`` say correct() would write nothing."""
    import json

    from nowline.surfaces.tools import run_tool
    from tests.cli.conftest import invoke

    told = "ACME/app moved to acme-inc/app"
    assert app.preview(["acme/app"], text=told).repeat_of == "first"
    other = "acme/app moved to acme-labs/app."
    assert app.preview(["acme/app"], text=other).repeat_of is None
    tool = run_tool(app, "preview", {"body": told, "deprecates": ["acme/app"]})
    assert "already stored as correction first" in tool.text and not tool.is_error
    cli = invoke("preview", store_path, "-d", "acme/app", "--text", told, "--json")
    assert cli.exit_code == 0, cli.output
    assert json.loads(cli.stdout)["repeat_of"] == "first"
    app.retract("first")
    assert app.preview(["acme/app"], text=told).repeat_of is None


def test_a_correction_a_newer_one_replaced_does_not_stand(app: nowline.Collection) -> None:
    """acme-inc, then acme-labs, then acme-inc again: the third is news, and is stored."""
    app.correct("acme/app moved to acme-labs/app.", deprecates=["acme/app"], id="labs")
    again = app.correct(MOVED, deprecates=["acme/app"], id="again")
    assert (again.stored, again.id) == (True, "again")
    (now,) = app.hits(["clone"])[0].now
    assert now.id == "again"


def test_another_source_keeps_its_own_evidence(app: nowline.Collection) -> None:
    """The same words from another source (a forge's event after a person) are stored."""
    forge = app.correct(MOVED, deprecates=["acme/app"], metadata={"source": "github"})
    assert forge.stored
    again = app.correct(MOVED, deprecates=["acme/app"], metadata={"source": "github"})
    assert (again.stored, again.id) == (False, forge.id)


def test_another_observed_time_is_another_observation(memory: nowline.Collection) -> None:
    """A repeat that gives its own time must agree with the standing one's."""
    memory.remember("Clone github.com/acme/app to start.", id="clone")
    dated = memory.correct(MOVED, deprecates=["acme/app"], observed_at="2026-01-02T00:00:00Z")
    same = memory.correct(MOVED, deprecates=["acme/app"], observed_at="2026-01-02T00:00:00Z")
    assert (dated.stored, same.stored, same.id) == (True, False, dated.id)
    later = memory.correct(MOVED, deprecates=["acme/app"], observed_at="2026-02-02T00:00:00Z")
    assert later.stored and later.id != dated.id
    assert memory.correct(MOVED, deprecates=["acme/app"]).stored is False  # no time: a retry


def test_a_change_told_now_is_no_repeat_of_one_dated_later(memory: nowline.Collection) -> None:
    """An untimed correction is told now: one dated in the future does not answer it."""
    memory.remember("Clone github.com/acme/app to start.", id="clone")
    future = memory.correct(MOVED, deprecates=["acme/app"], observed_at="2031-01-01T00:00:00Z")
    told = memory.correct(MOVED, deprecates=["acme/app"])
    assert future.stored and told.stored and told.id != future.id
    assert memory.hits(["clone"], as_of="2027-06-01T00:00:00Z")[0].role == "historical"


def test_a_standing_correction_gone_from_the_store_is_not_answered(
    client: nowline.Client, app: nowline.Collection
) -> None:
    """Another process retracted or deleted it: the write is judged again and stored."""
    stale = nowline.wrap(app.raw, refresh_seconds=3600)
    stale.hits(["clone"])  # loads the corrections; it will not look again for an hour
    app.retract("first")
    told = stale.correct(MOVED, deprecates=["acme/app"], id="after-retract")
    assert (told.stored, told.id) == (True, "after-retract")
    app.raw.delete(ids=["after-retract"])  # around nowline: no mark changes
    again = stale.correct(MOVED, deprecates=["acme/app"], id="after-delete")
    assert (again.stored, again.id) == (True, "after-delete")


def test_an_edit_into_a_twin_is_refused(app: nowline.Collection) -> None:
    """An upsert or update that turns a record into a repeat is judged as a new one is."""
    before = snapshot(app)
    with pytest.raises(nowline.Repeated):
        app.upsert(ids=["ci"], documents=[MOVED], metadatas=[{"deprecates": ["acme/app"]}])
    app.correct("acme/lib moved to acme-inc/lib.", deprecates=["acme/lib"], id="lib")
    with pytest.raises(nowline.Repeated):
        app.update(ids=["lib"], documents=[MOVED], metadatas=[{"deprecates": ["acme/app"]}])
    assert snapshot(app)["count"] == before["count"] + 1


def test_a_refusal_for_a_repeat_rests_on_the_store(app: nowline.Collection) -> None:
    """A plain add is not refused for a correction another process retracted meanwhile."""
    stale = nowline.wrap(app.raw, refresh_seconds=3600)
    stale.hits(["clone"])
    app.retract("first")
    stale.add(ids=["twin"], documents=[MOVED], metadatas=[{"deprecates": ["acme/app"]}])
    assert app.hits(["clone"])[0].now[0].id == "twin"


def test_preview_reads_the_source_from_the_metadata(app: nowline.Collection) -> None:
    """A correction from another source is no repeat, in preview() as in correct()."""
    told = app.preview(["acme/app"], text=MOVED, metadata={"source": "github"})
    assert told.repeat_of is None
    assert app.preview(["acme/app"], text=MOVED).repeat_of == "first"
    # an empty source is no source, for preview() as for the stored correction it judges
    assert app.preview(["acme/app"], text=MOVED, metadata={"source": ""}).repeat_of == "first"
    report = app.correct(MOVED, deprecates=["acme/app"], metadata={"source": ""}, id="again")
    assert (report.stored, report.id) == (False, "first")


def test_an_import_upsert_that_would_make_a_twin_is_left_as_it_is(
    app: nowline.Collection, store_path: str, tmp_path: Any
) -> None:
    """``nowline import --on-existing upsert``: the line is named, and the import goes on."""
    import json

    from tests.cli.conftest import invoke

    lines = tmp_path / "lines.jsonl"
    rows = [
        {"id": "ci", "text": MOVED, "deprecates": ["acme/app"]},
        {"id": "new", "text": "A note on acme/web."},
    ]
    lines.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = invoke("import", store_path, str(lines), "--on-existing", "upsert")
    assert result.exit_code == 0, result.output
    assert "repeats correction first" in " ".join(result.output.split())
    assert app.get(ids=["ci", "new"])["documents"] == [
        "CI for acme/app is green.",
        "A note on acme/web.",
    ]

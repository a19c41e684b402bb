"""Zero reach with a near miss is refused (DESIGN §6, issue 23 item 3).

A typo of the outdated string, or the new value given for the old one, reaches no record
while the store names the intended string: ``correct()`` refuses it with the suggestion
(``Unreached``), ``preview()`` shows the same suggestion and says ``correct()`` would refuse,
and the tools return ``is_error`` with the same suggestion.
"""

from __future__ import annotations

import inspect

import pytest

import nowline
from nowline._rules.nearmiss import edit_bound, near_strings, pieces, text_candidates
from nowline.models import Preview
from nowline.surfaces.tools import run_tool
from tests.conftest import snapshot

WIKI = "The team wiki moved from wiki.nortwind.dev to docs.northwind.dev."
SWAP = "#ops-deploys was renamed to #deploys."


@pytest.fixture
def notes(memory: nowline.Collection) -> nowline.Collection:
    """Return memories that name wiki.northwind.dev (twice) and #ops-deploys."""
    memory.remember("Runbooks live at https://wiki.northwind.dev/runbooks.", id="w1")
    memory.remember("The wiki is wiki.northwind.dev; ask Dana for access.", id="w2")
    memory.remember("Deploy alerts go to #ops-deploys.", id="d")
    memory.remember("Lunch is at noon.", id="l")
    return memory


def test_a_typo_is_refused_with_the_string_the_store_names(notes: nowline.Collection) -> None:
    """A deprecated string one letter off a stored one is refused, naming it and its count."""
    before = snapshot(notes)
    with pytest.raises(nowline.Unreached) as info:
        notes.correct(WIKI, deprecates=["wiki.nortwind.dev"])
    assert info.value.near_misses == [("wiki.northwind.dev", 2)]
    message = str(info.value)
    assert "'wiki.northwind.dev' (named by 2 records" in message
    assert "allow_unreached=True" in message
    assert isinstance(info.value, nowline.InvalidCorrection)
    assert isinstance(info.value, ValueError) and isinstance(info.value, nowline.NowlineError)
    assert snapshot(notes) == before


def test_swapped_values_are_refused_with_the_old_value(notes: nowline.Collection) -> None:
    """The new value in deprecates, the old in the text: refused, the old value suggested."""
    before = snapshot(notes)
    with pytest.raises(nowline.NewValue) as info:
        notes.correct(SWAP, deprecates=["#deploys"])
    assert info.value.phrase == "#deploys" and info.value.said == "was renamed to #deploys"
    assert info.value.suggestions == [("#ops-deploys", 1)]
    assert "'#deploys' is the new value" in str(info.value)
    assert snapshot(notes) == before


def test_swapped_values_the_wording_does_not_tell_are_a_near_miss(
    notes: nowline.Collection,
) -> None:
    """Where the text states no change, the other string of the text is the near miss."""
    with pytest.raises(nowline.Unreached) as info:
        notes.correct("Deploy alerts: #ops-deploys, #deploys.", deprecates=["#deploys"])
    assert info.value.near_misses == [("#ops-deploys", 1)]
    assert "the old value" in str(info.value)


def test_the_refusal_gives_the_call_to_send(notes: nowline.Collection) -> None:
    """A typo's refusal gives the stored string; a swap's, the old value and the new one.

    Blind writer case h18 sent the new version beside the old one in ``deprecates``; asked
    "is 'Go 1.21' the old value and 'Go 1.23' the new one?", the model kept the new one.
    """
    with pytest.raises(nowline.Unreached) as typo:
        notes.correct(WIKI, deprecates=["wiki.nortwind.dev"])
    assert "Send deprecates=['wiki.northwind.dev'] (the exact" in str(typo.value)
    notes.remember("Build with Go 1.21 or later.", id="go")
    text = "Go 1.23 or newer these days, Go 1.21 won't compile it anymore."
    with pytest.raises(nowline.Unreached) as swap:
        notes.correct(text, deprecates=["Go 1.21", "Go 1.23"], about=["Build"])
    assert "send deprecates=['Go 1.21'] and replaced_by=['Go 1.23']" in str(swap.value).replace(
        "Send", "send"
    )
    refused = run_tool(notes, "correct", {"body": text, "deprecates": ["Go 1.23", "Go 1.21"]})
    assert 'Send deprecates ["Go 1.21"] and replaced_by ["Go 1.23"]' in refused.text


def test_the_suggestion_once_taken_reaches_the_stale_memories(notes: nowline.Collection) -> None:
    """Correcting with the suggested string marks the memories the typo missed."""
    fixed = WIKI.replace("nortwind", "northwind", 1)
    assert notes.correct(fixed, deprecates=["wiki.northwind.dev"]).reached == 2
    assert notes.correct(SWAP, deprecates=["#ops-deploys"]).reached == 1


def test_allow_unreached_stores_it_anyway(notes: nowline.Collection) -> None:
    """allow_unreached=True stores a correction that reaches nothing, as before."""
    report = notes.correct(WIKI, deprecates=["wiki.nortwind.dev"], allow_unreached=True, id="c")
    assert report.reached == 0
    assert notes.get(ids=["c"])["ids"] == ["c"]


def test_zero_reach_without_a_near_miss_is_stored(notes: nowline.Collection) -> None:
    """A correction noted before any memory names its string is stored as today."""
    report = notes.correct(
        "Payments moved from pay.acme.example to billing.acme.example.",
        deprecates=["pay.acme.example"],
    )
    assert report.reached == 0


def test_a_near_miss_outside_the_anchor_is_not_suggested(notes: nowline.Collection) -> None:
    """Suggestions count with the correction's anchors: none where the anchor never holds."""
    notes.remember("Kofi Mensah runs the Acme account.", id="k")
    report = notes.correct(
        "Globex: Kofi Mensha left.", deprecates=["Kofi Mensha"], about=["Globex"]
    )
    assert report.reached == 0


def test_a_near_miss_in_another_scope_is_not_suggested(scoped: nowline.Collection) -> None:
    """A string only another scope names is no suggestion: scopes are never crossed."""
    scoped.remember("The wiki is wiki.northwind.dev.", metadata={"user_id": "bob"})
    report = scoped.correct(WIKI, deprecates=["wiki.nortwind.dev"], metadata={"user_id": "amy"})
    assert report.reached == 0
    with pytest.raises(nowline.Unreached):
        scoped.correct(WIKI, deprecates=["wiki.nortwind.dev"], metadata={"user_id": "bob"})


def test_preview_is_a_list_that_says_why_correct_would_refuse(notes: nowline.Collection) -> None:
    """preview() returns the ids as a list, with the near misses and the refusal."""
    typo = notes.preview(["wiki.nortwind.dev"])
    assert isinstance(typo, Preview) and isinstance(typo, list) and typo == []
    assert typo.near_misses == [("wiki.northwind.dev", 2)]
    assert typo.refusal is not None and "'wiki.northwind.dev'" in typo.refusal
    swap = notes.preview(["#deploys"], text=SWAP)
    assert swap.near_misses == [("#ops-deploys", 1)] and swap.refusal is not None
    assert notes.preview(["#deploys"]).refusal is None  # without the text, no swap to see
    good = notes.preview(["wiki.northwind.dev"])
    assert sorted(good) == ["w1", "w2"] and good.near_misses == [] and good.refusal is None


def test_preview_takes_the_keywords_correct_takes(notes: nowline.Collection) -> None:
    """preview(allow_*=..., max_reach=...) says what correct() with them would do."""
    assert notes.preview(["wiki.nortwind.dev"], allow_unreached=True).refusal is None
    assert notes.preview(["the"], allow_generic=True).refusal is None
    assert notes.preview(["wiki.northwind.dev"], text="x", allow_absent=True).refusal is None
    broad = notes.preview(["wiki.northwind.dev"], max_reach=1)
    assert broad.refusal is not None and "would reach 2 of" in broad.refusal
    with pytest.raises(nowline.CorrectionTooBroad):
        notes.correct("The wiki moved.", deprecates=["wiki.northwind.dev"], max_reach=1)
    assert notes.preview(["wiki.northwind.dev"], max_reach=None).refusal is None
    with pytest.raises(nowline.InvalidInput, match="allow_generic must be True or False"):
        notes.preview(["the"], allow_generic="yes")  # type: ignore[arg-type]
    with pytest.raises(nowline.InvalidInput, match="max_reach"):
        notes.preview(["the"], max_reach=-1)


def test_preview_tells_a_generic_string_apart(notes: nowline.Collection) -> None:
    """preview(["the"]) lists what it reaches and says correct() refuses the string."""
    found = notes.preview(["the"])
    assert "w2" in found
    assert found.refusal is not None and "common word" in found.refusal
    assert notes.preview(["the"], about=["wiki.northwind.dev"]).refusal is None
    anchor = notes.preview(["billing"], about=["billing"])  # the string as its own anchor
    assert anchor.refusal is not None and "'billing' is a common word" in anchor.refusal


def test_preview_tells_an_absent_string_when_given_the_text(notes: nowline.Collection) -> None:
    """With the text, preview applies the absent-string guard as correct() does.

    A string the store names as written is accepted by correct() with a note, so preview
    names no refusal for it (it named one before, where correct() stored the correction); one
    that no memory names is refused, with the near miss the store holds.
    """
    named = notes.preview(["wiki.northwind.dev"], text="The wiki moved.")
    assert named.refusal is None and named == ["w1", "w2"]
    assert notes.correct("The wiki moved.", deprecates=["wiki.northwind.dev"]).reached == 2
    typo = notes.preview(["wiki.nortwind.dev"], text="The wiki moved to docs.northwind.dev.")
    assert typo.refusal is not None and "does not mention" in typo.refusal
    assert "'wiki.northwind.dev' (named by 2 records; almost" in typo.refusal


def test_an_identifier_inside_the_deprecated_string_is_proposed(
    notes: nowline.Collection,
) -> None:
    """The old value sent with more around it is refused, proposing the identifier inside.

    Blind writer case k03: a small model sent ``com.brantwood:ledger-core:3.0`` for
    ``com.brantwood:ledger-core``, absent from its text, and sent it again unchanged at the
    retry: the refusal named nothing the store holds. Only the longest identifier that names
    records is proposed (not ``com.acme``), none inside the new value, and none that is a
    sibling (``com.acme:core`` is no part of ``com.acme:core-kit``).
    """
    notes.remember("Add com.acme:core to pom.xml.", id="a")
    notes.remember("Billing depends on com.acme:core 2.8.", id="b")
    notes.remember("com.acme:core-testkit has fakes; com.acme publishes both.", id="c")
    before = snapshot(notes)
    text = "From 3.0 on the artifact is published as com.acme.ledger:core."
    with pytest.raises(nowline.AbsentString) as absent:
        notes.correct(text, deprecates=["com.acme:core:3.0"])
    message = str(absent.value)
    assert absent.value.absent == ["com.acme:core:3.0"]
    assert absent.value.suggestions == [("com.acme:core", 2)]
    assert (
        "inside 'com.acme:core:3.0'" in message and "Send deprecates=['com.acme:core']" in message
    )
    assert "(it was com.acme:core)." in message and "Nothing was stored" in message
    assert snapshot(notes) == before
    # in the text but reaching nothing: refused as a near miss, the call to send given
    with pytest.raises(nowline.Unreached) as unreached:
        notes.correct("The com.acme:core:3.0 artifact moved.", deprecates=["com.acme:core:3.0"])
    assert unreached.value.near_misses == [("com.acme:core", 2)]
    assert "Send deprecates=['com.acme:core']" in str(unreached.value)
    # preview says the same; the retry with the proposed call is stored
    assert notes.preview(["com.acme:core:3.0"], text=text).refusal == message
    assert notes.correct(text, deprecates=["com.acme:core"]).reached == 2
    # a sibling's name inside the deprecated string is no near miss: stored, reaching nothing
    report = notes.correct(
        "com.acme:core-kit2 is gone.", deprecates=["com.acme:core-kit2"], id="sib"
    )
    assert report.reached == 0


def test_a_typo_in_a_url_is_found_in_its_path(memory: nowline.Collection) -> None:
    """A URL that reaches nothing is refused where the store names a typo of its path.

    A URL is matched by its path (the value in any spelling), but near misses were looked
    for in the whole URL, scheme and host included, so ``https://github.com/acme/app-2`` was
    stored reaching nothing beside a memory of ``git@github.com:acme/app2.git``. The near
    miss is proposed in the writer's spelling. And a URL on another host is not proposed its
    path alone: that would reach the GitHub repository the GitLab correction does not name.
    """
    memory.remember("Clone git@github.com:acme/app2.git", id="m")
    for typo in ("https://github.com/acme/app-2", "https://github.com/acme/ap2"):
        with pytest.raises(nowline.Unreached) as caught:
            memory.correct(f"{typo} was renamed to acme/app9.", deprecates=[typo])
        assert caught.value.near_misses == [("https://github.com/acme/app2", 1)]
    gitlab = "https://gitlab.com/acme/app2"
    assert memory.preview([gitlab], text=f"{gitlab} is archived.").suggestions == []
    url = "https://github.com/acme/app2"
    assert memory.correct(f"{url} was renamed to acme/app9.", deprecates=[url]).reached == 1


def test_the_identifier_tool_error_names_the_call(notes: nowline.Collection) -> None:
    """The correct tool's error gives the proposed call in the tool's own terms."""
    notes.remember("The Vireo API server code is in tessellate-io/vireo-server.", id="v")
    body = "Vireo moved to tessellate-io/vireo."
    out = run_tool(notes, "correct", {"body": body, "deprecates": ["tessellate-io/vireo-server/"]})
    assert out.is_error and 'Send deprecates ["tessellate-io/vireo-server"]' in out.text
    out = run_tool(
        notes, "correct", {"body": body, "deprecates": ["the tessellate-io/vireo-server repo"]}
    )
    assert out.is_error and "inside 'the tessellate-io/vireo-server repo'" in out.text


def test_the_correct_tool_returns_the_suggestion_as_an_error(notes: nowline.Collection) -> None:
    """The correct tool answers is_error naming the suggestion, and offers no way past it.

    A model set ``allow_unreached`` on its retry and stored wrong corrections (the writer
    benchmark), so the tools have no such field: the call is refused as a mistake.
    """
    before = snapshot(notes)
    typo = run_tool(notes, "correct", {"body": WIKI, "deprecates": ["wiki.nortwind.dev"]})
    assert typo.is_error and "'wiki.northwind.dev' (named by 2 records" in typo.text
    assert "allow_unreached" not in typo.text and "Nothing was stored" in typo.text
    swap = run_tool(notes, "correct", {"body": SWAP, "deprecates": ["#deploys"]})
    assert swap.is_error and "'#ops-deploys'" in swap.text
    forced = run_tool(
        notes,
        "correct",
        {"body": WIKI, "deprecates": ["wiki.nortwind.dev"], "allow_unreached": True},
    )
    assert forced.is_error and "allow_unreached" in forced.text
    assert snapshot(notes) == before


def test_the_preview_tool_shows_the_near_miss(notes: nowline.Collection) -> None:
    """The preview tool lists the near misses and what correct would say."""
    result = run_tool(notes, "preview", {"deprecates": ["#deploys"], "body": SWAP})
    assert not result.is_error
    assert result.data is not None and result.data["near_misses"] == [["#ops-deploys", 1]]
    assert "correct would refuse it" in result.text


def test_the_async_collection_takes_the_same_keywords() -> None:
    """AsyncCollection.correct() and preview() take allow_unreached and text (one shared flow)."""
    from nowline.aio import AsyncCollection

    correct = inspect.signature(AsyncCollection.correct).parameters["allow_unreached"]
    assert correct.default is False and correct.kind is inspect.Parameter.KEYWORD_ONLY
    assert inspect.signature(AsyncCollection.preview).parameters["text"].default is None
    assert "allow_unreached" in inspect.signature(nowline.Collection.correct).parameters


def test_edit_bound_grows_with_the_length() -> None:
    """No fuzzy match below 5 characters, 1 edit up to 11, 2 from 12."""
    assert [edit_bound(s) for s in ("v1", "ufo", "deploy", "#ops-deploy", "wiki.northwind")] == [
        0,
        0,
        1,
        1,
        2,
    ]


def test_every_near_string_contains_a_piece() -> None:
    """The pieces split the folded string so that a string within k edits keeps one whole."""
    assert pieces("Wiki.Nortwind.dev", 2) == ["wiki.n", "ortwin", "d.dev"]
    assert "".join(pieces("#deploys", 1)) == "#deploys"


def test_near_strings_keep_token_boundaries_and_the_writing() -> None:
    """Windows start and end at token boundaries, and come back as the record writes them."""
    docs = ["See https://wiki.northwind.dev/page and WIKI.NORTHWIND.DEV.", "x-wiki.northwind.dev"]
    assert near_strings("wiki.nortwind.dev", docs) == {"wiki.northwind.dev": "wiki.northwind.dev"}
    assert near_strings("Anna Muller", ["Ask Anna Müller."]) == {"anna müller": "Anna Müller"}
    assert near_strings("#deploys", ["#ops-deploys only"]) == {}


def test_text_candidates_are_shaped_like_the_deprecated_string() -> None:
    """Only strings of the text shaped like a deprecated one, outside it, are candidates."""
    assert text_candidates(SWAP, ["#deploys"], [], anchored=False) == {
        "#ops-deploys": "#ops-deploys"
    }
    names = "Deal owner changed from Michelle Smith to Dana Jones."
    assert text_candidates(names, ["Dana Jones"], [], anchored=False) == {
        "michelle smith": "Michelle Smith"
    }
    ufo = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo."
    assert text_candidates(ufo, ["ufo-ai/ufo"], [], anchored=False) == {
        "metalcraftai/ufo": "metalcraftai/ufo"
    }
    assert text_candidates(
        "Acme's CEO: Dana, not Michelle.", ["Michelle"], ["Acme"], anchored=True
    ) == {"dana": "Dana"}


def test_a_string_with_other_digits_is_another_thing(memory: nowline.Collection) -> None:
    """svc0/a is no typo of svc1/a: near strings keep the digits, so the correction is stored."""
    memory.remember("Deploy from svc0/a on Fridays.", id="m")
    assert near_strings("svc1/a", ["Deploy from svc0/a on Fridays."]) == {}
    assert memory.correct("Moved from svc1/a to svc1/b.", deprecates=["svc1/a"]).reached == 0


def test_a_string_only_corrections_name_is_no_suggestion(memory: nowline.Collection) -> None:
    """A string that only a correction's text names marks no memory, so it is not suggested."""
    memory.correct(
        "The wiki moved from wiki.northwind.dev to docs.example.",
        deprecates=["wiki.northwind.dev"],
        allow_unreached=True,
    )
    report = memory.correct(
        "Moved from wiki.nortwind.dev to docs.example.", deprecates=["wiki.nortwind.dev"]
    )
    assert report.reached == 0


def test_swapped_fields_with_an_absent_new_value_get_an_example_naming_it(
    notes: nowline.Collection,
) -> None:
    """The new value in deprecates, absent from the text, the old one in replaced_by.

    Fourth blind act set: "ashgrove/sable is frozen" with ``deprecates=["sablehq/sable"]``,
    ``replaced_by=["ashgrove/sable"]``. The refusal proposes the fields swapped back, and its
    example text names the new value, which the ``now:`` line will show.
    """
    before = snapshot(notes)
    with pytest.raises(nowline.AbsentString) as refused:
        notes.correct(
            "#ops-deploys is archived.", deprecates=["#deploys"], replaced_by=["#ops-deploys"]
        )
    message = str(refused.value)
    assert "Send deprecates=['#ops-deploys'] and replaced_by=['#deploys']" in message
    assert "'#ops-deploys is archived (now #deploys).'" in message
    assert snapshot(notes) == before


@pytest.mark.parametrize(
    "phrase",
    [
        "nginx:1.25",  # a shorter version
        "python3.8",
        "acme/app#123",  # an item's container
        "https://api.acme.io/1",
        "#ops/2",
        "s3://acme-logs/2024/",
        "https://github.com/acme/app/issues/42",
        "git@github.com:acme/app.git",  # what follows a namespace
        "https://grafana.acme.io/d/123",
        "acme.slack.com/archives/C0123",
        "https://wiki.acme.io/docs/v1/setup",
        "acme/app v1.2",  # the version is part of what changed
    ],
)
def test_no_broader_identifier_is_proposed(phrase: str) -> None:
    """An adversarial review's strings: none proposes a string that names more things."""
    from nowline._rules.nearmiss import parts

    broader = {"nginx:1", "python3", "acme/app", "https://api.acme.io", "#ops", "s3://acme-logs"}
    broader |= {"app.git", "d/123", "archives/C0123", "docs/v1/setup", "v1.2"}
    assert not set(parts(phrase)) & broader, parts(phrase)


def test_an_identifier_whose_other_versions_the_store_names_is_no_near_miss(
    notes: nowline.Collection,
) -> None:
    """com.acme:core of com.acme:core:3.0 would reach com.acme:core:3.5's memory too."""
    notes.remember("Add com.acme:core to pom.xml.", id="a")
    notes.remember("Pin com.acme:core:3.5 in all services.", id="pin")
    report = notes.correct(
        "com.acme:core:3.0 is withdrawn.", deprecates=["com.acme:core:3.0"], id="v30"
    )
    assert report.reached == 0  # no near miss: stored, reaching nothing
    assert notes.hits(["pin"])[0].role == "current"


def test_a_title_before_a_name_is_a_near_miss(memory: nowline.Collection) -> None:
    """Blind4 m14: "Dr Ruairí Ó Briain" where the memories write "Ruairí Ó Briain".

    With its anchors the call reached nothing, and the refusal proposed only another anchor;
    the retry sent the same call. The name without the title is proposed now.
    """
    memory.remember("Ruairí Ó Briain is the clinical lead at the Mbarara site.", id="a")
    memory.remember("Protocol deviations at Mbarara are reported to Ruairí Ó Briain.", id="b")
    before = snapshot(memory)
    with pytest.raises(nowline.Unreached) as refused:
        memory.correct(
            "Dr Aisha Nakato took over from Dr Ruairí Ó Briain at Mbarara.",
            deprecates=["Dr Ruairí Ó Briain"],
            about=["Mbarara"],
        )
    assert refused.value.near_misses == [("Ruairí Ó Briain", 2)]
    assert "Send deprecates=['Ruairí Ó Briain']" in str(refused.value)
    assert snapshot(memory) == before


def test_a_hosts_port_is_not_dropped() -> None:
    """db.acme.io of db.acme.io:5432 names every port of the host: no near miss."""
    from nowline._rules.nearmiss import parts

    assert parts("db.acme.io:5432") == [] and parts("localhost:8080") == []
    assert parts("gcr.io/x/scheduler:1.14") == ["gcr.io/x/scheduler"]

"""What a correction does not cover: the ``not covered:`` label on a current sibling memory.

A correction of ``metalcraftai/ufo`` does not reach ``metalcraftai/ufo-hosted`` (token bounded,
DESIGN §3). A reader told "use ufo-ai/ufo for all UFO work" moved the sibling anyway, so a
current memory that names such a longer name carries a ``not covered:`` line beneath it, when
the correction is shown in the same result. The label never changes a role.
"""

from __future__ import annotations

import pytest

import nowline
from nowline._rules.uncovered import Uncovered, uncovered
from nowline.render import CURRENT_HEADING, LABELS, NOT_COVERED_TEXT, OUTDATED_HEADING, sanitize

UFO = "Use ufo-ai/ufo for all UFO development; metalcraftai/ufo is retired."


def _names(text: str, deprecated: list[str], body: str = "a correction") -> list[str]:
    """Return the longer names the rule finds in ``text`` for one correction."""
    return [u.name for u in uncovered(text, [("c", deprecated, body)])]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("The hosted service lives in metalcraftai/ufo-hosted.", ["metalcraftai/ufo-hosted"]),
        ("clone https://github.com/metalcraftai/ufo-console.git", ["metalcraftai/ufo-console"]),
        ("Metalcraftai/UFO_v2 is a fork.", ["Metalcraftai/UFO_v2"]),
        ("metalcraftai/ufology holds the essays.", ["metalcraftai/ufology"]),
        ("metalcraftai/ufo-a and metalcraftai/ufo-b", ["metalcraftai/ufo-a", "metalcraftai/ufo-b"]),
    ],
)
def test_a_longer_name_that_begins_like_the_string_is_found(text: str, names: list[str]) -> None:
    """The name goes on after the deprecated string: the matcher does not find it there."""
    assert _names(text, ["metalcraftai/ufo"]) == names


@pytest.mark.parametrize(
    "text",
    [
        "metalcraftai/ufo — PR #1705 passed review.",  # the string itself: covered
        "git clone https://github.com/metalcraftai/ufo.git",  # '.' ends a dotless name
        "xmetalcraftai/ufo-hosted is someone else's",  # no boundary before: not the name
        "metalcraftai/ufo/pull/3 was merged",  # '/' ends the name
        "nothing related at all",
    ],
)
def test_the_string_itself_or_an_unrelated_name_is_not(text: str) -> None:
    """Only a name that begins like the string and goes on counts."""
    assert _names(text, ["metalcraftai/ufo"]) == []


def test_a_dotted_string_goes_on_through_dots() -> None:
    """``v1.2`` names ``v1.2.3`` (DESIGN §3, rule 5); the dotless ``acme`` never ``acme.io``."""
    assert _names("pin v1.2.3 for now", ["v1.2"]) == ["v1.2.3"]
    assert _names("billing@oldco.example.net", ["billing@oldco.example"]) == [
        "billing@oldco.example.net"
    ]
    assert _names("see acme.io", ["acme"]) == []


def test_a_name_the_correction_writes_is_left_out() -> None:
    """The correction already says something of its own new value (``acme/app2``)."""
    body = "Renamed acme/app to acme/app2."
    assert _names("acme/app2 deploys nightly", ["acme/app"], body) == []
    assert _names("acme/app-docs deploys nightly", ["acme/app"], body) == ["acme/app-docs"]


def test_each_name_once_with_the_first_correction_that_it_extends() -> None:
    """Two corrections of strings that both begin the name: the first one given labels it."""
    found = uncovered(
        "acme/app-web and acme/app-web",
        [("c1", ["acme/app"], "one"), ("c2", ["acme/app-w"], "two")],
    )
    assert found == [Uncovered("acme/app-web", "acme/app", "c1")]


def test_non_ascii_text_gives_the_folded_name() -> None:
    """Where folding moves offsets, the name is given as the matcher compares it."""
    assert _names("Straße/ufo-Ä läuft", ["strasse/ufo"]) == ["strasse/ufo-ä"]


@pytest.fixture
def broad(memory: nowline.Collection) -> nowline.Collection:
    """Return a store with a stale core memory, two sibling memories and a broad correction."""
    memory.remember("metalcraftai/ufo — PR #1705 passed review.", id="core")
    memory.remember("The hosted UFO service lives in metalcraftai/ufo-hosted.", id="hosted")
    memory.remember("UFO uses Python 3.12.", id="other")
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="fix")
    return memory


def test_recall_labels_the_sibling_and_keeps_it_current(broad: nowline.Collection) -> None:
    """The sibling stays current, with one ``not covered:`` line that names it."""
    hits = {h.id: h for h in broad.recall("UFO repository", n_results=4).hits}
    assert {i: h.role for i, h in hits.items()} == {
        "core": "historical",
        "hosted": "current",
        "other": "current",
        "fix": "transition",
    }
    assert hits["hosted"].not_covered == [
        nowline.NotCovered(
            name="metalcraftai/ufo-hosted", deprecated="metalcraftai/ufo", correction="fix"
        )
    ]
    assert hits["other"].not_covered == [] and hits["core"].not_covered == []
    text = NOT_COVERED_TEXT.format(name="metalcraftai/ufo-hosted")
    assert hits["hosted"].lines() == [("not covered", text)]


def test_the_block_puts_the_label_beneath_the_current_sibling(broad: nowline.Collection) -> None:
    """The sibling is listed under the current memories, its line beneath it."""
    block = broad.recall("UFO repository", n_results=4).render()
    rows = block.splitlines()
    assert rows[1] == OUTDATED_HEADING and CURRENT_HEADING in rows
    at = rows.index("- The hosted UFO service lives in metalcraftai/ufo-hosted.")
    assert at > rows.index(CURRENT_HEADING)
    assert rows[at + 1] == (
        "    not covered: metalcraftai/ufo-hosted did not move; use metalcraftai/ufo-hosted as "
        "written."
    )


def test_a_correction_the_result_does_not_show_labels_nothing(broad: nowline.Collection) -> None:
    """Recalled alone, the sibling shows no label: the reader sees no correction to misapply."""
    (hit,) = broad.hits(["hosted"])
    assert hit.role == "current" and hit.not_covered == []
    only = broad.recall("UFO repository", n_results=4, where={"nowline_role": "current"})
    assert all(not h.not_covered for h in only.hits)


def test_a_recalled_correction_alone_is_enough(broad: nowline.Collection) -> None:
    """With no stale hit, the recalled correction itself is shown, and the sibling is labelled."""
    got = broad.recall("UFO repository", n_results=4, include_historical=False)
    assert {h.id for h in got.hits} == {"hosted", "other", "fix"}
    hosted = next(h for h in got.hits if h.id == "hosted")
    assert [u.name for u in hosted.not_covered] == ["metalcraftai/ufo-hosted"]


def test_the_label_changes_no_stored_role(broad: nowline.Collection) -> None:
    """Stored links and ``where`` filters on roles are as before: the sibling is current."""
    got = broad.raw.get(ids=["hosted"], include=["metadatas"])
    meta = got["metadatas"][0] or {}  # type: ignore[index]
    assert meta.get("nowline_role", "current") == "current"
    assert not meta.get("nowline_by")


def test_a_stored_line_that_reads_as_the_label_is_quoted() -> None:
    """``not covered:`` is one of nowline's labels: stored text cannot forge it."""
    assert "not covered" in LABELS
    assert sanitize("    Not Covered: use acme/app").startswith("(quoted) ")

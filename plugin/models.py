"""The evidence packet, reports and check results that nowline returns (pydantic, JSON-ready)."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from .render import (
    Line,
    Shown,
    annotate_document,
    cap_text,
    correction_lines,
    format_lines,
    not_covered_line,
    render_block,
    sanitize,
)

__all__ = [
    "CURRENT",
    "HISTORICAL",
    "RETRACTED",
    "TRANSITION",
    "CorrectionChange",
    "CorrectionRef",
    "CorrectionReport",
    "CorrectionSummary",
    "Hit",
    "NotCovered",
    "Occurrence",
    "OnExisting",
    "Preview",
    "Recall",
    "RepairReport",
    "Role",
    "Trip",
    "annotated",
    "stale_message",
    "trip_lines",
]

Role = Literal["current", "historical", "transition", "retracted"]
"""A record's role: no active correction supersedes it (current), one does (historical), it is
itself an active correction that nothing supersedes (transition), or it is a correction that was
retracted (retracted)."""

CURRENT: Final = "current"
"""The role of a record that no active correction supersedes."""
HISTORICAL: Final = "historical"
"""The role of a record that an active correction supersedes directly."""
TRANSITION: Final = "transition"
"""The role of an active correction that nothing supersedes."""
RETRACTED: Final = "retracted"
"""The role of a correction that was retracted."""


class OnExisting(str, Enum):
    """What an import does with a line whose id the collection already holds."""

    FAIL = "fail"
    """Refuse the import: the line is bad, and nothing is written (the default)."""
    SKIP = "skip"
    """Leave the stored record as it is and write the other lines."""
    UPSERT = "upsert"
    """Replace the stored record with the line (a correction's reach is then not limited)."""


class _Model(BaseModel):
    """Frozen models that reject unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class _Correction(_Model):
    """What every result model that describes a correction says of it.

    Attributes:
        id: the correction's record id.
        document: its text (what its line shows).
        deprecates: the outdated strings it names.
        about: its anchors (empty when it has none).
        replaced_by: its new values: ``replaced_by`` as written, else the values its text
            states ("from X to Y" gives Y); empty when it states none.
        time: its time, epoch seconds.
    """

    id: str
    document: str
    deprecates: list[str]
    about: list[str] = Field(default_factory=list)
    replaced_by: list[str] = Field(default_factory=list)
    time: float


class CorrectionRef(_Correction):
    """A correction as a hit or a check shows it.

    Attributes:
        id, document, deprecates, about, replaced_by, time: the correction's record id, text,
            outdated strings, anchors, new values and time (as in every model of a correction).
        source: where it came from (its ``source`` metadata, e.g. "github"), or None.
        source_url: a page about its origin (its ``source_url`` metadata), or None.
    """

    source: str | None = None
    source_url: str | None = None

    def shown(self) -> Shown:
        """Return what its line is made of: its id, text and new values."""
        return (self.id, self.document, self.replaced_by)


class NotCovered(_Model):
    """A longer name in a current memory that begins like a shown correction's string.

    The correction does not reach it (DESIGN §3: ``metalcraftai/ufo`` does not occur in
    ``metalcraftai/ufo-hosted``), and the hit's ``not covered:`` line says so, so that a reader
    told "use ufo-ai/ufo for all UFO work" leaves the sibling where it is. A label only: the
    memory stays current. The rule is ``nowline._rules.uncovered``.

    Attributes:
        name: the longer name as the memory writes it (``metalcraftai/ufo-hosted``).
        deprecated: the correction's deprecated string it begins with (``metalcraftai/ufo``).
        correction: the correction's id.
    """

    name: str
    deprecated: str
    correction: str


class Hit(_Model):
    """One recalled memory with its role and the corrections to show beneath it.

    Attributes:
        id: the record's id.
        document: the record's text exactly as stored.
        metadata: the record's metadata as chromadb returns it (nowline's keys left out).
        distance: Chroma's distance to the query (lower is closer).
        role: ``current``, ``historical``, ``transition`` or ``retracted``.
        now: the newest corrections: one per distinct chain, oldest first (empty unless
            historical). These are the ``now:`` lines.
        direct: the corrections that supersede the memory directly (they name its string),
            oldest first. One whose chain moved on is shown as superseded, above the now-lines.
        not_covered: for a current memory, the longer names it writes that begin like a
            deprecated string of a correction shown in the same result, which that correction
            does not reach (:class:`NotCovered`); each is a ``not covered:`` line.
    """

    id: str
    document: str | None
    metadata: dict[str, Any] | None
    distance: float | None
    role: Role
    now: list[CorrectionRef] = Field(default_factory=list)
    direct: list[CorrectionRef] = Field(default_factory=list)
    not_covered: list[NotCovered] = Field(default_factory=list)

    def lines(self) -> list[Line]:
        """Return the labelled lines shown beneath this hit, in order."""
        lines = correction_lines(
            self.role == RETRACTED,
            [c.shown() for c in self.direct],
            [c.shown() for c in self.now],
        )
        return lines + [not_covered_line(u.name) for u in self.not_covered]


class Recall(_Model):
    """An evidence packet: the query and its hits, ready to render or to serialise.

    Attributes:
        query: the text that was recalled.
        as_of: the time the answer is for (epoch seconds), or None for now.
        hits: the hits, closest first.
    """

    query: str
    as_of: float | None = None
    hits: list[Hit]

    def render(self) -> str:
        """Return the context block: each hit, with its now-lines directly beneath it.

        A memory's own text longer than :data:`nowline.render.MAX_HIT_CHARS` is cut, with a
        mark naming its record id; the lines beneath a hit are shown in full.
        """
        return render_block((cap_text(h.document or "", h.id), h.lines()) for h in self.hits)


class Preview(list[str]):
    """What ``preview()`` found: the ids of the records a correction would reach, and more.

    It is the list of ids (a ``list`` subclass: code that treats ``preview()``'s result as a
    list keeps working, and it compares equal to a plain list of the same ids), with two
    attributes that say what ``correct()`` would do with the same strings.

    Attributes:
        near_misses: when the correction reaches no record, the strings the store names that
            it may have meant (a typo's original, or the old value where the new one was
            given), each with how many records it names, most first; else empty.
        refusal: None when ``correct()`` (with its default keywords) would store it; else the
            message it would raise (a generic string, a person's name, a new value, an anchor
            that narrows nothing, a string absent from the text, a reach over the limit, or a
            near miss).
        suggestions: the strings to deprecate that the correction's text and the store
            suggest (its old values, near misses), each with how many records it names, most
            first.
        deprecates: the strings previewed: those given, or, when none were given, those the
            text proposes (its old values that name records).
        about: the anchors previewed: those given, or, when nowline proposed a string that
            needs one (a number, a first name, a person's full name: "03:45 UTC"), the word
            of the text that the memories of that string name ("Tamberlane").
        replaced_by: the new values previewed: those given, or those the text states, or,
            for a change back the words do not state ("the chat is back on
            discord.gg/pintail"), the earlier value the text names that an active
            correction's new value replaced; send them as ``replaced_by``, so the old value
            is current again.
        repeat_of: the id of the correction already stored that this one repeats (the same
            text, strings, anchors and new values, scope and source), which ``correct()``
            would return without writing; else None.
    """

    near_misses: list[tuple[str, int]]
    refusal: str | None
    suggestions: list[tuple[str, int]]
    deprecates: list[str]
    about: list[str]
    replaced_by: list[str]
    repeat_of: str | None

    def __init__(
        self,
        ids: Iterable[str] = (),
        *,
        near_misses: Iterable[tuple[str, int]] = (),
        refusal: str | None = None,
        suggestions: Iterable[tuple[str, int]] = (),
        deprecates: Iterable[str] = (),
        about: Iterable[str] = (),
        replaced_by: Iterable[str] = (),
        repeat_of: str | None = None,
    ) -> None:
        """Create a preview of ``ids`` with its near misses, suggestions and refusal."""
        super().__init__(ids)
        self.near_misses = list(near_misses)
        self.refusal = refusal
        self.suggestions = list(suggestions)
        self.deprecates = list(deprecates)
        self.about = list(about)
        self.replaced_by = list(replaced_by)
        self.repeat_of = repeat_of

    def __repr__(self) -> str:
        """Return the ids with the extra attributes."""
        return (
            f"Preview({list(self)!r}, deprecates={self.deprecates!r}, about={self.about!r}, "
            f"replaced_by={self.replaced_by!r}, "
            f"near_misses={self.near_misses!r}, suggestions={self.suggestions!r}, "
            f"refusal={self.refusal!r}, repeat_of={self.repeat_of!r})"
        )


class CorrectionReport(_Model):
    """What writing a correction did.

    Attributes:
        id: the correction's record id.
        reached: how many other records it supersedes now (linked and persisted).
        seconds: wall time taken to write it and persist its links.
        notes: what nowline changed in it, each in a sentence (an anchor dropped for being
            part of a deprecated string); empty when nothing was.
        stored: False when nothing was written because the same change is already stored
            and stands (the same text, strings, anchors and new values, scope and source):
            ``id`` and ``reached`` are then the standing correction's, and a note says so.
    """

    id: str
    reached: int
    seconds: float
    notes: list[str] = Field(default_factory=list)
    stored: bool = True


class RepairReport(_Model):
    """What ``repair()`` found and persisted.

    Attributes:
        records: records scanned.
        corrections: corrections found (active and retracted).
        updated: records whose stored links or role were changed.
        links_added: links that were missing and are now stored.
        links_removed: stored links that no rule supports and were removed.
        seconds: wall time taken.
    """

    records: int
    corrections: int
    updated: int
    links_added: int
    links_removed: int
    seconds: float


class Occurrence(_Model):
    """Where a deprecated string occurs in a checked text (half-open code-point offsets).

    Attributes:
        phrase: the deprecated string as the correction names it.
        start: offset of the occurrence's first character.
        end: offset just past its last character; ``text[start:end]`` is the occurrence.
    """

    phrase: str
    start: int
    end: int


class Trip(_Model):
    """An active correction that a checked text trips.

    Attributes:
        correction: the correction whose strings occur in the text (directly).
        newest: the newest correction of its chain (itself when nothing supersedes it); what
            the now-line shows.
        occurrences: every occurrence of its strings in the text, ordered by start.
    """

    correction: CorrectionRef
    newest: CorrectionRef
    occurrences: list[Occurrence]

    def lines(self) -> list[Line]:
        """Return the labelled lines this trip shows: the correction, then its newest."""
        return correction_lines(
            False,
            [self.correction.shown()],
            [self.newest.shown()],
        )


class CorrectionSummary(_Correction):
    """One correction of a collection, as ``corrections()`` lists it.

    Attributes:
        id, document, deprecates, about, replaced_by, time: the correction's record id, text,
            outdated strings, anchors, new values and time (as in every model of a correction).
        status: ``active`` or ``retracted``.
        retracted: when it was retracted (epoch seconds), or None.
        reach: how many records store a link to it.
        newest: the id of the newest correction of its chain (itself when nothing supersedes
            it; None when it is retracted).
        source: where it came from (its ``source`` metadata, e.g. "github"), or None.
        source_url: a page about its origin (its ``source_url`` metadata), or None.
    """

    status: Literal["active", "retracted"]
    retracted: float | None = None
    reach: int = 0
    newest: str | None = None
    source: str | None = None
    source_url: str | None = None


class CorrectionChange(_Model):
    """A change of a correction that a wrapper observed (``changes()`` yields these).

    Attributes:
        id: the correction's id.
        kind: ``added``, ``edited`` (its text, strings, anchors, scope or time), ``retracted``
            or ``deleted`` (or no longer a correction).
        time: when this process observed the change (epoch seconds).
    """

    id: str
    kind: Literal["added", "edited", "retracted", "deleted"]
    time: float


# ---------------------------------------------------------------- a checked text's lines


def trip_lines(trips: list[Trip]) -> list[Line]:
    """Return the lines a checked text shows, by the rule of a recalled memory.

    The tripped corrections are its direct ones and their newest its ``now:`` lines
    (:func:`nowline.render.correction_lines`), each oldest first.
    """
    direct = {t.correction.id: t.correction for t in trips}
    newest = {t.newest.id: t.newest for t in trips}

    def texts(refs: Iterable[CorrectionRef]) -> list[Shown]:
        return [r.shown() for r in sorted(refs, key=lambda r: (r.time, r.id))]

    return correction_lines(False, texts(direct.values()), texts(newest.values()))


def stale_message(trips: list[Trip], *, override: str | None = "allow_stale=True") -> str:
    """Return the message for text that trips corrections: what is stale, the lines, what to do.

    Args:
        trips: what ``check()`` returned (not empty).
        override: how the caller's surface runs an action anyway (e.g. ``allow_stale=True``
            for a guarded function), or None when it has no such option.
    """
    names = sorted({o.phrase for t in trips for o in t.occurrences})
    out = [f"Stale reference: {', '.join(repr(n) for n in names)} has been superseded."]
    out += format_lines(trip_lines(trips))
    advice = "Use the current value from the now-line"
    if override:
        advice += (
            f", or pass {override} if the old value is meant (for example when discussing the "
            "change itself)"
        )
    out.append(advice + ".")
    return "\n".join(out)


def annotated(text: str, trips: list[Trip]) -> str:
    """Return ``text`` with the lines of the corrections it trips beneath it (``annotate()``).

    Text that trips nothing comes back sanitized (lines that look like nowline's are quoted).
    """
    return annotate_document(text, trip_lines(trips)) if trips else sanitize(text)

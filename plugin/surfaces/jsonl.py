"""Load memories and corrections from JSON Lines: plan every line, then write the plan.

One JSON object per line: ``text``, and optionally ``id``, ``metadata``, ``observed_at``,
``deprecates`` (a line with deprecates is a correction), ``about`` (its anchors) and
``replaced_by`` (its new values)::

    {"id": "pr", "text": "metalcraftai/ufo: PR #1705 passed review.", "observed_at": "2025-01-01"}
    {"text": "Moved from metalcraftai/ufo to ufo-ai/ufo.", "deprecates": ["metalcraftai/ufo"]}

:func:`plan` validates every line without a store (pure: lines in, a :class:`Plan` out);
:func:`against` checks the plan's ids against a collection, as ``on_existing`` says;
:func:`judge` judges its corrections against the store as :func:`write` would meet them;
:func:`write` judges them so first, then writes in file order, batching runs of plain
memories, and reports progress through a callback. A plan with bad lines is never written, nor
one with a correction the store's guards refuse as the store stands. ``nowline import`` is this
module plus a progress bar.

>>> from nowline import jsonl  # doctest: +SKIP
>>> with open("memories.jsonl", encoding="utf-8") as fh:
...     planned = jsonl.against(jsonl.plan(fh), memory, on_existing="skip")
>>> if not planned.bad:
...     jsonl.write(memory, planned)
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from ..errors import InvalidInput, NowlineError, Repeated, StoreBusy
from ..models import OnExisting
from ..requests import (
    PAGE,
    CorrectionRequest,
    first_naming,
    json_kind,
    parse_line,
    reach_limit,
)

if TYPE_CHECKING:
    from ..collection import Collection

__all__ = [
    "FIRST_BATCH",
    "MAX_BATCH",
    "BadLine",
    "Line",
    "OnExisting",
    "Plan",
    "Stopped",
    "against",
    "judge",
    "plan",
    "read_object",
    "write",
]

FIRST_BATCH = 8
"""Plain memories in the first write (then doubling), so that a progress rate shows early."""

MAX_BATCH = 256
"""The most plain memories one write holds."""


@dataclass(frozen=True)
class Line:
    """A valid line, ready to write.

    Attributes:
        line: its line number in the file (from 1).
        id: the record's id (a new UUID where the line gives none).
        text: the document.
        metadata: the user metadata, or None.
        observed_at: the time the line gives, or None.
        deprecates: the correction's outdated strings; None for a plain memory.
        about: the correction's anchors.
        replaced_by: the correction's new values, if the line gives them (else None).
        exists: the collection already holds the id (written by upsert).
        cleared: the stored record's metadata keys the line does not give (an upsert removes
            them, so that the line replaces the record, as chromadb's own upsert does not).
    """

    line: int
    id: str
    text: str
    metadata: dict[str, Any] | None
    observed_at: str | int | float | None
    deprecates: tuple[str, ...] | None
    about: tuple[str, ...] = ()
    replaced_by: tuple[str, ...] | None = None
    exists: bool = False
    cleared: tuple[str, ...] = ()


@dataclass(frozen=True)
class BadLine:
    """A line that cannot be imported, and why.

    Attributes:
        line: its line number (from 1).
        message: what is wrong with it.
        error: the library's error, when one gave the reason (``AbsentString``,
            ``GenericString``...), so that a surface can add how its own options allow it.
        stored: the line's id is already in the collection (see :class:`OnExisting`).
    """

    line: int
    message: str
    error: NowlineError | None = None
    stored: bool = False


@dataclass(frozen=True)
class Plan:
    """The lines of a file, validated: what to write, what is bad, what is skipped.

    Attributes:
        lines: the valid lines, in file order.
        bad: the bad lines, by line number; a plan with any is never written.
        skipped: lines whose id the collection holds, left alone (``on_existing="skip"``).
    """

    lines: list[Line] = field(default_factory=list)
    bad: list[BadLine] = field(default_factory=list)
    skipped: list[Line] = field(default_factory=list)

    @property
    def corrections(self) -> int:
        """How many of the lines to write are corrections."""
        return sum(1 for p in self.lines if p.deprecates is not None)

    @property
    def memories(self) -> int:
        """How many of the lines to write are plain memories."""
        return len(self.lines) - self.corrections


class Stopped(NowlineError, ValueError):
    """A write failed part-way: the lines before ``line`` were written, none from it on.

    The reason is the ``__cause__`` (a nowline error, e.g. ``CorrectionTooBroad``).

    Attributes:
        line: the first line that was not written.
        written: how many records were written before it.
        refused: the lines the store's guards refused before anything was written (see
            :func:`judge`; ``written`` is then 0, and there is no ``__cause__``).
    """

    def __init__(
        self, message: str, *, line: int, written: int, refused: Iterable[BadLine] = ()
    ) -> None:
        """Create the error for the write that failed at ``line``."""
        super().__init__(message)
        self.line = line
        self.written = written
        self.refused = list(refused)


def read_object(line: str | bytes) -> dict[str, Any]:
    """Return the JSON object on one line of a JSON Lines file.

    The one parser of nowline's line files: the memories of ``nowline import`` (:func:`plan`)
    and the webhook deliveries of ``nowline import --from github-events``
    (:func:`nowline.github_events.read_line`). It reads JSON as Python's ``json`` module
    does, so ``NaN`` (which ``json.dumps`` writes) reaches the checks that say what to do
    about it, and an integer past 64 bits stays exact.

    Args:
        line: the line, with or without its newline (bytes are read as UTF-8, -16 or -32).

    Returns:
        The object, as a dict.

    Raises:
        InvalidInput: the line is not valid JSON (the message says what and at which
            column), is nested too deeply to read, or its value is not an object (the message
            says what it is).
    """
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"not valid JSON ({exc.msg} at column {exc.colno}); each line is one JSON object"
        ) from None
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"not valid JSON (byte {exc.start} is not UTF-8); save the file as UTF-8"
        ) from None
    except RecursionError:
        raise InvalidInput(
            "nested too deeply to read (arrays or objects inside one another, thousands deep); "
            "each line is one flat JSON object"
        ) from None
    if not isinstance(value, dict):
        raise InvalidInput(f"expected a JSON object ({{...}}) on each line, got {json_kind(value)}")
    return value


def _plan_line(number: int, raw: str | bytes, **allow: bool) -> Line:
    """Validate one line with the request layer's rules (:func:`nowline.requests.parse_line`)."""
    got = parse_line(read_object(raw), **allow)
    fixed = got if isinstance(got, CorrectionRequest) else None
    return Line(
        line=number,
        id=got.id if got.id is not None else str(uuid.uuid4()),
        text=got.text,
        metadata=got.metadata,
        observed_at=got.observed_at,
        deprecates=fixed.deprecates if fixed is not None else None,
        about=fixed.about if fixed is not None else (),
        replaced_by=fixed.replaced_by if fixed is not None else None,
    )


def plan(
    lines: Iterable[str | bytes],
    *,
    allow_absent: bool = False,
    allow_generic: bool = False,
    allow_person: bool = False,
) -> Plan:
    """Validate every line, without a store; blank lines are skipped.

    Each line is checked as the collection's own verbs would check it: its fields and their
    types, the metadata (:func:`nowline.check_metadata`), its time, a correction's strings
    and anchors (:func:`nowline.validate_correction`), and an id used twice in the file.

    Args:
        lines: the file's lines (an open file will do; read as bytes, a line that is not
            UTF-8 is a bad line with its number, and a byte order mark is read past).
        allow_absent: accept deprecated strings that do not occur in their correction's text.
        allow_generic: accept generic deprecated strings without an anchor.
        allow_person: accept a person's full name without an anchor.

    Returns:
        The plan: the valid lines and the bad ones, each with its line number.
    """
    good: list[Line] = []
    bad: list[BadLine] = []
    first_use: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            item = _plan_line(
                number,
                raw,
                allow_absent=allow_absent,
                allow_generic=allow_generic,
                allow_person=allow_person,
            )
        except InvalidInput as exc:
            bad.append(BadLine(number, str(exc).rstrip("."), exc))
            continue
        if item.id in first_use:
            bad.append(
                BadLine(number, f"id {item.id!r} is already used on line {first_use[item.id]}")
            )
            continue
        first_use[item.id] = number
        good.append(item)
    return Plan(lines=good, bad=bad)


def against(
    planned: Plan, collection: Collection | None, on_existing: OnExisting | str = OnExisting.FAIL
) -> Plan:
    """Return the plan checked against the ids a collection already holds.

    Args:
        planned: the plan of :func:`plan`.
        collection: the collection to import into; None for a store that does not exist yet
            (nothing is there to clash with).
        on_existing: ``fail`` (a line whose id is stored is bad; the message names the other
            two), ``skip`` (leave the stored record; the line is listed in ``skipped``) or
            ``upsert`` (replace the stored record with the line).

    Raises:
        InvalidInput: ``on_existing`` is none of the three.
    """
    try:
        mode = OnExisting(on_existing)
    except ValueError:
        raise InvalidInput(
            f"on_existing must be one of {', '.join(m.value for m in OnExisting)}, not "
            f"{on_existing!r}."
        ) from None
    if collection is None or not planned.lines:
        return planned
    ids = [p.id for p in planned.lines]
    stored: dict[str, set[str]] = {}
    include: Any = ["metadatas"] if mode is OnExisting.UPSERT else []
    for i in range(0, len(ids), PAGE):
        got = collection.get(ids=ids[i : i + PAGE], include=include)
        metas: list[Any] = list(got.get("metadatas") or ())
        metas += [None] * (len(got["ids"]) - len(metas))
        stored.update((rid, set(meta or ())) for rid, meta in zip(got["ids"], metas, strict=True))
    existing = set(stored)
    if not existing:
        return planned
    if mode is OnExisting.FAIL:
        clashes = [
            BadLine(
                p.line,
                f"id {p.id!r} is already in the collection (skip such lines, or upsert them "
                "to replace the stored records)",
                stored=True,
            )
            for p in planned.lines
            if p.id in existing
        ]
        return replace(planned, bad=sorted([*planned.bad, *clashes], key=lambda b: b.line))
    if mode is OnExisting.SKIP:
        return replace(
            planned,
            lines=[p for p in planned.lines if p.id not in existing],
            skipped=[*planned.skipped, *(p for p in planned.lines if p.id in existing)],
        )

    def replacing(p: Line) -> Line:
        if p.id not in existing:
            return p
        kept = set(_metadata(p) or ())
        return replace(p, exists=True, cleared=tuple(sorted(stored[p.id] - kept)))

    return replace(planned, lines=[replacing(p) for p in planned.lines])


def judge(
    collection: Collection,
    planned: Plan,
    *,
    allow_absent: bool = False,
    allow_generic: bool = False,
    allow_person: bool = False,
    max_reach: float | int | str | None = "default",
    allow_unreached: bool = False,
) -> list[BadLine]:
    """Return the correction lines that the store's guards would refuse, writing nothing.

    The dry run of :func:`write`: each correction line (not one that ``upsert`` replaces) is
    judged with ``Collection.preview()`` and the keywords :func:`write` passes to
    ``correct()``, against the store as it stands. The file's earlier lines are not in the
    store yet, so the verdicts lean to accepting: a reach limit given as a share is taken of
    the store and every line before the correction, and a correction whose strings an
    earlier line names is not judged as reaching nothing or as naming an absent string. A
    refusal here is one the import would meet. What the earlier lines' own corrections
    change (a value one of them made current, a repeat of one of them) is judged only as
    the lines are written, and so is every line after one that replaces a stored record
    (``exists``: the store then differs from what a preview reads).

    Args:
        collection: the collection the plan would be written to.
        planned: a plan without bad lines (see :func:`plan` and :func:`against`).
        allow_absent: as for :func:`write`.
        allow_generic: as for :func:`write`.
        allow_person: as for :func:`write`.
        max_reach: as for :func:`write`.
        allow_unreached: as for :func:`write`.

    Returns:
        One :class:`BadLine` for each line that would be refused, in file order, with the
        refusal ``correct()`` would give.
    """
    setting = collection.options["max_reach"] if max_reach == "default" else max_reach
    total = collection.count() if isinstance(setting, float) else 0
    first_named = _first_naming_lines(planned.lines)
    refused: list[BadLine] = []
    for before, p in enumerate(planned.lines):
        if p.exists:
            break
        if p.deprecates is None:
            continue
        earlier = first_named.get(before, before) < before
        limit = reach_limit(setting, total + before) if isinstance(setting, float) else setting
        verdict = collection.preview(
            list(p.deprecates),
            about=list(p.about) or None,
            metadata=p.metadata,
            text=p.text,
            replaced_by=None if p.replaced_by is None else list(p.replaced_by),
            allow_absent=allow_absent or earlier,
            allow_generic=allow_generic,
            allow_person=allow_person,
            max_reach=cast(Any, limit),
            allow_unreached=allow_unreached or earlier,
        )
        if verdict.refusal is not None:
            refused.append(BadLine(p.line, verdict.refusal.rstrip(".")))
    return refused


def _first_naming_lines(lines: list[Line]) -> dict[int, int]:
    """Return, for each correction (by its index), the index of the first line naming it."""
    corrections = [(p.deprecates, p.replaced_by) if p.deprecates else None for p in lines]
    return first_naming(corrections, [p.text for p in lines])


def write(
    collection: Collection,
    planned: Plan,
    *,
    allow_absent: bool = False,
    allow_generic: bool = False,
    allow_person: bool = False,
    max_reach: float | int | str | None = "default",
    allow_unreached: bool = False,
    progress: Callable[[int], None] | None = None,
    repeated: Callable[[int, str], None] | None = None,
    judge_first: bool = True,
) -> int:
    """Write a plan in file order, batching runs of plain memories; return records written.

    First every correction line is judged against the store (:func:`judge`); where the
    store's guards would refuse one, nothing is written. Then a correction is written with
    ``Collection.correct()`` and its guards; a line whose id
    the collection holds (``exists``, from :func:`against` with ``upsert``) with
    ``Collection.upsert()``. A correction that repeats one the collection holds and that
    stands (``CorrectionReport.stored`` False, or ``Repeated`` for an upsert) writes
    nothing, is not counted, and is passed to ``repeated``.

    Args:
        collection: the collection to write to.
        planned: a plan without bad lines.
        allow_absent: passed to ``correct()``.
        allow_generic: passed to ``correct()``.
        allow_person: passed to ``correct()``.
        max_reach: passed to ``correct()``: a share, a count, None (no limit) or
            ``"default"`` (the collection's own setting).
        allow_unreached: passed to ``correct()``.
        progress: called with the number of lines each write handled.
        repeated: called with the line number and the standing correction's id for each
            correction line that repeats one (nothing was written for it).
        judge_first: judge the corrections before writing (False: only as each is written).

    Raises:
        InvalidInput: the plan has bad lines (nothing is written).
        Stopped: the store's guards refused correction lines before anything was written
            (``refused`` lists them), or a write was refused part-way (its ``__cause__``
            says why; the lines before it are written).
        StoreBusy: another process writes to the local store.
    """
    if planned.bad:
        raise InvalidInput(
            f"The plan has {len(planned.bad)} bad lines; fix them first (nothing was written)."
        )
    if judge_first:
        refused = judge(
            collection,
            planned,
            allow_absent=allow_absent,
            allow_generic=allow_generic,
            allow_person=allow_person,
            max_reach=max_reach,
            allow_unreached=allow_unreached,
        )
        if refused:
            raise Stopped(
                "; ".join(f"line {b.line}: {b.message}" for b in refused),
                line=refused[0].line,
                written=0,
                refused=refused,
            )
    written = 0
    batch: list[Line] = []
    size = FIRST_BATCH

    def done(count: int, stored: int | None = None) -> None:
        nonlocal written
        written += count if stored is None else stored
        if progress is not None:
            progress(count)

    def stop(first: Line, last: Line, exc: NowlineError) -> Stopped:
        where = f"line {first.line}" if first is last else f"lines {first.line}-{last.line}"
        return Stopped(f"{where}: {exc}", line=first.line, written=written)

    def flush() -> None:
        nonlocal size
        if not batch:
            return
        metas = [_metadata(p) for p in batch]
        try:
            (collection.upsert if any(p.exists for p in batch) else collection.add)(
                ids=[p.id for p in batch],
                documents=[p.text for p in batch],
                metadatas=cast(Any, metas) if any(metas) else None,
            )
        except StoreBusy:
            raise
        except NowlineError as exc:
            raise stop(batch[0], batch[-1], exc) from exc
        done(len(batch))
        batch.clear()
        size = min(MAX_BATCH, size * 2)

    for p in planned.lines:
        if p.deprecates is None:
            batch.append(p)
            if len(batch) >= size:
                flush()
            continue
        flush()
        try:
            if p.exists:
                collection.upsert(ids=[p.id], documents=[p.text], metadatas=[_metadata(p) or {}])
                standing = None
            else:
                report = collection.correct(
                    p.text,
                    deprecates=list(p.deprecates),
                    id=p.id,
                    metadata=p.metadata,
                    observed_at=p.observed_at,
                    about=list(p.about) or None,
                    replaced_by=None if p.replaced_by is None else list(p.replaced_by),
                    allow_absent=allow_absent,
                    allow_generic=allow_generic,
                    allow_person=allow_person,
                    max_reach=cast(Any, max_reach),
                    allow_unreached=allow_unreached,
                )
                standing = None if report.stored else report.id
        except Repeated as exc:  # an upsert that would turn its record into a twin: left as is
            standing = exc.standing
        except StoreBusy:
            raise
        except NowlineError as exc:
            raise stop(p, p, exc) from exc
        if standing is not None and repeated is not None:
            repeated(p.line, standing)
        done(1, int(standing is None))
    flush()
    return written


def _metadata(line: Line) -> dict[str, Any] | None:
    """Return the metadata a line is stored with (its time and a correction's fields too).

    The keys it ``cleared`` are None: an upsert removes them.
    """
    meta: dict[str, Any] = dict.fromkeys(line.cleared)
    meta.update(line.metadata or {})
    if line.observed_at is not None:
        meta["observed_at"] = line.observed_at
    if line.deprecates is not None:
        meta["deprecates"] = list(line.deprecates)
        if line.about:
            meta["about"] = list(line.about)
        if line.replaced_by:
            meta["replaced_by"] = list(line.replaced_by)
    return meta or None

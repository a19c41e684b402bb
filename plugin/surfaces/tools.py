"""Memory tools for a model: input models, JSON schemas and one dispatcher.

The six tools (``remember``, ``correct``, ``recall``, ``preview``, ``check``, ``retract``) are
defined once here, as pydantic models with descriptions written for a model to read. The MCP server
(:mod:`nowline.mcp_server`), the function-calling schemas of :mod:`nowline.prompts` and any
hand-written agent loop all use these models, so the schemas cannot drift apart, and
:func:`run_tool` executes a call the same way everywhere. Each tool's runner is written once, as
a generator of the collection calls it needs (the pattern of the collections' own read and
write paths): :func:`run_tool` makes those calls on a :class:`nowline.Collection`, and
:func:`run_tool_async` awaits them on a :class:`nowline.AsyncCollection`.

:func:`corrections_json` lists the corrections as ``nowline corrections --json`` prints them
(the MCP server's resource ``nowline://corrections``).

This module needs only pydantic and nowline itself (no typer, rich or mcp).

>>> from nowline.tools import run_tool  # doctest: +SKIP
>>> result = run_tool(memory, "correct", {"body": "Moved from a/b to c/d.", "deprecates": ["a/b"]})
>>> result.is_error, result.text
(False, 'Stored correction ...')

A collection shared by several users (a ``scope_key``) is served one scope at a time: pass
``metadata={"user_id": "alice"}`` to :func:`run_tool`, and every tool writes, reads and checks
in that scope only.

A store is opened with :func:`nowline.stores.open_collection` (a folder, a server URL or a client).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from ..aio import AsyncCollection
from ..collection import Collection
from ..errors import InvalidCorrection, InvalidInput, NowlineError, StoreBusy, UnknownRecord
from ..matchers import fold
from ..models import CURRENT, CorrectionReport, CorrectionSummary, Recall, Trip, stale_message
from ..render import MAX_HIT_CHARS, format_lines, iso_times, json_text, one_line, sanitize
from ..requests import (
    MAX_PHRASE_LENGTH,
    MAX_PHRASES,
    PAGE,
    CorrectionRequest,
    drive,
    drive_async,
    in_scope,
    reserved_key,
    scope_needed,
    scope_value_steps,
    to_epoch,
)
from ..stores import DEFAULT_COLLECTION, TOKEN_HEADERS
from ..terms import TOOL_TERMS, using

__all__ = [
    "DEFAULT_COLLECTION",
    "TOKEN_HEADERS",
    "TOOLS",
    "CheckInput",
    "CheckOutput",
    "CorrectInput",
    "PreviewInput",
    "PreviewOutput",
    "PreviewRecord",
    "RecallInput",
    "RememberInput",
    "RememberOutput",
    "RetractInput",
    "RetractOutput",
    "ToolResult",
    "ToolSpec",
    "corrections_json",
    "corrections_json_async",
    "input_schema",
    "message_note",
    "message_note_async",
    "output_schema",
    "refusal_text",
    "run_tool",
    "run_tool_async",
]


_T = TypeVar("_T")

_PREVIEW_SHOWN = 20  # records listed in a preview result

_Phrase = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
_DEPRECATES_HELP = (
    "The old values, copied exactly (a repository, URL, channel, email address, host, name or "
    "number). Never the new value. Each must appear in body."
)
_ABOUT_HELP = (
    "Usually empty. Only when an old value is a person's name, a first name, a common word or "
    "a number: the role or subject that changed, copied from body. Never a part of an old "
    "value."
)
_Anchors = list[Annotated[_Phrase, StringConstraints(max_length=MAX_PHRASE_LENGTH)]]
_REPLACED_BY_HELP = "The new values: what is true now."


class _Input(BaseModel):
    """Tool inputs: unknown fields are errors, so a misspelt argument never vanishes.

    A text field whose value is its own description (a small model copies the schema into
    the call: 2 of 34 ``correct`` calls on the writer benchmark's dev cases) is refused: stored,
    that description would be shown beneath memories as if it were the change.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="after")
    def _not_the_schema(self) -> _Input:
        for name, spec in type(self).model_fields.items():
            value = getattr(self, name)
            described = spec.description
            if isinstance(value, str) and described and value.strip() == described.strip():
                raise ValueError(
                    f"{name} is this field's description, copied from the schema, not a value: "
                    f"write the {name} itself"
                )
        return self


class RememberInput(_Input):
    """Arguments of ``remember``."""

    body: str = Field(
        min_length=1,
        description=(
            "The memory, one self-contained fact in one or two sentences. Name things "
            "exactly (full repository slugs, URLs, channel names, email addresses), so a "
            "later correction can find this memory."
        ),
    )


class CorrectInput(_Input):
    """Arguments of ``correct``."""

    body: str = Field(
        min_length=1,
        description=(
            "The change in one or two sentences that name the old and the new value (the "
            "user's own words are best). Shown beneath every outdated memory."
        ),
    )
    deprecates: list[Annotated[_Phrase, StringConstraints(max_length=MAX_PHRASE_LENGTH)]] = Field(
        min_length=1, max_length=MAX_PHRASES, description=_DEPRECATES_HELP
    )
    replaced_by: _Anchors = Field(
        default_factory=list, max_length=MAX_PHRASES, description=_REPLACED_BY_HELP
    )
    about: _Anchors = Field(default_factory=list, max_length=MAX_PHRASES, description=_ABOUT_HELP)
    # No allow_unreached: measured on the writer benchmark, a small model set it on 12 retries
    # after a refusal; 8 stored a wrong correction (5 with the new value deprecated), and the 4
    # right ones did not need it. A correction with no near miss is stored anyway.

    @model_validator(mode="before")
    @classmethod
    def _body_from_the_values(cls, data: Any) -> Any:
        """Write ``body`` from the old and new values where the call copied its description.

        A small model copies the schema's description into ``body`` (9 of 30 calls of the
        act task) while it fills ``deprecates`` and ``replaced_by`` right; stored, the
        description would be shown beneath memories as the change. Where both lists are
        given, the text says the change ("Changed from A to B."), leaving out of the old
        values those also given as new (as ``correct()`` drops them); without ``replaced_by``,
        or where every old value is also given as new (a text made of the lists would guess
        which is old), the call is refused (:meth:`_Input._not_the_schema`).
        """
        if not isinstance(data, dict):
            return data
        body, olds, news = data.get("body"), data.get("deprecates"), data.get("replaced_by")
        described = cls.model_fields["body"].description or ""
        if not (isinstance(body, str) and body.strip() == described.strip()):
            return data
        if not (isinstance(olds, list) and olds and all(isinstance(v, str) for v in olds)):
            return data
        if not (isinstance(news, list) and news and all(isinstance(v, str) for v in news)):
            return data
        new = {fold(v) for v in news}
        olds = [v for v in olds if fold(v) not in new]  # a value given as both is the new one
        if not olds:
            return data  # which is old is not known: a text made of the two lists would guess
        return {**data, "body": f"Changed from {' and '.join(olds)} to {' and '.join(news)}."}


class RecallInput(_Input):
    """Arguments of ``recall``."""

    # Measured on the writer benchmark: asked for "a few words", a small model that recalled
    # where it should have corrected sent "Slack rename", so the answer's change hint (which
    # reads the query) had nothing to point at; in the user's words it does.
    query: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)] = Field(
        description="What to recall: the user's own words, or a question."
    )
    k: int = Field(default=5, ge=1, le=50, description="How many memories to return.")
    as_of: str | None = Field(
        default=None,
        description=(
            "Leave empty to recall what is true now. To see what was known at a past time, "
            "give that time as ISO 8601 ('2025-03-01' or '2025-03-01T12:00:00Z')."
        ),
    )


class PreviewInput(_Input):
    """Arguments of ``preview``."""

    deprecates: list[Annotated[_Phrase, StringConstraints(max_length=MAX_PHRASE_LENGTH)]] = Field(
        default_factory=list,
        max_length=MAX_PHRASES,
        description="The outdated strings a correction would name (leave empty to have them "
        "proposed from body). " + _DEPRECATES_HELP,
    )
    replaced_by: _Anchors = Field(
        default_factory=list, max_length=MAX_PHRASES, description=_REPLACED_BY_HELP
    )
    about: _Anchors = Field(default_factory=list, max_length=MAX_PHRASES, description=_ABOUT_HELP)
    body: str | None = Field(
        default=None,
        description=(
            "The correction's body, if already written: the old values it states are proposed "
            "and counted, and its other strings are checked too."
        ),
    )


class RetractInput(_Input):
    """Arguments of ``retract``."""

    id: str = Field(
        min_length=1,
        description="The id of the wrong correction, as returned by correct.",
    )


class CheckInput(_Input):
    """Arguments of ``check``."""

    text: str = Field(
        min_length=1,
        description=(
            "The text to check before acting on it: a planned command or tool call, a URL, a "
            "repository or account name you remembered, a plan, a cached tool result."
        ),
    )


class CheckOutput(BaseModel):
    """What ``check`` found.

    Attributes:
        trips: the active corrections whose outdated strings occur in the text.
    """

    trips: list[Trip] = Field(default_factory=list)


class RememberOutput(BaseModel):
    """What ``remember`` stored.

    Attributes:
        id: the new memory's id.
        superseded_by: ids of stored corrections that already mark it as outdated.
    """

    id: str
    superseded_by: list[str] = Field(default_factory=list)


class PreviewRecord(BaseModel):
    """One record a correction would reach."""

    id: str
    document: str | None


class PreviewOutput(BaseModel):
    """What a correction naming these strings would reach.

    Attributes:
        deprecates: the strings that were checked.
        about: the anchors that were checked: those given, or the one proposed with a
            proposed string that needs one (a number, a first name).
        count: how many records the correction would mark as outdated.
        records: the first of them, with their text.
        near_misses: when it would mark none, strings the memories name that were perhaps
            meant (a typo's original, or the old value where the new one was given), with
            how many memories name each.
        refusal: why ``correct`` would refuse these strings, or None.
        suggestions: strings to deprecate that the body states as old, or that the memories
            name nearly, each with how many memories it names.
        repeat_of: the id of the stored correction that already tells this change
            (``correct`` would store nothing), or None.
    """

    deprecates: list[str]
    about: list[str] = Field(default_factory=list)
    count: int
    records: list[PreviewRecord]
    near_misses: list[tuple[str, int]] = Field(default_factory=list)
    refusal: str | None = None
    suggestions: list[tuple[str, int]] = Field(default_factory=list)
    repeat_of: str | None = None


class RetractOutput(BaseModel):
    """What ``retract`` did.

    Attributes:
        id: the correction's id.
        already_retracted: it had been retracted before; nothing changed.
    """

    id: str
    already_retracted: bool = False


@dataclass(frozen=True)
class ToolSpec:
    """One memory tool: its name, what it is for, and its input and output models."""

    name: str
    description: str
    input_model: type[BaseModel]
    output_model: type[BaseModel]


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "remember",
        "Store a new fact in long-term memory. Use it for facts that will matter later "
        "(where things live, who owns what, decisions, preferences). If the fact replaces "
        "something stored earlier, use correct instead.",
        RememberInput,
        RememberOutput,
    ),
    ToolSpec(
        "correct",
        "Store a change: something stored earlier is no longer true (moved, renamed, replaced, "
        "a new owner or value). Nothing is deleted: every memory that contains a deprecates "
        "string is shown with this correction beneath it. If it refuses, nothing was stored; "
        "its message says what to send instead.",
        CorrectInput,
        CorrectionReport,
    ),
    ToolSpec(
        "recall",
        "Recall the stored memories closest to a query. An outdated memory comes with a line "
        "starting with 'now:' directly beneath it: that is the newest correction, and it "
        "overrides the memory above it. Recall before acting on names, places, accounts or "
        "URLs learned earlier.",
        RecallInput,
        Recall,
    ),
    ToolSpec(
        "preview",
        "Check, without storing anything, which memories a correction with these deprecates "
        "(and about) strings would mark as outdated. Use it before correct when a string "
        "might be too broad.",
        PreviewInput,
        PreviewOutput,
    ),
    ToolSpec(
        "check",
        "Check a text against the stored corrections before acting on it: call it with the "
        "exact command, URL or name you are about to use (especially a repository, URL, "
        "channel or account you remember). If it names something outdated, the result gives "
        "the correction with the current value; use that instead.",
        CheckInput,
        CheckOutput,
    ),
    ToolSpec(
        "retract",
        "Undo a wrong correction by its id: the memories it covered read as current again, "
        "and the correction stays in memory marked as retracted.",
        RetractInput,
        RetractOutput,
    ),
)
"""The memory tools, in the order they are offered to a model."""

_BY_NAME = {t.name: t for t in TOOLS}


def _strip_titles(schema: Any) -> Any:
    """Return a JSON schema without pydantic's ``title`` keys (noise for a model)."""
    if isinstance(schema, list):
        return [_strip_titles(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in ("properties", "$defs") and isinstance(value, dict):
            out[key] = {name: _strip_titles(sub) for name, sub in value.items()}
        else:
            out[key] = _strip_titles(value)
    return out


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """Return the JSON schema of a tool's input model, as every surface offers it.

    Args:
        model: one of the ``*Input`` models of :data:`TOOLS`.

    Returns:
        An object schema (``type``, ``properties``, ``required``,
        ``additionalProperties: false``) without titles.
    """
    schema = dict(_strip_titles(model.model_json_schema(mode="validation")))
    schema.pop("description", None)  # the model's docstring; the tool has its own description
    return schema


def output_schema(model: type[BaseModel]) -> dict[str, Any]:
    """Return the JSON schema of a tool's structured result."""
    return dict(_strip_titles(model.model_json_schema(mode="serialization")))


class ToolResult(BaseModel):
    """The result of one tool call, ready for any transport.

    Attributes:
        name: the tool that was called.
        text: what to show the model (the rendered context block for ``recall``).
        data: the structured result (the evidence packet for ``recall``), or None on error.
        is_error: the call failed; ``text`` says why and what to do.
    """

    model_config = ConfigDict(frozen=True)

    name: str
    text: str
    data: dict[str, Any] | None = None
    is_error: bool = False


def run_tool(
    collection: Collection,
    name: str,
    arguments: Mapping[str, Any] | None,
    *,
    metadata: Mapping[str, Any] | None = None,
) -> ToolResult:
    """Validate a model's tool call and run it against a nowline collection.

    Mistakes the model can fix (unknown tool, bad arguments, a correction that a guard
    refuses, an unknown id) come back as a result with ``is_error`` set and a message that
    names only the tool's own fields, never as an exception.

    Args:
        collection: the nowline collection the tools act on.
        name: the tool's name, one of :data:`TOOLS`.
        arguments: the call's arguments (a JSON object).
        metadata: binds the call to a scope, e.g. ``{"user_id": "alice"}``: ``remember``
            and ``correct`` store it with the record, ``recall`` sees only records that
            carry it, ``preview`` and ``check`` use that scope's corrections, and
            ``retract`` reaches only corrections that carry it. Required (with the key) on a
            collection that has a ``scope_key``. Each value is typed as the store holds it
            (:func:`nowline.requests.scope_value`): ``"42"`` binds the user 42 of a store
            whose records hold the number.

    Returns:
        A :class:`ToolResult`.

    Raises:
        InvalidInput: ``metadata`` is not a mapping of metadata keys to str, int, float or
            bool values (a mistake of the program, not of the model), or the store holds a
            value both ways (``42`` and ``"42"``).
    """
    with using(TOOL_TERMS):
        return drive(_tool_steps(collection, name, arguments, metadata), _on(collection))


async def run_tool_async(
    collection: AsyncCollection,
    name: str,
    arguments: Mapping[str, Any] | None,
    *,
    metadata: Mapping[str, Any] | None = None,
) -> ToolResult:
    """Run a model's tool call against an async collection, as :func:`run_tool` does.

    Both run the same tool runners (each a generator of the collection calls it needs, as
    the collections' own read and write paths are), so the validation, messages and results
    are the same; here each call is awaited, and calls of concurrent tool calls interleave.

    Args:
        collection: the async nowline collection the tools act on.
        name: the tool's name, one of :data:`TOOLS`.
        arguments: the call's arguments (a JSON object).
        metadata: the scope binding (see :func:`run_tool`).

    Returns:
        A :class:`ToolResult`.

    Raises:
        InvalidInput: ``metadata`` is not a valid scope binding (a mistake of the program).
    """
    with using(TOOL_TERMS):
        return await drive_async(
            _tool_steps(collection, name, arguments, metadata), _on(collection)
        )


def corrections_json(collection: Collection, *, metadata: Mapping[str, Any] | None = None) -> str:
    """Return the corrections as ``nowline corrections --json`` prints them (without its newline).

    The MCP server's resource ``nowline://corrections`` reads this. Each correction is its
    :class:`nowline.CorrectionSummary`, oldest first, with its times as ISO 8601 in UTC and
    the epoch seconds beside them (``time_epoch``, ``retracted_epoch``); characters that
    could reorder or hide text in a terminal (bidi and C1 controls) are written as JSON
    unicode escapes.

    Args:
        collection: the nowline collection.
        metadata: a scope binding (see :func:`run_tool`): only the corrections whose metadata
            holds it are listed (:func:`nowline.in_scope`), so a server bound to one scope
            never shows another's.

    Returns:
        The JSON text of a list of objects.

    Raises:
        InvalidInput: ``metadata`` is not a valid scope binding.
    """
    return drive(_corrections_steps(_binding(metadata)), _on(collection))


async def corrections_json_async(
    collection: AsyncCollection, *, metadata: Mapping[str, Any] | None = None
) -> str:
    """Return the corrections of an async collection as :func:`corrections_json` does."""
    return await drive_async(_corrections_steps(_binding(metadata)), _on(collection))


def message_note(
    collection: Collection, message: str, *, metadata: Mapping[str, Any] | None = None
) -> str:
    """Return a note for the model when a user's message states a change no correction holds.

    An agent loop (or the ``UserPromptSubmit`` hook of ``nowline hook``) calls this with each
    message the user sends, before the model answers, and adds a non-empty note to the
    model's context. A model told of a change tends to ``recall`` a few words of it first, and
    a few words are not enough to read the change from; the whole message is. The note is the
    line ``recall`` and ``remember`` add for a text that states a change: the strings to
    deprecate (read from the message and found in memories that are still current), the new
    values, and the ``correct`` call that stores it. A message that states no change, or only
    one that a correction already holds, gets "" (nothing to add).

    Args:
        collection: the nowline collection the tools act on.
        message: the user's message, as they wrote it.
        metadata: the scope binding (see :func:`run_tool`).

    Returns:
        The note, or "".

    Raises:
        InvalidInput: ``metadata`` is not a valid scope binding, or the collection keeps its
            users apart (a ``scope_key``) and ``metadata`` does not bind one.
    """
    with using(TOOL_TERMS):
        return drive(_note_steps(collection, message, metadata), _on(collection))


async def message_note_async(
    collection: AsyncCollection, message: str, *, metadata: Mapping[str, Any] | None = None
) -> str:
    """Return the note of :func:`message_note` for a message, on an async collection."""
    with using(TOOL_TERMS):
        return await drive_async(_note_steps(collection, message, metadata), _on(collection))


def _note_steps(
    collection: Collection | AsyncCollection, message: str, metadata: Mapping[str, Any] | None
) -> _Steps[str]:
    """Read the change a user's message states, as the note for the model (or "")."""
    if not isinstance(message, str):
        raise InvalidInput(f"the message must be a str, not {type(message).__name__}.")
    binding = yield from _typed(_binding(metadata))
    key = scope_needed(collection.scope_key, collection.scope_keys, binding)
    if key is not None:
        raise InvalidInput(
            f"this memory keeps its users' memories apart by {key!r}: give "
            f"metadata={{{key!r}: <value>}} for the user whose message it is."
        )
    if not message.strip():
        return ""
    # a note's wording that asks the model to tell a plan, a log or a quote apart was tried
    # ("Only if the user says that this changed (not a plan, ...)"): the writer benchmark's
    # model stored a false note's correction 19 times of 19 either way (bench/reader.md)
    hint = yield from _change_hint(message, binding, lead="nowline: the user's message states")
    return hint


@dataclass(frozen=True)
class _Call:
    """One call of a collection method that a tool runner needs: its name and arguments."""

    method: str
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)


_Steps = Generator[_Call, Any, _T]
"""A tool runner: it yields the collection calls it needs and receives their results; a
failed call is thrown into it (:func:`nowline.drive`, the loop of the collections' own flows).
:func:`run_tool` makes the calls, :func:`run_tool_async` awaits them."""


def _call(method: str, *args: Any, **kwargs: Any) -> _Steps[Any]:
    """Ask the driver for ``collection.<method>(*args, **kwargs)``; return its result."""
    return (yield _Call(method, args, kwargs))


def _on(collection: Collection | AsyncCollection) -> Callable[[_Call], Any]:
    """Return how the driver makes a runner's calls on ``collection`` (awaitables if async)."""
    return lambda call: getattr(collection, call.method)(*call.args, **call.kwargs)


def _corrections_steps(binding: dict[str, Any]) -> _Steps[str]:
    """List the corrections (those in the binding's scope) as the JSON text of the CLI."""
    binding = yield from _typed(binding)
    rows: list[CorrectionSummary] = yield from _call("corrections")
    if binding:
        ids = [r.id for r in rows]
        held: set[str] = set()
        for start in range(0, len(ids), PAGE):
            got = yield from _call("get", ids=ids[start : start + PAGE], include=["metadatas"])
            metas = got["metadatas"] or []
            held |= {i for i, m in zip(got["ids"], metas, strict=True) if in_scope(m, binding)}
        rows = [r for r in rows if r.id in held]
    return json_text(iso_times([r.model_dump(mode="json") for r in rows]))


def _tool_steps(
    collection: Collection | AsyncCollection,
    name: str,
    arguments: Mapping[str, Any] | None,
    metadata: Mapping[str, Any] | None,
) -> _Steps[ToolResult]:
    """Validate a tool call, run its runner and turn what it raised into the result."""
    binding = yield from _typed(_binding(metadata))
    spec = _BY_NAME.get(name)
    if spec is None:
        known = ", ".join(t.name for t in TOOLS)
        return ToolResult(
            name=name, text=f"Unknown tool {name!r}; the tools are: {known}.", is_error=True
        )
    key = scope_needed(collection.scope_key, collection.scope_keys, binding)
    if key is not None:
        return ToolResult(
            name=name,
            text=f"{name} failed: this memory keeps its users' memories apart by {key!r}, and "
            f"the tools were set up without one (metadata={{{key!r}: <value>}}), so nothing "
            "was read or written. Tell the user the memory tools need to be set up for one "
            f"{key}.",
            is_error=True,
        )
    try:
        args = spec.input_model.model_validate(dict(arguments or {}))
    except ValidationError as exc:
        return ToolResult(name=name, text=_explain(name, exc), is_error=True)
    try:
        text, data = yield from _RUNNERS[name](args, binding)
    except _ToolError as exc:
        return ToolResult(name=name, text=f"{name} failed: {exc}", is_error=True)
    except StoreBusy:
        return ToolResult(
            name=name,
            text=f"{name} failed: another program is writing to this memory's store, so "
            "nothing was stored. Tell the user: the memory store is busy (several programs "
            "that write to one store need a Chroma server).",
            is_error=True,
        )
    except NowlineError as exc:
        return ToolResult(name=name, text=f"{name} failed: {exc}", is_error=True)
    return ToolResult(name=name, text=text, data=data.model_dump(mode="json"))


class _ToolError(Exception):
    """A mistake in a tool call, with a message that names only the tool's fields."""


def _binding(metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return the scope binding of :func:`run_tool`, validated."""
    if metadata is None:
        return {}
    if not isinstance(metadata, Mapping):
        raise InvalidInput(f"metadata must be a mapping, not {type(metadata).__name__}.")
    out: dict[str, Any] = {}
    for key, value in metadata.items():
        if not isinstance(key, str) or not key or reserved_key(key):
            raise InvalidInput(
                f"metadata key {key!r} cannot bind a scope: it is nowline's own or a "
                "correction's field; give a user key."
            )
        if not isinstance(value, (str, int, float, bool)):
            raise InvalidInput(
                f"metadata {key!r} must be a str, int, float or bool, not {type(value).__name__}."
            )
        out[key] = value
    return out


def _typed(binding: dict[str, Any]) -> _Steps[dict[str, Any]]:
    """Return the binding with each value typed as the store holds it (``"42"`` or ``42``)."""
    out: dict[str, Any] = {}
    for key, value in binding.items():
        steps = scope_value_steps(key, value)
        try:
            step = next(steps)
            while True:
                step = steps.send((yield from _call("get", **step)))
        except StopIteration as stop:
            out[key] = stop.value
    return out


def _where(binding: Mapping[str, Any]) -> dict[str, Any] | None:
    """Return the Chroma filter that keeps only records carrying the binding."""
    clauses: list[dict[str, Any]] = [{k: v} for k, v in binding.items()]
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def _explain(name: str, exc: ValidationError) -> str:
    """Return a short message listing what is wrong with each argument."""
    problems = []
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        problems.append(f"{where}: {err['msg']}")
    return f"Invalid arguments for {name}: " + "; ".join(problems) + "."


def _remember(args: BaseModel, binding: dict[str, Any]) -> _Steps[tuple[str, BaseModel]]:
    """Run ``remember``."""
    assert isinstance(args, RememberInput)
    rid = yield from _call("remember", args.body, metadata=binding or None)
    hit = next(iter((yield from _call("hits", [rid]))), None)
    by = [c.id for c in hit.direct] if hit is not None else []
    text = f"Stored memory {rid}."
    if hit is not None and hit.direct:
        text += " It names something a stored correction marks as outdated; recall will show:\n"
        text += "\n".join(format_lines(hit.lines()))
    text += yield from _change_hint(args.body, binding, exclude=rid)
    return text, RememberOutput(id=rid, superseded_by=by)


def _change_hint(
    text: str, binding: dict[str, Any], *, exclude: str = "", lead: str = "\nThis states"
) -> _Steps[str]:
    """Return a line for a tool's answer when ``text`` states a change that no correction holds.

    A model told of a change sometimes recalls or remembers it instead of calling correct.
    ``preview`` proposes the old values the text states that name memories; where some of
    those memories are still current (no correction covers them yet), the answer says which
    strings to deprecate, so the model's next call can store the change.
    """
    try:
        found = yield from _call("preview", [], metadata=binding or None, text=text)
    except NowlineError:
        return ""
    ids = [i for i in found if i != exclude]
    if not found.deprecates or not ids:
        return ""
    hits = yield from _call("hits", ids)
    current = sum(1 for h in hits if h.role == CURRENT)
    if not current:
        return ""
    noun = "memory still names" if current == 1 else "memories still name"
    # a long text is not echoed back: the answer would grow with it (the memory's own cut)
    body = repr(text) if len(text) <= MAX_HIT_CHARS else "(the change in the user's words)"
    fields = f"deprecates {list(found.deprecates)!r}"
    if found.about:  # a number or a first name, with the word of the text that narrows it
        fields += f" and about {list(found.about)!r}"
    if found.replaced_by:  # the new values: what a change back revives
        fields += f" and replaced_by {list(found.replaced_by)!r}"
    hint = (
        f"{lead} a change: {current} {noun} {_listed(found.deprecates)} as current. "
        f"If the user told you of this change, store it: call correct with body {body} and "
        f"{fields}."
    )
    if found.refusal is not None:
        hint += f" As it is, correct would refuse it: {found.refusal}"
    return hint


def _listed(values: Sequence[str]) -> str:
    """Return strings as a readable list: 'a', 'b' or 'c'."""
    quoted = [repr(v) for v in values]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _correct(args: BaseModel, binding: dict[str, Any]) -> _Steps[tuple[str, BaseModel]]:
    """Run ``correct``: the tool's fields become one request; refusals come back in them."""
    assert isinstance(args, CorrectInput)
    request = CorrectionRequest(
        text=args.body,
        deprecates=tuple(args.deprecates),
        about=tuple(args.about),
        replaced_by=tuple(args.replaced_by) or None,
        metadata=binding or None,
    )
    phrases = list(request.deprecates)
    try:
        report = yield from _call(
            "correct",
            request.text,
            deprecates=phrases,
            about=list(request.about) or None,
            replaced_by=None if request.replaced_by is None else list(request.replaced_by),
            metadata=request.metadata,
        )
    except InvalidCorrection as exc:
        raise _ToolError(refusal_text(exc)) from None
    noun = "memory that names" if report.reached == 1 else "memories that name"
    shown = f"{report.reached} {noun} {', '.join(repr(s) for s in phrases)}"
    if not report.stored:
        return (
            f"Already stored: correction {report.id} states the same change and stands, so "
            f"nothing new was written. It is shown beneath {shown}; there is nothing more "
            "to do.",
            report,
        )
    text = (
        f"Stored correction {report.id}. It is now shown beneath {shown}. If it was a "
        f"mistake, retract it with id {report.id}."
    )
    return " ".join([text, *report.notes]), report


def refusal_text(error: InvalidCorrection) -> str:
    """Return a refused correction's message for a model: why, and the strings to try.

    The message is the library's own, worded in the tools' fields (``about ['Acme']``), with
    its suggestions (:attr:`nowline.InvalidCorrection.suggestions`) and how many memories each
    names, so that one retry can succeed. It says that nothing was stored, once.
    """
    text = str(error)
    return text if "nothing was stored" in text.casefold() else f"Nothing was stored: {text}"


def _recall(args: BaseModel, binding: dict[str, Any]) -> _Steps[tuple[str, BaseModel]]:
    """Run ``recall``."""
    assert isinstance(args, RecallInput)
    as_of = args.as_of.strip() if args.as_of else None
    if as_of:
        try:
            to_epoch(as_of)
        except InvalidInput:
            raise _ToolError(
                f"as_of {as_of!r} is not a time in ISO 8601; write it like '2025-03-01' or "
                "'2025-03-01T12:00:00Z', or leave as_of out to recall what is true now."
            ) from None
    recall = yield from _call(
        "recall", args.query, n_results=args.k, as_of=as_of or None, where=_where(binding)
    )
    # with as_of too: a model told "as of this morning, X is Y" recalled at that time and got
    # no memory (blind5 n07, n22); the line is about what memories name now, whatever the time
    hint = yield from _change_hint(args.query, binding)
    return recall.render() + hint, recall


def _preview(args: BaseModel, binding: dict[str, Any]) -> _Steps[tuple[str, BaseModel]]:
    """Run ``preview`` (without deprecates, the body's old values are proposed)."""
    assert isinstance(args, PreviewInput)
    if not args.deprecates and not args.body:
        raise _ToolError("Give deprecates, or the correction's body to have them proposed.")
    ids = yield from _call(
        "preview",
        list(args.deprecates),
        about=list(args.about) or None,
        metadata=binding or None,
        text=args.body,
        replaced_by=list(args.replaced_by) or None,
    )
    shown = ids[:_PREVIEW_SHOWN]
    got = (yield from _call("get", ids=shown, include=["documents"])) if shown else None
    docs = dict(zip(got["ids"], got["documents"] or [], strict=True)) if got else {}
    records = [PreviewRecord(id=i, document=docs.get(i)) for i in shown]
    noun = "memory" if len(ids) == 1 else "memories"
    naming, anchors = list(ids.deprecates), list(ids.about)
    proposed = f"deprecates {naming!r}" + (f" and about {anchors!r}" if anchors else "")
    lines = [
        f"Proposed from body: {proposed}." if not args.deprecates and naming else "",
        f"A correction naming {naming!r}",
    ]
    if anchors:
        lines[1] += f" about {anchors!r}"
    lines[1] += f" would mark {len(ids)} {noun}" + (":" if ids else ".")
    lines += [f"- {one_line(sanitize(r.document or ''))}" for r in records]
    if len(ids) > len(shown):
        lines.append(f"... and {len(ids) - len(shown)} more.")
    others = [(s, n) for s, n in ids.suggestions if s not in naming]
    if others:
        lines.append(
            "Other strings the body states as old: "
            + ", ".join(f"{s!r} ({n} {'memory' if n == 1 else 'memories'})" for s, n in others)
            + "."
        )
    if ids.refusal is not None:
        lines.append(f"correct would refuse it: {ids.refusal}")
    if ids.repeat_of is not None:
        lines.append(
            f"This change is already stored as correction {ids.repeat_of}: correct would "
            "store nothing new, and there is nothing more to do."
        )
    return "\n".join(line for line in lines if line), PreviewOutput(
        deprecates=naming,
        about=anchors,
        count=len(ids),
        records=records,
        near_misses=ids.near_misses,
        refusal=ids.refusal,
        suggestions=ids.suggestions,
        repeat_of=ids.repeat_of,
    )


def _retract(args: BaseModel, binding: dict[str, Any]) -> _Steps[tuple[str, BaseModel]]:
    """Run ``retract``."""
    assert isinstance(args, RetractInput)
    if binding:
        got = yield from _call("get", ids=[args.id], include=["metadatas"])
        metas = got["metadatas"] or []
        meta = metas[0] if metas else None
        if meta is None or not in_scope(meta, binding):
            raise UnknownRecord(f"No record has id {args.id!r}; nothing was retracted.")
    before = yield from _call("hits", [args.id])
    already = bool(before) and before[0].role == "retracted"
    yield from _call("retract", args.id)
    if already:
        return f"Correction {args.id} was already retracted; nothing changed.", RetractOutput(
            id=args.id, already_retracted=True
        )
    return (
        f"Retracted correction {args.id}. The memories it covered read as current again "
        "unless another correction still covers them; the correction stays, marked retracted.",
        RetractOutput(id=args.id),
    )


def _check(args: BaseModel, binding: dict[str, Any]) -> _Steps[tuple[str, BaseModel]]:
    """Run ``check``."""
    assert isinstance(args, CheckInput)
    trips = yield from _call("check", args.text, metadata=binding or None)
    if not trips:
        return "Nothing in this text is outdated.", CheckOutput()
    return stale_message(trips, override=None), CheckOutput(trips=trips)


_RUNNERS: dict[str, Callable[[BaseModel, dict[str, Any]], _Steps[tuple[str, BaseModel]]]] = {
    "remember": _remember,
    "correct": _correct,
    "recall": _recall,
    "preview": _preview,
    "check": _check,
    "retract": _retract,
}

"""Input validation: one validate-and-prepare step per verb, and the correction guards.

chromadb's own validators run first, wrapped the way chromadb wraps them, so a call nowline
refuses fails with the error chromadb would raise for it (same class, same message). nowline's
own rules follow: the deprecated strings and anchors of a correction, the generic-string and
absent-string guards, times, reach limits, and the arguments of nowline's verbs. Everything is
checked before anything is stored; nothing here does I/O or embeds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

from chromadb.api.models.CollectionCommon import validation_context
from chromadb.api.types import (
    Where,
    WhereDocument,
    maybe_cast_one_to_many,
    normalize_base_record_set,
    normalize_insert_record_set,
    validate_base_record_set,
    validate_batch,
    validate_filter_set,
    validate_include,
    validate_insert_record_set,
    validate_n_results,
    validate_record_set_contains_any,
    validate_record_set_for_embedding,
)
from chromadb.types import Metadata

from ..errors import (
    AbsentString,
    CorrectionTooBroad,
    GenericString,
    InvalidCorrection,
    InvalidInput,
    OutOfRange,
)
from ..matchers import Matcher, fold
from . import records as R
from .records import CorrectionInfo
from .times import to_epoch
from .verbs import GetArgs, InsertArgs, QueryArgs, as_kwargs

__all__ = [
    "DEFAULT_MAX_REACH",
    "MAX_COUNT",
    "MAX_PHRASES",
    "MAX_PHRASE_LENGTH",
    "REACH_FLOOR",
    "InsertRequest",
    "QueryRequest",
    "check_anchors",
    "check_correction",
    "check_flag",
    "check_max_reach",
    "check_metadata",
    "check_reach",
    "check_scope",
    "check_scope_key",
    "chroma_range",
    "correct_metadata",
    "get_request",
    "insert_request",
    "json_kind",
    "metadata_arg",
    "new_id",
    "parse_about",
    "parse_deprecates",
    "positive_int",
    "query_request",
    "reach_limit",
    "reserved_key",
    "scope_needed",
    "text_arg",
    "text_field",
    "time_arg",
    "validate_correction",
]

DEFAULT_MAX_REACH = 0.25
"""By default a correction may reach at most this share of the store's records..."""

REACH_FLOOR = 100
"""...but a share-based limit never refuses a correction that reaches this many or fewer."""

MAX_PHRASE_LENGTH = 500
"""Longest deprecated string (or anchor) accepted, in characters."""

MAX_PHRASES = 100
"""Most deprecated strings (or anchors) one correction may name."""

Verb = Literal["add", "upsert", "update"]


# ------------------------------------------------------------------- small checks


def text_arg(text: object, what: str = "text") -> str:
    """Return ``text`` if it is a usable str (lone surrogates cannot be stored)."""
    if not isinstance(text, str):
        raise InvalidInput(f"Expected text (a str) for {what}, got {type(text).__name__}.")
    _encodable(text, what)
    return text


def text_field(value: object, what: str, *, limit: int | None = None) -> str:
    """Return ``value`` if it is text that can be stored as a record's text from outside.

    A str, not blank, at most ``limit`` characters, without lone surrogates: the one rule for
    a memory's or a correction's text that arrives in a tool call, a line or a request body.

    Raises:
        InvalidInput: naming ``what`` (the caller's own name of the field).
    """
    if value is None:
        raise InvalidInput(f"{what} is missing.")
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, not {json_kind(value)}.")
    if not value.strip():
        raise InvalidInput(f"{what} is empty.")
    if limit is not None and len(value) > limit:
        raise InvalidInput(f"{what} is longer than {limit:,} characters.")
    _encodable(value, what)
    return value


def json_kind(value: object) -> str:
    """Return what a value parsed from JSON is, in words ("an array", "null")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    kinds: dict[type, str] = {list: "an array", dict: "an object", str: "a string"}
    return kinds.get(type(value), type(value).__name__)


def _encodable(text: str, what: str, error: type[InvalidInput] = InvalidInput) -> None:
    """Refuse text with lone surrogate code points, which Chroma cannot store."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise error(
            f"{what} contains a lone surrogate code point, which cannot be stored; decode the "
            "text properly (e.g. errors='replace')."
        ) from None


def new_id(rid: object) -> str:
    """Return ``rid``, or a new UUID4 string when it is None."""
    if rid is None:
        import uuid

        return str(uuid.uuid4())
    if not isinstance(rid, str) or not rid:
        raise InvalidInput("id must be a non-empty str (or None for a generated one).")
    _encodable(rid, "id")
    return rid


def check_flag(value: object, name: str) -> bool:
    """Return ``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be True or False, not {value!r}.")
    return value


MAX_COUNT = 2**31 - 1
"""The largest count or position nowline's own verbs take (Chroma's are 32-bit)."""


def positive_int(value: object, name: str) -> int:
    """Return ``value`` if it is an int from 1 to :data:`MAX_COUNT`."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidInput(f"{name} must be a positive int, not {value!r}.")
    if value > MAX_COUNT:
        raise OutOfRange(f"{name} must be at most {MAX_COUNT:,}, not {value:,}.")
    return value


def chroma_range(value: object, name: str) -> None:
    """Refuse an int ``limit`` or ``offset`` that Chroma cannot represent (it overflows).

    chromadb raises OverflowError for these; nowline pages its reads and would otherwise
    return rows instead. Other types go on to chromadb's own checks.
    """
    if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value < 2**32:
        raise OutOfRange(
            f"{name} must be from 0 to {2**32 - 1:,} (Chroma counts in 32 bits), not {value:,}."
        )


def metadata_arg(metadata: object) -> dict[str, Any] | None:
    """Return a nowline verb's ``metadata`` argument as a dict (None stays None).

    nowline's own verbs refuse what Chroma would store wrongly or fail on late: keys that are
    not text, lone surrogates, and NaN or infinite numbers (Chroma drops them silently).
    """
    if metadata is None:
        return None
    if not isinstance(metadata, Mapping):
        raise InvalidInput(f"metadata must be a mapping, not {type(metadata).__name__}.")
    for key, value in metadata.items():
        if not isinstance(key, str):
            raise InvalidInput(f"Metadata keys must be str, got {key!r}.")
        _encodable(key, "a metadata key")
        if isinstance(value, str):
            _encodable(value, f"metadata {key!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidInput(
                f"Metadata {key!r} is {value}; Chroma would drop it silently. Store a finite "
                "number, or leave the key out."
            )
    return dict(metadata)


def time_arg(value: object, what: str) -> float | None:
    """Return a time argument as epoch seconds (None stays None)."""
    return None if value is None else to_epoch(value, what=what)


def check_max_reach(value: object) -> float | int | None:
    """Return a ``max_reach`` setting if it is valid."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput("max_reach must be a share (0 < float <= 1), a count (int) or None.")
    if isinstance(value, float) and not 0 < value <= 1:
        raise InvalidInput("max_reach as a share must be in (0, 1].")
    if isinstance(value, int) and value < 0:
        raise InvalidInput("max_reach as a count must be >= 0.")
    return value


def reach_limit(setting: float | int | None, total: int) -> int | None:
    """Return the largest reach a setting allows in a store of ``total`` records."""
    if setting is None:
        return None
    if isinstance(setting, float):
        return max(REACH_FLOOR, math.floor(setting * total))
    return setting


def check_reach(info: CorrectionInfo, reach: int, setting: float | int | None, total: int) -> None:
    """Refuse a correction that would reach more records than allowed."""
    limit = reach_limit(setting, total)
    if limit is not None and reach > limit:
        raise CorrectionTooBroad(
            f"The correction {info.id!r} would reach {reach} of {total} records (limit "
            f"{limit}) through {list(info.deprecates)!r}. Use a narrower, more specific string "
            "(e.g. 'org/repo' rather than 'repo'), or anchor it to its subject with about=[...]; "
            "check the reach with preview(), or pass a larger max_reach.",
            reach=reach,
            limit=limit,
        )


# ------------------------------------------------------------- correction strings


def _phrases(value: object, what: str, *, allow_empty: bool) -> tuple[str, ...]:
    """Return a list of strings, stripped and de-duplicated, or raise InvalidCorrection.

    One string is one entry, unless it is a JSON array of strings (``'["a/b"]'``, as agno
    flattens lists): then it is that list.
    """
    listed = R.json_string_list(value)
    items = listed if listed is not None else [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        raise InvalidCorrection(
            f"{what} must be a list of strings (or one string), not {type(value).__name__}."
        )
    if not items and not allow_empty:
        raise InvalidCorrection(
            f"{what} is empty; list the exact outdated strings, or leave the key out for a "
            "plain memory."
        )
    if len(items) > MAX_PHRASES:
        raise InvalidCorrection(
            f"{what} lists {len(items)} strings; at most {MAX_PHRASES} are accepted. Split "
            "the correction by topic."
        )
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise InvalidCorrection(
                f"Every string in {what} must be a str; got {type(item).__name__} ({item!r})."
            )
        s = item.strip()
        if not s:
            raise InvalidCorrection(
                f"A string in {what} is empty or whitespace; give the exact text."
            )
        if len(s) > MAX_PHRASE_LENGTH:
            raise InvalidCorrection(
                f"A string in {what} is {len(s)} characters long; at most {MAX_PHRASE_LENGTH} "
                "are accepted. Name the outdated identifier, not a passage."
            )
        _encodable(s, what, InvalidCorrection)
        if not any(c.isalnum() for c in fold(s)):
            raise InvalidCorrection(
                f"The string {s!r} in {what} has no letter or digit, so it would match "
                "separators everywhere; give the name itself."
            )
        if s not in out:
            out.append(s)
    return tuple(out)


def parse_deprecates(value: object) -> tuple[str, ...]:
    """Return a correction's deprecated strings, stripped and de-duplicated.

    Raises:
        InvalidCorrection: the value is not a non-empty list of usable strings.
    """
    return _phrases(value, "deprecates", allow_empty=False)


def parse_about(value: object) -> tuple[str, ...]:
    """Return a correction's anchors (``about``), stripped and de-duplicated (may be empty).

    Raises:
        InvalidCorrection: the value is not a list of usable strings.
    """
    if value is None:
        return ()
    return _phrases(value, "about", allow_empty=True)


def check_scope(info: CorrectionInfo, scope_key: str | None, keys: Iterable[str]) -> None:
    """Refuse a correction whose scope the writer's key would get wrong, in a scoped store.

    The scope travels with the correction: one written without a scope key applies to every
    record of the collection. Where the store's corrections carry scope keys, that is almost
    always a process opened without the key, and the correction would reach every user's
    memories; it is refused, naming the key to wrap with.

    The same holds for a writer whose key is not the one the store's corrections carry.

    Raises:
        InvalidInput: the correction has no scope, the writer no key, and ``keys`` is not
            empty; or the writer's key is not among ``keys``.
    """
    known = sorted(keys)
    if scope_key is not None and known and scope_key not in known:
        raise InvalidInput(
            f"This collection's corrections are scoped by {known[0]!r}, and this wrapper's "
            f"scope_key is {scope_key!r}: its corrections would reach every record without a "
            f"{scope_key!r} value, whoever's it is. Wrap the collection with "
            f"scope_key={known[0]!r}; nothing was written."
        )
    if info.scope is None and scope_key is None and known:
        raise InvalidInput(
            f"This collection's corrections are scoped by {known[0]!r}"
            + (f" (and {known[1:]!r})" if len(known) > 1 else "")
            + ", but this wrapper has no scope_key, so its correction would apply to every "
            f"scope's memories. Wrap the collection with scope_key={known[0]!r} and give the "
            "scope's value in the correction's metadata; nothing was written."
        )


def check_correction(
    info: CorrectionInfo,
    *,
    allow_absent: bool = False,
    allow_generic: bool = False,
    has_text: bool = True,
) -> None:
    """Apply the guards of a correction about to be written.

    Args:
        info: the correction.
        allow_absent: accept deprecated strings that do not occur in its text.
        allow_generic: accept generic strings without an anchor, and generic anchors.
        has_text: False when the text is not known yet (``preview()`` without ``text``): the
            guards that read the text are left out.

    Raises:
        InvalidCorrection: it has no text, a deprecated string is absent from its text (and
            ``allow_absent`` is False), a string is generic and the correction has no anchor,
            or an anchor is generic or overlaps a deprecated string (and ``allow_generic``
            is False).
    """
    if has_text and not info.document.strip():
        raise InvalidCorrection(
            "A correction needs a document: the text shown in its now-line (say what changed, "
            "e.g. 'Moved from A to B')."
        )
    if has_text and not allow_absent:
        present = Matcher((p, p) for p in info.deprecates).keys(info.document)
        absent = [p for p in info.deprecates if p not in present]
        if absent:
            raise AbsentString(
                f"The correction's text does not mention {absent!r}. The reader of its now-line "
                "must see what changed: name the outdated string in the text (it is usually a "
                "typo otherwise), or pass allow_absent=True.",
                absent=absent,
            )
    if allow_generic:
        return
    if info.about:
        check_anchors(info.deprecates, info.about)
        return
    from .generic import assess

    for phrase in info.deprecates:
        found = assess(phrase)
        if found is not None:
            kind, reason = found
            raise GenericString(
                f"{phrase!r} is {reason}, so it names no particular thing: it would reach "
                "unrelated memories and link unrelated corrections. "
                + _GENERIC_ADVICE[kind].format(phrase=phrase),
                phrase=phrase,
                reason=reason,
                kind=kind,
            )


_GENERIC_ADVICE = {
    "number": (
        "A number or a version names nothing by itself: anchor the correction to what it "
        "belongs to with about=[...] (e.g. deprecates=[{phrase!r}], about=['<the product, API "
        "or account>']), or use a more specific string (the full identifier that changed); "
        "allow_generic=True accepts it anyway."
    ),
    "word": (
        "Use a more specific string: for a person, the full name (given and family name) as "
        "the memories write it; otherwise the full address or identifier that changed. Or "
        "anchor the correction to its subject with about=[...] (e.g. deprecates=[{phrase!r}], "
        "about=['<the subject it belongs to>']); allow_generic=True accepts it anyway."
    ),
    "phrase": (
        "Use a more specific string (the full name, address or identifier that changed), or "
        "anchor the correction to its subject with about=[...] (e.g. deprecates=[{phrase!r}], "
        "about=['<the subject it belongs to>']); allow_generic=True accepts it anyway."
    ),
    "title": (
        "Anchor the correction to the subject it belongs to with about=[...] (e.g. "
        "deprecates=[{phrase!r}], about=['<the company, team or project>']). If it is the "
        "name of one particular person or thing in this memory, allow_generic=True accepts it."
    ),
}


def check_anchors(deprecates: Sequence[str], about: Sequence[str]) -> None:
    """Refuse anchors that anchor nothing: ones that overlap a deprecated string, generic ones.

    An anchor that is a deprecated string, or occurs in one (the matching rules of the
    README's "Matching": case-insensitive, whole words), holds wherever that string holds, so
    it narrows nothing; one that contains a deprecated string makes the correction reach
    exactly the records that name the anchor, so the anchor is the string to deprecate.

    A generic anchor is refused where the anchor is what makes the correction specific: when
    a deprecated string is generic (``deprecates=["2024"], about=["the"]``). Beside specific
    deprecated strings an anchor can only narrow their reach, so a common word is accepted
    there (``deprecates=["Jeff Bezos"], about=["Amazon"]``).

    Raises:
        GenericString: naming the anchor (``field`` is ``about``; ``kind`` is ``overlap``
            for an overlapping anchor).
    """
    from .generic import assess

    for anchor in about:
        inside = Matcher([(anchor, anchor)])
        for phrase in deprecates:
            same = fold(anchor) == fold(phrase)
            contains = not same and bool(Matcher([(phrase, phrase)]).keys(anchor))
            if not (same or contains or inside.keys(phrase)):
                continue
            if contains:
                relation = f"contains the deprecated string {phrase!r}"
                effect = (
                    f"so the correction would reach exactly the records that name {anchor!r}: "
                    f"deprecate {anchor!r} itself instead."
                )
            else:
                relation = (
                    f"is the deprecated string {phrase!r}"
                    if same
                    else f"occurs in the deprecated string {phrase!r}"
                )
                effect = (
                    f"so it narrows nothing: every record that names {phrase!r} names it too. "
                    "An anchor is another string the stale memories name: the subject the "
                    "outdated string belongs to (e.g. deprecates=['Michelle'], about=['Acme'])."
                )
            raise GenericString(
                f"The anchor {anchor!r} (about) {relation}, {effect}",
                phrase=anchor,
                reason=relation,
                kind="overlap",
                field="about",
            )
        found = assess(anchor) if any(assess(p) is not None for p in deprecates) else None
        if found is not None:
            kind, reason = found
            raise GenericString(
                f"The anchor {anchor!r} (about) is {reason}, so it anchors nothing: the "
                "deprecated strings are generic too, and unrelated memories name both. Name the "
                "particular subject the outdated string belongs to (the company, project, "
                "person or repository, e.g. about=['Acme']), or deprecate the full, specific "
                "string; allow_generic=True accepts it anyway.",
                phrase=anchor,
                reason=reason,
                kind=kind,
                field="about",
            )


def validate_correction(
    text: str,
    deprecates: Sequence[str] | str,
    about: Sequence[str] | str | None = None,
    *,
    allow_absent: bool = False,
    allow_generic: bool = False,
) -> tuple[list[str], list[str]]:
    """Check a correction as ``correct()`` would, without a store; write nothing.

    Every guard that does not depend on the store applies: malformed or over-long strings,
    a deprecated string absent from the text, a generic string without an anchor. (Reach
    depends on the store: ``Collection.preview()`` tells it.)

    Args:
        text: the correction's text.
        deprecates: its outdated strings.
        about: its anchors, if any.
        allow_absent: accept strings that do not occur in ``text``.
        allow_generic: accept generic strings without an anchor.

    Returns:
        The deprecated strings and the anchors, stripped and de-duplicated.

    Raises:
        InvalidCorrection: the correction would be refused (``AbsentString`` and
            ``GenericString`` carry the offending strings).
    """
    phrases = parse_deprecates(deprecates)
    anchors = parse_about(about)
    info = CorrectionInfo(
        id="",
        document=text_arg(text),
        deprecates=phrases,
        about=anchors,
        time=0.0,
        written=0.0,
        scope=None,
    )
    check_correction(info, allow_absent=allow_absent, allow_generic=allow_generic)
    return list(phrases), list(anchors)


# ------------------------------------------------- public rules for the adapters
# Thin public wrappers over the rules above, so that the CLI, the tools and the MCP server
# call the library instead of keeping their own copies (DESIGN §11).


def reserved_key(key: str) -> bool:
    """Return whether a metadata key is nowline's own, never a user's key of its choosing.

    nowline's bookkeeping keys start with ``nowline_``, and ``deprecates`` and ``about`` are
    a correction's fields: none of them can select a scope, and no caller may write a
    bookkeeping key (``Collection`` writes drop them; an import refuses them).

    >>> reserved_key("nowline_role"), reserved_key("about"), reserved_key("user_id")
    (True, True, False)
    """
    return key.startswith(R.PREFIX) or key in (R.DEPRECATES, R.ABOUT)


def check_scope_key(key: object) -> str | None:
    """Return ``key`` if it can be a scope key (a non-empty user key), or None for None.

    Raises:
        InvalidInput: ``key`` is not a non-empty str, or it is reserved (:func:`reserved_key`).
    """
    if key is None:
        return None
    if not isinstance(key, str) or not key:
        raise InvalidInput("scope_key must be a non-empty metadata key (a str), or None.")
    if reserved_key(key):
        raise InvalidInput(
            f"{key!r} is reserved by nowline and cannot be a scope_key; give the user metadata key "
            "(e.g. user_id) that separates scopes."
        )
    return key


def scope_needed(
    scope_key: str | None, scope_keys: Iterable[str], metadata: Mapping[str, Any] | None
) -> str | None:
    """Return the scope key a caller's ``metadata`` must carry but does not, else None.

    A collection whose corrections are scoped (a ``scope_key``, or corrections that all carry
    one key) serves one scope at a time: a check, a tool call or a served session without
    the scope's value would mix users' corrections or write unscoped ones.

    Args:
        scope_key: the wrapper's scope key (``Collection.scope_key``).
        scope_keys: the keys the collection's corrections carry (``Collection.scope_keys``).
        metadata: the caller's metadata, which selects the scope.
    """
    keys = sorted(set(scope_keys))
    key = scope_key or (keys[0] if len(keys) == 1 else None)
    if key is None or (metadata is not None and key in metadata):
        return None
    return key


def check_metadata(metadata: object) -> dict[str, Any] | None:
    """Return a record's metadata if nowline and Chroma can store it exactly as given.

    What ``remember()`` and an import accept, checked before anything is written: a mapping
    of str keys to a str, int, float or bool, or a non-empty list of one of those (None
    values are dropped); no bookkeeping key (``nowline_...``); finite numbers (Chroma drops
    NaN silently); an ``observed_at`` that is a time. ``deprecates`` and ``about`` are left
    for :func:`validate_correction`.

    Raises:
        InvalidInput: the metadata would be refused or stored wrongly.
    """
    meta = metadata_arg(metadata)
    if meta is None:
        return None
    out: dict[str, Any] = {}
    for key, value in meta.items():
        if key.startswith(R.PREFIX):
            raise InvalidInput(f"Metadata key {key!r} is reserved for nowline's bookkeeping.")
        if value is None:
            continue
        if key not in (R.DEPRECATES, R.ABOUT) and not _storable(value):
            raise InvalidInput(
                f"Metadata {key!r} must be a str, int, float or bool, or a non-empty list of "
                "one of those."
            )
        if isinstance(value, list):
            for item in value:
                if isinstance(item, float) and not math.isfinite(item):
                    raise InvalidInput(f"Metadata {key!r} holds {item}; Chroma cannot store it.")
        out[key] = value
    if out.get(R.OBSERVED_AT) is not None:
        to_epoch(out[R.OBSERVED_AT])
    return out


def _storable(value: object) -> bool:
    """Return whether Chroma stores ``value`` as a metadata value, as given."""
    scalar = (str, int, float, bool)
    if isinstance(value, scalar):
        return True
    if isinstance(value, list) and value:
        kinds = {type(v) for v in value}
        return len(kinds) == 1 and isinstance(value[0], scalar)
    return False


def correct_metadata(
    metadata: Mapping[str, Any] | None,
    deprecates: object,
    about: object,
    observed_at: object,
) -> dict[str, Any]:
    """Return the metadata a ``correct()`` call stores (validated)."""
    if deprecates is None:
        raise InvalidCorrection("correct() needs deprecates: the exact outdated strings.")
    meta = metadata_arg(metadata) or {}
    if observed_at is not None:
        to_epoch(observed_at)
        meta[R.OBSERVED_AT] = observed_at
    meta[R.DEPRECATES] = list(parse_deprecates(deprecates))
    anchors = parse_about(about)
    if anchors:
        meta[R.ABOUT] = list(anchors)
    else:
        meta.pop(R.ABOUT, None)
    return meta


# ---------------------------------------------------------------- chromadb verbs


@dataclass(frozen=True)
class InsertRequest:
    """A validated add, upsert or update.

    Attributes:
        op: the verb.
        ids: the records' ids.
        embeddings: the caller's embeddings (normalised), or None to embed.
        record_set: chromadb's normalised record set (for embedding).
        metadatas: the caller's metadata patches, nowline keys removed (None: none given).
        documents: the documents to store, nowline's lines removed (None: none given).
        uris: the caller's uris.
    """

    op: Verb
    ids: list[str]
    embeddings: Any
    record_set: Any
    metadatas: list[dict[str, Any] | None] | None
    documents: list[str | None] | None
    uris: list[Any] | None

    def with_documents(self, documents: list[str | None]) -> InsertRequest:
        """Return this request with other documents (the record set too, for embedding)."""
        record_set = dict(self.record_set)
        record_set["documents"] = documents
        return replace(self, documents=documents, record_set=record_set)

    def with_metadatas(self, metadatas: list[dict[str, Any] | None]) -> InsertRequest:
        """Return this request with other metadata patches."""
        return replace(self, metadatas=metadatas)

    def texts(self, text_key: str | None) -> list[str | None] | None:
        """Return the records' texts (None: keep the stored ones): documents, or text_key's.

        In a ``text_key`` store a record's text is ``metadata[text_key]``; a patch without
        that key keeps the stored text.
        """
        if text_key is None:
            return self.documents
        if self.metadatas is None:
            return None
        return [
            v if isinstance(v := (m or {}).get(text_key), str) else None for m in self.metadatas
        ]

    @property
    def embed_fields(self) -> frozenset[str] | None:
        """Return the fields chromadb embeds for this verb (None: its default)."""
        return None if self.op == "add" else frozenset({"documents", "images"})

    @property
    def needs_embedding(self) -> bool:
        """Return whether embeddings must be computed before the write."""
        if self.embeddings is not None:
            return False
        if self.op == "update":
            rs = self.record_set
            return rs["documents"] is not None or rs["images"] is not None
        return True


def insert_request(op: Verb, call: InsertArgs, *, max_batch: int) -> InsertRequest:
    """Validate an add, upsert or update as chromadb would, then nowline's rules.

    Raises:
        ValueError, TypeError: what chromadb raises for the same arguments.
        InvalidCorrection: a correction's deprecates or about is unusable.
    """

    @validation_context(op)
    def prepare(_: object) -> Any:
        records = normalize_insert_record_set(**as_kwargs(call))
        validate_insert_record_set(record_set=records)
        if op == "add":
            validate_record_set_contains_any(record_set=records, contains_any={"ids"})
        if records["embeddings"] is None:
            if op == "add":
                validate_record_set_for_embedding(record_set=records)
            elif op == "upsert" or (
                records["documents"] is not None or records["images"] is not None
            ):
                validate_record_set_for_embedding(
                    records, embeddable_fields={"documents", "images"}
                )
        validate_batch(
            (records["ids"], records["embeddings"], records["metadatas"], None, None),
            {"max_batch_size": max_batch},
        )
        return records

    records = prepare(None)
    metas = records["metadatas"]
    clean = [_clean_metadata(m, op) for m in metas] if metas is not None else None
    docs = records["documents"]
    return InsertRequest(
        op=op,
        ids=list(records["ids"]),
        embeddings=records["embeddings"],
        record_set=records,
        metadatas=clean,
        documents=list(docs) if docs is not None else None,
        uris=records["uris"],
    )


def _clean_metadata(meta: Metadata | None, op: Verb) -> dict[str, Any] | None:
    """Copy a caller's metadata: drop nowline's keys, absorb Chroma quirks, check our keys.

    nowline's keys are recomputed, never taken from callers (a ``query()`` result written
    back carries them). A None value means "no value" in ``add`` (chromadb would fail on it)
    and "remove the key" in ``update`` and ``upsert``, as in chromadb.
    """
    if meta is None:
        return None
    out: dict[str, Any] = {}
    for key, value in meta.items():
        if key.startswith(R.PREFIX):
            continue
        if value is None and op == "add":
            continue
        out[key] = value
    if out.get(R.OBSERVED_AT) is not None:
        to_epoch(out[R.OBSERVED_AT])
    if out.get(R.DEPRECATES) is not None:
        out[R.DEPRECATES] = list(parse_deprecates(out[R.DEPRECATES]))
    if out.get(R.ABOUT) is not None and out.get(R.DEPRECATES) is not None:
        out[R.ABOUT] = list(parse_about(out[R.ABOUT]))
    return out


@dataclass(frozen=True)
class QueryRequest:
    """A validated query: embeddings to compute or given, and chromadb's request fields."""

    embeddings: Any
    record_set: Any
    ids: list[str] | None
    n_results: int
    where: Where | None
    where_document: WhereDocument | None
    include: list[str]


def query_request(call: QueryArgs) -> QueryRequest:
    """Validate a query as chromadb would (without embedding; that is the caller's step)."""
    include, n_results = call.include, call.n_results
    where, where_document = call.where, call.where_document

    @validation_context("query")
    def prepare(_: object) -> QueryRequest:
        records = normalize_base_record_set(
            embeddings=call.query_embeddings,
            documents=call.query_texts,
            images=call.query_images,
            uris=call.query_uris,
        )
        filter_ids = maybe_cast_one_to_many(call.ids)
        filters = {"where": where, "where_document": where_document}
        validate_base_record_set(record_set=records)
        validate_filter_set(filter_set=cast(Any, filters))
        validate_include(include=include)
        validate_n_results(n_results=n_results)
        if records["embeddings"] is None:
            validate_record_set_for_embedding(record_set=records)
        wanted: list[str] = list(include)
        if "data" in wanted and "uris" not in wanted:
            wanted.append("uris")
        return QueryRequest(
            embeddings=records["embeddings"],
            record_set=records,
            ids=filter_ids,
            n_results=n_results,
            where=where,
            where_document=where_document,
            include=wanted,
        )

    return prepare(None)


def get_request(call: GetArgs, *, has_data_loader: bool) -> tuple[list[str] | None, list[str]]:
    """Validate a get as chromadb would; return the ids and the include to send."""
    chroma_range(call.limit, "limit")
    chroma_range(call.offset, "offset")
    include = call.include

    @validation_context("get")
    def prepare(_: object) -> tuple[list[str] | None, list[str]]:
        unpacked = maybe_cast_one_to_many(target=call.ids)
        from chromadb.api.types import validate_ids

        if unpacked is not None:
            validate_ids(ids=unpacked)
        validate_filter_set(
            filter_set=cast(Any, {"where": call.where, "where_document": call.where_document})
        )
        validate_include(include=include, dissalowed=["distances"])
        if "data" in include and not has_data_loader:
            raise ValueError("You must set a data loader on the collection if loading from URIs.")
        wanted: list[str] = list(include)
        if "data" in wanted and "uris" not in wanted:
            wanted.append("uris")
        return unpacked, wanted

    return prepare(None)

"""Record semantics: nowline's metadata keys, what a correction is, a record's time and order.

Every rule about what a stored record *means* lives here and nowhere else: which metadata keys
are nowline's, when a record is a correction, its deprecated strings and anchors as stored, its
time and its place in the write order, whether it is retracted, its scope, and how a record looks
after a write (chromadb merges metadata keys). The functions are pure: records in, facts out.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import re
import unicodedata
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import InvalidInput
from ..matchers import fold
from ..matchers._gcpause import paused
from ..models import CURRENT, HISTORICAL, TRANSITION, Role
from ..models import RETRACTED as RETRACTED_ROLE
from .times import stored_time, to_epoch

__all__ = [
    "ABOUT",
    "BY",
    "CHANGED",
    "CORRECTION",
    "DECORATING_SCHEMES",
    "DEPRECATES",
    "ENTRY_COVERS",
    "ENTRY_IDS",
    "ENTRY_PARTS",
    "ENTRY_STATE",
    "MARK",
    "NEW",
    "NOW",
    "OBSERVED_AT",
    "PREFIX",
    "REPLACED_BY",
    "RETRACTED",
    "ROLE",
    "SCOPE_KEY",
    "SOURCE",
    "SOURCE_URL",
    "TIME",
    "WRITTEN",
    "CorrectionInfo",
    "CorrectionScope",
    "Order",
    "Record",
    "ScopeToken",
    "Scoped",
    "bare_path",
    "correction_info",
    "correction_infos",
    "correction_scope",
    "first_naming",
    "held_keys",
    "host_of",
    "in_scope",
    "is_correction",
    "is_retracted",
    "json_string_list",
    "match_form",
    "merge",
    "new_values_of",
    "new_values_stored",
    "order_of",
    "record_of",
    "role_of",
    "role_value",
    "same_value",
    "scope_token",
    "source_of",
    "spelled_here",
    "stored_phrases",
    "text_of",
    "time_of",
    "user_metadata",
    "value_keys",
    "with_new_values",
    "write_stamps",
]

logger = logging.getLogger("nowline")

# ----------------------------------------------------------------------------- keys

PREFIX = "nowline_"
"""Every bookkeeping key starts with this; callers never see these keys in results."""
DEPRECATES = "deprecates"
"""User-facing: the outdated strings a correction names (a list of strings)."""
ABOUT = "about"
"""User-facing, on corrections only: the anchors a record must also name to be reached."""
REPLACED_BY = "replaced_by"
"""User-facing, on corrections only: the new values (a list of strings, as given)."""
NEW = "nowline_new"
"""The new values read from a correction's wording where ``replaced_by`` is not given.

JSON: ``{"of": <fingerprint of the text and strings read>, "values": [...]}``. The values hold
only while the record's text and strings are the ones read: after an edit around nowline,
nowline reads the wording again (and ``repair()`` stores what it reads).
"""
OBSERVED_AT = "observed_at"
"""User-facing: when the fact was observed (ISO 8601 text or epoch seconds)."""
TIME = "nowline_time"
"""Epoch seconds: ``observed_at`` if given, else the moment nowline wrote the record."""
WRITTEN = "nowline_written"
"""Epoch seconds of the first write, when it differs from TIME; breaks ties of TIME."""
BY = "nowline_by"
"""Ids of the active corrections that supersede the record directly (stored links)."""
ROLE = "nowline_role"
"""The stored role: ``historical``, ``transition`` or ``retracted`` (current: no key)."""
CORRECTION = "nowline_correction"
"""True on a correction record, False on a record that stopped being one."""
CHANGED = "nowline_changed"
"""Epoch seconds of a correction's last change, taken just before the change is written."""
RETRACTED = "nowline_retracted"
"""Epoch seconds when a correction was retracted."""
NOW = "nowline_now"
"""``query()`` output only: ids of the newest corrections of a superseded hit."""
SOURCE = "source"
"""User-facing, on corrections: where the correction came from (e.g. "github")."""
SOURCE_URL = "source_url"
"""User-facing, on corrections: a page about where it came from."""
SCOPE_KEY = "nowline_scope_key"
"""On each correction: the scope key it was written with (absent: it applies in every scope)."""
MARK = "nowline_mark"
"""Not on records: the key of a companion collection's metadata that holds the generation mark
(:mod:`nowline._io.mark`)."""
ENTRY_STATE = "nowline_entry_state"
"""On the companion's records only (the change journal, :mod:`nowline._io.journal`): an
entry's state, ``writing`` or ``done``."""
ENTRY_IDS = "nowline_entry_ids"
"""On journal entries: the ids of the corrections the write changed (a JSON list; absent: a
reset)."""
ENTRY_PARTS = "nowline_entry_parts"
"""On journal entries that fold others: the entries folded (a JSON list)."""
ENTRY_COVERS = "nowline_entry_covers"
"""On journal entries that fold others: what the folded entries had folded (a JSON list)."""

Order = tuple[float, float, str]
"""The sort key of a correction: its time, then its write order, then its id."""

ScopeToken = Hashable
"""A record's value of a scope key, typed (see :func:`scope_token`)."""

CorrectionScope = tuple[str, ScopeToken] | None
"""Where a correction applies: (its scope key, its value's token), or None (every scope)."""

_UNKNOWN_TIME = 0.0  # records written around nowline with no observed_at: the epoch


@dataclass(frozen=True, slots=True)
class Record:
    """A record as stored in Chroma (metadata includes nowline's keys)."""

    id: str
    document: str | None
    metadata: Mapping[str, Any] | None


def text_of(document: Any, metadata: Mapping[str, Any] | None, text_key: str | None) -> Any:
    """Return a record's text: its document, or ``metadata[text_key]`` in a ``text_key`` store.

    A framework such as mem0 stores no documents and keeps each memory's text under a metadata
    key; with ``text_key`` nowline reads (matches, links, checks, shows) that field instead.
    A value there that is not a str counts as no text.
    """
    if text_key is None:
        return document
    value = (metadata or {}).get(text_key)
    return value if isinstance(value, str) else None


def record_of(
    rid: str, document: Any, metadata: Mapping[str, Any] | None, text_key: str | None = None
) -> Record:
    """Return a record read from Chroma, its text taken as :func:`text_of` says."""
    return Record(rid, text_of(document, metadata, text_key), metadata)


class CorrectionInfo(NamedTuple):
    """One correction as nowline knows it (a named tuple: a registry holds many of them).

    Attributes:
        id: the correction's record id.
        document: its text.
        deprecates: the outdated strings it names.
        about: its anchors; when not empty, a record must name one of them too.
        time: its time in epoch seconds.
        written: its write stamp; breaks ties between equal times.
        scope: its scope: (key, token), or None when it applies in every scope.
        retracted: when it was retracted (epoch seconds), or None while it is active.
        marked: whether the stored record carries nowline's mark (``nowline_correction``),
            so that a listing of the store's corrections finds it.
        source: where it came from (its ``source`` metadata, e.g. "github"), or None.
        source_url: a page about its origin (its ``source_url`` metadata), or None.
        replaced_by: its new values: ``replaced_by`` as given, else those its wording states
            (:func:`nowline._rules.wording.new_values`, stored when nowline writes it).
    """

    id: str
    document: str
    deprecates: tuple[str, ...]
    about: tuple[str, ...]
    time: float
    written: float
    scope: CorrectionScope
    retracted: float | None = None
    marked: bool = False
    source: str | None = None
    source_url: str | None = None
    replaced_by: tuple[str, ...] = ()

    @property
    def order(self) -> Order:
        """Return the sort key that orders corrections."""
        return (self.time, self.written, self.id)

    def may_supersede(self, record_id: str, scope: Scoped, order: Order | None) -> bool:
        """Return whether this correction may supersede a record that names its strings.

        The record must be another record in this correction's scope, and not a correction
        newer than this one (``order`` is the record's sort key if it is a correction, else
        None).
        """
        if record_id == self.id or not scope.admits(self.scope):
            return False
        return order is None or order < self.order


# ------------------------------------------------------------------------ reading


def is_correction(meta: Mapping[str, Any] | None) -> bool:
    """Return whether a metadata marks a correction (a non-empty ``deprecates``)."""
    return bool(meta) and bool(meta.get(DEPRECATES))  # type: ignore[union-attr]


def is_retracted(meta: Mapping[str, Any] | None) -> bool:
    """Return whether a stored correction is marked retracted."""
    return bool(meta) and meta.get(RETRACTED) is not None  # type: ignore[union-attr]


def _number(value: object) -> float | None:
    """Return ``value`` as a float if it is a finite number, else None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def time_of(meta: Mapping[str, Any] | None) -> float:
    """Return a record's time: stored, else its ``observed_at``, else 0 (unknown).

    A record written around nowline without ``observed_at`` has no known time; it sorts before
    every record with one and takes part in every ``as_of`` answer.
    """
    if not meta:
        return _UNKNOWN_TIME
    stored = _number(meta.get(TIME))
    if stored is not None:
        return stored
    observed = meta.get(OBSERVED_AT)
    if observed is not None:
        try:
            return to_epoch(observed)
        except InvalidInput:
            pass
    return _UNKNOWN_TIME


def order_of(record_id: str, meta: Mapping[str, Any] | None) -> Order:
    """Return a record's sort key (time, write stamp, id)."""
    t = time_of(meta)
    written = _number((meta or {}).get(WRITTEN))
    return (t, t if written is None else written, record_id)


def json_string_list(value: object) -> list[str] | None:
    """Return the strings of a JSON array string of strings (``'["a/b"]'``), else None.

    Frameworks that flatten list metadata to strings (agno) store ``deprecates=["a/b"]`` as
    ``'["a/b"]'``; that is read as the list. Any other string (not JSON, not an array, or an
    array holding anything but strings) is not a list: it stays one string.
    """
    if not isinstance(value, str) or not value.lstrip().startswith("["):
        return None
    try:
        items = json.loads(value)
    except ValueError:
        return None
    if isinstance(items, list) and all(isinstance(item, str) for item in items):
        return items
    return None


def _json_object(value: object) -> dict[str, Any] | None:
    """Return the object a JSON object string holds (``'{"of": ...}'``), else None."""
    if not isinstance(value, str) or not value.lstrip().startswith("{"):
        return None
    try:
        parsed = json.loads(value)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def stored_phrases(value: object) -> tuple[str, ...] | None:
    """Return stored ``deprecates``/``about`` strings, stripped, or None when malformed.

    Records written around nowline may hold anything; this reads them leniently (a string is
    one entry unless it is a JSON array of strings, blank entries are skipped) and returns
    None for a value nowline cannot use.
    """
    listed = json_string_list(value)
    items = listed if listed is not None else [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        return None
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            return None
        s = item.strip()
        if s and s not in out:
            out.append(s)
    return tuple(out)


def scope_token(meta: Mapping[str, Any] | None, scope_key: str) -> ScopeToken:
    """Return a record's value of ``scope_key`` as a token: equal tokens, same scope.

    Records whose metadata lacks the key share the token ``("missing",)``. Values are
    compared with their type, so ``1`` and ``True`` or ``"1"`` are different scopes.
    """
    if meta is None or meta.get(scope_key) is None:
        return ("missing",)
    value = meta[scope_key]
    if isinstance(value, list):
        return ("list", tuple(value))
    return (type(value).__name__, value)


def in_scope(meta: Mapping[str, Any] | None, binding: Mapping[str, Any]) -> bool:
    """Return whether a record's metadata holds every key of ``binding`` with the same value.

    Values are compared as the scope rule compares them (:func:`scope_token`): with their type,
    so ``1``, ``True`` and ``"1"`` are different scopes. For an adapter bound to one scope
    (``metadata={"user_id": "alice"}``) that must tell whether a stored record is in it.

    Args:
        meta: the record's metadata (None: no keys).
        binding: scope keys and the values a record must hold.

    Returns:
        True when every key of ``binding`` is in scope (an empty binding holds everywhere).
    """
    return all(scope_token(meta, key) == scope_token(binding, key) for key in binding)


def correction_scope(
    meta: Mapping[str, Any] | None, legacy_key: str | None = None
) -> CorrectionScope:
    """Return where a stored correction applies: its own scope key and value, or everywhere.

    The scope travels with the correction: the key it was written with is stored on it
    (:data:`SCOPE_KEY`), and its value for that key is its own metadata's. A correction
    without a stored key applies in every scope, unless the collection names a key from
    nowline 0.1 (``legacy_key``, kept in the collection's metadata).
    """
    key = (meta or {}).get(SCOPE_KEY)
    if not isinstance(key, str) or not key:
        key = legacy_key
    return None if key is None else (key, scope_token(meta, key))


class Scoped:
    """A record (or a checked text) as seen by the scope rule: which corrections may reach it.

    A plain memory is in a correction's scope when its value for the correction's key has
    the correction's token. A correction is in another correction's scope when both have the
    same scope (so a scoped correction never chains onto one of another scope, nor onto one
    that applies everywhere). A correction that applies everywhere reaches every record.
    """

    __slots__ = ("_meta", "_own", "_tokens")

    def __init__(
        self,
        meta: Mapping[str, Any] | None,
        own: CorrectionScope | None = None,
        *,
        is_correction: bool = False,
    ) -> None:
        """Describe a record with metadata ``meta``; ``own`` is its scope if it is a correction."""
        self._meta = meta
        self._own: tuple[CorrectionScope] | None = (own,) if is_correction else None
        self._tokens: dict[str, ScopeToken] = {}

    @classmethod
    def of_record(cls, meta: Mapping[str, Any] | None, legacy_key: str | None = None) -> Scoped:
        """Return the scope view of a stored record (a correction if its metadata says so)."""
        if is_correction(meta):
            return cls(meta, correction_scope(meta, legacy_key), is_correction=True)
        return cls(meta)

    @classmethod
    def of_correction(cls, scope: CorrectionScope) -> Scoped:
        """Return the scope view of a correction with this scope."""
        return cls(None, scope, is_correction=True)

    def admits(self, scope: CorrectionScope) -> bool:
        """Return whether a correction with ``scope`` may reach this record."""
        if scope is None:
            return True
        if self._own is not None:
            return self._own[0] == scope
        key, token = scope
        mine = self._tokens.get(key)
        if mine is None:
            mine = self._tokens[key] = scope_token(self._meta, key)
        return mine == token


def correction_infos(
    records: Iterable[Record], legacy_key: str | None = None
) -> list[CorrectionInfo]:
    """Return the correction of each record that is one (a pure scan: run it off a loop)."""
    with paused():  # a load builds one record per correction, none of them garbage
        return [info for r in records if (info := correction_info(r, legacy_key)) is not None]


def correction_info(record: Record, legacy_key: str | None = None) -> CorrectionInfo | None:
    """Return the correction a stored record is, or None (a plain memory, or malformed).

    Its scope is its own (:func:`correction_scope`); ``legacy_key`` is a collection's scope
    key from nowline 0.1.
    """
    meta = record.metadata
    if not is_correction(meta):
        return None
    assert meta is not None
    phrases = stored_phrases(meta[DEPRECATES])
    about = stored_phrases(meta.get(ABOUT)) if meta.get(ABOUT) is not None else ()
    if not phrases or about is None:
        logger.warning("Ignoring correction %r: its deprecates or about is malformed.", record.id)
        return None
    t, written, _ = order_of(record.id, meta)
    return CorrectionInfo(
        id=record.id,
        document=record.document or "",
        deprecates=phrases,
        about=about,
        time=t,
        written=written,
        scope=correction_scope(meta, legacy_key),
        retracted=_number(meta.get(RETRACTED)) if meta.get(RETRACTED) is not None else None,
        marked=meta.get(CORRECTION) is True,
        source=source_of(meta),
        source_url=_text(meta.get(SOURCE_URL)),
        replaced_by=new_values_of(meta, record.document or "", phrases),
    )


def source_of(meta: Mapping[str, Any] | None) -> str | None:
    """Return where a correction came from: its ``source`` metadata, if a non-empty string."""
    return _text((meta or {}).get(SOURCE))


def with_new_values(meta: Mapping[str, Any], text: str) -> dict[str, Any]:
    """Return a correction's metadata with its new values as nowline stores them.

    ``replaced_by`` given: it is the new values, and :data:`NEW` goes. Otherwise the values
    the text states now (read again: the text or the strings may have changed) are stored
    under :data:`NEW` with the fingerprint of the text and strings they were read from (an
    empty list where it states none, so a load never reads the text again).
    """
    out = {k: v for k, v in meta.items() if k != NEW}
    if out.get(REPLACED_BY) is None:
        phrases = stored_phrases(out.get(DEPRECATES)) or ()
        from .wording import new_values

        values = new_values(text, list(phrases))
        out[NEW] = json.dumps({"of": _read_from(text, phrases), "values": list(values)})
    return out


DECORATING_SCHEMES = r"(?:https?|s?ftp|ssh|git|svn)(?:\+(?:ssh|https?|git))?"
"""The web and source-control schemes, a pattern: decoration of a value. Another scheme is
part of the value (``s3://acme-data/raw`` and ``gs://acme-data/raw`` are two buckets)."""

_SCHEME = re.compile(rf"^{DECORATING_SCHEMES}://", re.IGNORECASE)
_HOST = re.compile(r"^(?:[\w.+-]+@)?(?:www\.)?([^/\s:@]+\.[a-z]{2,})(?::\d+)?[/:]", re.IGNORECASE)
"""A host before a path: ``github.com/``, a user and a port (``git@github.com:22/``), or the
``host:`` of an SSH remote (``git@github.com:acme/app``)."""
_EDGE = "\"'`([{<‹«“‘.,;:!?)]}>›»”’"
_SHORTHANDS = {"github:": "github.com", "gitlab:": "gitlab.com", "bitbucket:": "bitbucket.org"}
"""Package managers' shorthands for a forge's repository (``github:acme/app``)."""

_SHORTHAND = re.compile(
    "^(?:" + "|".join(re.escape(k) for k in _SHORTHANDS) + ")(?!//)", re.IGNORECASE
)

_UNDER_A_HOST = "\t"
"""The mark of a key that files a path written under some host (:func:`held_keys`).

No folded value begins with a tab (values are stripped, and NFKC makes none). Not NUL:
SQLite's ``json_each`` cuts a string at NUL, so the snapshot's index lost such keys."""


@functools.lru_cache(maxsize=65536)
def _spelled(phrase: str) -> tuple[str, str]:
    """Return the host a string writes its value under ("" for none) and the value's path.

    Quotes, a scheme, a user, a port, ``www.``, ``.git`` and edge slashes are decoration: the
    value of ``https://github.com/ufo-ai/ufo.git``, ``git@github.com:ufo-ai/ufo.git`` and
    ``https://github.com:443/ufo-ai/ufo`` is the path ``ufo-ai/ufo`` under ``github.com``,
    and that of ``"ufo-ai/ufo."``, ``@ufo-ai/ufo`` and ``ufo-ai/ufo/`` the same path under
    none. A host is taken apart only before a path of its own (``owner/name``):
    ``docs.acme.io/guide`` is one value. A package manager's shorthand names its forge:
    ``github:ufo-ai/ufo`` is ``ufo-ai/ufo`` under ``github.com``.
    """
    bare = unicodedata.normalize("NFKC", phrase).strip().strip(_EDGE).lstrip("@")
    bare = _SCHEME.sub("", bare)
    host = ""
    found = _HOST.match(bare)
    short = _SHORTHAND.match(bare)
    if found is not None and "/" in bare[found.end() :].rstrip("/"):
        host, bare = found.group(1), bare[found.end() :]
    elif short is not None and "/" in bare[short.end() :].rstrip("/"):
        host, bare = _SHORTHANDS[short.group().lower()], bare[short.end() :]
    bare = bare.strip("/")
    if bare.lower().endswith(".git"):
        bare = bare[: -len(".git")]
    path = bare.strip(_EDGE)
    if not path:
        return "", phrase
    return host, path


def bare_path(value: str) -> str:
    """Return the path a string writes its value as, without decoration or host.

    ``https://github.com/ufo-ai/ufo.git``, ``"ufo-ai/ufo."`` and ``ufo-ai/ufo/`` are all
    ``ufo-ai/ufo``: for messages. Whether two strings name the same value is
    :func:`same_value`, which keeps hosts apart.
    """
    return _spelled(value)[1]


def host_of(value: str) -> str:
    """Return the host a string writes its value under, or "" (:func:`_spelled`)."""
    return _spelled(value)[0]


def held_keys(value: str) -> set[str]:
    """Return the keys a value is filed under, folded: as written, spelled plainly, any host.

    A string looked up by its :func:`value_keys` meets one of these keys exactly when both
    name the same value: the same path under the same host, or under a host on one side
    and none on the other. ``github.com/acme/app`` and ``acme/app`` are one repository;
    ``gitlab.com/acme/app`` and ``github.com/acme/app`` are two, so a move from one host to
    another is never taken for a change back (an earlier rule that dropped hosts revived
    the first host's URL when the repository moved on to a third).
    """
    host, path = _spelled(value)
    plain = f"{host}/{path}" if host else path
    return {fold(value), fold(plain), _UNDER_A_HOST + fold(path)}


def value_keys(value: str) -> set[str]:
    """Return the keys a value is looked up by among :func:`held_keys`, folded."""
    host, path = _spelled(value)
    if host:
        return {fold(value), fold(f"{host}/{path}"), fold(path)}
    return {fold(value), fold(path), _UNDER_A_HOST + fold(path)}


def same_value(phrase: str, value: str) -> bool:
    """Return whether two strings name the same value in any spelling (:func:`held_keys`)."""
    return bool(value_keys(phrase) & held_keys(value))


# ------------------------------------------------------------------ occurrences of a value

_FORGES = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "gitea.com"})
"""Code forges: there a repository's path (``owner/name``) names it without the host, as
memories, commands and nowline's own GitHub receiver (DESIGN §14) write it."""

_ADDRESS_RUN = re.compile(r"[\w.~%+@:/\\\[\]-]*")
"""The characters of an address, read backwards from where a path begins (on the folded,
reversed text): anything else (a space, a quote, ``*``, ``«``, ``→``, ``$``) begins it."""

_SCHEME_AT = re.compile(r"[a-z][a-z0-9+.-]*(?::|%3a)//")
"""A scheme, also percent-encoded (``https%3A//`` in a query string)."""

_USERINFO = re.compile(r"^[^/@]*@")
_LABEL = re.compile(r"^[a-z][a-z0-9_-]*:(?!//)")
"""A word's label before an address (``url:``, ``mirror:``), not a scheme."""

_HOST_PART = r"(?:www\.)?((?:[^\W_][\w-]*\.)+[^\W\d_]{2,}|localhost|\d{1,3}(?:\.\d{1,3}){3})"
_HOST_BEFORE_PATH = re.compile(rf"^{_HOST_PART}(?::\d+)?(?:/+|:)")
"""A host (a dotted name, ``localhost``, an IP address), a port, and the ``/`` (or an SSH
remote's ``:``) that a path begins after."""

_LAST_HOST = re.compile(rf"(?:^|/){_HOST_PART}(?::\d+)?/+$")
"""A host that ends a local path (``$GOPATH/src/gitlab.com/``: a checkout of its path)."""

_SCHEMED_HOST = re.compile(r"^([^/:@]+)(?::\d+)?/+$")
"""What follows a scheme up to the path: any host (``http://git/``, ``gitserver:8080``)."""

_HOST_PATHS = {
    "repos/": "github.com",
    "api.github.com/repos/": "github.com",
    "raw.githubusercontent.com/": "github.com",
    "codeload.github.com/": "github.com",
}
"""Where a forge writes a repository's path under another host or a path of its own: GitHub's
API (``api.github.com/repos/acme/app2``, ``gh api repos/acme/app2``) and raw files."""

_LOOK_BACK = 256
"""How far before a path its address is read: a bound, so that a text of many occurrences
inside one long word (a ``PATH`` line) costs linear time."""


@functools.lru_cache(maxsize=65536)
def match_form(phrase: str) -> str:
    """Return what the automaton holds for a deprecated string.

    A string that writes a path under a host (``https://github.com/acme/app2.git``,
    ``git@github.com:acme/app2``, ``docs.acme.io/api/guide``: :func:`_spelled`) is held as
    its path, and :func:`spelled_here` keeps the occurrences that name the same value: the
    path under that host in any spelling (scheme, user, ``www.``, port, ``.git``, SSH form)
    and, on a code forge, the path under no host (``acme/app2``). Any other string is held
    as written (DESIGN §3). Held as written, ``https://github.com/acme/app2`` reached neither
    ``acme/app2`` nor ``git@github.com:acme/app2.git``, so a change back written as a URL
    left the memories and the step it undid unmarked (a review's F5).
    """
    host, path = _spelled(phrase)
    return path if host else phrase


@functools.lru_cache(maxsize=65536)
def _host_key(host: str) -> str:
    """Return a host as hosts are compared: folded, without ``www.``."""
    folded = fold(host)
    return folded[4:] if folded.startswith("www.") else folded


def _written_under(text: str, start: int) -> str | None:
    """Return the host, folded, that the path beginning at ``start`` is written under.

    The address before the path is read back on the folded text to the first character no
    address holds, at most :data:`_LOOK_BACK` characters. It is:

    - "" where nothing but punctuation stands before the path (``acme/app2``,
      ``[acme/app2]``, ``/acme/app2``): no host;
    - the host where the address is a scheme, a user (with a password), a label, ``www.``,
      a host, a port and the ``/`` or ``:`` before the path (``https://oauth2:tok@gitlab.com/``,
      ``git@github.com:``, ``localhost:3000/``, ``http://git/``), or a local path that ends
      with a host (``$GOPATH/src/gitlab.com/``: a checkout of that host's path);
    - None for anything else: a longer path under a host (``gitlab.com/group/``), another
      path (``/srv/``), an npm scope (``@``), an address longer than the look-back. There
      the path names another value, or one nowline cannot tell.
    """
    if start == 0:
        return ""
    raw = text[max(0, start - _LOOK_BACK) : start]
    window = raw.lower() if raw.isascii() else fold(raw)
    size = _ADDRESS_RUN.match(window[::-1])
    address = window[len(window) - size.end() :] if size is not None else ""
    if not address:
        return ""
    if address.endswith("@"):
        return None  # an npm scope (@acme/app2, npm:@acme/app2): another registry's name
    schemes = list(_SCHEME_AT.finditer(address))
    if schemes:
        address = _USERINFO.sub("", address[schemes[-1].end() :])
        found = _HOST_BEFORE_PATH.match(address) or _LAST_HOST.search(address)
        if found is not None:
            return _host_at(found, address)
        found = _SCHEMED_HOST.match(address)
        return found.group(1) if found is not None else None
    if len(address) == len(window) and start > _LOOK_BACK:
        # an address longer than the look-back: a user's long token before the host, or a
        # longer path, most likely
        tail = address.rsplit("@", 1)[-1] if "@" in address else ""
        found = _HOST_BEFORE_PATH.match(tail)
        return found.group(1) if found is not None and found.end() == len(tail) else None
    label = _LABEL.match(address)
    if label is not None and not _HOST_BEFORE_PATH.match(_USERINFO.sub("", address)):
        shorthand = _SHORTHANDS.get(address[: label.end()])
        if shorthand is not None and label.end() == len(address):
            return shorthand
        address = address[label.end() :]
    address = _USERINFO.sub("", address.lstrip("~%+:-[]("))
    if not address.strip("/"):
        return ""  # nothing but slashes: a root-relative link ([x](/acme/app2))
    if address.lstrip("/") in _HOST_PATHS:
        return _HOST_PATHS[address.lstrip("/")]  # gh api repos/acme/app2, GET /repos/...
    found = _HOST_BEFORE_PATH.match(address)
    if found is not None:
        return _host_at(found, address)
    found = _LAST_HOST.search(address)
    return found.group(1) if found is not None else None


def _host_at(found: re.Match[str], address: str) -> str | None:
    """Return the host a match of a host in ``address`` gives the path after the address.

    The host where the address ends with it; where a known path of the forge's own follows
    (``api.github.com/repos/``), the forge; else None (a longer path under the host).
    """
    host = found.group(1)
    if found.end() == len(address):
        return _HOST_PATHS.get(host + "/", host)
    return _HOST_PATHS.get(host + "/" + address[found.end() :])


def _same_host(written: str, host: str) -> bool:
    """Return whether a host read from a text is ``host`` (folded, without ``www.``).

    A subdomain names its domain, as a string written as it is occurs in one (DESIGN §3,
    rule 5: ``oldco.example`` in ``mail.oldco.example``). And a text may run a word of a
    script written without spaces into the host (``仓库在github.com``).
    """
    if written == host:
        return True
    cut = len(written) - len(host)
    return (
        cut > 0
        and written.endswith(host)
        and (written[cut - 1] == "." or not written[cut - 1].isascii())
    )


def _moves_host(path: str, host: str, news: Sequence[str]) -> bool:
    """Return whether a new value is ``path`` under another host (a move between hosts)."""
    return any(
        (other := _spelled(v))[0]
        and _host_key(other[0]) != _host_key(host)
        and fold(other[1]) == fold(path)
        for v in news
    )


def spelled_here(
    deprecates: Sequence[str], news: Sequence[str], form: str, text: str, start: int
) -> tuple[tuple[str, bool], ...]:
    """Return the deprecated strings an occurrence of ``form`` at ``start`` names, in order.

    ``form`` is the :func:`match_form` the automaton found. A string held as written names
    its own occurrences (DESIGN §3). A string held as its path names the occurrences written
    under its host, and, on a code forge, those written under no host, unless the
    correction moves the path to another host (``news`` holds it there): then a bare path
    names either host, and only the old host's spelling is the old value. Several strings
    may share a form (``acme/app`` and ``https://github.com/acme/app``); each is judged on
    its own afterwards (a change back may revive one and not the other). Each comes with
    whether it names the occurrence only as a bare path (``acme/app`` for the GitHub URL):
    such an occurrence is current where a later change made the bare value current again.
    """
    if len(deprecates) == 1 and form == deprecates[0] and not _spelled(form)[0]:
        return ((form, False),)  # held as written: the common case, and the hook's
    key = fold(form)
    named: list[tuple[str, bool]] = []
    where: str | None = ""
    read = False
    for phrase in deprecates:
        host, path = _spelled(phrase)
        if not host:
            if phrase == form:
                named.append((phrase, False))
            continue
        if fold(path) != key:
            continue
        if not read:
            where, read = _written_under(text, start), True
        if where is None:
            continue
        if where:
            if _same_host(where, _host_key(host)):
                named.append((phrase, False))
        elif _host_key(host) in _FORGES and not _moves_host(path, host, news):
            named.append((phrase, True))
    return tuple(named)


def first_naming(
    corrections: Sequence[tuple[Sequence[str], Sequence[str] | None] | None], texts: Sequence[str]
) -> dict[int, int]:
    """Return, per correction (by index), the index of the first text that names one of its strings.

    Each correction is (deprecated strings, new values, or None to read them from its text
    where a host move matters); None is no correction. Naming is the registry's rule
    (:func:`match_form`, :func:`spelled_here`). One automaton over every correction's
    strings reads each text once, so a file of many corrections is not read once per
    correction (``nowline import``'s preflight asks it of the lines before each correction).
    """
    from ..matchers import Matcher

    named = Matcher(
        (match_form(d), i) for i, c in enumerate(corrections) if c is not None for d in c[0]
    )
    first: dict[int, int] = {}
    news: dict[int, Sequence[str]] = {}
    for at, text in enumerate(texts):
        for m in named.find(text):
            if m.key in first:
                continue
            strings, given = corrections[m.key] or ((), ())
            if m.key not in news:
                news[m.key] = given if given is not None else _news_read(texts[m.key], strings)
            if spelled_here(strings, news[m.key], m.phrase, text, m.start):
                first[m.key] = at
    return first


def _news_read(text: str, deprecates: Sequence[str]) -> tuple[str, ...]:
    """Return the new values a correction's text states (read only where a host matters)."""
    if not any(_spelled(d)[0] for d in deprecates):
        return ()
    return new_values_of({}, text, deprecates)


def new_values_of(meta: Mapping[str, Any], text: str, deprecates: Sequence[str]) -> tuple[str, ...]:
    """Return a correction's new values: ``replaced_by`` as given, else its wording's.

    nowline stores what the wording states when it writes a correction (:data:`NEW`), so a
    load reads it back while the text and strings are the ones it was read from; otherwise (a
    correction written or edited around nowline) the text is read here.
    """
    if meta.get(REPLACED_BY) is not None:
        return stored_phrases(meta[REPLACED_BY]) or ()
    stored = _stored_new(meta.get(NEW), text, deprecates)
    if stored is not None:
        return stored
    from .wording import new_values

    return new_values(text, list(deprecates))


def new_values_stored(meta: Mapping[str, Any], text: str) -> bool:
    """Return whether a correction's new values are stored for its text and strings as they are.

    True where ``replaced_by`` is given or :data:`NEW` holds the values read from exactly this
    text and these strings; ``repair()`` rewrites :data:`NEW` where it is False.
    """
    if meta.get(REPLACED_BY) is not None:
        return True
    phrases = stored_phrases(meta.get(DEPRECATES)) or ()
    return _stored_new(meta.get(NEW), text, phrases) is not None


def _read_from(text: str, deprecates: Sequence[str]) -> str:
    """Return the fingerprint of a text and strings that new values are read from."""
    basis = "\x00".join([f"{len(text)}:{text}", *deprecates])
    return hashlib.blake2b(basis.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def _stored_new(value: object, text: str, deprecates: Sequence[str]) -> tuple[str, ...] | None:
    """Return the stored new values if they hold for this text and these strings, else None."""
    stored = _json_object(value)
    if stored is None:
        return None
    values = stored.get("values")
    if stored.get("of") != _read_from(text, deprecates) or not isinstance(values, list):
        return None
    return stored_phrases(values)


def _text(value: object) -> str | None:
    """Return a provenance value if it is a non-empty string, else None."""
    return value if isinstance(value, str) and value else None


def user_metadata(meta: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Return a stored metadata as chromadb would return it: no ``nowline_`` keys.

    A record whose only keys are nowline's was written with no metadata: it reads back as None.
    """
    if meta is None:
        return None
    out = {k: v for k, v in meta.items() if not k.startswith(PREFIX)}
    return out or None


def role_of(is_correction: bool, retracted: bool, superseded: bool) -> Role:
    """Return a record's role: the one rule (the README's "Roles").

    A retracted correction is ``retracted``; any record a correction supersedes directly is
    ``historical``; else a correction is a ``transition`` and a memory is ``current``.
    """
    if is_correction and retracted:
        return RETRACTED_ROLE
    if superseded:
        return HISTORICAL
    return TRANSITION if is_correction else CURRENT


def role_value(role: Role) -> str | None:
    """Return the stored value of a role: ``current`` is stored as no key at all.

    Fewer metadata keys keep writes fast; ``{"nowline_role": {"$ne": "historical"}}`` still
    selects every record that is not historical, since ``$ne`` matches a missing key.
    """
    return None if role == CURRENT else role


# ------------------------------------------------------------------------ writing


def write_stamps(now: float, n: int) -> list[float]:
    """Return one write stamp per record of a batch, increasing in batch order.

    Records of one call are ordered by their position in it, so two chained corrections
    written in one ``add()`` take the order the caller gave them.
    """
    return [stored_time(now + i * 1e-6) for i in range(n)]


def merge(
    record_id: str,
    old: Record | None,
    user: Mapping[str, Any] | None,
    document: str | None,
    stamp: float,
) -> Record:
    """Return the record as it will be after a write (metadata keys merge as in chromadb).

    ``user`` is the caller's metadata patch: a None value removes the key. The record's time
    is its ``observed_at`` when given, else the time it already had, else ``stamp``.
    """
    meta: dict[str, Any] = dict(old.metadata or {}) if old is not None else {}
    for key, value in (user or {}).items():
        if value is None:
            meta.pop(key, None)
        else:
            meta[key] = value
    observed = (user or {}).get(OBSERVED_AT)
    if observed is not None:
        meta[TIME] = to_epoch(observed)
    elif _number(meta.get(TIME)) is None:
        observed_before = meta.get(OBSERVED_AT)
        meta[TIME] = time_of(meta) if observed_before is not None else stamp
    if old is None and meta[TIME] != stamp:
        # The first write's stamp, only needed when the time is not the write stamp (it breaks
        # ties of equal times). A later write never adds one: that would move the record among
        # corrections of equal time.
        meta[WRITTEN] = stamp
    doc = document if document is not None else (old.document if old is not None else None)
    return Record(record_id, doc, meta)

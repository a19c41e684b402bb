"""nowline's exceptions: one base class, a few subclasses, messages that give the remedy.

Every error nowline raises on purpose derives from :class:`NowlineError`. Each subclass also
inherits the builtin exception a caller would already catch, so ``except ValueError`` keeps
working. Chroma's own exceptions are never wrapped: they reach the caller unchanged.

The tree::

    NowlineError (Exception)
    ├── InvalidPhrase (ValueError)          a matcher phrase is empty, blank or not a str
    ├── InvalidInput (ValueError)           an argument has the wrong type or value
    │   ├── OutOfRange (OverflowError too)  a count or position Chroma cannot represent
    │   ├── StoreNotFound                   no Chroma store at a folder (none is created)
    │   ├── CollectionNotFound              no collection of that name (or none at all)
    │   ├── AmbiguousCollection             several collections, and none was named
    │   ├── EmbeddingUnavailable            the collection's embedding function cannot be
    │   │                                   built in this process
    │   └── InvalidCorrection               a correction's ``deprecates`` or text is unusable
    │       ├── AbsentString                a deprecated string is not in its own text
    │       ├── GenericString               a string is a common word, a given name or a
    │       │                               number, unanchored, or an anchor anchors nothing
    │       ├── PersonName                  a person's full name, with no anchor
    │       ├── NewValue                    a deprecated string is a new value: the
    │       │                               correction's own, or what another one holds current
    │       ├── CorrectionTooBroad          its strings would reach too much of the store
    │       ├── Repeated                    the same change is already stored and stands
    │       └── Unreached                   it, or one of its strings, reaches nothing, but the
    │                                       store names a near miss
    ├── StaleReference (ValueError)         a guarded action names a superseded string
    ├── UnknownRecord (KeyError)            no record has the given id
    ├── StoreBusy (RuntimeError)            another process holds the store's writer lock
    └── SnapshotDamaged (RuntimeError)      the snapshot a process started from was damaged,
                                            and the run again from the store failed too

Callers should branch on the class, never on the message text.
"""

from __future__ import annotations

from typing import Any

from .matchers._errors import InvalidPhrase, NowlineError

__all__ = [
    "AbsentString",
    "AmbiguousCollection",
    "CollectionNotFound",
    "CorrectionTooBroad",
    "EmbeddingUnavailable",
    "GenericString",
    "InvalidCorrection",
    "InvalidInput",
    "InvalidPhrase",
    "MissingExtra",
    "NewValue",
    "NowlineError",
    "OutOfRange",
    "PersonName",
    "Repeated",
    "SnapshotDamaged",
    "StaleReference",
    "StoreBusy",
    "StoreNotFound",
    "UnknownRecord",
    "Unreached",
]


class MissingExtra(NowlineError, ImportError):
    """A surface needs the packages of one of nowline's extras, and they are not installed.

    The message names the install command for a wheel and for a checkout (nowline is not on
    PyPI). ``extra`` is the extra's name (``mcp``, ``langchain``, ``serve``, ``cli``).
    """

    def __init__(self, what: str, extra: str) -> None:
        """Say what needs the extra (``what``, a clause) and which extra it is."""
        self.extra = extra
        super().__init__(
            f"{what}. Install nowline's {extra!r} extra the way nowline was installed (it is "
            f"not on PyPI): from its wheel, pip install 'PATH/nowline-VERSION-py3-none-any.whl"
            f"[{extra}]'; in a checkout, pip install -c constraints.txt -e '.[{extra}]' (torch "
            "first, as its README says)."
        )


class InvalidInput(NowlineError, ValueError):
    """An argument to a nowline method has the wrong type or an unusable value."""


class OutOfRange(InvalidInput, OverflowError):
    """A count or position is larger than Chroma can represent (as chromadb, an OverflowError)."""


class StoreNotFound(InvalidInput):
    """There is no Chroma store at the folder given; opening one never creates it.

    Also raised for a path that is a file. Pass ``create=True`` to create a new store.

    Attributes:
        path: the folder that was given (``~`` expanded).
    """

    def __init__(self, message: str, *, path: str) -> None:
        """Create the error for the folder ``path``."""
        super().__init__(message)
        self.path = path


class CollectionNotFound(InvalidInput):
    """The store has no collection of the given name, or no collection at all.

    chromadb raises its own ``NotFoundError`` here (a ``ValueError`` before chromadb 0.6);
    this is a ``ValueError``.

    Attributes:
        name: the name that was asked for (None: the store's only one).
        names: the store's collections.
    """

    def __init__(self, message: str, *, name: str | None, names: list[str]) -> None:
        """Create the error for ``name`` among the store's ``names``."""
        super().__init__(message)
        self.name = name
        self.names = names


class AmbiguousCollection(InvalidInput):
    """The store holds several collections and none was named; name one.

    Attributes:
        names: the store's collections, sorted.
    """

    def __init__(self, message: str, *, names: list[str]) -> None:
        """Create the error listing the store's ``names``."""
        super().__init__(message)
        self.names = names


class EmbeddingUnavailable(InvalidInput):
    """The collection embeds with a function this process cannot build (as chromadb, ValueError).

    Only embedding needs it: a collection opened with ``embeds=False`` reads, checks and
    writes metadata without it, and raises this when asked to embed.

    Attributes:
        collection: the collection's name.
    """

    def __init__(self, message: str, *, collection: str) -> None:
        """Create the error for the collection named ``collection``."""
        super().__init__(message)
        self.collection = collection


class InvalidCorrection(InvalidInput):
    """A correction cannot be written as given; nothing was written.

    Attributes:
        suggestions: the strings to deprecate instead, each with how many records it names
            (most first), read from the correction's wording and the store where the write
            path could read them; empty otherwise. One retry with them can succeed.
    """

    suggestions: list[tuple[str, int]]

    def __init__(self, message: str, *, suggestions: list[tuple[str, int]] | None = None) -> None:
        """Create the error with ``suggestions`` (strings to deprecate, with their reach)."""
        super().__init__(message)
        self.suggestions = list(suggestions or [])


class NewValue(InvalidCorrection):
    """A deprecated string is a new value: nowline would mark what is current as outdated.

    Either the correction's own new value (given in ``replaced_by``, or stated by its text:
    "moved from A to B" makes B new), or a string another active correction of the same scope
    holds as its new value, where this correction's text does not say it changed again.

    Attributes:
        phrase: the deprecated string.
        said: the words of the text that present it as new (``to ufo-ai/ufo``), or None.
        holder: the id of the active correction that holds it as current, or None (it is this
            correction's own new value).
    """

    def __init__(
        self,
        message: str,
        *,
        phrase: str,
        said: str | None = None,
        holder: str | None = None,
        suggestions: list[tuple[str, int]] | None = None,
    ) -> None:
        """Create the error for the deprecated string ``phrase``."""
        super().__init__(message, suggestions=suggestions)
        self.phrase = phrase
        self.said = said
        self.holder = holder


class PersonName(InvalidCorrection):
    """A deprecated string is a person's full name, and the correction has no anchor.

    A person rarely stops existing: without an anchor the correction marks everything about
    the person as outdated. Name the role or subject that changed in ``about``.

    Attributes:
        phrase: the name.
        anchors: the anchors suggested from the correction's text, each with how many of the
            records the name reaches also name it (most first; counted where the store could
            be read).
    """

    def __init__(
        self,
        message: str,
        *,
        phrase: str,
        anchors: list[tuple[str, int]] | None = None,
        suggestions: list[tuple[str, int]] | None = None,
    ) -> None:
        """Create the error for the name ``phrase``."""
        super().__init__(message, suggestions=suggestions)
        self.phrase = phrase
        self.anchors = list(anchors or [])


class CorrectionTooBroad(InvalidCorrection):
    """A correction's deprecated strings would reach too large a share of the store.

    Attributes:
        reach: how many records the correction would have reached.
        limit: the largest reach that was allowed.
    """

    def __init__(self, message: str, *, reach: int, limit: int) -> None:
        """Create the error with the measured ``reach`` and the ``limit`` it exceeded."""
        super().__init__(message)
        self.reach = reach
        self.limit = limit


class Repeated(InvalidCorrection):
    """The same change is already stored, and that correction stands; nothing was written.

    Both are active in one scope and from one source, with the same text (case, spaces and
    a closing stop aside), strings, anchors and new values, and the standing one is the
    newest of its chain. Storing it again would show two lines for
    one change, and the older would read as outdated under its own twin. ``correct()``, and
    every surface built on it, returns the standing correction instead of raising
    (``CorrectionReport.stored`` is False); a plain ``add`` raises it. To state the change
    anew, retract the standing correction first.

    Attributes:
        standing: the id of the correction already stored (for two such records in one
            write, the first of them, which was not stored either).
    """

    def __init__(self, message: str, *, standing: str) -> None:
        """Create the error naming the ``standing`` correction."""
        super().__init__(message)
        self.standing = standing


class StaleReference(NowlineError, ValueError):
    """A guarded action names a string that an active correction deprecates; it did not run.

    Attributes:
        trips: the corrections the action tripped (``nowline.Trip``), each with its newest
            correction, so the caller can retry with the current value.
    """

    def __init__(self, message: str, *, trips: list[Any]) -> None:
        """Create the error with the ``trips`` that caused it."""
        super().__init__(message)
        self.trips = trips


class UnknownRecord(NowlineError, KeyError):
    """No record of the collection has the given id."""

    def __str__(self) -> str:
        """Return the message as given (``KeyError`` would quote it)."""
        return str(self.args[0]) if self.args else ""


class StoreBusy(NowlineError, RuntimeError):
    """Another process already writes to this local store; run a Chroma server instead."""


class SnapshotDamaged(NowlineError, RuntimeError):
    """The snapshot a process started from was damaged while it read it; nothing was written.

    An operation that meets it runs once more with the corrections read from the store
    (seconds at 100k corrections); this reaches the caller only if that fails too.
    """


class AbsentString(InvalidCorrection):
    """A deprecated string does not occur in the correction's own text.

    Attributes:
        absent: the strings that do not occur.
        named: whether the store names every one of them as written (counted with the
            correction's anchors). ``correct()`` then stores the correction with a note
            instead of raising; a plain ``add()`` still raises.
    """

    def __init__(self, message: str, *, absent: list[str], named: bool = False) -> None:
        """Create the error with the ``absent`` strings."""
        super().__init__(message)
        self.absent = absent
        self.named = named


class GenericString(InvalidCorrection):
    """A deprecated string is a common word or a bare number, and the correction has no anchor.

    Also raised for an anchor (``about``) that is generic itself, or that is a deprecated
    string or part of one: such an anchor narrows nothing.

    Attributes:
        phrase: the generic string (or the anchor).
        reason: why it is generic (e.g. "a bare number").
        kind: ``number`` (a bare number or a version token such as ``v1``), ``word`` (one
            common word), ``name`` (a given name alone), ``phrase`` (common words),
            ``title`` (a capitalised phrase of common English words that is not a person's
            full name), ``overlap`` (an anchor that is the deprecated string itself) or
            ``function`` (an anchor of function words, such as ``the``).
        field: ``deprecates`` or ``about``: where the string was given.
        anchors: for a generic deprecated string, the anchors suggested from the correction's
            text, each with how many of the records the string reaches also name it (those
            that narrow first; counted where the store could be read, else 0).
    """

    def __init__(
        self,
        message: str,
        *,
        phrase: str,
        reason: str,
        kind: str = "word",
        field: str = "deprecates",
        anchors: list[tuple[str, int]] | None = None,
    ) -> None:
        """Create the error with the generic ``phrase``, the ``reason``, its kind and field."""
        super().__init__(message)
        self.phrase = phrase
        self.reason = reason
        self.kind = kind
        self.field = field
        self.anchors = list(anchors or [])


class Unreached(InvalidCorrection):
    """A correction reaches no record, while the store names a near miss of its strings.

    A typo of the outdated string (``wiki.nortwind.dev`` for ``wiki.northwind.dev``) or the
    new value given instead of the old one leaves every stale memory unmarked; nothing was
    written. ``allow_unreached=True`` stores it anyway.

    Attributes:
        near_misses: each suggested string with how many records it names, most first.
        summary: the message's first part, which names the suggestions without saying how to
            override (for surfaces whose override is spelt otherwise, such as the tools).
        anchors: the anchors (``about``) that made the correction reach nothing, where
            without them it would reach records; empty for other near misses.
    """

    def __init__(
        self,
        message: str,
        *,
        near_misses: list[tuple[str, int]],
        summary: str = "",
        anchors: list[str] | None = None,
    ) -> None:
        """Create the error with the ``near_misses`` found in the store."""
        super().__init__(message)
        self.near_misses = near_misses
        self.summary = summary or message
        self.anchors = list(anchors or [])

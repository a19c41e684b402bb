"""Near misses: a correction that reaches nothing, while the store names almost its string.

The two likeliest mistakes in writing a correction leave it reaching no record: a typo in the
outdated string (``wiki.nortwind.dev`` where the memories name ``wiki.northwind.dev``), and
the new value given instead of the old one (body "#ops-deploys was renamed to #deploys.",
``deprecates=["#deploys"]``). Stored silently, such a correction leaves every stale memory
unmarked, and later marks the first correct memory that names the new value as outdated. So
``correct()`` refuses a correction that reaches nothing when the store names a near miss
(:class:`nowline.errors.Unreached`), and ``preview()`` shows the same suggestions. A
correction that reaches nothing and has no near miss (a change noted before any memory names
it) is stored as before.

A near miss is a string that at least one memory names where the correction could reach it
(its anchors and scope hold there; corrections, which name their own old strings, do not
count), and is either

(a) **within a small edit distance** of a deprecated string: Levenshtein distance at most
    :func:`edit_bound` (1 for strings of 5 to 11 characters, 2 from 12 on, none below 5),
    compared after folding (case and width, as matching does) and only where the string starts
    and ends at token boundaries, as an occurrence would. Candidates are found cheaply: a
    string within distance ``k`` of the deprecated one contains one of its ``k + 1`` pieces
    exactly (pigeonhole), so one Chroma ``$regex`` read of at most :data:`MAX_CANDIDATES`
    documents that contain a piece, then rapidfuzz on the windows around each piece's
    occurrences. The digits must be the same, in the same order: ``svc1/a`` and ``svc0/a``,
    ``v1.2`` and ``v1.3`` or ``PROJ-1234`` and ``PROJ-1235`` name different things. In a
    store where more than :data:`MAX_CANDIDATES` documents contain a piece, a near miss can
    be missed (the correction is then stored, as it would have been anyway).
(b) **another string of the correction's own text** of the same shape as a deprecated string
    (the same number of words, the same separators such as ``#``, ``/``, ``@`` or ``.``; for
    plain words, the same capitalisation), outside the deprecated strings and anchors, and not
    generic unless the correction is anchored: the old and new values swapped.
(c) **an identifier inside a deprecated string** (:func:`parts`): the string sent with more
    around its old value (``com.acme:core:3.0`` or ``the acme/app repo`` where the memories
    name ``com.acme:core`` and ``acme/app``). Only identifiers (``org/repo``, ``#chan``, an
    address, a dotted name), which name one thing wherever they are written: a word or name
    inside a phrase ("Acme" in "Acme Cloud Console") names far more than the phrase did. Not
    one inside a new value (``replaced_by``), and only the longest that name records (of
    ``com.acme:core`` and ``com.acme``, the first). Measured on the third blind writer set: a
    small model sent ``com.brantwood:ledger-core:3.0`` for ``com.brantwood:ledger-core``, and
    the same call again at the retry, the refusal having named nothing the store holds.

The pure functions here find the candidates; :func:`near_miss_flow` yields the reads (one
``Get`` per deprecated string, one reach computation for all candidates) and
:func:`unreached_message` words the refusal.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import TYPE_CHECKING, Final, Literal

from ..matchers import Matcher, fold, is_token_char

if TYPE_CHECKING:
    from ..terms import Terms

__all__ = [
    "MAX_CANDIDATES",
    "MAX_PARTS",
    "MAX_SUGGESTIONS",
    "NearMiss",
    "absent_message",
    "edit_bound",
    "like_of",
    "longest_parts",
    "near_strings",
    "other_version_named",
    "parts",
    "pieces",
    "proposed_call",
    "text_candidates",
    "unreached_message",
    "unreached_summary",
]

MAX_CANDIDATES: Final = 1000
"""Most documents read to look for strings within edit distance of one deprecated string."""

MAX_SUGGESTIONS: Final = 5
"""Most near misses named in a refusal (those naming the most records first)."""

MAX_PARTS: Final = 40
"""Most identifiers inside one deprecated string looked up as near misses (longest first)."""

_MAX_WINDOWS = 200  # piece occurrences examined per document
_SYMBOLS = frozenset("/@#:.+&~$%")


@dataclass(frozen=True, slots=True)
class NearMiss:
    """A suggested string and how many records it names.

    Attributes:
        string: the string, as a record (a) or the correction's text (b) writes it.
        count: how many records a correction naming it instead would reach.
        source: ``edit`` (within edit distance of ``of``), ``text`` (another string of the
            correction's own text) or ``part`` (an identifier inside ``of``).
        of: the deprecated string it is a near miss of.
    """

    string: str
    count: int
    source: Literal["edit", "text", "part"]
    of: str


# ------------------------------------------------------------------------- pure rules


def edit_bound(phrase: str) -> int:
    """Return the largest edit distance at which a string is a near miss of ``phrase``.

    0 (no fuzzy match) below 5 folded characters, where one edit turns one short name into
    another (``v1``/``v2``, ``ufo``/``ufc``); 1 up to 11 characters; 2 from 12 on.
    """
    n = len(fold(phrase))
    return 0 if n < 5 else 1 if n < 12 else 2


def pieces(phrase: str, k: int) -> list[str]:
    """Return ``k + 1`` contiguous pieces of the folded ``phrase``.

    A string within edit distance ``k`` of the phrase contains at least one of them
    unchanged (each edit touches at most one piece).
    """
    folded = fold(phrase)
    size, extra = divmod(len(folded), k + 1)
    out, start = [], 0
    for i in range(k + 1):
        end = start + size + (1 if i < extra else 0)
        out.append(folded[start:end])
        start = end
    return [p for p in out if p]


def _bounded(folded: str, start: int, end: int, phrase: str) -> bool:
    """Return whether ``folded[start:end]`` starts and ends at token boundaries, as ``phrase``."""
    if start < 0 or end > len(folded) or start >= end:
        return False
    window = folded[start:end]
    if window != window.strip() or "\n" in window:
        return False
    if is_token_char(window[0]) != is_token_char(phrase[0]):
        return False
    if is_token_char(window[-1]) != is_token_char(phrase[-1]):
        return False
    if is_token_char(phrase[0]) and start > 0 and is_token_char(folded[start - 1]):
        return False
    return not (is_token_char(phrase[-1]) and end < len(folded) and is_token_char(folded[end]))


def near_strings(phrase: str, documents: Iterable[str], k: int | None = None) -> dict[str, str]:
    """Return the strings of ``documents`` within edit distance ``k`` of ``phrase`` (not 0).

    Args:
        phrase: a deprecated string.
        documents: texts to look in (documents of the store).
        k: the bound; :func:`edit_bound` when None.

    Returns:
        folded string -> the string as the first document writing it has it.
    """
    from rapidfuzz.distance import Levenshtein

    from ..matchers._normalize import fold_text

    bound = edit_bound(phrase) if k is None else k
    if bound < 1:
        return {}
    target = fold(phrase)
    digits = _digits(target)
    parts = pieces(phrase, bound)
    offsets = []
    at = 0
    for part in parts:
        offsets.append(at)
        at += len(part)
    out: dict[str, str] = {}
    length = len(target)
    for document in documents:
        text = fold_text(document)
        folded = text.folded
        spans: set[tuple[int, int]] = set()
        for part, offset in zip(parts, offsets, strict=True):
            found = folded.find(part)
            seen = 0
            while found >= 0 and seen < _MAX_WINDOWS:
                seen += 1
                base = found - offset
                for start in range(base - bound, base + bound + 1):
                    for end in range(start + length - bound, start + length + bound + 1):
                        if _bounded(folded, start, end, target):
                            spans.add((start, end))
                found = folded.find(part, found + 1)
        best: dict[tuple[int, int], int] = {}
        for start, end in spans:
            window = folded[start:end]
            if _digits(window) != digits:
                continue
            distance = Levenshtein.distance(target, window, score_cutoff=bound)
            if 0 < distance <= bound:
                best[(start, end)] = distance
        for start, end, _ in text.original_spans([(s, e, None) for s, e in sorted(best)]):
            original = document[start:end]
            out.setdefault(fold(original), original)
    return out


def parts(phrase: str, new: Sequence[str] = ()) -> list[str]:
    """Return the identifiers inside ``phrase`` that may be its old value alone, longest first.

    Each is one of its words less what names no other thing: a version after its name
    (``com.acme:core`` of ``com.acme:core:3.0``, ``@scope/pkg`` of ``@scope/pkg@1.2``), a
    URL's scheme, and a code forge's host before ``owner/repo`` (``acme/app`` of
    ``https://github.com/acme/app``); or the word itself, where the phrase has more words
    around it (``acme/app`` of ``the acme/app repo``); and a person's name without the title
    before it (``Ruairí Ó Briain`` of ``Dr Ruairí Ó Briain``). Never a shorter version
    (``nginx:1`` of ``nginx:1.25``), an item's container (``acme/app`` of ``acme/app#123``,
    a host of a URL with a path, or of ``host:port``), a namespace (``com.acme``) or what
    follows one (``app.git`` of ``git@github.com:acme/app.git``), and none where another
    word of the phrase holds a digit (``acme/app v1.2``: the version is part of what
    changed). Each is an identifier (:func:`~nowline._rules.generic.is_identifier`), save
    the name, not ``phrase`` itself, occurs in it as the matcher reads it, and occurs in none
    of the ``new`` values. At most :data:`MAX_PARTS`.
    """
    from .generic import is_identifier, strip_edges
    from .wording import without_title

    whole = fold(phrase)
    words = [strip_edges(raw) for raw in phrase.split()]
    found: dict[str, str] = {}
    name = without_title(phrase)
    if name is not None and not (new and Matcher([(name, name)]).keys("\n".join(new))):
        found[fold(name)] = name  # "Dr Ruairí Ó Briain": the memories write the name alone
    for word in words:
        if any(w is not word and any(c.isdigit() for c in w) for w in words):
            continue  # "acme/app v1.2": the version is part of what changed
        for part in _kept_of(word):
            key = fold(part)
            if key == whole or key in found or not is_identifier(part):
                continue
            if re.fullmatch(r"v?\d[\d.]*", part, re.I):
                continue  # a version alone names every thing of that version
            # as the matcher reads the phrase: acme/app is no part of acme/app-v2 (a sibling)
            if not Matcher([(part, part)]).keys(phrase):
                continue
            if new and Matcher([(part, part)]).keys("\n".join(new)):
                continue
            found[key] = part
    ordered = sorted(found.values(), key=lambda p: (-len(p), fold(p)))
    return ordered[:MAX_PARTS]


_VERSION_TAIL = re.compile(r"[:@]v?\d+(?:\.\d+)*(?:[-+][a-z0-9.]+)?\Z", re.I)
_FORGES = frozenset(
    {"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "git.sr.ht", "gitea.com"}
)
_OWNER_REPO = re.compile(r"~?[\w.-]+/[\w.-]*[^\W\d_][\w.-]*")


def _kept_of(word: str) -> list[str]:
    """Return ``word``, and it without a version after its name or a forge's URL (:func:`parts`)."""
    out = [word, word.rstrip("/")] if word.endswith("/") else [word]
    tail = _VERSION_TAIL.search(word)
    head = word[: tail.start()] if tail is not None else ""
    port = bool(re.fullmatch(r":\d+", word[len(head) :])) and "." in head and "/" not in head
    if tail is not None and tail.start() > 0 and any(c.isalpha() for c in head) and not port:
        out.append(head)  # not a host's port: db.acme.io of db.acme.io:5432 names every port
    for w in list(out):
        scheme = w.find("://")
        rest = w[scheme + 3 :] if scheme >= 0 else w
        host, slash, path = rest.partition("/")
        if slash and host.lower() in _FORGES and _OWNER_REPO.fullmatch(path.removesuffix(".git")):
            out += [rest, path.removesuffix(".git")]
    return out


def other_version_named(part: str, documents: Iterable[str]) -> bool:
    """Return whether a document names ``part`` with a version after it (``com.acme:core:3.5``).

    Such a part would reach the other versions' memories too (the matcher reads
    ``com.acme:core`` in ``com.acme:core:3.5``): it is no near miss of ``com.acme:core:3.0``.
    """
    after = re.compile(re.escape(fold(part)) + r"[:@]v?\d")
    return any(after.search(fold(d)) for d in documents)


def longest_parts(reached: Sequence[str]) -> list[str]:
    """Return the parts that no other of ``reached`` contains at token boundaries."""
    out = []
    for part in reached:
        inside = Matcher([(part, part)])
        if not any(other != part and inside.keys(other) for other in reached):
            out.append(part)
    return out


def _digits(s: str) -> str:
    """Return the digits of ``s``, in order."""
    return "".join(c for c in s if c.isdigit())


def _shape(s: str) -> tuple[int, frozenset[str], tuple[str, ...]]:
    """Return what makes two strings alike: words, separators, and the words' capitalisation."""
    words = s.split()
    symbols = frozenset(c for c in s if c in _SYMBOLS)
    case: tuple[str, ...] = ()
    if not symbols:
        case = tuple(
            "title"
            if w[:1].isupper() and not w.isupper()
            else "upper"
            if w.isupper()
            else "lower"
            if w.islower()
            else "other"
            for w in words
        )
    return len(words), symbols, case


def text_candidates(
    text: str, deprecates: Sequence[str], about: Sequence[str], *, anchored: bool
) -> dict[str, str]:
    """Return the strings of a correction's text shaped like one of its deprecated strings.

    Args:
        text: the correction's text.
        deprecates: its deprecated strings.
        about: its anchors.
        anchored: generic strings may be returned (the correction has anchors).

    Returns:
        folded string -> the string as the text writes it.
    """
    from .generic import is_generic, strip_edges

    taken = Matcher((p, p) for p in (*deprecates, *about))
    # the spans of the correction's own strings, by start, with the furthest end so far: a
    # window overlaps one where a span starting before its end ends after its start (a test
    # of every span for every window made a 100 kB message 4 s slower in the hook)
    blocked = [(m.start, m.end) for m in taken.find(text)]
    blocked_starts = [b for b, _ in blocked]
    reach = list(accumulate((e for _, e in blocked), max))
    own = {fold(p) for p in (*deprecates, *about)}
    words: list[tuple[int, int]] = []
    at = 0
    for raw in text.split():
        start = text.index(raw, at)
        at = start + len(raw)
        stripped = strip_edges(raw)
        if stripped:
            inner = raw.index(stripped)
            words.append((start + inner, start + inner + len(stripped)))
    shapes = {_shape(p): p for p in deprecates}
    sizes = {n for n, _, _ in shapes}
    out: dict[str, str] = {}
    for n in sizes:
        for i in range(len(words) - n + 1):
            start, end = words[i][0], words[i + n - 1][1]
            k = bisect_left(blocked_starts, end)
            if k and reach[k - 1] > start:
                continue
            candidate = text[start:end]
            key = fold(candidate)
            if key in own or key in out or _shape(candidate) not in shapes:
                continue
            if not any(c.isalnum() for c in candidate):
                continue
            if not anchored and is_generic(candidate) is not None:
                continue
            out[key] = candidate
    return out


def _described(near: Sequence[NearMiss]) -> str:
    """Return the near misses as a refusal names them: each with its count and why."""
    said = []
    for miss in near:
        records = "record" if miss.count == 1 else "records"
        if miss.source == "edit":
            said.append(
                f"{miss.string!r} (named by {miss.count} {records}; almost {miss.of!r}: a typo?)"
            )
        elif miss.source == "part":
            said.append(
                f"{miss.string!r} (named by {miss.count} {records}; inside {miss.of!r}: is "
                f"{miss.string!r} the outdated string alone?)"
            )
        else:
            said.append(
                f"{miss.string!r} (named by {miss.count} {records}; also in the correction's "
                f"text: is {miss.string!r} the old value and {miss.of!r} the new one?)"
            )
    return "; ".join(said)


def unreached_summary(
    deprecates: Sequence[str], near: Sequence[NearMiss], *, whole: bool = True
) -> str:
    """Return what is wrong with a correction, or a string of it, that reaches nothing.

    Args:
        deprecates: the strings that reach nothing: all of the correction's (``whole``), or
            the one of several that reaches nothing while the others reach records.
        near: the near misses found (not empty).
        whole: the whole correction reaches nothing, not only ``deprecates``.
    """
    named = ", ".join(repr(p) for p in deprecates)
    start = (
        f"The correction would be shown beneath no memory: no record names {named}."
        if whole
        else f"No record names {named}, while the correction's other strings name records."
    )
    return (
        f"{start} The store names "
        + _described(near)
        + ". A typo, or the new value given instead of the old, leaves every outdated memory "
        "unmarked and later marks correct ones."
    )


def proposed_call(
    near: Sequence[NearMiss], others: Sequence[str] = ()
) -> tuple[list[str], list[str]]:
    """Return the ``deprecates`` and ``replaced_by`` that the near misses propose.

    Each unreached string gives way to its near miss: a typo to the string the store names,
    and a string given instead of the old value ("Go 1.23" where the text also names "Go
    1.21", which the store names) to that old value, the given string becoming a new value.
    ``others`` are the correction's strings that reach records, kept first. Measured on the
    blind writer sets: a model asked "is 'Go 1.21' the old value and 'Go 1.23' the new one?"
    kept the new value and dropped the old one; it copies a call it is given.
    """
    olds = {fold(s): s for s in others}
    news: dict[str, str] = {}
    for miss in near:
        olds.setdefault(fold(miss.string), miss.string)
        if miss.source == "text":
            news.setdefault(fold(miss.of), miss.of)
    return list(olds.values()), [v for k, v in news.items() if k not in olds]


def _call_fields(terms: Terms, olds: Sequence[str], news: Sequence[str]) -> str:
    """Return the proposed call's fields in the caller's terms: deprecates (and replaced_by)."""
    field = terms.give("deprecates", olds) or "deprecates"
    if news:
        field += f" and {terms.give('replaced_by', news) or 'replaced_by'}"
    return field


def unreached_message(
    deprecates: Sequence[str],
    near: Sequence[NearMiss],
    *,
    whole: bool = True,
    others: Sequence[str] = (),
) -> str:
    """Return the refusal of a correction, or a string of it, that reaches nothing.

    ``others``: the correction's other strings, which reach records (where not ``whole``).
    """
    from ..terms import active

    terms = active()
    field = _call_fields(terms, *proposed_call(near, others))
    return (
        unreached_summary(deprecates, near, whole=whole)
        + f" Send {field} (the exact outdated strings, as the memories write them, named in "
        "the text too) and try again"
        + terms.or_switch(
            "allow_unreached", "stores it as it is, if it is meant to reach nothing yet"
        )
        + ". Nothing was stored."
    )


def absent_message(
    text: str, absent: Sequence[str], near: Sequence[NearMiss], others: Sequence[str] = ()
) -> str:
    """Return the refusal of deprecated strings that neither the text nor any memory names.

    Args:
        text: the correction's text.
        absent: the strings its text does not mention.
        near: the near misses of those among them that no memory names (not empty).
        others: its other deprecated strings (kept in the call proposed).

    The call to send is spelled out, as for a string that reaches nothing
    (:func:`proposed_call`), with the text's example naming the strings it lacks, old and new
    (the ``now:`` line shows the text): a small model given only "name the outdated string in
    the text" sent the same call again.
    """
    from ..terms import active

    terms = active()
    olds, news = proposed_call(near, others)
    said = terms.say("text") or "text"
    field = _call_fields(terms, olds, news)
    unsaid = [o for o in olds if not Matcher([(o, o)]).keys(text)]
    unsaid_new = [n for n in news if not Matcher([(n, n)]).keys(text)]
    said_too = ([f"it was {', '.join(unsaid)}"] if unsaid else []) + (
        [f"now {', '.join(unsaid_new)}"] if unsaid_new else []
    )
    example = text.rstrip().rstrip(".")
    if said_too:
        example += f" ({'; '.join(said_too)})"
    return (
        f"The correction's {said} does not mention {terms.listed(absent)}, and no memory names "
        f"{'it' if len(absent) == 1 else 'them'}. The store names {_described(near)}. Send "
        f"{field}, with a {said} that names the outdated strings (e.g. {example + '.'!r}), "
        "and try again. Nothing was stored."
    )


def like_of(string: str, deprecates: Sequence[str]) -> str:
    """Return the deprecated string that ``string`` (from the correction's text) is shaped like."""
    return next((p for p in deprecates if _shape(p) == _shape(string)), deprecates[0])

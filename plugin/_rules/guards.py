"""The guards of a correction about to be written: what it would do to this store, and help.

nowline spreads a wrong correction as fast and as far as a right one, and a wrong one then
blocks the right action (the hook denies the current repository). So a correction is judged
by what it would do, and the writer's common mistakes are caught before anything is stored
(the README's "Writing corrections"). Every refusal names the way forward in the caller's own
terms (:mod:`nowline.terms`), and the write path adds the strings to deprecate instead,
each with its reach (:attr:`nowline.errors.InvalidCorrection.suggestions`).

The guards here need no store, or only the registry:

* **its text**: a correction has a text, and names the strings it deprecates
  (:class:`~nowline.errors.AbsentString`, unless ``absent`` is allowed);
* **the new value is never deprecated** (:class:`~nowline.errors.NewValue`): a deprecated
  string that is one of the correction's own new values (``replaced_by``, or what its text
  states: "to ufo-ai/ufo"), or that an active correction of its scope (and subject: anchors
  that meet) holds as current, unless its text says it changed again (a chain step: "moved
  from ufo-ai/ufo to ufo-org/ufo", or a new value of its own of the same sort);
* **anchors narrow**: a function word (``the``), or the deprecated string itself, anchors
  nothing (:class:`~nowline.errors.GenericString`, field ``about``); an anchor that is part of
  a deprecated string narrows nothing and is dropped with a note (:func:`anchors_kept`); any
  other word is an anchor, however frequent;
* **generic strings** (:class:`~nowline.errors.GenericString`): a common word, a given name
  alone or a bare number, without an anchor (:mod:`nowline._rules.generic`);
* **people** (:class:`~nowline.errors.PersonName`): a person's full name without an anchor;
  :func:`check_correction` returns such names, for the write path counts which of the
  records they reach also name the anchors it suggests (:func:`person_refusal`);
* **its reach and scope** (:func:`check_reach`, :func:`check_scope`);
* **a repeat** (:class:`~nowline.errors.Repeated`): the same change as a correction that
  stands (:func:`repeat_of`); ``correct()`` answers with the standing one.

Near misses (a string that reaches nothing where the store names almost it) need the store:
:mod:`nowline._rules.nearmiss` and the write path.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import (
    AbsentString,
    CorrectionTooBroad,
    GenericString,
    InvalidCorrection,
    InvalidInput,
    NewValue,
    PersonName,
    Repeated,
)
from ..matchers import Matcher, fold
from ..terms import active
from .records import CorrectionInfo, bare_path, host_of, same_value
from .validate import (
    anchors_kept,
    parse_about,
    parse_deprecates,
    reach_limit,
    reserved_key,
    text_arg,
    values_settled,
)
from .wording import old_values, says_back, says_new, says_old, value_sort

__all__ = [
    "ANCHOR_CANDIDATES",
    "Allowances",
    "Holders",
    "absent_forgiven",
    "anchor_candidates",
    "changed_back",
    "check_correction",
    "check_reach",
    "check_scope",
    "count_records",
    "generic_refusal",
    "missing_text",
    "person_refusal",
    "repeat_of",
    "repeat_refusal",
    "retract_words",
    "same_change",
    "swapped_body_refusal",
    "validate_correction",
    "with_suggestions",
]

Holders = Callable[[str], list[CorrectionInfo]]
"""The active corrections of a correction's scope that hold a string as a new value, in any
spelling (:func:`~nowline._rules.records.same_value`)."""


def changed_back(info: CorrectionInfo, holders: Holders) -> tuple[str, ...]:
    """Return the values a correction with no new value of its own changes back to.

    It deprecates what an active correction of its scope made new, its text says that
    something goes back (:func:`~nowline._rules.wording.says_back`), and it names that
    correction's old value without stating it as old: "community chat is back on discord
    (discord.gg/pintail), the slack invite slack.pintail.dev is closed", after a correction
    from discord.gg/pintail to slack.pintail.dev. That old value is the new value the wording
    did not read. ``preview()`` proposes it as ``replaced_by`` (the tools' change line names
    it), so the correction sent revives it (a rename back, DESIGN §6); sent without it, the
    old value's memories would stay marked by the earlier correction.
    """
    text = info.document
    if info.replaced_by or not text.strip() or not says_back(text):
        return ()
    sent = {fold(d) for d in info.deprecates}
    found: dict[str, str] = {}
    for phrase in info.deprecates:
        for holder in holders(phrase):
            for old in holder.deprecates:
                if (
                    fold(old) not in sent
                    and says_back(text, old)
                    and not says_old(text, old, info.deprecates)
                ):
                    found.setdefault(fold(old), old)
    return tuple(found.values())


@dataclass(frozen=True, slots=True)
class Allowances:
    """What a writer accepts that the guards would refuse (``correct()``'s keywords).

    Attributes:
        absent: deprecated strings that do not occur in the correction's text.
        generic: a common word, a given name or a bare number without an anchor.
        person: a person's full name without an anchor (everything about them is outdated).
        unreached: a correction, or a string of it, that reaches nothing where the store
            names a near miss.
    """

    absent: bool = False
    generic: bool = False
    person: bool = False
    unreached: bool = True


def _occurs(phrase: str, text: str) -> bool:
    """Return whether ``phrase`` occurs in ``text`` by the matching rules."""
    return bool(Matcher([(phrase, 0)]).find(text))


def _q(values: Iterable[str]) -> str:
    """Return strings as a list the caller can copy: ``'a', 'b'``."""
    return ", ".join(repr(v) for v in values)


# ----------------------------------------------------------------------------- anchors


def absent_forgiven(reached: Mapping[str, int]) -> bool:
    """Return whether deprecated strings absent from a correction's text may be accepted.

    ``reached`` counts, for each absent string, the memories it would reach. The absent-string
    guard catches typos (a string that names nothing) and keeps the correction readable. A
    string the store names as written is no typo, and the line stays readable: it is shown
    beneath memories that name the old value. So where every absent string reaches a memory,
    ``correct()`` stores the correction with a note instead of refusing it. Measured on the
    writer benchmark: a small model's text named only the new value ("Dara's email address
    changed to dara.k@newcorp.example") in 9 of 34 dev calls, and the refusal was repeated
    word for word at the retry.
    """
    return bool(reached) and all(n > 0 for n in reached.values())


def _check_anchors(about: Sequence[str], text: str) -> None:
    """Refuse anchors that anchor nothing: function words.

    An anchor that is a deprecated string, or part of one, was dropped before
    (:func:`~nowline._rules.validate.anchors_kept`). An anchor the correction's text writes as
    a proper noun (capitalised, mid-sentence: "the Pro plan") is a name, not the function
    word it folds to (Czech ``pro``, "for").
    """
    from .generic import is_function_word, proper_noun_in

    terms = active()
    for anchor in about:
        if is_function_word(anchor) and not proper_noun_in(anchor, text):
            raise GenericString(
                f"The anchor {anchor!r} ({terms.name_of('about')}) is a function word, and "
                "every text holds one, so it narrows nothing. Name the role or subject the "
                "outdated string belongs to "
                f"({terms.give('about', ['billing'])} for a billing owner, "
                f"{terms.give('about', ['Acme'])} for Acme's CEO).",
                phrase=anchor,
                reason="a function word",
                kind="function",
                field="about",
            )


# --------------------------------------------------------------------------- new values


def _own_new_value(info: CorrectionInfo, phrase: str, given: bool) -> NewValue | None:
    """Return the refusal of a deprecated string that is one of the correction's new values.

    A string that is a new value, holds one or lies inside one is refused, unless it is not
    that very value and the wording presents it as the old one ("changed from Avengers:
    Infinity War to Avengers: Endgame", where the reader takes only "Avengers" as new):
    measured on SituatedQA, containment alone refused such old values. The same value in
    another spelling (``github.com/acme/app`` for ``acme/app``, :func:`same_value`) is that
    very value, whatever the wording says.
    """
    value = next((v for v in info.replaced_by if same_value(phrase, v)), None)
    respelled = value is not None and fold(value) != fold(phrase)
    if value is None:
        value = next(
            (v for v in info.replaced_by if _occurs(phrase, v) or _occurs(v, phrase)), None
        )
    if value is None:
        return _text_calls_new(info, phrase) if given else None
    apart = fold(value) != fold(phrase) and not respelled
    if apart and says_old(info.document, phrase, info.deprecates):
        return None
    if apart and _named_apart(info.document, phrase, value):
        return None
    said = None if given else says_new(info.document, phrase, info.deprecates)
    terms = active()
    given_as = terms.name_of("replaced_by")
    if given and fold(value) == fold(phrase):
        return NewValue(
            f"{phrase!r} is given both as an old value ({terms.name_of('deprecates')}) and as "
            f"a new one ({given_as}); a string is one or the other. If it no longer holds, "
            f"keep it in {terms.name_of('deprecates')} and put only what replaced it in "
            f"{given_as} (nothing, if nothing did); if it is what holds now, deprecate the "
            "old value instead. Nothing was stored.",
            phrase=phrase,
            said=None,
        )
    why = f"the text says {said!r}" if said else f"{given_as} lists {value!r}"
    if respelled:
        path = bare_path(value)
        if host_of(phrase):
            way = f"write the new value with its host (e.g. 'codeberg.org/{path}')"
        else:
            way = f"write the old value with its host (e.g. 'github.com/{path}')"
        return NewValue(
            f"{phrase!r} is the new value written another way: {why}, the same path with a "
            "host on one side only. A correction deprecates what is no longer true; its new "
            f"value stays current. If the value moved from one host to another, {way}; "
            "otherwise deprecate only what no longer holds.",
            phrase=phrase,
            said=said,
        )
    return NewValue(
        f"{phrase!r} is the new value: {why}. A correction deprecates what is no longer true; "
        f"its new value stays current. {_deprecate_instead(info, phrase)}.",
        phrase=phrase,
        said=said,
    )


def _deprecate_instead(info: CorrectionInfo, phrase: str) -> str:
    """Return the way forward of a refused new value: the old values its text states, if any."""
    olds = [v for v in old_values(info.document, info.deprecates) if fold(v) != fold(phrase)]
    if not olds:
        return "Deprecate the old value instead: the string the outdated memories name"
    return f"Deprecate the old value instead: {active().give('deprecates', olds)}"


def _text_calls_new(info: CorrectionInfo, phrase: str) -> NewValue | None:
    """Return the refusal of a deprecated string the text calls new, against the given ones.

    The writer's ``replaced_by`` names other values, but the correction's own text presents
    ``phrase`` as the value that holds ("The mirror is pypi.example.cz again; the switch to
    mirror.example.cz was rolled back" with ``deprecates=["pypi.example.cz"],
    replaced_by=["mirror.example.cz"]``): the fields are swapped. Stored, the correction would
    mark the current value's memories and contradict its own line. Blind writer benchmark,
    case g23.
    """
    said = says_new(info.document, phrase, info.deprecates)
    if said is None or says_old(info.document, phrase, info.deprecates):
        return None
    terms = active()
    return NewValue(
        f"{phrase!r} is the new value: the text says {said!r}, while "
        f"{terms.name_of('replaced_by')} lists {_q(info.replaced_by)}. A correction deprecates "
        f"what is no longer true; its new value stays current. "
        f"{_deprecate_instead(info, phrase)}, and put {phrase!r} in "
        f"{terms.name_of('replaced_by')}. Nothing was stored.",
        phrase=phrase,
        said=said,
    )


def swapped_body_refusal(info: CorrectionInfo, phrase: str, said: str, named: int) -> NewValue:
    """Return the refusal of a body that says the fields' change the other way round.

    The text calls ``phrase`` new (``said``) while the writer deprecates it and gives other
    new values, and the store sides with the fields: ``named`` memories still name
    ``phrase`` as current, and none names what ``replaced_by`` lists. A model writes its own
    summary into the body and can turn the change round ("harrier-project/harrier is now
    pixelmint/harrier" for "it's harrier-project/harrier now (was pixelmint/harrier)"), while
    its fields say it right; the plain refusal (:func:`_text_calls_new`) then told it to
    swap the fields to match the wrong body (blind act benchmark, case 4018). Nothing is
    stored either way: a body that says the change backwards would be shown beneath every
    outdated memory as the `now:` line. The way forward is the body, written from the fields.
    """
    terms = active()
    new = " and ".join(info.replaced_by)
    body = f"Changed from {phrase} to {new}."
    return NewValue(
        f"The text and the fields disagree: the text says {said!r}, so {phrase!r} would be "
        f"the new value, while {terms.name_of('deprecates')} lists it and "
        f"{terms.name_of('replaced_by')} lists {_q(info.replaced_by)}. The memories side "
        f"with the fields: {named} still name{'s' if named == 1 else ''} {phrase!r} as "
        f"current and none names {_q(info.replaced_by)}. If {phrase!r} no longer holds, keep "
        f"the fields and write the text the right way round, in the user's words or as "
        f"{terms.say('text') or 'text'} {body!r}; if it is the new value, deprecate the "
        "old one instead. Nothing was stored.",
        phrase=phrase,
        said=said,
    )


def _named_apart(text: str, phrase: str, value: str) -> bool:
    """Whether ``text`` names ``phrase`` and, apart from it, the new value it holds.

    Then ``phrase`` is an old value of its own that begins or ends like the new one
    ("Avengers: Infinity War" beside the new "Avengers: Endgame", of which the reader took
    "Avengers"; "8 November 2005" beside "8 November 2006"): deprecating it marks only what
    names the whole old string. A string that holds the new value and that the text names
    nowhere apart ("moved to ufo-ai/ufo", "Nadia handed the role to Tom") is still refused.
    Measured on SituatedQA, whose old and new answers often share a word.
    """
    spans = [(m.start, m.end) for m in Matcher([(phrase, 0)]).find(text)]
    if not spans:
        return False
    return any(
        not any(a <= m.start and m.end <= b for a, b in spans)
        for m in Matcher([(value, 0)]).find(text)
    )


def _changed_again(info: CorrectionInfo, phrase: str) -> bool:
    """Return whether the correction's text says ``phrase`` changed again (a chain step).

    Its wording presents ``phrase`` as an old value ("moved from ufo-ai/ufo to ufo-org/ufo"),
    or states a new value of its own of the same sort that is not ``phrase`` ("Dario's role
    went to Lee"): what replaces a repository is a repository. A new value of another sort
    changes something else ("release notes for acme/app2 are now on docs.new.io" does not
    move acme/app2; an adversarial review stored it, and the hook then denied acme/app2).
    """
    if says_old(info.document, phrase, info.deprecates):
        return True
    sort = _sort_family(phrase)
    return any(
        not (_occurs(phrase, v) or _occurs(v, phrase)) and _sort_family(v) == sort
        for v in info.replaced_by
    )


def _sort_family(value: str) -> str:
    """Return a value's sort (:func:`~nowline._rules.wording.value_sort`), a URL as a path.

    ``acme/app2`` → ``https://github.com/acme/app3`` (or ``git@github.com:acme/app3.git``)
    replaces a repository with a repository.
    """
    sort = value_sort(value)
    return "path" if sort == "url" or host_of(value) else sort


def _same_subject(holder: CorrectionInfo, info: CorrectionInfo) -> bool:
    """Return whether two corrections can speak of the same thing: their anchors meet.

    Anchored to different subjects (Acme's Dario, Globex's Dario), neither holds what the
    other deprecates. Where only one has anchors, they meet if the other's text names one of
    them (measured on SituatedQA: an anchored correction was refused for a holder of another
    subject with no anchor at all). Neither anchored, they can.
    """
    if holder.about and info.about:
        return bool({fold(a) for a in holder.about} & {fold(a) for a in info.about})
    anchored, other = (holder, info) if holder.about else (info, holder)
    if not anchored.about:
        return True
    return any(_occurs(a, other.document) for a in anchored.about)


def _held_as_current(info: CorrectionInfo, phrase: str, holders: Holders) -> NewValue | None:
    """Return the refusal of a string another active correction holds as current.

    The string is looked up in any spelling (:func:`~nowline._rules.records.same_value`):
    ``acme/app`` is held by a correction to ``https://github.com/acme/app``.
    """
    held = [h for h in holders(phrase) if h.id != info.id and _same_subject(h, info)]
    if not held or _changed_again(info, phrase):
        return None
    holder = held[-1]
    form = next((v for v in holder.replaced_by if same_value(phrase, v)), phrase)
    said = repr(phrase) if fold(form) == fold(phrase) else f"{phrase!r} (that is, {form!r})"
    terms = active()
    return NewValue(
        f"{said} is current: correction {holder.id!r} made it the new value "
        f"({holder.document!r}). Deprecating it would mark every memory of the current value "
        "as outdated. If it changed again, say so in the text (e.g. 'moved from "
        f"{phrase} to <the new value>'); if that correction was wrong, retract it first "
        f"({terms.say('retract', id=holder.id) or 'retract ' + repr(holder.id)}); nothing was "
        "stored.",
        phrase=phrase,
        holder=holder.id,
    )


# ------------------------------------------------------------------------------ generic

_GENERIC_ADVICE = {
    "number": (
        "A number or a version names nothing by itself: anchor the correction to what it "
        "belongs to{about}, or use the full, specific identifier that changed"
    ),
    "word": (
        "Use the full, specific string that changed (an address, identifier or full name), "
        "or anchor the correction to its subject{about}"
    ),
    "name": (
        "A given name alone names anyone of that name: anchor the correction to the role or "
        "subject that changed{about}, or use the full name as the memories write it: more "
        "specific (a person who stays needs an anchor too)"
    ),
    "phrase": (
        "Use the full, specific string that changed, or anchor the correction to its subject{about}"
    ),
    "title": "Anchor the correction to the subject it belongs to{about}",
}
"""The way forward for each kind of generic string; ``{about}`` is the anchor to give.

Where the text suggests no anchor, ``{about}`` names the field, empty, and what belongs there,
with no example word: measured on the writer benchmark, a small model sent back a placeholder
example verbatim (``<the subject>``), and copied the words of a list of examples (``API``,
``account``, ``product``) as anchors.
"""


def generic_refusal(
    phrase: str,
    kind: str,
    reason: str,
    dropped: Sequence[str] = (),
    anchors: Sequence[tuple[str, int]] = (),
    reached: int = -1,
) -> GenericString:
    """Return the refusal of a generic deprecated string, with the two ways forward.

    Args:
        phrase: the generic string.
        kind: its kind (:func:`nowline._rules.generic.assess`).
        reason: why it is generic.
        dropped: anchors dropped for being part of it (for the message).
        anchors: the anchors the correction's text suggests, each with how many of the
            records the string reaches also name it (those that narrow first), or 0 each
            where the store was not read.
        reached: how many records the string reaches (-1: not counted, no store).

    The example anchor in the message is the first suggested one that those records name
    (the first of the text's where the store was not read): measured on the writer
    benchmark, a small model copies the example, and a placeholder came back verbatim.
    """
    terms = active()
    named = [(a, n) for a, n in anchors if n > 0]
    # Those that narrow (named by some of the records, not all) are the ones worth showing,
    # after the first, which the caller ranked best (a name the text gives comes first)
    narrow = (
        [c for i, c in enumerate(named) if i == 0 or c[1] < reached]
        if any(n < reached for _, n in named)
        else named
    )
    shown = [a for a, _ in narrow] if reached >= 0 else [a for a, _ in anchors]
    field = (terms.say("about", value="") or terms.name_of("about")).strip()
    about = (
        f" ({terms.give('about', [shown[0]]) or field})"
        if shown
        else f" ({field}, with a word the outdated memories name beside it)"
    )
    note = (
        f" (The anchor{'s' if len(dropped) > 1 else ''} {_q(dropped)} "
        f"{'are' if len(dropped) > 1 else 'is'} part of it, so narrow nothing.)"
        if dropped
        else ""
    )
    counted = ", ".join(f"{a!r} {n}" for a, n in narrow)
    evidence = (
        f" Of the {count_records(reached)} it would reach, these also name: {counted}."
        if counted and reached >= 0
        else ""
    )
    return GenericString(
        f"{phrase!r} is {reason}, so it names no particular thing: it would reach unrelated "
        f"memories and link unrelated corrections.{note}{evidence} "
        + _GENERIC_ADVICE[kind].format(about=about)
        + terms.or_switch("allow_generic")
        + ".",
        phrase=phrase,
        reason=reason,
        kind=kind,
        anchors=list(anchors),
    )


# ------------------------------------------------------------------------------- people

_NOT_ANCHORS = frozenset(
    [
        "changed",
        "moved",
        "replaced",
        "took",
        "over",
        "from",
        "into",
        "taken",
        "handed",
        "now",
        "new",
        "old",
        "former",
        "previous",
        "update",
        "updated",
        "note",
        "correction",
        "fyi",
        "is",
        "was",
        "are",
        "were",
        "has",
        "have",
        "had",
        "been",
        "being",
        "will",
        "would",
        "the",
        "a",
        "an",
        "of",
        "to",
        "for",
        "in",
        "on",
        "at",
        "by",
        "with",
        "and",
        "or",
        "but",
        "as",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "who",
        "whom",
        "whose",
        "which",
        "what",
    ]
)


ANCHOR_CANDIDATES = 64
"""The most words of a correction's text that are offered as anchors (its first ones).

A correction's text is a sentence or two; the bound keeps a hostile one of many thousands of
words linear and short (the function-word test reads 42 languages' frequencies per word).
"""


def anchor_candidates(text: str, exclude: Sequence[str]) -> list[str]:
    """Return the words of a correction's text that could anchor it: the role or subject.

    Its words of three letters or more that are not part of the deprecated strings or the
    new values (``exclude``), not capitalised given names, and not function words (of any
    language the anchor rule knows: :func:`~nowline._rules.generic.is_function_word`, so a
    suggestion is never refused as an anchor) or change verbs: for "the billing owner changed
    from Michelle Rivera to Dana Wu", ``billing`` and ``owner``. At most
    :data:`ANCHOR_CANDIDATES`, in the text's order.
    """
    from .generic import is_function_word, strip_edges
    from .names import is_given_name

    taken = Matcher((p, p) for p in exclude if p.strip())
    blocked = bytearray(len(text))  # 1 where an excluded string occurs (linear in the text)
    for m in taken.find(text):
        blocked[m.start : m.end] = b"\x01" * (m.end - m.start)
    out: list[str] = []
    seen: set[str] = set()
    rejected: set[str] = set()  # each word form judged once: a long text repeats its words
    at = 0
    for raw in text.split():
        start = text.index(raw, at)
        at = start + len(raw)
        word = strip_edges(raw)
        for possessive in ("'s", "\u2019s"):
            word = word.removesuffix(possessive)
        if len(word) < 3 or not word.isalpha() or word.casefold() in _NOT_ANCHORS:
            continue
        if word in rejected or word.casefold() in seen or 1 in blocked[start:at]:
            continue
        if (word[0].isupper() and is_given_name(word)) or is_function_word(word):
            rejected.add(word)
            continue
        seen.add(word.casefold())
        out.append(word)
        if len(out) == ANCHOR_CANDIDATES:
            break
    return out


def count_records(n: int) -> str:
    """Return "1 record" or "N records": how every refusal counts records."""
    return f"{n} record{'' if n == 1 else 's'}"


def person_refusal(
    phrase: str, reached: int, anchors: Sequence[tuple[str, int]] | None
) -> PersonName:
    """Return the refusal of a person's full name without an anchor.

    Args:
        phrase: the name.
        reached: how many records the name would reach (-1: not counted, no store).
        anchors: the suggested anchors, each with how many of those records name it too
            (None: not counted).
    """
    terms = active()
    # with no store (reached -1) the text's candidates are shown uncounted
    shown = [a for a, n in anchors or () if n > 0 or reached < 0]
    if anchors and shown and reached >= 0:
        counts = ", ".join(f"{a!r} {n}" for a, n in anchors if n > 0)
        evidence = f" Of the {count_records(reached)} it would reach, these also name: {counts}."
    elif reached >= 0:
        evidence = f" It would reach {count_records(reached)}."
    else:
        evidence = ""
    example = shown[0] if shown else "<the role or subject that changed>"
    return PersonName(
        f"{phrase!r} names a person, and a person rarely stops existing: without an anchor "
        f"the correction marks everything about {phrase} as outdated.{evidence} Name the role "
        f"or subject that changed in {terms.give('about', [example]) or 'about'}"
        + terms.or_switch("allow_person", "stores it anyway, if everything about them is outdated")
        + ".",
        phrase=phrase,
        anchors=list(anchors or []),
    )


# ------------------------------------------------------------------------- suggestions


def _counted(string: str, count: int) -> str:
    """Return ``'string' (N records)``."""
    return f"{string!r} ({count_records(count)})"


def with_suggestions(
    error: InvalidCorrection, suggestions: Sequence[tuple[str, int]]
) -> InvalidCorrection:
    """Return the refusal carrying ``suggestions``, its message naming those that reach records.

    Each string that reaches records is listed with how many it names, and, where the message
    does not already say to deprecate it, in the caller's words, so that a writer who reads
    only the message (a model in a tool loop) can retry with them.
    """
    error.suggestions = list(suggestions)
    message = str(error)
    counted = [(s, n) for s, n in suggestions if n > 0 and _counted(s, n) not in message]
    if not counted:
        return error
    listed = ", ".join(_counted(s, n) for s, n in counted)
    field = active().give("deprecates", [s for s, _ in counted]) or "deprecates"
    if field in message or all(repr(s) in message for s, _ in counted):
        tail = f" Records that name them: {listed}."
    else:
        tail = f" Strings the memories name that the text states as old: {listed}; try {field}."
    error.args = (message + tail, *error.args[1:])
    return error


# ------------------------------------------------------------------------------ guards


def missing_text(
    metadata: Mapping[str, object] | None, deprecates: Sequence[str]
) -> InvalidCorrection | None:
    """Return the refusal of a correction with no document whose metadata holds its text.

    A framework that stores no documents (mem0 keeps each memory's text under metadata
    ``data``) writes a correction without a text, unless nowline is told where the text is;
    the refusal names the key whose text names an outdated string, and the option that reads
    it (``text_key``), where the caller's surface offers it. None when no key holds it.
    """
    if not metadata:
        return None
    folded = [fold(p) for p in deprecates]
    key = next(
        (
            k
            for k, v in metadata.items()
            if isinstance(v, str) and not reserved_key(k) and any(p in fold(v) for p in folded)
        ),
        None,
    )
    spelled = None if key is None else active().say("text_key", key=key)
    if key is None or spelled is None:
        return None
    return InvalidCorrection(
        f"A correction needs a text, and this one has no document; its metadata {key!r} holds "
        "text that names the outdated string. A framework that keeps its text in metadata "
        f"(mem0 keeps it under 'data') needs nowline to read it there: {spelled}."
    )


def check_correction(
    info: CorrectionInfo,
    allow: Allowances | None = None,
    *,
    has_text: bool = True,
    given_new: bool = False,
    holders: Holders | None = None,
    dropped: Sequence[str] = (),
) -> tuple[str, ...]:
    """Apply the guards of a correction about to be written that need no store.

    Args:
        info: the correction (its anchors as kept: :func:`anchors_kept`).
        allow: what the writer accepts.
        has_text: False when the text is not known (``preview()`` without ``text``): the
            guards that read it are left out.
        given_new: its new values were given (``replaced_by``), not read from its text.
        holders: the active corrections of its scope that hold a string as current (the
            registry's); None leaves that guard out.
        dropped: anchors dropped for being part of a deprecated string (for the message).

    Returns:
        The deprecated strings that name a person without an anchor: the write path counts
        what they reach, then refuses (:func:`person_refusal`).

    Raises:
        InvalidCorrection: a guard refuses it; nothing is written.
    """
    allow = allow or Allowances()
    terms = active()
    if has_text and not info.document.strip():
        raise InvalidCorrection(
            "A correction needs a text: the line shown beneath each outdated memory (say what "
            "changed, e.g. 'Moved from A to B')."
        )
    for phrase in info.deprecates:
        refusal = _own_new_value(info, phrase, given_new) if has_text or given_new else None
        if refusal is not None:
            raise refusal
    if has_text and not allow.absent:
        present = Matcher((p, p) for p in info.deprecates).keys(info.document)
        absent = [p for p in info.deprecates if p not in present]
        if absent:
            text = terms.say("text") or "text"
            example = f"{info.document.rstrip().rstrip('.')} (it was {absent[0]})."
            raise AbsentString(
                f"The correction's {text} does not mention {terms.listed(absent)}. The reader "
                "of its line "
                f"must see what changed: name the outdated string in the {text} as the "
                f"memories write it (e.g. {example!r}), or leave it out of "
                f"{terms.name_of('deprecates')} if it is no old value (it is usually a typo "
                "otherwise)" + terms.or_switch("allow_absent", "accepts it as it is") + ".",
                absent=absent,
            )
    if holders is not None:
        for phrase in info.deprecates:
            held = _held_as_current(info, phrase, holders)
            if held is not None:
                raise held
    if info.about:
        if not allow.generic:
            _check_anchors(info.about, info.document)
        return ()
    from .generic import assess, is_person_name

    persons: list[str] = []
    for phrase in info.deprecates:
        if not allow.generic:
            found = assess(phrase, info.document if has_text else None)
            if found is not None:
                words = (
                    anchor_candidates(info.document, (*info.deprecates, *info.replaced_by))
                    if has_text
                    else []
                )
                raise generic_refusal(phrase, found[0], found[1], dropped, [(w, 0) for w in words])
        if not allow.person and is_person_name(phrase, info.document if has_text else None):
            persons.append(phrase)
    return tuple(persons)


def same_change(
    info: CorrectionInfo, other: CorrectionInfo, *, timed: bool = False, now: float = math.inf
) -> bool:
    """Return whether ``info`` tells the change ``other`` tells, word for word.

    Both are active, in one scope, from one source (``source``: a person's correction and
    GitHub's event of the same rename are two pieces of evidence, and both are kept), with
    the same strings, anchors and new values (each compared folded) and the same text (its
    case, its spaces and a closing stop aside). A text that differs in any other way may say
    more ("...; regenerate the deploy key"), so it is a new correction. Where ``timed`` (the
    new one's time was given, ``observed_at``), the times must agree too: an observation of
    another time is another fact for ``as_of``; an untimed one (told ``now``, the write's
    time) repeats only one that is not dated later.
    """
    return (
        other.id != info.id
        and other.retracted is None
        and other.scope == info.scope
        and other.source == info.source
        and {fold(d) for d in other.deprecates} == {fold(d) for d in info.deprecates}
        and {fold(a) for a in other.about} == {fold(a) for a in info.about}
        and {fold(v) for v in other.replaced_by} == {fold(v) for v in info.replaced_by}
        and _said(other.document) == _said(info.document)
        and (other.time == info.time if timed else other.time <= now)
    )


def repeat_of(
    info: CorrectionInfo,
    candidates: Iterable[CorrectionInfo],
    *,
    newest: Callable[[str], str],
    revived: Callable[[CorrectionInfo, str], bool],
    timed: bool = False,
    now: float = math.inf,
) -> CorrectionInfo | None:
    """Return the standing correction that ``info`` tells again, or None.

    A model that calls ``correct()`` twice, a retried request, a re-run import: the same
    correction again (:func:`same_change`). Stored again, it would show a second line for
    one change, the standing correction would read as outdated under its own twin (its
    text names the strings), and a memory would stay outdated after the first is
    retracted. It is judged after the guards that need no store.

    Only a correction that stands counts: the newest of its chain (``newest``: a later
    correction of the same strings, "moved to acme-labs/app" after "moved to
    acme-inc/app", replaced it, and telling the first change again is news), none of whose
    strings a newer one has revived (a rename back: ``revived``). Of several, the newest.

    Args:
        info: the correction about to be written.
        candidates: the registry's corrections it may repeat (:meth:`Registry.stating`).
        newest: the newest correction of the chain that starts at a correction's id.
        revived: whether a correction's deprecated string is revived by a newer one.
        timed: its time was given (``observed_at``).
        now: the write's time (an untimed correction is told then).
    """
    found: CorrectionInfo | None = None
    for other in candidates:
        if (
            same_change(info, other, timed=timed, now=now)
            and (found is None or other.order > found.order)
            and newest(other.id) == other.id
            and not any(revived(other, phrase) for phrase in other.deprecates)
        ):
            found = other
    return found


def _said(text: str) -> str:
    """Return a text as a repeat compares it: case-folded, spaces collapsed, no closing stop.

    No Unicode normalisation: "10² GB" and "102 GB" are two texts.
    """
    return " ".join(text.casefold().split()).rstrip(" .!")


def retract_words(correction_id: str) -> str:
    """Return how the caller retracts a correction (Python's words where its surface has none)."""
    return active().say("retract", id=correction_id) or f"retract({correction_id!r})"


def repeat_refusal(
    info: CorrectionInfo, standing: CorrectionInfo, *, in_write: bool = False
) -> Repeated:
    """Return the refusal of a correction that repeats ``standing`` (a plain ``add``).

    ``in_write``: ``standing`` is another new correction of the same write, not yet stored.
    """
    if in_write:
        return Repeated(
            f"The corrections {standing.id!r} and {info.id!r} of this write tell the same "
            "change, word for word; nothing was written. Send one of them.",
            standing=standing.id,
        )
    terms = active()
    anchored = f" about {terms.listed(standing.about)}" if standing.about else ""
    new = f" (new: {terms.listed(standing.replaced_by)})" if standing.replaced_by else ""
    undo = retract_words(standing.id)
    return Repeated(
        f"The same change is already stored as correction {standing.id!r}: it deprecates "
        f"{terms.listed(standing.deprecates)}{anchored}{new}, and it stands. Nothing was "
        f"written; the memories that name it already show it. To state the change anew, "
        f"{undo} first; a change to another new value is stored as usual.",
        standing=standing.id,
    )


def check_reach(info: CorrectionInfo, reach: int, setting: float | int | None, total: int) -> None:
    """Refuse a correction that would reach more records than allowed."""
    limit = reach_limit(setting, total)
    if limit is not None and reach > limit:
        terms = active()
        raise CorrectionTooBroad(
            f"The correction {info.id!r} would reach {reach} of {total} records (limit "
            f"{limit}) through {terms.listed(info.deprecates)}. Use a narrower, more specific "
            "string (e.g. 'org/repo' rather than 'repo'), or anchor it to its subject with "
            f"{terms.give('about', ['...']) or 'about'}; check the reach with "
            f"{terms.say('preview') or 'preview'}"
            + (f", or give {terms.say('max_reach')}" if terms.say("max_reach") else "")
            + ".",
            reach=reach,
            limit=limit,
        )


def check_scope(info: CorrectionInfo, scope_key: str | None, keys: Iterable[str]) -> None:
    """Refuse a correction whose scope the writer's key would get wrong, in a scoped store.

    The scope travels with the correction: one written without a scope key applies to every
    record of the collection. Where the store's corrections carry scope keys, that is almost
    always a process opened without the key, and the correction would reach every user's
    memories; it is refused, naming the key to open the store with. The same holds for a
    writer whose key is not the one the store's corrections carry.

    Raises:
        InvalidInput: the correction has no scope, the writer no key, and ``keys`` is not
            empty; or the writer's key is not among ``keys``.
    """
    known = sorted(keys)
    if not known:
        return
    terms = active()
    wrap_with = terms.say("scope_key", key=known[0]) or f"the scope key {known[0]!r}"
    if scope_key is not None and scope_key not in known:
        raise InvalidInput(
            f"This collection's corrections are scoped by {known[0]!r}, and this wrapper's "
            f"scope key is {scope_key!r}: its corrections would reach every record without a "
            f"{scope_key!r} value, whoever's it is. Open the collection with {wrap_with}; "
            "nothing was written."
        )
    if info.scope is None and scope_key is None:
        raise InvalidInput(
            f"This collection's corrections are scoped by {known[0]!r}"
            + (f" (and {known[1:]!r})" if len(known) > 1 else "")
            + ", but this wrapper has no scope key, so its correction would apply to every "
            f"scope's memories. Open the collection with {wrap_with} and give the scope's "
            "value in the correction's metadata; nothing was written."
        )


def validate_correction(
    text: str,
    deprecates: Sequence[str] | str,
    about: Sequence[str] | str | None = None,
    *,
    allow_absent: bool = False,
    allow_generic: bool = False,
    allow_person: bool = False,
    replaced_by: Sequence[str] | str | None = None,
) -> tuple[list[str], list[str]]:
    """Check a correction as ``correct()`` would, without a store; write nothing.

    Every guard that does not depend on the store applies: malformed or over-long strings,
    a deprecated string absent from the text or that is its own new value, a generic string
    or a person's name without an anchor, an anchor that anchors nothing. (Reach, near misses
    and what other corrections hold as current depend on the store: ``Collection.preview()``
    tells them.)

    Args:
        text: the correction's text.
        deprecates: its outdated strings.
        about: its anchors, if any (those inside a deprecated string are dropped).
        allow_absent: accept strings that do not occur in ``text``.
        allow_generic: accept generic strings without an anchor.
        allow_person: accept a person's full name without an anchor.
        replaced_by: its new values, if given (else read from ``text``).

    Returns:
        The deprecated strings and the anchors kept, stripped and de-duplicated.

    Raises:
        InvalidCorrection: the correction would be refused (``AbsentString``,
            ``GenericString``, ``PersonName`` and ``NewValue`` carry the offending strings).
    """
    from .records import new_values_of
    from .validate import parse_replaced_by

    body = text_arg(text)
    new = parse_replaced_by(replaced_by)
    phrases = values_settled(parse_deprecates(deprecates), new, body).deprecates
    kept, dropped = anchors_kept(phrases, parse_about(about), body)
    given = replaced_by is not None
    info = CorrectionInfo(
        id="",
        document=body,
        deprecates=phrases,
        about=kept,
        time=0.0,
        written=0.0,
        scope=None,
        replaced_by=new if given else new_values_of({}, body, phrases),
    )
    allow = Allowances(absent=allow_absent, generic=allow_generic, person=allow_person)
    persons = check_correction(info, allow, given_new=given, dropped=dropped)
    if persons:
        raise person_refusal(persons[0], -1, [(a, 0) for a in anchor_candidates(body, phrases)])
    return list(phrases), list(kept)

"""The new value sent alone: an identifier of its kind in the correction's text is the old one.

A correction that reaches nothing is refused where the store names a near miss
(:mod:`nowline._rules.nearmiss`); one near miss is the old and new values swapped: the writer
sent the new value, and the text's other value is the old one. The near miss of the same
shape ((b) there) misses a swap across shapes: for "The github.com/acme/smelt import path is
retired, use go.acme.dev/smelt", ``deprecates=["go.acme.dev/smelt"]`` reaches nothing, and
``github.com/acme/smelt``, which the memories name, is of its kind (both paths) but not of its
shape. :func:`swapped_kin` names such candidates; the near-miss flow counts them in the store,
and only those that memories name are proposed.

It reads only where the text states a change plainly (:func:`states_change`: a change word
outside the values, not negated, no question, no word of doubt, plan or condition in that
sentence), names at most :data:`MAX_VALUES` identifiers, and the wording does not settle it
otherwise: not where the wording reads the sent string as old (then it is no swap, and
"Logs moved from /var/log/acme to /srv/logs/acme; config is still /etc/acme/config.yaml" is
a change noted before a memory names it), not a value the wording reads as new, and not
another string the correction deprecates.

Measured and withdrawn: the same reading also proposed old values for ``preview(text=...)``,
refusals' suggestions and the tools' change line (an identifier current memories name beside
one of its kind that none names). On the fifth blind writer set it named the strings for 9
more act messages of 30, moved none of the model's counts, and an adversarial review found it
proposing a current value for 49 of 71 texts that state no change (status notes, logs, lists,
history: "Merged PR 42 in acme/web; CI stopped flaking after bumping acme/lib2."). Proposals
come from the wording alone again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ..matchers import Matcher, fold
from .generic import is_identifier
from .wording import says_new, says_old, stated_things

__all__ = ["MAX_VALUES", "identifiers", "kind_of", "states_change", "swapped_kin"]

MAX_VALUES: Final = 8
"""A text naming more identifiers than this is not read (a list is no plain change)."""

_CUE = re.compile(
    r"\b(?:moved|migrated|renamed|replaced|retired|archived|deprecated|frozen|shut|closed|"
    r"switched|swapped|transferred|became|stopped|dropped|gone|sunset(?:ted)?|decommissioned|"
    r"read-only|no\s+longer|any\s*more|formerly|previously)\b"
    # a change back: "is X again", "going back to X" (not "post to X again", "send it back to")
    r"|\b(?:is|are|['\u2019]s|was|were)\s+(?:now\s+)?\x00+\s+again\b"
    r"|\b(?:go|goes|going|went|moved?|switch(?:ed)?|are|is|['\u2019]re)\s+back\s+(?:to|on)\b"
    r"|\binstead\b(?=\s*(?:[.,;:!)]|$|of\s+\x00))"
    r"|→|->|=>",
    re.IGNORECASE,
)
"""Words that state a change plainly ("instead" ending a clause, or before a value)."""

_NEGATED = re.compile(
    r"\b(?:not|never|no|neither|nor)\s+(?:\w+\s+)?$|n['\u2019]t\s+(?:\w+\s+)?(?:been\s+)?$"
)
"""What before a cue denies it ("is not replaced", "wasn't archived", "never moved")."""

_SENTENCES = re.compile(r"(?<=[.!;])\s+|\n")
_NUMBER = re.compile(r"[vV]?[\d.,:]+\w{0,3}")
_DOUBT = re.compile(
    r"\b(?:think|guess|believe|heard|rumou?r\w*|if|whether|might|maybe|perhaps|could|would|"
    r"should|plan\w*|propos\w*|consider\w*|will|going\s+to|gonna|yet|soon|later|next|undo|"
    r"fail\w*|mistake\w*|wrong|temporar\w*|stays?|remains?|still|keep|nothing|nobody|no\s+one)\b"
    # a question without its mark ("did acme/app get moved to acme-inc/app")
    r"|^\s*(?:did|does|do|is|are|was|were|has|have|can|could|should|will)\b",
    re.IGNORECASE,
)
"""Words that make a statement of change less than plain: nothing is read."""


def identifiers(text: str) -> tuple[str, ...]:
    """The identifiers ``text`` names, in order, each once (no numbers, words or names)."""
    out: dict[str, str] = {}
    for value in stated_things(text):
        if re.search(r"[^\W\d_]", value) and is_identifier(value) and not _NUMBER.fullmatch(value):
            out.setdefault(fold(value), value)
    return tuple(out.values())


def states_change(text: str, values: Sequence[str]) -> bool:
    """Whether ``text`` states a change plainly, outside its ``values`` (see the module).

    A question anywhere reads nothing; a word of doubt counts in the sentence of the change
    ("The Norwegian ones stay where they are." does not undo the sentence before it).
    """
    if len(values) > MAX_VALUES:  # a list of values is no plain change
        return False
    blanked = text
    for value in values:  # a word of a value ("#new-releases", "acme/moved") is no cue
        blanked = blanked.replace(value, "\x00" * len(value))
    if "?" in blanked:
        return False
    for sentence in _SENTENCES.split(blanked):
        if _DOUBT.search(sentence):
            continue
        for m in _CUE.finditer(sentence):
            # "no longer X" and "not X anymore" hold their negation
            word = m.group().lower()
            if word.startswith(("no", "any")) or not _NEGATED.search(
                sentence[max(0, m.start() - 60) : m.start()]
            ):
                return True
    return False


def kind_of(value: str) -> str:
    """The kind of an identifier, for pairing an old value with a new one of its kind."""
    low = value.lower()
    if re.match(r"[a-z][a-z0-9+.-]*://", low):
        return "url"
    if "@" in low[1:]:
        return "address"
    if low[:1] in "#~@":
        return "channel"
    if "/" in low:
        return "path"
    return "host" if "." in low else "other"


def swapped_kin(text: str, deprecates: Sequence[str]) -> dict[str, str]:
    """The identifiers of ``text`` that may be the old value where ``deprecates`` sent the new.

    Each maps to the deprecated string it may stand for: of its kind (:func:`kind_of`),
    neither inside it nor around it, and not itself deprecated; only where the text states a
    change plainly, and the wording reads neither the sent string as old nor the candidate as
    new (see the module). Empty for a text of more than :data:`MAX_VALUES` identifiers.
    """
    values = identifiers(text)
    out: dict[str, str] = {}
    if not values or not states_change(text, values):
        return out
    sent = {fold(p) for p in deprecates}
    for phrase in deprecates:
        if says_old(text, phrase, deprecates):
            continue  # the wording calls it old: no swap ("X moved from it")
        for value in values:
            if (
                fold(value) not in sent
                and fold(value) not in out
                and kind_of(value) == kind_of(phrase)
                and not Matcher([(value, 0)]).find(phrase)
                and not Matcher([(phrase, 0)]).find(value)
                and says_new(text, value, deprecates) is None
            ):
                out[value] = phrase
    return out

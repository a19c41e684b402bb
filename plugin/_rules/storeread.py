"""Old values read with the store's help, where the wording has no pattern for the change.

The wording reader (:mod:`nowline._rules.wording`) reads old and new values from phrasings it
knows. Measured on held-out sets of stated changes, written by people who never saw those
patterns, it read the strings to deprecate for 10 of 30 messages of one set: each new set
phrased changes in ways the patterns did not cover ("The github.com/gorseway-io/smelt import
path is retired, use go.gorseway.dev/smelt", "Willow's code isn't in greyhaven/willow anymore.
Clone willow-project/willow instead."). Yet such a message says which value is old in another
way: the memories name the old value, and nothing names the new one yet.

So where the wording names no old value that memories name, a text is read with the
store's help when

* it states a change plainly: a word of change (:data:`_CUE`: "moved", "renamed", "swapped",
  "retired", "archived", "no longer", "anymore", "instead", "stopped", "is X again", "going
  back to", "→", …) outside the values, not negated ("is not replaced"), no question, and no
  word of doubt, plan or condition in that sentence (:data:`_DOUBT`: "might", "planning",
  "whether", "stays", …);
* it names few identifiers (:data:`MAX_VALUES`; slugs, URLs, addresses, channels, hosts,
  paths: :func:`identifiers`), and among them one that current memories name and one of the
  same kind (:func:`kind_of`: both URLs, both addresses, both channels, both paths, both
  hosts) that no current memory names, neither inside the other.

The first is then an old value: proposed for ``deprecates`` by ``preview(text=...)``, a
refusal's suggestions and the tools' change line, each with its reach. A value that only
superseded memories name counts as unnamed: a change back names the value an earlier
correction made old ("build cache is cache.internal again"). A text whose new value current
memories already name ("status.kanoa.health already shows the API uptime") is not read here:
which of two current values is old is the wording's to say. Nothing here decides what is
linked or refused: a proposal is a suggestion the writer sends or not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from ..matchers import Matcher, fold
from .generic import is_identifier
from .wording import stated_things

__all__ = ["MAX_VALUES", "identifiers", "kin", "kind_of", "olds_by_store", "states_change"]

MAX_VALUES: Final = 8
"""A text naming more identifiers than this is not read here (a list is no plain change)."""

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

_NEGATED = re.compile(r"\b(?:not|never|no)\s+(?:\w+\s+)?$|n['\u2019]t\s+(?:\w+\s+)?(?:been\s+)?$")
"""What before a cue denies it ("is not replaced", "wasn't archived", "never moved")."""

_SENTENCES = re.compile(r"(?<=[.!;])\s+|\n")
_NUMBER = re.compile(r"[vV]?[\d.,:]+\w{0,3}")
_DOUBT = re.compile(
    r"\b(?:think|guess|believe|heard|rumou?r\w*|if|whether|might|maybe|perhaps|could|would|should|plan\w*|propos\w*|"
    r"consider\w*|will|going\s+to|gonna|yet|soon|later|next|undo|fail\w*|mistake\w*|wrong|"
    r"temporar\w*|stays?|remains?|still|keep)\b",
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


def olds_by_store(values: Sequence[str], current: Mapping[str, int]) -> tuple[str, ...]:
    """The old values among ``values`` (a text's identifiers), read with the store's help.

    ``current`` counts the current memories (superseded by no correction) that name each
    value. An old value is one that current memories name, beside a value of its kind
    (:func:`kind_of`) that none names and that is neither inside it nor around it.
    """
    if len(values) > MAX_VALUES:
        return ()
    news = [v for v in values if not current.get(v, 0)]
    olds = []
    for value in values:
        if not current.get(value, 0):
            continue
        inside = Matcher([(value, 0)])
        if any(
            kind_of(new) == kind_of(value)
            and not inside.find(new)
            and not Matcher([(new, 0)]).find(value)
            for new in news
        ):
            olds.append(value)
    return tuple(olds)


def kin(values: Sequence[str], phrases: Sequence[str]) -> dict[str, str]:
    """For each of ``values`` of the kind of one of ``phrases``, that phrase (the first).

    A value is kin to a phrase of its kind (:func:`kind_of`) that is neither inside it nor
    around it, nor the phrase itself: ``acme/app`` is kin to ``go.acme.dev/app``'s kind only
    if both are paths. The near miss of a correction that reaches nothing uses it: the other
    identifier of its text, of the kind of the string it sent, is the old value it meant
    (``nowline._rules.nearmiss``, (b)). At most :data:`MAX_VALUES` values are read.
    """
    out: dict[str, str] = {}
    if len(values) > MAX_VALUES:
        return out
    for value in values:
        for phrase in phrases:
            if (
                kind_of(value) == kind_of(phrase)
                and fold(value) != fold(phrase)
                and not Matcher([(value, 0)]).find(phrase)
                and not Matcher([(phrase, 0)]).find(value)
            ):
                out.setdefault(value, phrase)
                break
    return out

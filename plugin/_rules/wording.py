"""Read the old and new values that a correction's own wording states (DESIGN §6).

Where ``replaced_by`` is not given, nowline reads a correction's new values from its wording
where that is unambiguous, and none where it is not. Precision comes first: a value is read
only from a pattern below, only where it looks like a thing (a slug, URL, path, host, e-mail,
``#channel``, ``@handle``, ticket id, version, number with its unit (a currency, a size, a
measure, a count's noun from a closed list: "62 cars", "18.5 kg"), a capitalised name, a
quoted string, or a string the caller names in ``deprecates``), and never in a clause that is a
question, a condition, a plan, a negation or "still"/"stays". Nothing is read from a sentence
that asks without its mark ("was X renamed to Y", "when was X shut down", "any chance X was
replaced"; not "Can confirm: ..." or "Do send ..."), a log line (a time stamp, or a level with
no colon: "12:00:03 INFO deploy X -> Y", "WARN X mailbox closed", not "NOTICE: ..."), one
that opens with a condition ("once X is closed, ...", not "once the cutover finished"); nor
from the clause that opens a sentence with a request, a plan or an open task item ("Please
move X to Y", "Let's switch ...", "I'll migrate ...", "TODO: ...", "- [ ] ...", "Move X to Y."
opening the sentence; not a label, "Move complete: X -> Y", nor a done item or a commit
subject), or with "Who ..." (:data:`_OPENING`); nor a change the sentence says was undone
("Reverted: X -> Y", "the move from X to Y was rolled back"); nor from a clause with a
plan or a doubt ("next quarter", "is going to", "draft RFC", "it's false that", a rumour,
"allegedly", "archived or moved"). A clause's parts joined by ", and|but|while ..." are
negated apart by a plain negation or a word of staying ("laptops are still ordered through
the form, and the checklist lives at Y now instead of X" reads the second part), and no part
reads old a value a negated part names; any other such word (a doubt, a plan, a refutal, a
pause: "wrong", "on hold") holds for the whole clause. An arrow just after a verb of flow
("relay X => Y", "forwarded 3 messages #a → #b", not "Deploy target changed X -> Y"), or
before a ticket's status ("OPS-7 → Done", "In Progress → Code Review"), is no change. A plain
lower-case word is a value only opposite another one where the caller names one of them
(``from master to main``) or both carry a number (``building 4``), or alone where it is no
common word (``we moved away from heroku``; not ``No, not really``). A value the text also
presents as old (a chain step) is never new. Patterns, X old and Y new (German, French and
Spanish forms where listed):

- ``from X to Y`` (``into``) after a change verb (moved, changed, switched, migrated, renamed,
  went, raised, upgraded, ...), with lists (``from A and B to C``) and continuations
  (``..., and the limit from C to D``); ``von X zu|nach|auf|in Y``, ``de X à|en Y``,
  ``de|desde X a Y`` with a change verb of that language; ``moved|went up to Y from X``.
- ``X → Y`` (also ``->``, ``=>``, ``⇒``, ``⟶``, ``➔``, ``➜``); in ``A → B → C`` only C is new.
- ``renamed|moved|migrated|changed|switched|transferred X (back) to|into|as Y``; ``renamed X``:
  X old; ``moved|transferred|switched off|out of|away from X (to Y)``.
- ``X was|has been renamed (to) Y``, ``X moved (again) to Y``, ``X (now) redirects to Y``,
  ``raised|lowered|upgraded|...
  (the <noun>) to Y``; ``umbenannt in``, ``renommé en``, ``renombrado a``. In a relative or
  past-perfect clause (``which moved to Y``, ``had moved to Y``) Y is an earlier value: old
  where the text names another new value, else not read. A project moved onto a platform
  (``bank-feeds was migrated to Azure DevOps``) reads nothing, and a capitalised word moved
  to a thing (``Backups switched to gs://b``) is what moved: only Y is read.
- ``X is now (called) Y``, ``X has become Y``, ``X (now Y)``, ``X is (called) Y again``,
  ``is served|hosted from|at Y again``, ``went|goes|is|'re going ... back to Y`` (Y a thing,
  not a bare number after "goes"; not a plan: ``to go back to Y``), ``is|to|at|on Y
  now|from now on``, ``it's|that's Y now`` (not ``to X now bounces``), ``now is|at|lives
  in|goes to|costs ... Y``, ``is now at Y``; ``jetzt``, ``nun``, ``maintenant``,
  ``désormais``, ``ahora``, ``heißt jetzt``, ``s'appelle désormais``;
  ``NAME is now the <role>`` and ``NAME owns|leads|runs|handles ... now``: NAME new.
- ``replaced X with|by Y``, ``X was replaced|superseded by|with Y``, ``X was swapped
  (out|back) for Y`` (X and Y things of one sort, for good: not "on the rota only", "in
  the test"), ``Y replaced|replaces|
  supersedes X``, ``Y, replacing X``, ``in favour of Y``.
- ``Y took|has taken|is taking (it|them) over ... from X``; ``X handed (it) over (to Y)``,
  ``X handed the <role> (over) to Y``.
- ``Y instead of X``, ``Y rather than X``, ``Y in place of X``, ``use Y instead``; ``statt``,
  ``anstelle von``, ``au lieu de``, ``en lugar de``, ``en vez de``.
- ``Y (formerly|previously|was|it was X)``, ``Y, formerly X``, ``formerly known as X``,
  ``was|previously X, now Y``, ``Y, up|down from X``; ``vorher``, ``früher``, ``ehemals``,
  ``bisher``, ``auparavant``, ``anciennement``, ``antes (era)``.
- ``Y, not X`` and ``Y (not X)``; ``no longer X but Y``; ``nicht mehr X``; ``isn't|aren't
  at|in|on X anymore, it's Y now`` (X old, a thing, beside a new Y of its sort; not said of a
  person: "she isn't at ...", "@ana isn't in #design anymore").
- ``X is deprecated|archived|retired|decommissioned|shut down|switched off|disconnected|
  deleted|gone|dead|read-only|offline|closed|bounces|no longer ...`` (not ``has gone
  down|up|live|quiet|wrong|off``, save ``for good``) and ``NAME left (the company)`` (X
  old), with ``use Y``, ``go(es) to Y``, ``write to Y``, ``duplicate of Y`` or ``...; Y
  is.`` elsewhere in the sentence (Y new). A noun for the thing itself between X and its
  verb is passed over (``the lumen/tools repository has been archived``, ``the Thornbury
  Dispatch channel was renamed``), not an attribute's (``the api.acme.io server port``).
- Ends said of a state or an act, X a thing (old): ``X is frozen|unplugged|revoked|taken out
  of the pool|being shut down|switched off|archived ...``, ``X goes nowhere.``, ``X stopped
  accepting answers|sign-ups``, ``X no longer exists``,
  ``X no longer takes|accepts them|mail ...``, ``X won't get|gets no new tags|releases ...``,
  ``X had its final release|update.``, ``we|they|I('ve) archived|retired|
  deprecated|deleted|closed|shut down|stopped using X`` and ``we left X behind`` (X ending its
  clause, or followed by ``in favour of``), ``(please) forget X``, ``nobody checks|pushes to X
  anymore``, ``X will bounce``, ``nothing is pushed to X any more``, ``no more X`` (opening
  its clause), ``it used to be X.`` (X ending its sentence); ``(mail) bounces at X`` (X an
  e-mail address), ``RIP X`` (opening its clause) and ``Stop using|cloning|emailing|posting
  in ... X`` (opening its sentence; X no handle, ending its clause or followed by what it is
  for: not "in tests", "directly") only beside a new value of X's sort. Not where the
  clause says the end passes or was an accident (``until``, ``once``, ``when``, ``for now``,
  ``for the weekend``, ``by accident``, ``I think``), nor where X follows a preposition
  (``the discussion in #arch goes nowhere``); a later read of the same value as new wins
  over them. ``X no longer rings|resolves|responds|answers|works|loads.``, ``X is
  down|gone|closed for good``, ``no longer go|live|post ... to|at|in X``, ``nothing
  writes|pushes|points to X any more``. A value after a preposition is no old value read
  alone (``PR 311 on X, superseded by PR 12``).
- ``X is (just) Y now`` (two things of one sort: two paths, two hosts), ``we're back on Y`` (a
  change back); ``NAME no longer handles|owns|runs|manages ... it`` (NAME old).
- ``please don't|please stop post|use|send|email ... (in|to) X`` and ``don't use X anymore``
  (X old, a thing).
- ``reverted|undid|rolled back the move|switch|rename to X`` and ``the move|switch|transfer
  (of Z) to X was rolled back|reverted|undone`` (X old); ``X didn't work (out)`` at a clause's
  end (X old, a thing). A later read of the same value as new wins over these.
- ``X was merged|folded into Y`` and ``merged|folded X into Y`` (X and Y things, no pull
  request number).
- ``the old (one,) X``; ``the old <noun>, X,|(X)|: X`` (``the old bucket, gs://a,``) where
  the text reads a new value of X's sort; ``X is|was the old one|name|rate|price|address
  ...`` (a closed list of nouns, ending the clause, in a sentence that says nothing stays:
  ``$39 was the old rate.``); ``a new <role>: Y``, ``New location: Y``,
  ``Y is the new one|name``, ``NAME is the new <role>``, ``successor|replacement is Y``.
- The other one of Y's sort: where only a new Y is read, the one other value of Y's sort (a
  URL, address, channel, path, host, a time or an amount of Y's unit) in Y's sentence that is
  the subject of a clause of its own saying it ended ("the hosted one at X kept timing out",
  "and X stops getting new tags", "the X limit is gone") or that opens by dropping it ("drop X
  from your configs") is old; not where the sentence negates, says something stays, or tells
  of a passing event outside Y's clause, nor where two such values are named.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from ..matchers import Matcher, fold
from .units import PER_TIME

__all__ = [
    "Change",
    "new_values",
    "old_values",
    "read_changes",
    "records_change",
    "says_back",
    "says_new",
    "says_old",
    "stated_things",
    "value_sort",
    "without_title",
]

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Change:
    """One change the wording states.

    Attributes:
        old: the old value exactly as written (a substring of the text), or None.
        new: the new value exactly as written, or None.
        old_span: half-open offsets of ``old`` in the text, or None.
        new_span: half-open offsets of ``new`` in the text, or None.
        pattern: the pattern that read it, e.g. ``"from X to Y"``.
        said: the words that present ``new`` as new (``"to ufo-ai/ufo"``), for messages.
    """

    old: str | None
    new: str | None
    old_span: Span | None
    new_span: Span | None
    pattern: str
    said: str = ""


# ---------------------------------------------------------------- what a value looks like
_UNIT = (
    rf"{PER_TIME}|"  # 300 req/min
    r"%|€|[KMGT]i?B|ms|seconds?|minutes?|hours?|days?|weeks?|months?|years?|EUR|USD|GBP|CHF|"
    r"zł|Kč|kr|Ft|lei|PLN|CZK|SEK|NOK|DKK|HUF|JPY|INR|AUD|CAD|"
    # a measure ("18.5 kg", "13 km") and a count's noun ("62 cars", "2,500 calls", "19
    # people"): the value a memory writes, apart from the same number for another thing ("62
    # seats"). The nouns are a closed list: a review of an open one (any plural) found verbs
    # ("Java 21 replaces Java 17"), "plus", "weekdays" and a sign-off on the next line read as
    # one; not a rate ("500 requests per minute" is "500")
    r"kg|km|cm|mm|mi|lbs?|kWh|kW|ml|°C|°F|(?:people|persons|staff|guests|visitors|users|"
    r"members|players|seats|places|spots|cars|vehicles|bikes|desks|rooms|beds|tables|calls|"
    r"requests|queries|jobs|builds|runners|nodes|replicas|workers|servers|instances|cores|"
    r"licen[cs]es|slots|tickets|items|rows|records|messages|e-?mails|pages|projects|files|"
    r"repos|repositories|accounts|devices|parcels|orders|pallets|boxes|copies|units|credits|"
    r"tokens|participants|attendees|students|employees|sessions|connections|threads)"
    r"(?!\s+(?:per|a|an|each|every)\b)"
)
# a title before a person's name is not part of the name the memories write ("Dr Aisha Nakato"
# is "Aisha Nakato" in a memory that says "Aisha Nakato leads the trial")
_TITLES = frozenset({"dr", "prof", "mr", "mrs", "ms", "mx", "sir", "dame"})


_LEX = re.compile(
    r"(?P<q>`[^`\n]{1,60}`|\"[^\"\n]{1,60}\"|“[^”\n]{1,60}”|(?<!\w)'[^'\n]{1,60}'(?!\w))"
    r"|(?P<url>\b[a-z][a-z0-9+.-]*://[^\s<>\"'`]+)"
    r"|(?P<num>(?:\+\d{1,3}|0\d{1,4})(?:[ -]\d{2,5}){1,4}(?![\w-])|\b[Ee]xt\.?\s?\d{2,6}(?![\w/@-])"
    rf"|[$€£¥]?\d+(?:[.,:]\d+)*[a-zA-Z%]*(?![\w/@-])(?:[ \t\u00a0]?(?:{_UNIT})(?!\w))?)"
    # an invisible character inside a token (a soft hyphen, a zero-width space or joiner, a
    # word joiner) is part of it: split there, "acme\u00ad/app" read "/app" as a value
    r"|(?P<tok>(?<![\w./~\u00ad\u200b-\u200d\u2060\ufeff])(?:[#@]|~(?=\w)|~?/|\.{1,2}/|\.)?"
    r"\w[\w\u00ad\u200b-\u200d\u2060\ufeff-]*"
    r"(?:[\u00ad\u200b-\u200d\u2060\ufeff]*[./@:+]~?\w[\w\u00ad\u200b-\u200d\u2060\ufeff-]*)*/?)"
)
_MONTH = (
    r"(?:jan(?:uary|\.)?|feb(?:ruary|\.)?|mar(?:ch|\.)?|apr(?:il|\.)?|may|june?|july?|"
    r"aug(?:ust|\.)?|sep(?:t(?:ember)?)?\.?|oct(?:ober|\.)?|nov(?:ember|\.)?|dec(?:ember|\.)?)"
)
# a calendar date ("1 July", "July 1st, 2026") says when, not what: "CHF 19 from 1 July, up
# from CHF 15" changes the price, and neither "1" nor "July" is a value of it
_DATE = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\.?\s+(?:of\s+)?{_MONTH}(?:\s+\d{{4}})?"
    rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?)(?![\w/@-])",
    re.I,
)


def _words(words: str) -> frozenset[str]:
    return frozenset(words.split())


_DETS = _words(
    "the a an our your their its his her my this that der die das den dem des ein "
    "eine einen le la les un une el los las"
)
_NOT_NAMES = _DETS | _words(
    "these those it we us you they he she i someone somebody anyone everyone nobody please "
    "use note update heads reminder correction "
    "important since from in on at as per after before starting going now also and but or so "
    "then today yesterday tomorrow renamed moved switched chain rename replace send post track "
    "clone work call hand pin upgrade bumped do is are was should could if when ok fyi hey hi "
    "thanks nothing ownership all no yes not new old there here what which who why how where "
    "nope yep yeah okay sure mail email e-mail emails lots tons loads plenty heaps "
    "bitte utilisez usa api url vpn dns ssh sso crm ceo cfo cto qa ui ci db hr pr eu cet utc "
    "sdk cli"
)
_KINDS = _words(
    "repo repository channel email e-mail address host hostname server port url link page site "
    "domain bucket package project image branch org organisation organization account handle "
    "schedule key var variable env file setting database db endpoint ticket epic service "
    "instance cluster number phone version release tag folder directory path queue topic "
    "table another new old current same"
)
_FILLERS = _KINDS | _DETS
_NOUNS = _words(
    "repo repository channel project package image bucket org organisation organization "
    "account site domain service server mailbox inbox address link url page room crate gem "
    "module library dashboard board form alias"
)  # a noun for the thing itself, passed over before its verb; not an attribute ("port")
# what a value is the old one of ("$39 was the old rate.", "a@x.io was the old address."): a
# closed list, lower-case, ending the clause; any noun read "Bonn was the old capital", "Dave
# is the old hand", "Meta is the old Facebook" (an adversarial review)
_VALUE_NOUN = (
    r"(?-i:(?:rate|price|fee|number|address|url|link|site|host|endpoint|inbox|mailbox|alias|"
    r"domain|server)s?)(?=\s*(?:[.;!]|$))"
)
_VALUE_NOUN_RE = re.compile(rf"\s+(?:is|are|was|were)\s+the\s+old\s+{_VALUE_NOUN}", re.I)
_COMPOUNDS = _words(
    "read-only on-call self-hosted up-to-date follow-up sign-off opt-in opt-out "
    "built-in end-to-end real-time long-term short-term"
)


@dataclass(frozen=True, slots=True)
class _Cand:
    start: int
    end: int
    kind: str  # thing, name (capitalised), word (plain lower-case), known (from deprecates)
    tail: int = 0  # characters after the value that go with it but are not part of it (.git)

    @property
    def stop(self) -> int:
        """Where the text after the value begins."""
        return self.end + self.tail


_HYPHENATED_NAME = re.compile(r"[A-Z][a-zà-ÿ]+(?:-[A-Z]?[a-zà-ÿ]+)+")


def _kind(tok: str) -> str:
    low = tok.lower()
    if low in _TITLES or low.endswith("-wide"):
        return "word"  # Dr Aisha Nakato: the name begins after the title; "building-wide"
    if _HYPHENATED_NAME.fullmatch(tok) and low not in _COMPOUNDS:
        return "name"  # Jun-seo, Asante-Mensah, Mei-Ling: a name's part, not an identifier
    if low not in _COMPOUNDS and re.search(r"[\d/.@:_#+$€£¥-]", tok):
        return "thing"
    return "name" if tok[0].isupper() and low not in _NOT_NAMES | _KINDS else "word"


_STATUS_CODE = re.compile(
    r"[1-5]\d\d\s+(?-i:Gone|Not\s+Found|Moved\s+Permanently|Found|OK|Bad\s+Request|Forbidden|"
    r"Unauthorized|Too\s+Many\s+Requests|Internal\s+Server\s+Error|Service\s+Unavailable|"
    r"Permanent\s+Redirect|Temporary\s+Redirect|See\s+Other)\b"
)


def _lex(text: str, known: Sequence[str]) -> list[_Cand]:
    """The candidate values of a text, in order; ``known`` strings win over what they cover."""
    cands: list[_Cand] = []
    for m in _LEX.finditer(text):
        s, tok, group = m.start(), m.group(), m.lastgroup
        if group == "q":
            # the quoted value without the space inside its quotes ("' 1'" reads as 1)
            inner = tok[1:-1]
            lo = s + 1 + len(inner) - len(inner.lstrip())
            hi = m.end() - 1 - (len(inner) - len(inner.rstrip()))
            if lo < hi:
                cands.append(_Cand(lo, hi, "thing"))
            continue
        if group == "url":  # a sentence's punctuation is not part of a URL
            while tok[-1] in ".,;:!?'\"" or (
                tok[-1] in ")]}" and tok.count("([{"[")]}".index(tok[-1])]) < tok.count(tok[-1])
            ):
                tok = tok[:-1]
        e = s + len(tok)
        if group == "tok" and "/" in tok and tok.lower().endswith(".git"):
            cands.append(_Cand(s, e - 4, _kind(tok), 4))  # .git is not part of a repo's name
            continue
        if text.startswith(("'s", "\u2019s"), e):
            continue  # a possessive names an owner, not a value
        if group == "num" and _STATUS_CODE.match(text, s):
            continue  # "return 410 Gone": an HTTP status, no value
        kind = _kind(tok) if group == "tok" else "thing"
        prev = cands[-1] if cands else None
        counted = re.match(r"\d+(?:\.\d+)*(?=[ \t\u00a0]?[a-z])", tok) if group == "num" else None
        if (
            prev
            and prev.kind == "name"
            and text[prev.end : s] == " "
            and (kind == "name" or re.fullmatch(r"\d+(?:\.\d+)*|team|group|squad", tok) or counted)
        ):
            # Maria Garcia, Node 20, Platform team; "Room 311 seats": the number joins the name
            cands[-1] = _Cand(prev.start, s + counted.end() if counted else e, "name")
        else:
            cands.append(_Cand(s, e, kind))
    dates = [m.span() for m in _DATE.finditer(text)]
    if dates:  # a value inside a date is no value (a date the caller deprecates is, below)
        cands = [c for c in cands if not _inside(c, dates)]
    phrases = [(k.strip(), i) for i, k in enumerate(known) if k.strip()]
    # the candidates do not overlap and stay sorted, so each hit finds the one that holds it,
    # and those it overlaps, by bisection (a scan of every candidate for every hit made a
    # 100 kB message that names a deprecated string 1,400 times take 20 s in the hook)
    starts = [c.start for c in cands]
    for hit in Matcher(phrases).find(text) if phrases else ():
        i = bisect_right(starts, hit.start) - 1
        holder = cands[i] if i >= 0 and hit.end <= cands[i].end else None
        if holder is None or (holder.start, holder.end) == (hit.start, hit.end):
            first = i if i >= 0 and cands[i].end > hit.start else i + 1
            last = bisect_left(starts, hit.end)
            cands[first:last] = [_Cand(hit.start, hit.end, "known")]
            starts[first:last] = [hit.start]
    return cands


def _inside(cand: _Cand, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ``cand`` lies within one of ``spans`` (sorted, not overlapping: a regex's finds).

    A binary search: a test of every span for every candidate made a hostile text of many
    dates quadratic (20,000 "from 1 July" took 34 s).
    """
    i = bisect_right(spans, cand.start, key=lambda span: span[0]) - 1
    return i >= 0 and spans[i][0] <= cand.start and cand.end <= spans[i][1]


# ---------------------------------------------------------------- patterns
_AUX = (
    r"(?:(?:was|were|has|have|had|been|being|is|are|got|already|wurde|wurden|ist|a|été|fue|fueron|ha|"
    r"sido)\s+)*"
)
_MOVE_X = r"moved|migrated|switched|changed|transferred|relocated|renamed"
_MOVE_V = (
    r"went|upgraded|downgraded|raised|lowered|increased|decreased|reduced|extended|"
    r"shortened|bumped|cut|updated"
)
_CHANGE = re.compile(
    rf"\b(?:{_MOVE_X}|{_MOVE_V}|mov(?:e|es|ing)|chang(?:e|es|ing)|switch(?:es|ing)?|"
    r"migrat(?:e|es|ion|ing)|transfer(?:s|ring)?|renam(?:e|es|ing)|rose|grew|fell|dropped|"
    r"passed|jumped|shifted|verschoben|umbenannt|geändert|gewechselt|migriert|umgezogen|"
    r"angehoben|erhöht|gesenkt|aktualisiert|übertragen|passée?s?|déplacée?s?|renommée?s?|"
    r"changée?s?|migrée?s?|transférée?s?|cambi(?:ó|ado|ada|amos)|mov(?:ió|ido|ida)|"
    r"migr(?:ó|ado|ada)|renombr\w+|pasó|traslad\w+)\b",
    re.IGNORECASE,
)
_ENDED = (
    r"archived|moved|renamed|migrated|deleted|retired|replaced|changed|transferred|closed|"
    r"deprecated|removed|switched"
)
# A thought of a change ("we're thinking about moving X to Y", "how about switching ..."): a
# verb of change, not a noun in -ing ("talking about pricing: ...") nor a thought that ended
# ("after thinking about switching for months, we moved ..."). A change for one day or one time
# ("moved from room 4 to room 6 just for today", "For the weekend, on-call moved ..."), not
# "just today" (lately), "only the demo repo", "not just for today", "notes for today:", "the
# weekend only rota". Each negates only its own part of a clause (_LOCAL: "I'm out just for
# today, but the docs moved from A to B"), unless a time of one day opens or closes the
# clause (_whole_time); a time of one day negates nothing in a clause that says the change
# lasts ("..., but standup moved from room 2 to room 7 for good": _LASTING).
_THOUGHT = (
    r"(?:(?:thinking|talking|dreaming)\s+(?:of|about)|(?:how|what)\s+about|"
    r"toying\s+with(?:\s+the\s+idea\s+of)?)\s+"
    r"(?:mov|migrat|switch|chang|renam|transferr?|relocat|replac|swapp|port|us|try|go)ing"
    r"(?!\s*[,:;]|\s+(?:for|and|but)\b)"
)
_ONE_TIME = (
    r"(?<!\bnot\s)(?:just|only)\s+for\s+(?:today|tonight|this\s+once|the\s+(?:day|night|demo))"
    r"(?!['\u2019]s)|(?:today|tonight)\s+only(?=\s*(?:[,.:;!?)]|$))|"
    r"(?<!\bjust\s)(?<!\bonly\s)for\s+(?:today|tonight)(?=\s*(?:[,.;!?)]|$))|"
    r"^\s*for\s+(?:today|tonight)(?=\s+(?!and\b)[a-z])|"
    r"^\s*for\s+the\s+(?:day|night|weekend)(?=\s*,)|"
    r"(?<!\bnot\s)(?:(?:just|only)\s+for\s+(?:the\s+)?(?:weekend|week|one\s+(?:day|night))|"
    r"for\s+(?:the\s+)?(?:day|night|weekend|demo|this\s+week|one\s+(?:day|night))\s+only)"
    r"(?=\s*(?:[,.;:!?)]|$))|"
    r"(?:just|for)\s+this\s+once(?!-)|this\s+once(?=\s*(?:[,.;!?)]|$))"
)
_THOUGHT_OR_ONE_TIME = rf"{_THOUGHT}|{_ONE_TIME}"
_ONE_TIME_RE = re.compile(rf"(?<![\w/@.-])(?:{_ONE_TIME})(?![\w/@])", re.I)
_LASTING = re.compile(
    r"(?<!\bnot\s)\b(?:for\s+good|permanently|from\s+now\s+on|going\s+forward|"
    r"for\s+the\s+long\s+term)\b",
    re.I,
)
_KILL = re.compile(  # a word of an identifier ("if/a", "acme/never-x") is no cue
    r"(?<![\w/@.-])(?:if|whether|could|would|might|maybe|perhaps|propos\w*|"
    r"(?:consider|discuss)\w*\s+(?:\w+ing|whether|about|a\s+move|the\s+(?:move|switch|idea))|plan(?:ned|ning|s?\s+to)|"
    r"should(?!\s+now)|(?:did|do|does|was|is|are|were|has|have|will)\s+not|"
    r"(?:did|do|does|was|were|is|are|has|have|wo|ca)n['\u2019]t|"
    r"cannot|['\u2019](?:re|s|m)\s+not|no\s+going|without|by\s+mistake|never|not\s+yet|"
    # "(just) so nobody's surprised: X is frozen": a purpose, no negation ("so nobody
    # switched" is one)
    r"(?<!\bso\s)nobody|nobody(?!(?:['\u2019]s|\s+is|\s+gets)\s+(?:surprised|confused|lost|"
    r"caught)|\s+(?:forgets|panics|wonders)\b)|"
    r"still|cancel\w*|or\s+so\s+(?:\w+\s+){0,3}says?|"
    r"(?<!,\swho\s)(?:stays?|remains?)|"
    r"wrong|incorrect|mistaken|a\s+mistake|wenn|falls|sollten?|"
    r"(?:false|untrue|not\s+true)\s+that|rumou?r\w*|allegedly|supposedly|any\s+chance|"
    r"next\s+(?:quarter|year|month)|later\s+this\s+(?:year|quarter|month)|eventually|someday|"
    r"(?:am|is|are|['\u2019](?:re|s|m))\s+going\s+to|gonna|draft\s+(?:rfc|proposal|plan|adr)|"
    r"rfc-?\d+|"  # a plan's time or a draft, not a plain "will" (Will Thompson, "it will be Y")
    rf"{_THOUGHT_OR_ONE_TIME}|"
    rf"(?:{_ENDED})\s+or\s+(?:{_ENDED}))"  # two verbs in doubt: "X archived or moved to Y"
    r"(?![\w/@]|[-.:][\w.-]*[/@])",
    re.I,
)
_TO = {"from": r"to|into|→|->", "von": r"zu|nach|auf|in", "de": r"à|a|en", "desde": r"a|hasta"}
_NOW = r"(?:now|jetzt|nun|maintenant|désormais|ahora)"
# "now" that ends what a clause says of Y ("to #infra now", "to #infra now, not #ops") or goes
# on with a connective, not "now" before a verb of its own ("mail to X now bounces": X is old)
_NOW_ENDS = (
    r"(?:from\s+now\s+on\b|"
    r"now\b(?=\s*(?:[.,;!?()\[\]—-]|$)|\s+(?:and|but|instead|too|please|onwards?|not|rather)\b))"
)
# A request to stop using a value ("please don't post in #x", "don't use #x anymore"): the
# value is old, and the request's own negation says nothing else of its clause
_STOP_VERBS = (
    r"(?:post|send|us(?:e|ing)|writ|e-?mail|mail|push|clon|ping|messag|fil|report|deploy)\w*"
)
_PROHIBIT = (
    r"(?:please\s+(?:don['\u2019]t|do\s+not|stop)\s+"
    rf"|(?:don['\u2019]t|do\s+not|stop)\s+(?={_STOP_VERBS}\s+(?:\w+\s+)?\S+\s+any\s*more\b))"
    rf"{_STOP_VERBS}\s+(?:(?:in|to|into|at|on|from|with)\s+)?"
)
_PROHIBIT_RE = re.compile(rf"\b{_PROHIBIT}", re.I)
_UNDONE = (
    r"(?:was|were|has\s+been|have\s+been|got|is\s+being)\s+(?:rolled\s+back|reverted|undone|"
    r"called\s+off|abandoned)\b"  # "was cancelled" is no read at all: cancel* negates (_KILL)
)
# a change that the sentence says was undone is no change from X to Y: the undo before it
# ("Reverted: X -> Y", "We reverted the X -> Y move", "Undo the move from X to Y") or after it
# ("The move from X to Y was rolled back"; "the move to X was rolled back" reads Y old). Not
# "reverted from X to Y", "Reverting ..., we switched X back to Y" or "X -> Y (reverting ...)",
# which state the change back itself, nor a read that says "back" or "again".
_UNDO_VERB = (
    r"(?<![\w/@.-])(?:revert(?:ed|s|ing)?|undo(?:es|ing|ne)?|undid|roll(?:ed|s|ing)?\s+back|"
    r"back(?:ed|s|ing)?\s+out)"
)
_UNDO_NOUN = r"(?:move|rename|switch|swap|migration|transfer|change|cutover)"
_UNDONE_BEFORE = re.compile(
    rf"{_UNDO_VERB}\s*:?\s+(?:(?:the|our|that|this|a|[\w-]+['\u2019]s)\s+)*"
    r"(?:(?:commit|pr|change|patch|pull\s+request)\s+(?:that|which)\s+[\w-]+\s+)?"
    rf"(?:(?:[\w-]+\s+){{0,2}}?{_UNDO_NOUN}\s+(?:of\s+(?:the\s+)?\S+\s+)?from\s+)?"
    r"(?:[a-z][\w-]*\s+)?\Z",
    re.I,
)
_UNDO_READS = frozenset({"reverted the move to X", "the move to X was rolled back"})
"""The patterns that read an undo themselves: the undo before their value is their cue."""
_UNDONE_AFTER = re.compile(
    rf"\s*\)?\s+(?:{_UNDO_NOUN}\s+)?{_UNDONE}"
    r"|\s*[(:,]?\s*(?:reverted|rolled\s+back|undone)\b"
    r"|[^.;!?]{0,60}?\b(?:but|and(?:\s+then)?|then|which|that)\s+(?:"
    r"(?:it|that|this|the\s+\w+)\s+(?:was|got|has\s+been|is\s+being)\s+(?:rolled\s+back|"
    r"reverted|undone)|(?:(?:we|they|i|someone)\s+)?(?:then\s+|later\s+)?(?:reverted|rolled\s+back|"
    r"undid)\s+(?:it|that|this|the\s+\w+))\b",
    re.I,
)
_ROLE = r"(?:one|name|home|location|address|repo|repository|channel|owner)\b"
# "is (now) our|the" before a value, up to three lower-case words between ("NAME is our
# contact at Acme Corp now"): the value is a role, or what the role is about
_ROLE_SAID = re.compile(
    r"\b(?:is|are)\s+(?:(?P<now>now)\s+|(?P<not>no\s+longer|not)\s+)?"
    r"(?P<whose>the|our|their|its|his|her)\s+(?:[a-z][\w-]*\s+){0,3}\Z",
    re.I,
)
# a role that is no longer held, or held for a while: "the former|ex-|old|acting DPO"
_NOT_A_ROLE_NOW = re.compile(
    r"\b(?:former|ex-?|old|previous|outgoing|interim|acting|temporary|emeritus)\b", re.I
)
_LIST = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)")
_CONT = re.compile(
    r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?:(?:the|its|our)\s+)?"
    r"(?:[a-z][\w-]*\s+){0,3}?(?:from\s+)?"
)
# clauses are read apart: after ";", a dash, or a comma before "X didn't work (out)", whose
# negation says nothing of the clause before it ("back to #a, #b didn't work out")
_FAILED = (
    r"(?:didn['\u2019]t|did\s+not)\s+work(?:\s+out)?"
    r"(?=\s*(?:[.,;!]|$)|\s+(?:so|either|anymore|for\s+us)\b)"
)
_CLAUSE = re.compile(r"[;—]|\s--?\s")
# a sentence ends at ".", "!" or "?" before a space, but not after an abbreviation ("Dr.
# Aisha Nakato", "ext. 2255", "e.g. this")
_ABBREVIATED = "".join(
    rf"(?<!\b{a})" for a in ("Dr", "Mr", "Mrs", "Ms", "Prof", "ext", "Ext", r"e\.g", r"i\.e", "vs")
)
_SENTENCE = re.compile(
    rf"[^\n]+?(?:(?:{_ABBREVIATED}\.|[!?])[\"”']?(?=\s|$)|$)", re.MULTILINE
)  # (a quoted sentence ends with its quote: 'She asked "Is #a renamed to #b?" and ...')
# a sentence that asks, logs or sets a condition says no change, though it has no question
# mark: a question's opening ("was #a renamed to #b", "has X been replaced by Y", "when was X
# shut down"), not a terse statement ("has moved to Y", "is now Y", "was X, now Y": the
# sentence says "now"); a log line's time stamp or level ("2024-05-01 12:00:03 INFO deploy a ->
# b", "WARN X mailbox closed"); a condition that opens it ("once X is closed, ...")
_ASKS = re.compile(
    r"\s*(?:(?:was|were|is|are|has|have|did|does|do|can|could|shall|will|would)\s+"
    r"(?:the|a|an|our|your|their|its|it|we|you|they|he|she|this|that|there|anyone|anybody|"
    r"[#@~]?[\w.-]+[/@.:][\w./@:-]+|[#@~][\w.-]+)(?![\w/@.-])"
    r"|(?:when|why|how|where|who|which)\s+(?:was|were|is|are|has|have|had|did|does|do|"
    r"will|would|should|can|could)\b|any\s+chance\b"
    r")",
    re.I,
)
_LOGS = re.compile(
    r"\s*(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\S*|"
    r"(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d\S*\s+)?\[?(?:INFO|WARN(?:ING)?|ERROR|ERR|DEBUG|"
    r"TRACE|FATAL|CRIT(?:ICAL)?)\b(?!\s*:))"
    # (a dot inside a host does not end the condition: "once p4-2.acme.internal is racked")
    r"|\s*(?i:(?:once(?!\s+(?:more|again)\b)|as\s+soon\s+as)"
    r"(?=(?:[^,.;]|\.(?=\w))*\b(?:is|are|gets?|"
    r"has\s+been|have\s+been)\b)|whenever)\b"
)


# A sentence that opens by asking for a change, planning it or listing it as a task says
# none happened in its opening clause (up to ";", ":", a dash, a comma or "since|because",
# and on through clauses that go on with another such verb: "..., and rename #a to #b"): an
# open task item ("- [ ] ...", "TODO: ...", "Plan: ...", "Step 1: ..."); a plan before a verb
# of change ("Let's rename X to Y", "We need to switch ...", "I'll move ...", "We'd like to
# migrate ..."); a request before a verb that acts on the thing itself ("Please move X to Y", "Can
# you rename ..."); that verb bare, opening a sentence that is no bullet ("Move X to Y.";
# not a label, "Move complete: X -> Y", "Rename back: ...", a commit subject, "Rename X to Y
# (#123)", or an item marked done, "Move X to Y: done", "... (done)", "... ✅"); or "Who ..."
# without its mark. A request about references ("Please update your bookmarks: X moved to
# Y", "Point the app at Y") has no such verb: the change happened. A clause after the opening
# one is read as usual ("Please move over to #b, #a is retired"), and so is a line that goes
# on from the line before (hard-wrapped text: "... we finally got to\nmove X to Y, it's live").
_ACTS = r"(?:move|rename|migrate|transfer)"
_PLANS = (
    rf"(?:{_ACTS}|switch|change|replace|swap|upgrade|downgrade|bump|raise|lower|archive|retire|"
    r"deprecate|delete|decommission)"
)
_OPENING = re.compile(
    r"\s*(?P<bullet>(?:[-*\u2022]|\d{1,2}[.)])\s*)?"
    r"(?:(?:hey|hi|hello|ok(?:ay)?|so|also|and|then|@[\w.-]+),?\s+|(?-i:[A-Z][a-z]+),\s+)?"
    r"(?:(?P<task>\[\s?\]|(?:todo|to-?do|fixme|task|goal|step\s*\d+|next\s+steps?|"
    r"action\s+items?|(?:[\w-]+\s+)?(?:plan|proposal|idea))\s*:)"
    r"|(?P<plan>(?:let['\u2019]s|let\s+us|(?:we|i|you)\s+(?:need|have|want|ought|plan|intend|"
    r"mean)\s+to|need\s+to|(?:(?:we|i)\s+)?must|(?:we|i|you)['\u2019]ll|"
    r"(?:(?:we|i|you|they|he|she|(?-i:[A-Z][a-z]+))\s+)?(?:will|shall)|"
    r"(?:we|i)(?:['\u2019]d|\s+would)\s+like\s+to|wanna|"
    r"remember\s+to|don['\u2019]t\s+forget\s+to|time\s+to|"
    r"(?:(?:we|i)\s*(?:['\u2019]re|['\u2019]m|are|am)\s+)?(?:going|about)\s+to)\s+"
    rf"(?:(?:also|then|now|first|soon|finally)\s+)?{_PLANS}\b)"
    r"|(?P<ask>(?:please|pls|kindly|(?:can|could|would|will)\s+(?:you|we|someone|somebody))"
    rf"(?:,?\s+please)?,?\s+(?:go\s+ahead\s+and\s+)?{_ACTS}\b)"
    rf"|(?P<bare>(?:go\s+ahead\s+and\s+)?{_ACTS}\b"
    r"(?!(?:\s+[\w-]+)?\s*:(?!\S)|\s+(?:complete|completed|done|finished|succeeded|failed|is|"
    r"was|has|had|went|of)\b))"
    r"|(?P<who>who(?:['\u2019]d|\s+(?:here|else|exactly|actually))?\b"
    r"(?!\s+(?:is|are|was|were)\b)))",
    re.I,
)
# an item marked done, or a commit subject: the bare verb or the task item happened
_DONE = re.compile(
    r"\((?:done|fixed|merged)\)|[\u2705\u2714\u2611]|\((?:#|[\w.-]+/[\w.-]+#)\d+\)|"
    r"(?::\s*|\s+(?:is\s+|now\s+)?)(?:done|complete[d]?|finished|shipped|live)\b",
    re.I,
)
_OPENING_ENDS = re.compile(r"[;:\u2014]|\s--?\s|,\s|\s(?=(?:since|because|as|now\s+that)\s)", re.I)
_GOES_ON = re.compile(rf"\s*(?:and|then|also)?\s*(?:then\s+)?(?:please\s+)?(?:{_PLANS})\b", re.I)


def _opening_end(t: str, lo: int, hi: int) -> int:
    """Where the opening clause that asks for, plans or lists a change ends (``lo``: none)."""
    m = _OPENING.match(t, lo, hi)
    if m is None:
        return lo
    if m.group("bullet") and m.group("bare"):
        return lo  # "- Move X to Y" under a changelog: a bullet's bare verb is no request
    if (m.group("bare") or m.group("task")) and _DONE.search(t, m.end(), hi):
        return lo
    back = lo
    while back > 0 and t[back - 1] in " \t\r\n":
        back -= 1
    if "\n" in t[back:lo] and back > 0 and (t[back - 1].isalnum() or t[back - 1] == ","):
        return lo  # a hard-wrapped line that goes on from the line before
    end = m.end()
    while True:
        sep = _OPENING_ENDS.search(t, end, hi)
        if sep is None:
            return hi
        if not _GOES_ON.match(t, sep.end(), hi):
            return sep.start()
        end = sep.end()


def _says_nothing(t: str, lo: int, hi: int) -> bool:
    """Whether the sentence ``t[lo:hi]`` asks, logs or sets a condition (no change is read).

    A question mark counts before a closing quote too ('She asked "Is #a renamed?"').
    """
    if t[lo:hi].rstrip().rstrip("\"”'").endswith("?") or _LOGS.match(t, lo):
        return True
    return bool(_ASKS.match(t, lo)) and not re.search(r"\bnow\b", t[lo:hi], re.I)


# "X won't get new tags" says X's end, no negation of the clause (blanked from the test)
_NO_MORE = (
    r"(?:won['\u2019]t|will\s+not)\s+(?:get|receive|see)\s+(?:any\s+)?(?:new|more|further)\s+"
    r"(?:tags|releases|updates|versions|builds|images|commits|changes|fixes|patches)"
)
_NO_MORE_RE = re.compile(_NO_MORE, re.I)
# "X isn't a thing anymore", "X isn't supported there anymore", "X won't compile it anymore":
# X's end, no negation of the clause (blanked from the test, as _NO_MORE)
_NOT_ANYMORE = (
    r"(?:(?:isn['\u2019]t|is\s+not)\s+(?:a\s+thing|supported|used|maintained|in\s+use)|"
    r"(?:won['\u2019]t|will\s+not|doesn['\u2019]t|does\s+not)\s+(?:compile|build|work|run|ring|"
    r"resolve|respond|answer|load)"
    r"(?:\s+(?:it|them))?)(?:\s+(?:there|here))?\s+any\s*more\b"
)
_NOT_ANYMORE_RE = re.compile(_NOT_ANYMORE, re.I)
# "Sable isn't at X anymore, it's Y now": X's end, no negation of the clause (blanked, as
# _NOT_ANYMORE); X is a thing
_NOT_AT = (
    r"\b(?:isn['\u2019]t|is\s+not|aren['\u2019]t|are\s+not)\s+(?:at|in|on|under)"
    r"(?=\s+(?=[^\s,;]*[#@/.:])[^\s,;]*+\s+any\s*more\b)"
)
_NOT_AT_RE = re.compile(_NOT_AT, re.I)
# what makes an end passing, a condition or an accident ("frozen until v2 ships", "we deleted
# acme/app by accident", "turned off for maintenance"): the ends read from a state or an act
# (flag Q) are not read in such a clause
_PASSING = re.compile(
    r"\b(?:by\s+accident|accidentally|until|unless|once(?!\s+(?:more|again))|when|"
    r"make\s+sure|check\s+that|"
    r"i\s+think|i\s+guess|probably|"
    r"for\s+(?:now|maintenance|the\s+weekend|(?:a|the|this)\s+(?:week|day|while|moment|"
    r"sprint))|during|temporar\w+|restored|re-?(?:added|enabled|opened)|recovered|unfrozen|"
    r"every\s+\w+|each\s+\w+|nightly|daily|weekly|monthly|hourly|overnight|twice|"
    r"on\s+(?:\w+days|weekends?|failover)|at\s+\d|after\s+(?:each|every|\d)|"
    r"automatically|regularly|often|sometimes|usually|outside|while|for\s+backups?|"
    r"next\s+(?:week|month|quarter|year|\w+day)|in\s+Q[1-4]|keep\s+\w+ing|till|"
    r"since|fix(?:ed|ing)?|bug|restart\w*|resumed|outage|glitch)\b",
    re.I,
)
# "nobody checks X anymore": X's end, no negation of the clause (blanked from the test)
_NOBODY = (
    r"\bnobody\s+(?:checks|reads|uses|monitors|watches|answers|pushes\s+to|writes\s+to|"
    r"posts\s+(?:in|to)|sends\s+to)"
)
_NOBODY_RE = re.compile(rf"{_NOBODY}(?=\s+\S+\s+any\s*more\b)", re.I)
# "X didn't work (out)" says X failed, no negation of the clause, where X is a thing
# (the thing's run of characters taken whole, possessively: backtracking into it made a long
# token quadratic)
_FAILED_THING = re.compile(rf"(?<![^\s,(])(?=[^\s,]*[#@/.:\d])[^\s,]*+\s+{_FAILED}")


def _blank(pattern: re.Pattern[str], text: str) -> str:
    """Return ``text`` with what ``pattern`` finds replaced by spaces (offsets kept)."""
    return pattern.sub(lambda m: " " * len(m.group()), text)


# A clause's parts joined by ", and|but|while ..." are negated apart where the negation is a
# plain one or a word of staying: "laptops are still ordered through the IT form, and the
# checklist lives at Y now instead of X" reads the second part. Any other word that negates
# (a doubt, plan, condition, rumour, a refutal: "never", "wrong", "cancelled"; a pause: "on
# hold", "in progress") is read over the whole clause, and no part reads a value old that a
# negated part names ("Alice still owns billing, and Bob took over support from Alice"). Not
# at ", so": what follows follows from the negation. (An adversarial review of a first
# version, which scoped only doubts and plans, found 57 harmful reads in 545 texts.)
_PART = re.compile(r",\s+(?=(?:and|but|while|whereas|though|although)\s)", re.I)
_LOCAL = re.compile(
    r"(?:(?:did|do|does|was|is|are|were|has|have|will)\s+not|"
    r"(?:did|do|does|was|were|is|are|has|have|wo)n['\u2019]t|['\u2019](?:re|s|m)\s+not|"
    rf"still|stays?|remains?|{_THOUGHT_OR_ONE_TIME})",
    re.I,
)
_PAUSED = re.compile(
    r"(?<![\w/@.-])(?:on\s+hold|postponed|blocked|pending|in\s+progress|typo|example|"
    r"not\s+sure|unsure|confirm|idea|hope\w*|heard|apparently|approv\w*|after\s+the|"
    r"tomorrow|tonight|at\s+noon|happens|yet|shipped|happened|done|live|deployed|merged|signed|"
    r"over|checked|decided|confirmed|propagated|remember|think|believe|word\s+for\s+it|"
    r"quote\s+me|staging|testing|review|says?|said|claims?|wrote|typed|error|will\s+be|"
    r"['\u2019]ll\s+be|"
    # a staying part that names the old value by what it is ("existing customers still pay
    # the old rate, while new ones pay £30 instead of £27.50")
    r"old|legacy|previous|existing|grandfathered)(?![\w/@-])",
    re.I,
)


class _Parts(NamedTuple):
    """One negated clause's parts: where each begins, and which are negated (None: all are)."""

    cuts: list[int]
    negated: list[bool] | None
    named: str  # the negated parts' text, folded


def _parts(t: str, a: int, b: int, passing: bool) -> _Parts:
    """The parts of the negated clause ``t[a:b]`` (above)."""
    cuts = [a, *(m.end() for m in _PART.finditer(t, a, b)), b]
    words = _kill_words(t, a, b, passing)
    if (
        len(cuts) == 2
        or _PAUSED.search(t, a, b)
        or not all(_LOCAL.fullmatch(w) for w in words)
        or _whole_time(t[a:b])
    ):
        return _Parts(cuts, None, "")
    spans = list(pairwise(cuts))
    negated = [bool(_kill_words(t, x, y, passing)) for x, y in spans]
    named = " ".join(fold(t[x:y]) for (x, y), n in zip(spans, negated, strict=True) if n)
    return _Parts(cuts, negated, named)


# what may stand before a time of one day that opens a clause ("IT-88: just for today"), and
# after one that closes it
_TIME_OPENS = re.compile(r"(?:[^\s:]+:)?\s*(?:(?:just|only)\s+)?(?:for\s+)?", re.I)
_TIME_CLOSES = re.compile(r"[\s,.;:!?)\]\"'\u201d]*")


def _whole_time(clause: str) -> bool:
    """Whether a time of one day opens or closes the clause: it spans the clause's parts.

    "Just for today, standup moved from A to B, and the retro from C to D" and "A moved to B,
    and C to D, just this once" change nothing for good; "I'm out just for today, but the docs
    moved from A to B" does (the time is of its own part). In a clause that says the change
    lasts the time negates nothing (:func:`_kill_words`), so it spans nothing either.
    """
    return not _LASTING.search(clause) and any(
        _TIME_OPENS.fullmatch(clause, 0, m.start()) or _TIME_CLOSES.fullmatch(clause, m.end())
        for m in _ONE_TIME_RE.finditer(clause)
    )


def _kill_words(t: str, a: int, b: int, passing: bool) -> list[str]:
    """The words that negate the clause ``t[a:b]`` (:func:`_negated`).

    A time of one day negates nothing in a clause that says the change lasts ("For the day
    I'm in room 9, but standup moved from room 2 to room 7 for good").
    """
    clause = _blank(_FAILED_THING, t[a:b])
    clause = _blank(_PROHIBIT_RE, clause)
    if not passing:
        clause = _blank(_NOT_AT_RE, _blank(_NOT_ANYMORE_RE, _blank(_NO_MORE_RE, clause)))
    clause = _blank(_NOBODY_RE, clause)
    if _LASTING.search(clause):
        clause = _blank(_ONE_TIME_RE, clause)
    return [m.group() for m in _KILL.finditer(clause)]


def _negated(t: str, a: int, b: int, passing: bool) -> bool:
    """Whether the clause ``t[a:b]`` is negated, planned or doubtful: nothing is read in it.

    "X didn't work out" of a thing X is left out of the test (it is read as X's end); any
    other "didn't work" negates, as any other negation does. So do a request to stop using a
    value, "nobody checks X anymore", and, unless the clause says the end passes
    (``passing``: "won't get new tags until ..."), "X won't get new tags" and "X isn't
    supported anymore".
    """
    return bool(_kill_words(t, a, b, passing))


class _Spec(NamedTuple):
    """A pattern: its cue, and the roles (o old, n new) of the values it reads.

    ``before`` and ``after`` are the roles of the values just before and after the cue; where
    the pattern has a connector (``from X to Y``), ``then`` is the role of the value after it.
    Flags: F the sentence needs a change verb before the cue; S plain words opposite plain
    words; L a list of X values; C continuations; O an old value alone is read where the new
    one is missing; R ``NAME is now the <role>``; T the value after must be a thing; W / A it
    must be followed by "now" (ending the clause's say) / "again"; U by "was rolled back" (or
    reverted, undone, cancelled); N the clause must say "now"; G only in a sentence that
    already names an old value; P a relative clause names an earlier value; V a value after
    followed by "with|by" means another pattern (``replaced X with Y``); B every value read
    must be a thing (``#a was merged into #b``, not "the PR was merged into main"); D the
    value after is no bare number ("it goes back to 2019" is history); Q the clause says no
    passing state, condition or accident (``until``, ``for now``, ``by accident``: _PASSING);
    J where no value after is read, the value before is no object of a preposition ("PR 311 on
    acme/web, superseded by PR 12": the pull request was); Z the value after ends its sentence
    (``it used to be $39.``); E the value after ends
    its clause, or is followed by when (``we froze acme/app for the release`` reads nothing);
    K both values are of one sort (two paths, two hosts: "the channel for api.acme.io is
    #oncall-api now" renames nothing).
    """

    name: str
    cue: re.Pattern[str]
    before: str
    after: str
    conn: str = ""
    then: str = ""
    flags: str = ""


def _s(
    name: str, cue: str, before: str, after: str, conn: str = "", then: str = "", flags: str = ""
) -> _Spec:
    # a cue never begins inside a value ("#a a été renommé": the "a" of "#a" is no auxiliary);
    # one that begins with spaces begins where they do (the leftmost match anyway): tried at
    # each space of a long run, "\s*,?\s*instead of" was cubic (2,000 spaces: about a minute)
    ws = "(?<!\\s)" if cue.startswith("\\s") else ""
    return _Spec(
        name, re.compile(rf"(?<![#@/.:-]){ws}(?:{cue})", re.I), before, after, conn, then, flags
    )


_SPECS = sorted(
    (
        _s("from X to Y", r"\b(?:from|von|de|desde)\s+", "", "o", "*", "n", "FSLCO"),
        _s("X → Y", r"\s*(?:→|->|=>|⇒|⟶|➔|➜)\s*", "o", "n", flags="SO"),
        _s(
            "renamed X to Y",
            r"\b(?:renamed|rename|moved|move|migrated|migrate|changed|switched|"
            r"transferred|transfer)\s+",
            "",
            "o",
            r"(?:back\s+)?(?:to|into)|as",
            "n",
            "C",
        ),
        _s(
            "renamed X",
            r"(?<!was )(?<!been )\brenamed\s+(?!to\b|as\b|into\b|from\b)",
            "",
            "o",
            flags="T",
        ),
        _s(
            "X was renamed Y",
            rf"\b{_AUX}(?:renamed(?:\s+(?:to|as|into))?|umbenannt\s+in|"
            r"renommée?s?\s+en|renombrad[oa]s?\s+(?:a|como))\s+(?!from\b)",
            "o",
            "n",
        ),
        _s(
            "X moved to Y",
            rf"\b{_AUX}(?:{_MOVE_X}|(?:now\s+)?redirects|redirected)(?:\s+(?:again|once\s+more|back|now),?)*"
            r"\s+(?:to|into)\s+",
            "o",
            "n",
            flags="OP",
        ),
        _s(
            "moved to Y from X",
            rf"\b{_AUX}(?:{_MOVE_X}|{_MOVE_V})(?:\s+(?:up|down|back))?\s+to\s+",
            "",
            "n",
            "from",
            "o",
            "O",
        ),
        _s(
            "raised to Y",
            rf"\b(?:{_MOVE_V})(?:\s+(?:again|once\s+more|back|now|up|down),?)*"
            r"\s+(?:to|into)\s+",
            "",
            "n",
            flags="P",
        ),
        _s(
            "changed the Z to Y",
            rf"\b(?:{_MOVE_X}|{_MOVE_V})\s+(?:the|its|our|their|his|her|my|"
            r"your|a)\s+(?:[\w-]+\s+){0,3}?(?:to|into)\s+",
            "",
            "n",
        ),
        _s(
            "X is now Y",
            rf"\b(?:is|ist|est|es|heißt)\s+{_NOW}(?:\s+(?:called|named))?\s+|\b{_NOW}"
            r"\s+(?:is|ist|es|est)\s+|\b(?:has|have)\s+become\s+|\bbecame\s+|\bs['\u2019]appelle\s+"
            r"(?:désormais|maintenant)\s+",
            "o",
            "n",
            flags="R",
        ),
        _s(
            "is now at Y",
            rf"\b(?:is|are|ist|sind|est|sont|es|son)\s+{_NOW}\s+(?:at|in|on|under|"
            r"unter|bei|à|en|sur)\s+",
            "",
            "n",
        ),
        _s("X (now Y)", r"\s*\(\s*now\s+", "o", "n"),
        _s("in favour of Y", r"\bin\s+favou?r\s+of\s+", "", "n"),
        _s("Y is the new one", rf"\s+(?:is|are)\s+(?:now\s+)?the\s+new\s+{_ROLE}", "n", ""),
        _s(
            "NAME is the new <role>",
            r"\s+(?:is|are)\s+(?:now\s+)?(?:the|our|their|its)\s+new\s+(?!one\b|name\b)[a-z]",
            "n",
            "",
        ),
        _s(
            "X is the old one",
            rf"\s+(?:is|are|was|were)\s+the\s+old\s+(?:{_ROLE}|{_VALUE_NOUN})",
            "o",
            "",
        ),
        # mail that bounces at X is no new X ("emails bounce at X now, use Y")
        _s(
            "Y now",
            r"\b(?<!bounce\s)(?<!bounces\s)(?<!bounced\s)(?<!bouncing\s)"
            r"(?:is|are|to|at|in|on|under|via|uses?|be)\s+",
            "",
            "n",
            flags="W",
        ),
        _s("it's Y now", r"\b(?:it|that)['\u2019]s\s+", "", "n", flags="W"),
        _s("X is Y now", r"\b(?:is|are)\s+(?:just\s+|simply\s+)?", "o", "n", flags="WBK"),
        _s("X is Y again", r"\b(?:is|are)\s+(?:(?:called|named)\s+)?", "o", "n", flags="A"),
        _s(
            "is served from Y again",
            r"\b(?:is|are)\s+(?:served|hosted|published|deployed)\s+(?:from|at|on|in|by)\s+",
            "",
            "n",
            flags="AT",
        ),
        _s(
            "back to Y",
            r"(?:^|(?<=[.!?:]\s)|\b(?:went|switched|moved|reverted|returned|rolled|is|are|re|s)"
            r"\s+|\b(?:are|am|is|re|m|s)\s+going\s+)back\s+to\s+"
            r"|\b(?:are|is|re|s)\s+back\s+on\s+",
            "",
            "n",
            flags="T",
        ),
        _s("goes back to Y", r"\bgoes\s+back\s+to\s+", "", "n", flags="TD"),
        _s(
            "reverted the move to X",
            r"\b(?:reverted|undid|rolled\s+back|abandoned)\s+(?:the|our|that|this|[\w-]+['\u2019]s)\s+"
            r"(?:[\w-]+\s+){0,2}?(?:move|switch|rename|transfer|cutover)\s+"
            r"(?:to|into)\s+",
            "",
            "o",
            flags="T",
        ),
        _s(
            "the move to X was rolled back",
            r"\b(?:move|switch|rename|transfer|cutover|migration)\s+"
            r"(?:of\s+(?:the\s+)?\S+\s+)?(?:from\s+\S+\s+)?(?:to|into)\s+",
            "",
            "o",
            flags="TU",
        ),
        _s(
            "now Y",
            rf"(?<!from )\b{_NOW}\s+(?:(?:are|be|lives?|runs?|points?|goes?|go|costs?|"
            r"listens?|uses?|called|named|hosted|served|sent|reads?)\s+){0,2}"
            r"(?:(?:at|in|on|to|under|via|unter|bei)\s+)?",
            "",
            "n",
        ),
        _s(
            "replaced X with Y",
            r"\b(?:replaced|replace|replacing|swapped|swap)\s+(?!by\b|with\b)",
            "",
            "o",
            r"with|by|for",
            "n",
            "O",
        ),
        _s(
            "X was replaced by Y",
            rf"\b{_AUX}(?:replaced|superseded)\s+(?:by|with)\s+",
            "o",
            "n",
            flags="OJ",
        ),
        _s(
            "X was swapped for Y",
            rf"\b{_AUX}swapped\s+(?:out\s+|back\s+)?for\s+",
            "o",
            "n",
            flags="BK",
        ),
        _s(
            "Y replaced X",
            r"(?<!was )(?<!been )(?<!were )(?<!is )\b(?:has\s+|have\s+)?"
            r"(?:replaced|replaces|supersedes|superseded)\s+(?!by\b|with\b)",
            "n",
            "o",
            flags="OV",
        ),
        _s("Y, replacing X", r",\s*replacing\s+", "n", "o", flags="O"),
        _s(
            "Y took over from X",
            r"\b(?:took|takes|has\s+taken|have\s+taken|is\s+taking|are\s+taking)\s+"
            r"(?:(?:it|them|this|that)\s+)?over\b",
            "n",
            "",
            "from",
            "o",
        ),
        _s(
            "Y instead of X",
            r"\s*+,?\s*+\b(?:instead\s+of|rather\s+than|in\s+place\s+of|statt|"
            r"anstatt|anstelle\s+von|au\s+lieu\s+de|en\s+lugar\s+de|en\s+vez\s+de)\s+",
            "n",
            "o",
            flags="SO",
        ),
        _s("use Y instead", r"\s+instead\b(?!\s+of)", "n", ""),
        _s(
            "Y (formerly X)",
            r"\s*[(,]\s*(?:formerly|previously|it\s+was|was|vorher|früher|ehemals|"
            r"bisher|auparavant|anciennement|précédemment|antes(?:\s+era)?|anteriormente)\s*:?\s+",
            "n",
            "o",
            flags="O",
        ),
        _s("formerly known as X", r"\bformerly\s+known\s+as\s+", "", "o"),
        _s(
            "moved off X (to Y)",
            r"\b(?:moved|moving|migrated|migrating|transferred|switched|switching)\s+"
            r"(?:(?:it|them|the\s+[\w-]+(?:\s+[\w-]+)?)\s+)?"
            r"(?:out\s+of|off(?:\s+of)?|away\s+from)\s+",
            "",
            "o",
            r"to|onto|into",
            "n",
            "O",
        ),
        _s(
            "was X, now Y",
            r"\b(?:was|previously|formerly|before|earlier)\s+",
            "",
            "o",
            rf",?\s*{_NOW}",
            "n",
        ),
        _s("Y, up from X", r",\s*(?:up|down)\s+from\s+", "n", "o", flags="O"),
        _s(
            "Y, not X",
            r"\s*(?:,|\()\s*not\s+(?:to\s+|in\s+|at\s+|on\s+)?",
            "n",
            "o",
            flags="SO",
        ),
        _s(
            "X is no longer",
            r"\b(?:is|are|was)\s+no\s+longer\b|\bno\s+longer\s+(?:handles|owns|runs|manages|"
            r"leads|maintains|covers|answers)\b",
            "o",
            "",
        ),
        _s(
            "no longer X but Y",
            r"\bno\s+longer\s+|\bnicht\s+mehr\s+(?:unter\s+|bei\s+|in\s+)?",
            "",
            "o",
            r"but|sondern",
            "n",
            "O",
        ),
        _s(
            "no longer go to X",
            r"\bno\s+longer\s+(?:go(?:es)?|lives?|sits?|runs?|posts?|sends?)\s+"
            r"(?:to|at|in|on|under)\s+",
            "",
            "o",
            flags="T",
        ),
        _s(
            "X is deprecated",
            rf"\b{_AUX}(?:now\s+)?(?:deprecated|archived|retired|decommissioned|"
            r"shut\s+down|deleted|removed|discontinued|disabled|dead|sunset|read-only|"
            # "has gone down|up|live|quiet|wrong": a price that fell, a site that started;
            # "gone down|quiet for good", "gone by the wayside" are ends
            r"gone(?!\s+(?:(?:down|up|live|quiet|silent|wrong|well|badly|viral|public|missing|"
            r"through|over|crazy|mad|off|private|green|red|GA|unnoticed)\b"
            r"(?!\s+(?:[\w-]+\s+){0,3}?(?:for\s+good|permanently|forever|for\s+the\s+last\s+time)\b)"
            r"|by\b(?!\s+the\s+wayside)|from\s+\S+\s+to\b))|"
            r"turned\s+off|switched\s+off|disconnected|offline|closed|bounces|"
            r"stepped\s+down|left(?=\s+(?:the\s+(?:company|team|firm|organi[sz]ation)|us)\b"
            r"|\s*(?:[.;!]|$)))\b",
            "o",
            "",
        ),
        _s(
            "X is frozen",
            rf"\b{_AUX}(?:frozen|unplugged|dropped|tombstoned|revoked|will\s+bounce|"
            r"being\s+(?:closed|retired|deleted|decommissioned|shut\s+down|switched\s+off|"
            r"turned\s+off|archived|sunset|removed|deprecated)|"
            r"stopped\s+getting\s+(?:new\s+)?(?:tags|releases|updates|versions|builds)|"
            rf"{_NOT_ANYMORE}|taken\s+out\s+of\s+(?:the\s+)?(?:pool|service|rotation)|"
            r"goes\s+nowhere(?=\s*(?:[.;,!]|$))|stopped\s+accepting\s+(?:answers|responses|"
            r"submissions|entries|sign-?ups|registrations)|no\s+longer\s+(?:exists?|rings|resolves|"
            r"responds|answers|works|loads)(?=\s*(?:[.;,!]|$))|(?:down|gone|closed)\s+for\s+good|"
            r"no\s+longer\s+(?:takes|accepts|receives)\s+(?:them|it|mail|e-?mails?|messages|"
            r"invoices|requests|orders|events|calls|webhooks|traffic|payments)"
            r"(?=\s*(?:[.;,!]|$))|gets\s+no\s+"
            r"(?:new|more|further)\s+(?:tags|releases|updates|versions|builds)|"
            r"(?<=\bis\s)history(?=\s*(?:[.;,!]|$))|goes\s+read-?only|"
            r"(?:had|got|saw)\s+(?:its|their)\s+final\s+(?:release|update|build|version)"
            r"(?=\s*(?:[.;!]|$)|\s+with\s+v?\d+(?:\.\d+)+\s*(?:[.;!]|$))|"
            r"(?:gets|will\s+be)\s+(?:shut\s+down|deleted|removed|archived|retired|"
            r"decommissioned|turned\s+off|switched\s+off))\b",
            "o",
            "",
            flags="BQJ",
        ),
        _s(
            "we archived X",
            r"\b(?:we|they|i)(?:['\u2019](?:ve|d))?\s+"
            r"(?:(?:have|has|had|just|finally|recently|already|now)\s+)*"
            r"(?:archived|retired|deprecated|decommissioned|deleted|closed|shut\s+down|"
            r"sunset|stopped\s+using|unplugged|left(?=\s+\S+\s+behind\b))\s+",
            "",
            "o",
            flags="TEQ",
        ),
        _s(
            "we stopped publishing X",
            r"\b(?:we|they|i)(?:['\u2019](?:ve|d))?\s+(?:(?:have|has|had|just|now)\s+)*"
            r"stopped\s+(?:publishing|maintaining|updating|supporting)\s+",
            "",
            "o",
            flags="TQZ",  # "... acme/app on Windows": a part of it, no end
        ),
        _s("X won't get new tags", rf"\s+{_NO_MORE}\b", "o", "", flags="BQJ"),
        _s("no more X", r"(?:^|(?<=[:;,.!]\s)|\A)no\s+more\s+", "", "o", flags="T"),
        _s("RIP X", r"(?:^|(?<=[:;,.!]\s)|\A)(?-i:RIP)\s+", "", "o", flags="TQ"),
        _s(
            "Stop using X",
            r"(?:^|(?<=[.!;:]\s)|\A)stop\s+(?:using|cloning|e-?mailing|mailing|"
            r"(?:posting|pushing|writing|sending|deploying)\s+(?:in|to|into))\s+",
            "",
            "o",
            flags="TQ",
        ),
        _s("mail bounces at X", r"\bbounces?\s+at\s+", "", "o", flags="TQ"),
        _s("X isn't at X any more", rf"{_NOT_AT}\s+", "", "o", flags="T"),
        _s(
            "nothing is pushed to X any more",
            r"\bnothing\s+(?:(?:is|gets|goes|will\s+be)\s+(?:\w+\s+)?|"
            r"(?:writes|pushes|posts|sends|points|links|reads\s+from))\s*(?:to|into|in|on|at)?\s+"
            r"(?=\S+\s+any\s*more\b)",
            "",
            "o",
            flags="T",
        ),
        _s("please forget X", r"\b(?:please\s+)?forget\s+(?:about\s+)?", "", "o", flags="TE"),
        _s(
            "nobody checks X anymore",
            rf"{_NOBODY}\s+(?=\S+\s+any\s*more\b)",
            "",
            "o",
            flags="T",
        ),
        _s("it used to be X", r"\b(?:it\s+)?used\s+to\s+be\s+", "", "o", flags="TZ"),
        _s("please don't post in X", _PROHIBIT, "", "o", flags="TQ"),
        _s(
            "X didn't work out",
            rf"\s+{_FAILED}",
            "o",
            "",
            flags="B",
        ),
        _s(
            "X was merged into Y",
            rf"\b{_AUX}(?:merged|folded)\s+into\s+(?!\S+\s+with\b)",
            "o",
            "n",
            flags="B",
        ),
        _s(
            "merged X into Y",
            r"\b(?:merged|folded)\s+(?!into\b|with\b)",
            "",
            "o",
            r"into",
            "n",
            "B",
        ),
        _s(
            "X handed it over to Y",
            r"\bhanded\s+(?:[\w'-]+\s+){0,5}?"
            r"(?:over\b|(?:role|job|duties|ownership|seat)\b(?=\s+to\b))",
            "o",
            "",
            "to",
            "n",
        ),
        _s("old: X", r"(?:(?<=\n)|\A)\s*(?:[-*\u2022]\s*)?old\s*:\s*", "", "o", flags="T"),
        _s("new: Y", r"(?:(?<=\n)|\A)\s*(?:[-*\u2022]\s*)?new\s*:\s*", "", "n", flags="T"),
        _s("the old X", r"\bthe\s+old(?:\s+one)?(?:\s*[,:]|\s+(?:was|is))?\s+", "", "o", flags="T"),
        _s(
            "the old <noun>, X",
            r"(?<!\bis\s)(?<!\bwas\s)(?<!\bare\s)(?<!\bwere\s)(?<!\bto\s)(?<!\bfrom\s)(?<!\bin\s)"
            r"(?<!\bof\s)(?<!\bon\s)(?<!\babout\s)(?<!\binto\s)"
            r"\bthe\s+old(?:\s+[^\W\d_][\w-]*){1,3}?(?:\s*[,:]\s+|\s*\()(?=\S)",
            "",
            "o",
            flags="T",
        ),
        _s(
            "a new <role>: Y",
            r"\b(?:a|the|our|their|its)\s+new\s+[\w-]+(?:\s+[\w-]+)?"
            r"(?:\s+is\s+|\s*[:,]\s*)|\bnew\s+[\w-]+(?:\s+[\w-]+)?\s*:\s*|"
            r"\b(?:successor|replacement)\s+is\s+",
            "",
            "n",
        ),
        _s(
            "NAME owns ... now",
            r"\s+(?:now\s+)?(?:owns|leads|runs|handles|manages|maintains)\s+",
            "n",
            "",
            flags="N",
        ),
        _s(
            "X is deprecated, use Y",
            r"\b(?:use|go(?:es)?\s+to|write\s+to|duplicate\s+of)\s+",
            "",
            "n",
            flags="G",
        ),
        _s("X is no longer ...; Y is", r"\s+(?:is|are)(?=\s*[.!]?\s*$)", "n", "", flags="G"),
    ),
    key=lambda spec: "G" in spec.flags,
)

_Read = tuple[str, "_Cand | None", "_Cand | None", Span, bool]  # pattern, old, new, cue, past


_ENDS = re.compile(
    r"\s*(?:[.,;:!)\u2014]|\s-\s|$|(?:behind|last|this|on|yesterday|today|in\s+favou?r\s+of)\b)",
    re.I,
)
"""What may follow a value whose end a clause says (flag E): the clause's end, or when."""


# a verb of flow before an arrow's first value, with no label's colon between: the arrow
# says where something goes ("sync #deploys -> #deploys-eu", "relay X => Y"), not a change
_FLOW = re.compile(
    r"\b(?:relay\w*|forward\w*|sync\w*|replicat\w*|mirror\w*|cop(?:y|ied|ies|ying)|proxi\w*|"
    r"rout(?:e|ed|es|ing)|deploy(?:s|ed|ing)?|push(?:es|ed|ing)?|pip(?:e|es|ed|ing)|"
    r"stream\w*)\]?(?:\s+[^\s:]+){0,2}?\s+$",  # at most two words between, no label's colon
    re.I,
)


# a ticket's or a task's status after an arrow ("OPS-4471 → Done", "In Review -> Closed")
_STATUS = re.compile(
    r"(?:done|closed|resolved|fixed|merged|open|reopened|todo|to\s+do|backlog|blocked|"
    r"in\s+(?:progress|review|qa|testing)|(?:code\s+)?review|qa|wip|verified|"
    r"won['\u2019]t\s+fix|wontfix|shipped|released|cancell?ed|"
    r"duplicate|invalid|triaged?|accepted|rejected|approved|ready)(?![\w/@#-]|[.:]\w)",
    re.I,
)


# words that say a value stays ("£27.50 was the old rate, and it still applies")
_STAYING = r"still|stays?|stayed|remains?|keeps?|kept|same|unchanged|too|again"
_STAYS = re.compile(rf"\b(?:{_STAYING}|I\s+think)\b", re.I)
_STAYS_ALSO = re.compile(rf"\b(?:{_STAYING}|also)\b", re.I)
# a swap for a while or for one use: no change of the value ("@ana was swapped for @ben on
# the Saturday rota only", "acme/app was swapped for acme/core in the test fixture")
_ONE_OFF = re.compile(
    r"(?<![\w/@.-])(?:only|temporar\w*|typo|tests?|fixtures?|demo|for\s+this|one-off|rota|shift|"
    r"sprint|a/b\s+test|until|till|during|while|weekends?|pending|this\s+week|for\s+now|"
    r"by\s+accident|for\s+(?:an?|\d+|a\s+few)\s+(?:hours?|minutes?|days?|weeks?|while)|"
    r"migration\s+window|staging|black\s+friday|launch\s+week|for\s+today|meanwhile|"
    r"(?:then|and)\s+(?:\w+\s+){0,4}back)(?![\w/@-])",
    re.I,
)

_TODAY = re.compile(r"\b(?:today|meanwhile|patched|for\s+now)\b", re.I)
_SWAP_DOUBT = re.compile(
    r"\b(?:heard|think|apparently|not\s+sure|stopgap|drill|pilot|experiment)\b", re.I
)

_AFTER_PREPOSITION = re.compile(
    r"\b(?:in|on|at|for|from|of|about|with|to|into|via|by)\s+(?:the\s+)?$", re.I
)


_SORTS = tuple(
    (sort, re.compile(pattern, re.I))
    for sort, pattern in (
        ("url", r"[a-z][a-z0-9+.-]*://"),
        ("email", r"[^@\s]+@[^@\s]+\.\w"),
        ("channel", r"#"),
        ("handle", r"@"),
        ("path", r"[^/\s]*/"),
        ("number", r"[$€£¥v]?\d"),
        ("host", r"[\w-]+(?:\.[\w-]+)+$"),
    )
)


def value_sort(value: str) -> str:
    """The sort of a value, as the reader pairs an old value with a new one of its sort.

    One of ``url``, ``email``, ``channel`` (``#name``), ``handle`` (``@name``), ``path``
    (``owner/name``), ``number``, ``host`` (``docs.example.com``) or ``other``.
    """
    return next((sort for sort, pattern in _SORTS if pattern.match(value)), "other")


def _sort(t: str, value: _Cand) -> str:
    """The sort of a candidate value of ``t`` (:func:`value_sort`)."""
    return value_sort(t[value.start : value.end])


def _things(t: str, *values: _Cand | None) -> bool:
    """Whether every value read is a thing (an identifier, a channel, an address) or given.

    A pull request's number (``#123``) is none: "merged #123 into release/2.3" is no change.
    """
    return all(
        v is None
        or (v.kind in ("thing", "known") and not re.fullmatch(r"#\d+", t[v.start : v.end]))
        for v in values
    ) and any(v is not None for v in values)


_RENAMING = re.compile(r"renamed|changed", re.I)
"""A "moved to" cue that renames: X is the old name whatever it is ("X was renamed to Y")."""


class _Reader:
    """Reads the changes of one text, on its candidate values."""

    def __init__(self, text: str, known: Sequence[str]) -> None:
        self.t = text
        self.cands = cands = _lex(text, known)
        self.by_start = {c.start: c for c in cands}
        self.by_end = {c.stop: c for c in cands}
        self.memo: dict[tuple[str, int, int], bool] = {}

    def says(self, pattern: re.Pattern[str], lo: int, hi: int) -> bool:
        """Whether ``pattern`` occurs in ``t[lo:hi]`` (once per span: a text of many cues)."""
        key = (pattern.pattern, lo, hi)
        if key not in self.memo:
            self.memo[key] = pattern.search(self.t, lo, hi) is not None
        return self.memo[key]

    def after(self, i: int, hi: int, strict: bool) -> _Cand | None:
        """The value that begins at ``i``, past determiners and kind nouns ("the repo")."""
        t = self.t
        for _ in range(6):
            while i < hi and (t[i].isspace() or (t[i] in "`\"“'" and i + 1 in self.by_start)):
                i += 1
            c = self.by_start.get(i)
            if c is None or c.end > hi:
                return None
            word, nxt = t[c.start : c.end].lower(), self.by_start.get(c.stop + 1)
            if c.kind == "word" and word in _FILLERS:
                i = c.end
                continue
            if c.kind == "word" and word in _TITLES:
                i = c.end + (t[c.end : c.end + 1] == ".")  # "Dr." or "Dr"
                continue
            if (
                c.kind in ("name", "word")
                and nxt
                and t[nxt.start : nxt.end].lower() in _KINDS
                and (v := self.by_start.get(nxt.end + 1))
                and v.kind in ("thing", "known")
            ):
                return v  # the Slack channel #infra, PagerDuty schedule PQ9ZRT
            if c.kind == "word" and (not strict or word in _NOT_NAMES):
                return None
            if c.kind == "word" and nxt and t[nxt.start].isdigit() and nxt.end <= hi:
                return _Cand(c.start, nxt.end, "word")  # building 7
            return c
        return None

    def before(self, i: int, lo: int, strict: bool, lone: bool = True) -> _Cand | None:
        """The value that ends just before ``i`` (past ``,``, ``)``, ``now``, ``again``)."""
        t, noun = self.t, ""
        for _ in range(3):
            while i > lo and (
                t[i - 1].isspace()
                or t[i - 1] in ",):"
                or (t[i - 1] in "`\"”'" and i - 1 in self.by_end)
            ):
                i -= 1
            c = self.by_end.get(i)
            if c is None or c.start < lo:
                return None
            word = t[c.start : c.end].lower()
            prev = re.search(r"(\w+)\s+$", t[max(lo, c.start - 40) : c.start])
            j = c.start
            while j > lo and t[j - 1] in " \"'(:-":
                j -= 1
            if c.kind == "word" and word in ("now", "again", "instead"):
                i = c.start
                continue
            if c.kind == "word" and word in _NOUNS:
                i, noun = c.start, word  # the Thornbury Dispatch channel was renamed
                continue
            if noun and c.kind == "name" and (" " not in word or noun != "channel"):
                return None  # "Redis port changed to 6380": Redis is not what changed
            if (
                c.kind == "name"
                and " " not in word
                and ((prev and prev.group(1).lower() in _DETS) or (not lone and j == lo))
            ):
                return None  # "our CRM"; a lone capitalised word opening the sentence
            return None if c.kind == "word" and (not strict or word in _NOT_NAMES) else c
        return None

    def plain(self, c: _Cand) -> bool:
        """Whether a value is a plain lower-case word (perhaps with a number: building 7)."""
        return bool(re.fullmatch(r"[^\W\d_A-Z][^\W\d_]*(?: \d+)?", self.t[c.start : c.end]))

    def keep(self, cands: list[_Cand]) -> list[_Cand | None]:
        """The values of a pair that stand (a plain word: see the module's docstring)."""
        plain = [self.plain(c) for c in cands]
        ok = all(plain) and (
            any(c.kind == "known" for c in cands) or all(self.t[c.end - 1].isdigit() for c in cands)
        )
        return [
            c if not p or ok or c.kind == "known" else None
            for c, p in zip(cands, plain, strict=True)
        ]

    def xy(
        self, i: int, conn: str, hi: int, strict: bool, flags: str
    ) -> tuple[list[_Cand], _Cand | None, Span | None]:
        """Read ``X [, X2 and X3] <connector> Y`` from ``i``: the X values, Y, the connector."""
        xs: list[_Cand] = []
        x = self.after(i, hi, strict)
        while x is not None:
            xs.append(x)
            lm = _LIST.match(self.t, x.stop)
            x = self.after(lm.end(), hi, strict) if lm and "L" in flags else None
        # (past the quote that closes X: "from `a/b` to `c/d`")
        cm = (
            re.compile(rf"[`\"”']?\s*(?:{conn})\s+", re.I).match(self.t, xs[-1].stop)
            if xs
            else None
        )
        y = self.after(cm.end(), hi, strict) if cm else None
        if strict and y is not None:
            *kept, y = self.keep([*xs, y])
            xs = [x for x in kept if x is not None]
        return xs, y, (cm.start(), cm.end()) if cm else None

    def read(self) -> list[_Read]:
        """Every (pattern, old, new, cue, past) that the text's sentences state."""
        t, out = self.t, []
        for sm in _SENTENCE.finditer(t):
            lo, hi = sm.start(), sm.end()
            if _says_nothing(t, lo, hi):
                continue
            asked = _opening_end(t, lo, hi)
            bounds = _clauses(t, lo, hi)  # each clause once, whatever its length
            starts = [a for a, _ in bounds]
            passing = [_PASSING.search(t, a, b) is not None for a, b in bounds]
            clauses = [
                (a, b, _negated(t, a, b, p), bool(re.search(r"\bnow\b", t[a:b])), p)
                for (a, b), p in zip(bounds, passing, strict=True)
            ]
            # a change word before a colon labels what follows ("Carrier change: parcels from
            # the Rotterdam warehouse ..."): no verb of the sentence
            verb = next(
                (j.end() for j in _CHANGE.finditer(t, lo, hi) if not t.startswith(":", j.end())),
                hi + 1,
            )
            has_old = False
            parts: dict[int, _Parts] = {}
            for spec in _SPECS:
                for m in spec.cue.finditer(t, lo, hi):
                    if m.start() < asked:
                        continue  # "Please move X to Y": asked for, not done
                    k = bisect_right(starts, m.start()) - 1
                    clause, named = clauses[k], ""
                    if clause[2]:  # negated: perhaps only in another part (_PART)
                        if k not in parts:
                            parts[k] = _parts(t, clause[0], clause[1], clause[4])
                        cuts, negated, named = parts[k]
                        p = bisect_right(cuts, m.start()) - 1
                        if negated is not None and not negated[min(p, len(negated) - 1)]:
                            clause = (*clause[:2], False, *clause[3:])
                    got = self.apply(spec, m, lo, hi, clause, verb, has_old)
                    if named:  # no value old that a negated part names
                        got = [
                            g
                            for g in got
                            if g[1] is None or fold(t[g[1].start : g[1].end]) not in named
                        ]
                    got = [
                        g
                        for g in got
                        if not self._undone(g, clauses[k][0], clauses[k][1])
                        and all(v is None or v.start >= asked for v in g[1:3])
                    ]
                    out += got
                    has_old = has_old or any(g[1] is not None for g in got)
        return out

    def _undone(self, read: _Read, clo: int, chi: int) -> bool:
        """Whether the sentence says the change ``read`` states was undone (before or after)."""
        name, old, new, _, _ = read
        values = sorted((v for v in (old, new) if v is not None), key=lambda v: v.start)
        if not values or name in _UNDO_READS:
            return False
        first, last, t = values[0], values[-1], self.t
        # a change back says "back" or "again" near its values (a window of bounded length: a
        # long list between the values was quadratic)
        near = (max(first.start, last.start - 60), min(chi, last.stop + 12))
        if re.search(r"\b(?:back|again)\b", t[near[0] : near[1]], re.I):
            return False
        if _UNDONE_BEFORE.search(t, max(clo, first.start - 80), first.start):
            return True  # "Reverted: X -> Y", "we reverted the commit that renamed X"
        return _UNDONE_AFTER.match(t, last.stop) is not None

    def _project_moved(self, m: re.Match[str], a: _Cand | None, b: _Cand | None) -> bool:
        """Whether "X moved|migrated to Y" moves a project X onto a platform Y: no change of X.

        "bank-feeds has been migrated to Azure DevOps": X is a project's name (a word joined
        by hyphens, no path, host or address) and Y a product's (capitalised, no path): the
        project keeps its name, and a memory naming it stays right (the fourth blind set's
        line proposed deprecating "bank-feeds", which the new repository's path also names).
        A rename ("renamed to", "changed to") still reads X old, and so does a repository, a
        channel or a host ("acme/app moved to GitLab").
        """
        if a is None or b is None or a.kind != "name" or b.kind != "thing":
            return False
        if _RENAMING.search(m.group()):
            return False
        x = self.t[b.start : b.end]
        return bool(re.fullmatch(r"[^\W_]+(?:-[^\W_]+)+", x))

    def _subject_moved(self, m: re.Match[str], a: _Cand | None, b: _Cand | None) -> bool:
        """Whether "X moved|switched to Y" names what moved (X), not X's old value.

        "Backups switched to gs://larkspur-backups": X is a capitalised word (no path, host
        or address) and Y a thing (an address, a host, a URL, a path): backups are what
        moved, the bucket where they go now, and the old place is said elsewhere or not at
        all. Reading "Backups" old marked every memory about backups (the change line's
        positive arm proposed it beside the old bucket). A rename ("renamed to", "changed
        to") still reads X old, and so does an identifier ("acme/app moved to acme-inc/app").
        """
        if a is None or b is None or b.kind != "name" or a.kind != "thing":
            return False
        return _RENAMING.search(m.group()) is None

    def _role_of_name(self, a: _Cand | None, clo: int, chi: int, strict: bool) -> _Cand | bool:
        """Read "NAME is (now) our|the ROLE (now)": NAME new, the role no value.

        "Nomvula Dlamini is our DPO now", "Stripe is now our PSP": the name before is the new
        value, and what follows the article ("DPO", read as a value for its capitals) is a
        role. Only where "now" says so, right after "is" or right after the role at the end
        of the clause. Returns the name, or True where the sentence is such a role sentence
        that says no change ("Peter Smith is the DPO who left", "... is our ex-DPO now", "...
        is their DPO now", "... is no longer our DPO"): nothing is read from it; False where
        it is none (the cue's own reading stands).
        """
        if a is None:
            return False
        lo = max(clo, a.start - 60)
        said = _ROLE_SAID.search(self.t[lo : a.start])
        if said is None:
            return False
        b = self.before(lo + said.start(), clo, strict, lone=False)
        if b is None or b.kind != "name":
            # "Stripe is our PSP now": a capitalised word after the article is a role too;
            # with no name read before it, nothing is read (an identifier is read as before)
            return a.kind == "name"
        t, rest = self.t, self.t[a.stop : chi]
        now_first = said.group("now") is not None
        now_last = re.match(r"\s+now\s*(?:[.;,!)]|$)", rest) is not None
        ended = re.match(r"\s*(?:[.;,!)]|$)", rest) is not None
        if (
            said.group("whose").lower() in ("the", "our")
            and not said.group("not")
            and not _NOT_A_ROLE_NOW.search(t[lo + said.start() : a.stop])
            and ((now_first and ended) or now_last)
        ):
            return b
        return True

    def apply(
        self,
        spec: _Spec,
        m: re.Match[str],
        lo: int,
        hi: int,
        clause: tuple[int, int, bool, bool, bool],
        verb: int,
        has_old: bool,
    ) -> list[_Read]:
        """What one cue of one pattern reads, in its clause (bounds, negated, "now", passing)."""
        name, _, rb, ra, conn, ra2, flags = spec
        t, s, e = self.t, m.start(), m.end()
        clo, chi, killed, now, passing = clause
        chi = max(chi, e)
        verb_end = chi if m.group().strip().lower() == "von" else s  # German: verb last
        if (
            killed
            or ("G" in flags and not has_old)
            or ("Q" in flags and passing)
            or ("F" in flags and verb > verb_end)
            or ("N" in flags and not now)
        ):
            return []
        strict = "S" in flags
        if ra or conn:  # the value after the cue may be a role: "NAME is our DPO now"
            role = self._role_of_name(self.after(e, chi, strict), clo, chi, strict)
            if role is True:  # a role sentence that says no change: "X is the DPO who left"
                return []
            if role:  # NAME is (now) our DPO (now): NAME new, the role no value
                return [(name, None, role, (s, e), False)]
        b = self.before(s, clo, strict, lone="R" not in flags) if rb else None
        if conn and not ra:  # Y took over ... from X; X handed it over to Y
            cm = re.compile(rf"(?:\s+[\w'-]+){{0,6}}?\s+(?:{conn})\s+", re.I).match(t, e)
            z = self.after(cm.end(), chi, strict) if cm else None
            got = {rb: b, ra2: z}
            cue = (cm.start(), cm.end()) if cm else (s, e)
            return [(name, got.get("o"), got.get("n"), cue, False)] if b or z else []
        if conn:
            conn = _TO.get(m.group().strip().lower(), "to") if conn == "*" else conn
            xs, y, span = self.xy(e, conn, hi, strict, flags)
            if "B" in flags and not _things(self.t, *xs, y):
                return []
            if span is None and "O" in flags and ra == "o":
                return [(name, x, None, (s, e), False) for x in xs]
            if span is None or (y is None and "O" not in flags):
                return []
            if ra == "n":  # moved to Y from X
                return [(name, y, xs[0], span, False)] if xs else []
            out: list[_Read] = [(name, x, y, span, False) for x in xs] or [
                (name, None, y, span, False)
            ]
            cont = _CONT.match(t, y.stop) if y is not None and "C" in flags else None
            while cont:  # renamed A to B and C to D
                xs2, y2, span2 = self.xy(cont.end(), conn, hi, strict, "")
                if not xs2 or y2 is None or span2 is None:
                    break
                out.append((name, xs2[0], y2, span2, False))
                cont = _LIST.match(t, y2.stop)
            return out
        a = self.after(e, chi, strict) if ra else None
        if name == "Stop using X" and (
            a is None
            or _sort(t, a) == "handle"
            or not re.match(r"\s*(?:[,;:!?)]|\.(?!\w)|$)", t[a.stop :])
            or self.says(_ONE_OFF, lo, hi)
            or self.says(_TODAY, lo, hi)
            or re.search(r"\bfor\s+(?!now\b|good\b)", t[a.stop : min(hi, a.stop + 200)], re.I)
        ):
            return []  # "Stop pushing to acme/app directly", "Stop using api.acme.io in tests"
        if name == "X is the old one" and (
            self.says(_STAYS, 0, len(t))
            or (b is not None and b.kind == "name" and _VALUE_NOUN_RE.match(t, s) is not None)
        ):
            return []  # "£27.50 was the old rate, and it still applies to existing customers"
        if name == "X was swapped for Y" and (
            self.says(_ONE_OFF, clo, chi)
            or self.says(_PASSING, clo, chi)
            or self.says(_SWAP_DOUBT, lo, hi)
            or (b is not None and _AFTER_PREPOSITION.search(t[max(clo, b.start - 20) : b.start]))
        ):
            return []  # "the SSD in build-07 was swapped for ...", "... in the fixture only"
        if name in ("we archived X", "please forget X") and self.says(_ONE_OFF, lo, hi):
            return []  # "forget v1.2 in favour of v1.3 for the demo only"
        if name == "we archived X" and a is not None and _sort(t, a) == "number":
            return []  # "we archived 3 tickets in favour of OPS-9"
        if name == "X isn't at X any more" and (
            re.search(r"(?:\b(?:she|he|they|i|you|we)|@[\w.-]+)\s*$", t[max(clo, s - 60) : s], re.I)
            or self.says(_ONE_OFF, lo, hi)
        ):
            return []  # "@ana isn't in #design anymore": a person left a place
        if name == "X moved to Y" and self._project_moved(m, a, b):
            return []
        if name == "X moved to Y" and self._subject_moved(m, a, b):
            b = None  # "Backups switched to gs://b": what moved, not its old value
        if name == "X → Y" and b is not None:
            before = t[max(clo, b.start - 30) : b.start]
            if _FLOW.search(before) and not _CHANGE.search(before):
                return []  # "relay X => Y", "forwarded 3 messages #a → #b": a flow, no change
            if _STATUS.match(t, e):
                return []  # "OPS-4471 → Done": a ticket's status, no new value of it
        if ("T" in flags and a is not None and a.kind not in ("thing", "known")) or (
            "V" in flags and a is not None and re.match(r"\s+(?:with|by)\b", t[a.stop :])
        ):
            a, b = (None, b) if "T" in flags else (a, None)
        if "D" in flags and a is not None and re.fullmatch(r"[\d.,:/-]+", t[a.start : a.end]):
            a = None  # "it goes back to 2019" is history, not a change back
        if "B" in flags and not _things(self.t, a, b):
            return []
        if "E" in flags and (a is None or not _ENDS.match(t, a.stop)):
            return []  # "we froze acme/app for the 2.0 release" says no end of acme/app
        if "Z" in flags and (a is None or not re.match(r"\s*(?:[.;!)]|$)", t[a.stop :])):
            return []  # "it used to be #help, then #support": a history, no end
        if (
            "J" in flags
            and a is None
            and b is not None
            and _AFTER_PREPOSITION.search(t[max(clo, b.start - 20) : b.start])
        ):
            return []  # "the discussion in #arch goes nowhere": #arch is not its subject
        if "K" in flags and (a is None or b is None or _sort(t, a) != _sort(t, b)):
            return []  # "the channel for api.acme.io is #oncall-api now": no rename
        for flag, word in (("W", _NOW_ENDS), ("A", r"again\b"), ("U", _UNDONE)):
            if flag in flags and (a is None or not re.match(rf"\s+{word}", t[a.stop :])):
                return []
        if strict and a is not None and b is not None:
            a, b = self.keep([a, b])
        got = {rb: b, ra: a}
        old, new = got.get("o"), got.get("n")
        if (
            new is None
            and "R" in flags
            and b is not None
            and b.kind in ("name", "known")
            and (re.match(r"(?:the|a|an|our|their)\s+[a-z]", t[e:]))
            and not _NOT_A_ROLE_NOW.match(t, e + t[e:].find(" ") + 1)
        ):
            return [(name, None, b, (s, e), False)]  # NAME is now the billing owner
        past = (
            "P" in flags
            and bool(  # which moved to Y, had moved to Y
                re.search(r"\b(?:which|that|who|had)\s+(?:\w+\s+)?$", t[max(clo, s - 40) : s])
                or re.match(r"\s*had\b", t[s:e], re.I)
            )
        )
        if new is None and (old is None or ("n" in (rb, ra) and "O" not in flags)):
            return []
        return [(name, old, new, (s, e), past and new is not None)]


def _said(t: str, new: _Cand, cue: Span, old: _Cand | None) -> str:
    """The words that present ``new`` as new: the cue and the value, in text order."""
    if new.start >= cue[1]:
        tail = re.match(r"\s+(?:now|again)\b", t[new.end :])
        return t[cue[0] : new.end + (tail.end() if tail else 0)].strip(" ,(")
    end = max(cue[1], old.end if old is not None and old.start >= cue[1] else cue[1])
    return t[new.start : end].strip(" ,(")


def read_changes(text: str, deprecates: Sequence[str] = ()) -> list[Change]:
    """Read the changes a correction's wording states.

    Args:
        text: the correction's text.
        deprecates: strings the caller names as values (its ``deprecates``). They only help to
            delimit values (and let plain words count); what is old or new is read from the
            wording alone, so a writer's mix-up shows.

    Returns:
        The changes in text order. No value is both old and new: a value the text also
        presents as old (a chain step) is not new. Empty where the wording is unclear.

    Raises:
        TypeError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    return list(_read_changes(text, tuple(d for d in deprecates if isinstance(d, str))))


def _lone_word(text: str, read: _Read) -> bool:
    """Whether a read's one value is a common lower-case word, with no other value opposite.

    A plain word is a value only opposite another one (module docstring), or alone where it
    is no common word (a tool's name written lower-case: "we moved away from heroku"). A
    common one alone is talk, not a thing that ended ("No, not really.", "since I moved from
    my home town", "instead of giving up": LoCoMo's chat read all three as old values).
    """
    from .generic import is_generic  # wordfreq's lists: read only for such a word

    _, old, new, _, _ = read
    one = old if new is None else new if old is None else None
    return (
        one is not None and one.kind == "word" and is_generic(text[one.start : one.end]) is not None
    )


# One correction's wording is read several times over by one call (its preview asks for its
# old values, its new values and whether it names each string as old or new): the last reads
# are kept, since reading a long message is most of a preview's time (a 100 kB message: 8
# reads, 6.8 s of 7.6 s)
@lru_cache(maxsize=16)
def _read_changes(text: str, deprecates: tuple[str, ...]) -> tuple[Change, ...]:
    reader = _Reader(text, deprecates)
    reads = [r for r in reader.read() if not _lone_word(text, r)]

    def val(c: _Cand) -> str:
        return fold(text[c.start : c.end])

    olds = {val(r[1]) for r in reads if r[1] is not None and r[0] not in _WEAK_OLD}
    given = [fold(d) for d in deprecates if isinstance(d, str)]
    newer = {val(r[2]) for r in reads if r[2] is not None and not r[4]}
    seen: set[tuple[Span | None, Span | None]] = set()
    out: list[Change] = []
    for name, old, new, cue, past in reads:
        if past and new is not None:  # which moved to Y: old where the text names a newer one
            if not newer - {val(new)}:
                continue
            old, new = new, None
        if new is not None and val(new) in olds:
            new = None  # a chain step: the text also presents it as old
        if new is not None and _cut_list(text, new, given):
            new = None  # the first item of a list: where the value ends is unsure
        if (old is None and new is None) or (old and new and val(old) == val(new)):
            continue
        key = ((old.start, old.end) if old else None, (new.start, new.end) if new else None)
        if key not in seen:
            seen.add(key)
            out.append(
                Change(
                    text[old.start : old.end] if old else None,
                    text[new.start : new.end] if new else None,
                    key[0],
                    key[1],
                    name,
                    _said(text, new, cue, old) if new else "",
                )
            )
    out = _without_weak(out)
    out = _old_beside_new(text, out)
    pairs = {sp for c in out if c.old_span and c.new_span for sp in (c.old_span, c.new_span)}
    out = [c for c in out if (c.old_span and c.new_span) or (c.old_span or c.new_span) not in pairs]
    out = _the_other_one(text, out, reader.cands)
    return tuple(sorted(out, key=lambda c: min(x[0] for x in (c.old_span, c.new_span) if x)))


# The other one of the new value's sort. Where the wording reads one new value Y and no old
# one, another value X of Y's sort in Y's own sentence is Y's old value where X is the subject
# of a clause of its own that says X ended ("we're back on Y; the hosted one at X kept timing
# out", "Y now, and X stops getting new tags", "the X limit is gone") or that opens by dropping
# it ("drop X from your configs"): the one such X, in a sentence with no negation, no word of
# staying ("still", "unchanged", "too", "kept working") and no word of a passing event
# ("yesterday", "again", "fixed", "for now") outside Y's clause. An adversarial review found a
# first version, which looked at any clause of the text and any word of trouble ("failed",
# "dropped", "stopped"), reading current values old in incident notes ("X failed its health
# check and is being rebuilt", "traffic fails over to X", "drop a note in #ci if X
# misbehaves"). Numbers pair only as two times (hh:mm) or two amounts of one unit.
_TROUBLE = re.compile(  # after X, in X's clause
    r"\s+(?:[\w-]+\s+){0,3}?(?:(?:is|are|was|were|has\s+been|have\s+been)\s+)?(?:"
    r"broke\b|breaks\b|broken\b|kept\s+(?:timing\s+out|failing|crashing|dropping\s+\w+|"
    r"breaking|erroring)|keeps\s+(?:timing\s+out|failing|crashing|breaking)|"
    r"stops?\s+getting|stopped\s+(?:getting|working|responding|resolving)|"
    r"(?:gets|receives|sees)\s+no\s+(?:further|more|new)|no\s+more\b|gone\b|"
    r"won['\u2019]t\s+(?:get|receive|see)\s+(?:any\s+)?(?:new|more|further)|"
    r"(?:only\s+)?redirects\b|flaky\b|unreliable\b|dead\b|obsolete\b|deprecated\b|retired\b|"
    r"sunset\b|abandoned\b|decommissioned\b|shut\s+down\b|turned\s+off\b|discontinued\b|"
    r"went\s+away\b|going\s+away\b|archived\b|read-?only\b|legacy\b|outdated\b|"
    r"last\s+year['\u2019]s\b|no\s+longer\s+(?:used|supported|maintained|in\s+use|available|"
    r"works|exists|applies))",
    re.I,
)
_DROPPED = re.compile(  # opening X's clause: "drop X from ...", "please forget X"
    r"(?:please\s+)?(?:drop|forget|stop\s+using|remove)\s+(?:the\s+)?\Z", re.I
)
_SUBJECT = re.compile(  # before X, opening its clause: "the hosted one at X", "and X"
    r"(?:(?:and|but|so|while|whereas)\s+)?(?:(?:the|our|their|its|this|that|your)\s+)?"
    r"(?:(?:old|hosted|former|legacy|previous|current)\s+)?(?:one\s+(?:at|on|in)\s+)?\Z",
    re.I,
)
_NOT_AN_END = re.compile(  # in Y's sentence, outside Y's clause
    r"(?<![\w/@.:#~-])(?:not|never|nothing|none|no(?!\s+(?:further|more|longer)\b)|"
    r"\w+n['\u2019]t(?!\s+(?:get|receive|see)\b)|still|stays?|stayed|remains?|remained|"
    r"unchanged|unaffected|untouched|too|as\s+well|also|both|continues?|same|"
    r"(?:keeps?|kept)\s+(?:working|running|serving)|works|fine|fixed|recovered|restored|"
    r"rerun|retried|investigating|again|briefly|yesterday|this\s+morning|last\s+night|"
    r"overnight|twice|once|during|temporar\w+|for\s+now|for\s+\d|at\s+\d|if|when|unless)"
    r"(?![\w/@.-])",
    re.I,
)
_OWN_CLAUSE = re.compile(
    r"[;,:\u2014(]|\s--?\s|\s(?=(?:and|but|while|whereas|because|since|so)\s)", re.I
)


def _unit(value: str) -> str:
    """The unit of an amount as written ("$", "b" for a size, "hh:mm"); "" for none."""
    if re.fullmatch(r"\d{1,2}:\d\d", value):
        return "hh:mm"
    if value[:1].lower() == "v":
        return ""  # a version: two versions in a text are no old and new amount
    unit = re.sub(r"[\d.,\s]", "", value).lower()
    return "b" if re.fullmatch(r"[kmgt]i?b", unit) else unit  # sizes: "640 MB" and "3.5 GB"


def _the_other_one(text: str, out: list[Change], cands: Sequence[_Cand]) -> list[Change]:
    """Read X old where the text reads only a new Y and says X of Y's sort ended (above).

    ``cands`` are the text's candidate values, as the reader lexed them. Y was read from its
    sentence, so the sentence neither asks nor logs (the reader skips those).
    """
    news = {fold(c.new) for c in out if c.new is not None}
    if len(news) != 1 or any(c.old is not None for c in out):
        return out
    y = next(c for c in out if c.new is not None and c.new_span is not None)
    assert y.new_span is not None
    yc = _Cand(y.new_span[0], y.new_span[1], "thing")
    sort = _sort(text, yc)
    unit = _unit(text[yc.start : yc.end]) if sort == "number" else ""
    if sort in ("other", "handle") or (sort == "number" and not unit):
        return out
    sentence = next(
        ((m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.start() <= yc.start < m.end()),
        None,
    )
    if sentence is None:
        return out
    lo, hi = sentence
    folded_y = fold(text[yc.start : yc.end])
    others = [
        c
        for c in cands
        if lo <= c.start
        and c.end <= hi
        and c.kind in ("thing", "known")
        and (c.end <= yc.start or c.start >= yc.end)
        and _sort(text, c) == sort
        and fold(text[c.start : c.end]) not in folded_y
        and folded_y not in fold(text[c.start : c.end])
        and (sort != "number" or _unit(text[c.start : c.end]) == unit)
    ]
    if len({fold(text[c.start : c.end]) for c in others}) != 1:
        return out
    cuts = [lo, *(m.start() for m in _OWN_CLAUSE.finditer(text, lo, hi)), hi]
    ylo = cuts[bisect_right(cuts, yc.start) - 1]
    yhi = cuts[bisect_left(cuts, yc.end)]
    rest = text[lo:ylo] + " " * (yhi - ylo) + text[yhi:hi]
    if _NOT_AN_END.search(rest):
        return out
    for x in others:  # every mention: the subject of a clause of its own that says it ended
        clo = cuts[bisect_right(cuts, x.start) - 1]
        chi = cuts[bisect_left(cuts, x.end)]
        if clo == ylo:
            return out
        opening = text[clo : x.start].lstrip(" ,;:\u2014(-")
        said = text[x.stop : chi]
        if not (_DROPPED.search(opening) or (_SUBJECT.match(opening) and _TROUBLE.match(said))):
            return out
    x = others[0]
    return [
        *(c for c in out if c is not y),
        Change(
            text[x.start : x.end], y.new, (x.start, x.end), y.new_span, "Y, and X ended", y.said
        ),
    ]


_LIST_GOES_ON = re.compile(r"\s*(?:,|;|/|&|\+|\bvs\.?|\band\b|\bor\b)\s*(?=\w)", re.IGNORECASE)


_WEAK_OLD = frozenset(
    {
        "reverted the move to X",
        "the move to X was rolled back",
        "X didn't work out",
        "X was merged into Y",
        "merged X into Y",
        "X is frozen",
        "we archived X",
        "we stopped publishing X",
        "please forget X",
        "it used to be X",
        "nobody checks X anymore",
        "X won't get new tags",
        "X is the old one",
        "the old <noun>, X",
    }
)
"""Patterns whose old value gives way to the same value read as new by another pattern."""
_WEAK_NEW = frozenset({"back to Y"})
"""Patterns whose new value gives way to any new value another pattern reads (history)."""


_BESIDE_NEW = frozenset(
    {
        "the old <noun>, X",
        "RIP X",
        "mail bounces at X",
        "X isn't at X any more",
        "it's Y now",
        "Stop using X",
    }
)
"""Patterns read only beside another read of the same sort (:func:`_old_beside_new`)."""


def _old_beside_new(text: str, changes: list[Change]) -> list[Change]:
    """Keep the weakest patterns' reads only where the text reads the other value of the sort.

    "In the old days, acme/app was the only repo", "the old version, 1.4.2, gets fixes until
    June", "RIP api.acme.io, 500s again", "mail bounces at mx.partner.com (mailbox full)",
    "@ana isn't in #design anymore", "It's 10:30 now": adversarial reviews found these
    patterns alone reading current values old, or things that are no value new. Beside a
    new value of the same sort ("writes to gs://b instead. The old bucket, gs://a, ...", "RIP
    #a, reports go to #b now"), or, for "it's Y now", an old one ("isn't at X anymore, it's Y
    now"), they say which value is which. Mail bounces only at an e-mail address.
    """
    if not any(c.pattern in _BESIDE_NEW for c in changes):
        return changes  # (most texts: no scan of the text below)

    def sort(span: Span | None) -> str:
        return "other" if span is None else _sort(text, _Cand(span[0], span[1], "thing"))

    news = {
        sort(c.new_span)
        for c in changes
        if c.new_span is not None and (c.pattern not in _BESIDE_NEW or c.pattern == "it's Y now")
    } - {"other"}
    olds = {sort(c.old_span) for c in changes if c.old_span is not None} - {"other"}
    unpaired = {sort(c.new_span) for c in changes if c.new_span is not None and c.old_span is None}
    lowered = text.lower()
    one_off = _ONE_OFF.search(text) is not None
    stays = _STAYS_ALSO.search(text) is not None

    def kept(c: Change) -> bool:
        if c.pattern == "it's Y now":
            return sort(c.new_span) in olds - {"number"}
        if c.pattern not in _BESIDE_NEW or c.old is None or c.old_span is None:
            return True
        x = sort(c.old_span)
        if x not in news or x == "handle" or one_off:
            return False  # "RIP staging.acme.io for today, use staging2.acme.io"
        if c.pattern == "mail bounces at X" and x != "email":
            return False
        if c.pattern == "the old <noun>, X" and (x not in unpaired or stays):
            return False  # "the old bucket, gs://a, is fine; logs moved from gs://x to ..."
        # X named again after it ("... it's db2 now, and db1 is the replica"): unsure
        return lowered.find(c.old.lower(), c.old_span[1]) < 0

    return [c for c in changes if kept(c)]


def _without_weak(changes: list[Change]) -> list[Change]:
    """Drop the weak reads that another read contradicts.

    "We rolled back the move to pg16; the database is pg16 again": pg16 is new (the later
    word), so the undone move's read goes. "We went back to v1.2, then upgraded to v1.4": a
    change back beside another new value is history, so it goes.
    """
    strong_new = {
        fold(c.new) for c in changes if c.new is not None and c.pattern not in _WEAK_NEW | _WEAK_OLD
    }
    out = []
    for c in changes:
        if c.pattern in _WEAK_OLD and c.old is not None and fold(c.old) in strong_new:
            continue
        if c.pattern in _WEAK_NEW and strong_new - {fold(c.new or "")}:
            continue
        out.append(c)
    return out


def _cut_list(text: str, new: _Cand, deprecates: Sequence[str]) -> bool:
    """Whether ``new`` may be only the first item of a list that the text goes on with.

    So where an old value given is such a list beginning with the same item (``Tiger Roll,
    Pleasant Company, …`` changed to ``Tiger Roll, Magic of Light, …``; ``Clemson Tigers vs
    Alabama Crimson Tide`` to ``Clemson Tigers vs Georgia Bulldogs``): the reader cannot tell
    where the new value ends, and reads nothing rather than a part of it. Measured on
    SituatedQA, where list answers are common.
    """
    if not _LIST_GOES_ON.match(text, new.end):
        return False
    head = fold(text[new.start : new.end])
    return any(
        d.startswith(head) and _LIST_GOES_ON.match(d, len(head)) is not None for d in deprecates
    )


def _unique(values: Sequence[str | None]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for v in values:
        if v is not None:
            seen.setdefault(fold(v), v)
    return tuple(seen.values())


def new_values(text: str, deprecates: Sequence[str] = ()) -> tuple[str, ...]:
    """The new values the wording states, as written, in text order, without repeats."""
    return _unique([c.new for c in read_changes(text, deprecates)])


_DOUBT = re.compile(
    r"\?|n['\u2019]t\b|\b(?:revert\w*|roll(?:ed|ing)?\s+back|undo|undid|undone|fail\w*|"
    r"reject\w*|will|shall|going\s+to|gonna|plan\w*|next|soon|later|staging|never|kidding|"
    r"back|again|if|when|whenever|unless|until|till|during|while|temporar\w*|accident\w*|"
    r"mistake|restored|reopened|unarchived|resumed|restarted|every|each|nightly|daily|weekly|"
    r"monthly|hourly|weekends?|\w+days|not|no\s+longer|keep|still|except|only|but|maybe|"
    r"probably|might|may|should|could|would|formerly|used\s+to)\b",
    re.I,
)
"""Words that make a memory's statement of a change less than plain (:func:`records_change`)."""

_PLAIN_ENDS = frozenset(
    {"X is deprecated", "we archived X", "we stopped publishing X", "X is frozen", "no more X"}
)
"""The patterns that state a plain end of a value (:func:`records_change`, no new value)."""


def without_title(phrase: str) -> str | None:
    """The name in ``phrase`` after a title ("Dr Aisha Nakato": "Aisha Nakato"), else None."""
    words = phrase.split()
    if len(words) < 2 or words[0].rstrip(".").lower() not in _TITLES:
        return None
    if not all(w[:1].isupper() for w in words[1:] if w[:1].isalpha()):
        return None
    return " ".join(words[1:])


def old_values(text: str, deprecates: Sequence[str] = ()) -> tuple[str, ...]:
    """The old values the wording states (the strings to suggest for ``deprecates``)."""
    return _unique([c.old for c in read_changes(text, deprecates)])


def stated_things(text: str) -> tuple[str, ...]:
    """The things a text names, in order: slugs, URLs, paths, hosts, addresses, channels, numbers.

    Each as the reader takes it: a URL without the sentence's punctuation, a clone URL without
    ``.git``, no value inside a date.
    """
    return tuple(text[c.start : c.end] for c in _lex(text, ()) if c.kind == "thing")


def _names(value: str, found: str | None) -> bool:
    """Whether ``value`` is, or occurs token-bounded (§3) in, a value read from the text."""
    v = value.strip()
    return bool(found and v) and (
        fold(v) == fold(found or "") or bool(Matcher([(v, 0)]).find(found or ""))
    )


_BACK = re.compile(
    r"\b(?:back|again|revert\w*|restor\w*|reinstat\w*|return\w*|as\s+before|undo|undid|"
    r"undone|zurück|wieder|de\s+nouveau|à\s+nouveau|otra\s+vez|de\s+nuevo)\b",
    re.I,
)


def says_back(text: str, value: str | None = None) -> bool:
    """Whether a text says something goes back ("back on", "again", "reverted", "as before").

    With ``value``: whether it says that ``value`` is back, in a clause that is not negated,
    planned or doubtful, of a sentence that neither asks nor logs: "back on|to ... VALUE"
    just before it ("community chat is back on discord (discord.gg/x)"), or "VALUE (is|has
    been) again|back|reinstated|restored" just after it ("notices go to deliveries@x
    again"). Not "fall back to VALUE", "replies sent back to VALUE", "we are not going back
    to VALUE", "if B fails again, ...", "VALUE returns bounce as before".
    """
    if value is None:
        return _BACK.search(text) is not None
    # each sentence and clause is judged once, whatever the number of occurrences (a text of
    # thousands of them was quadratic)
    sentences = [(s.start(), s.end()) for s in _SENTENCE.finditer(text)]
    clauses: dict[Span, list[Span]] = {}  # a sentence's clauses; none where it asks or logs
    judged: dict[Span, bool] = {}  # whether a clause says anything plainly
    for m in Matcher([(value, 0)]).find(text):
        i = bisect_right(sentences, m.start, key=lambda span: span[0]) - 1
        if i < 0 or m.start >= sentences[i][1]:
            continue
        lo, hi = sentences[i]
        if (lo, hi) not in clauses:  # the sentence: said plainly, and its clauses
            plain = not _says_nothing(text, lo, hi)
            asked = _opening_end(text, lo, hi) if plain else hi  # "Please move ..., X is back"
            clauses[lo, hi] = [(max(a, asked), b) for a, b in _clauses(text, lo, hi) if b > asked]
        parts = clauses[lo, hi]
        if not parts or m.start < parts[0][0]:
            continue
        clo, chi = parts[bisect_right(parts, m.start, key=lambda span: span[0]) - 1]
        if (clo, chi) not in judged:
            doubt = _negated(text, clo, chi, False) or _DOUBTFUL.search(text, clo, chi)
            judged[clo, chi] = not doubt
        if not judged[clo, chi]:
            continue
        if _BACK_BEFORE.search(text[max(clo, m.start - 40) : m.start]) or _BACK_AFTER.match(
            text, m.end, chi
        ):
            return True
    return False


def _clauses(text: str, lo: int, hi: int) -> list[Span]:
    """The clauses of the sentence ``text[lo:hi]``, in order (split as the reader splits)."""
    seps = list(_CLAUSE.finditer(text, lo, hi))
    return list(zip([lo] + [j.end() for j in seps], [j.start() for j in seps] + [hi], strict=True))


# a word of return that governs the value after it ("back on discord (discord.gg/x)", "went
# back to X", "reverted to X"), not "fall back to X", "sent back to X"
_BACK_BEFORE = re.compile(
    r"(?<!fall\s)(?<!falls\s)(?<!fell\s)(?<!sent\s)(?<!send\s)(?<!reply\s)(?<!forward\s)"
    r"(?<!forwarded\s)(?<!bounced\s)\b(?:back\s+(?:to|on|in|at|into|onto|with)|"
    r"revert(?:ed|ing)?\s+to|restored\s+to)\s+(?:the\s+)?(?:[^\s,;.:]+\s+){0,2}?[(\"'`]?$",
    re.I,
)
# the value, then (is|are|has been) again|back|reinstated|restored ("X again", "X is back")
_BACK_AFTER = re.compile(
    r"[)\"'`]?\s*(?:(?:is|are|was|has\s+been|have\s+been)\s+)?(?:(?:once|now)\s+)?"
    r"(?:again|back|reinstated|restored)\b",
    re.I,
)
# a clause about a return that is not one: a thought, a wish, a condition of failure
_DOUBTFUL = re.compile(
    r"\b(?:thinking\s+(?:of|about)|consider\w*|wish\w*|hope\w*|if|unless|in\s+case|"
    r"whether|fails?|failing)\b",
    re.I,
)


def says_old(text: str, value: str, deprecates: Sequence[str] = ()) -> bool:
    """Whether the wording presents ``value`` as an old value (``from VALUE to Y``).

    ``value`` counts where it is an old value or occurs in one under the matching rules (§3):
    ``acme/app`` is old in ``moved from https://github.com/acme/app.git to ...``.
    """
    return any(_names(value, c.old) for c in read_changes(text, [*deprecates, value]))


def records_change(text: str, value: str, news: Sequence[str] = ()) -> bool:
    """Whether a text records that ``value`` is old, plainly: it names it only as old.

    Every occurrence of ``value`` (under the matching rules, §3) lies in an old value the
    wording reads; the text reads one of ``news`` (the new values of the correction asked
    about) as new where there are any (or names one and reads no other value as new), or,
    where there are none, states a plain end ("X is
    archived", "we stopped using X", "no more X"), not a move; and it holds no word of doubt,
    plan, habit, condition, negation or reversal (:data:`_DOUBT`: "reverted", "will",
    "every", "if", "not", "still", a question). "new payments channel is #team-payments.
    #payments-updates is archived" records the change of #payments-updates to
    #team-payments. "deploy acme/app (it moved from acme/app to acme/web)" names acme/app as
    current once; "#a moved to #b. Ask #c" records no change to #c; "we reverted the move
    from acme/app to acme/web" and "#a goes read-only on Fridays" record none. Where unsure,
    False: the memory is then linked, as any memory that names the string.
    """
    if not value.strip() or _DOUBT.search(text):
        return False
    spans = [(m.start, m.end) for m in Matcher([(value, 0)]).find(text)]
    if not spans:
        return False
    given = [v for v in news if v.strip()]
    changes = read_changes(text, [value, *given])
    olds = [c for c in changes if c.old_span is not None and _names(value, c.old)]
    inside = [
        any(c.old_span[0] <= lo and hi <= c.old_span[1] for c in olds if c.old_span)
        for lo, hi in spans
    ]
    if not all(inside):
        return False
    if given:
        # each old reading is the change to one of them, or a plain end ("the old acme/app is
        # what we deploy" is neither)
        if not all(
            any(_names(v, c.new) for v in given) if c.new is not None else c.pattern in _PLAIN_ENDS
            for c in olds
        ):
            return False
        # one of them read as new; or named, while no other value is read as new ("#a moved
        # to #b. Ask #c" names #c, yet records the change to #b)
        read_new = [c.new for c in changes if c.new is not None]
        if read_new:
            return any(_names(v, n) for n in read_new for v in given)
        return bool(Matcher((v, 0) for v in given).find(text))
    # a correction with no new value (an end): the text must state a plain end too
    return all(c.pattern in _PLAIN_ENDS and c.new is None for c in olds)


def says_new(text: str, value: str, deprecates: Sequence[str] = ()) -> str | None:
    """The words that present ``value`` as a new value (``"to ufo-ai/ufo"``), else None.

    ``value`` counts where it is a new value or occurs in one under the matching rules (§3).
    """
    for c in read_changes(text, [*deprecates, value]):
        if _names(value, c.new):
            return c.said or c.new
    return None

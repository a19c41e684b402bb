"""Does a model act on what nowline shows it? A reader benchmark with a local model.

Run ``nice -n 10 .venv/bin/python bench/reader.py --model /path/to/model.gguf`` (needs the
``reader`` extra, llama-cpp-python; any local instruction-tuned GGUF file; nothing of the
weights is in the repository) or ``--smoke`` (a tiny deterministic fake "model", no llama:
seconds). Writes ``reader.<split>.json`` and ``.md`` to ``--out``. bench/reader.md says which
model the committed results used, its sha256 and where it came from.

Three tasks, each asked under the same conditions of what the model is shown:

* ``bare``: the memories alone (the store never heard of the change);
* ``plain``: the memories and the correction as one more memory, which is what a plain vector
  store gives (the correction ranked among the memories);
* ``nowline:<format>``: the same records recalled through nowline (``Collection.recall()`` over a
  real chromadb PersistentClient store in a temporary folder, the correction written with
  ``correct()``), rendered by ``<format>``: ``library`` is ``Recall.render()`` itself, exactly
  what the recall tool hands a model; the other formats (the format study of issue 23 §6) are
  bench-side renderers of the same packet (the same hits, roles and lines), see ``FORMATS``.

The tasks:

* ``clone``: the published incident. Several memories name the old repository (``<org>/<p>``,
  e.g. ``metalcraftai/ufo``), two name a sibling that did not move (``<org>/<p>-hosted``), one
  is unrelated; the correction says the core moved (``deprecates=[<org>/<p>]``). The model is
  asked "Clone the <P> core repository ... reply with the exact git clone command only". Right
  when its answer names the new slug and not the old one. Variations (``--variations``, at
  least 30) change the project, organisations and suffix names, PR numbers, which memories are
  stored and the order of the hits; ``dev`` variations and ``test`` variations come from
  disjoint seeds (choose formats on dev, report on test).
* ``sibling``: the same memories, and "clone the <P> hosted service repository": the answer
  (the sibling, ``<org>/<p>-hosted``) must not change with the correction.
* ``broad-clone`` and ``broad-sibling``: the same kind of memories, but the correction speaks
  broadly ("Use <new> for all <P> work; <old> is retired.", five wordings) while it deprecates
  the old slug only (:func:`broad_case`, seeds of their own: dev 3000+, test 4000+). The
  sibling (``<org>/<p>-<s>``) did not move: right when the answer names it, wrong when it names
  the old or new core or the sibling under the new owner. nowline's block labels the sibling
  memories ``not covered:`` (``Hit.not_covered``); the bench formats ``uncovered-*`` were the
  candidates of that label.
* ``sqa``: SituatedQA temporal questions whose answer changed (``bench/situatedqa.py``'s rules):
  two old-fact memories, the correction ('Update on ...: the answer is now <new>',
  ``deprecates`` the old answers, anchored to the question when nowline calls them generic), and
  two other questions' facts. Asked "<question>? Reply with the current answer only." Right when
  the answer names a current answer and no old one. Besides the three conditions, ``nowline``
  is also shown with the correction *not* retrieved as a hit of its own (``old only``: the
  old facts with their now-lines), where a plain store would show the old facts alone.
  The test split of SituatedQA is deliberately kept out of this machine's data folder, so the
  formats are chosen on dev questions and reported on train questions (never used to choose).
* ``writer``: nowline's system prompt (``nowline.surfaces.prompts.SYSTEM_PROMPT``) and its tools
  (``nowline.surfaces.prompts.openai_tools()``, in the model's own chat template) and a user
  message that states a change. The model's ``correct`` call is run through
  ``nowline.surfaces.tools.run_tool`` on a store that holds the old memories (and, for a change
  back, the earlier correction); right when it is stored and marks exactly the stale memories
  (the right ``deprecates``, and ``about`` where the old value still holds elsewhere), never
  with the new value deprecated. When nowline refuses the call, its error text goes back to the
  model once, as an agent loop would hand it back, and the second call is scored too; so does
  the answer of a ``recall``, ``remember``, ``check`` or ``preview`` called instead of
  ``correct`` (where the text states a change that memories still name as current, those tools
  say so and name the strings to deprecate). Mistakes
  are classified (no call, another tool, refused and why, new value in deprecates, missed or
  extra memories). The cases are in ``bench/_writer.py``: ``dev`` the 30 of the first writer
  benchmark and 4 of the kinds they lack, ``test`` 30 fresh ones, ``fresh`` and ``blind`` 30
  more each (see that module).
  ``--writer-variant`` picks the prompt and ``correct`` schema (``bench/_writer_prompts.py``:
  ``library`` what nowline ships, ``before`` what it shipped before the writer study, and the
  candidates); ``--writer-cases`` a subset.
* ``act``: end to end. The user states a change (as in ``writer``); the model's own call, with
  one retry after a refusal, is stored for real; a later session with no conversation recalls
  that store (``Recall.render()``) and is asked to act: clone a repository, post to a channel
  or email someone ("reply with the command / channel / address only"). Right when the answer
  names the new value and not the old one. ``bare``: the same question over the old memories
  alone (no correction stored). ``--act-cases`` cases, dev and test from disjoint seeds.

Ordering: the hits' order is part of each variation. A bench-side embedding places every record
at a chosen distance from the query, so the order is controlled and the same in every
condition; the real MiniLM model is not needed (retrieval quality is ``locomo.py``'s subject).

Decoding: greedy by default; ``--temperatures 0.7 --seeds 2`` adds sampled runs for the spread.
One CPU thread by default (``--threads``). Prompts of one task share their system prompt, which
llama.cpp keeps evaluated between prompts.

Caveats: a small local model shows the direction, not production numbers; the published
case reports 32 of 32 (reader) and 27 of 30 (writer) with production models. The memories are
templated; the answers are scored by string matching (a right slug in a wrong command counts
as right). Every table names the model.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C
import _nochange
import _nochange2
import _nochange3
import _writer as W
import _writer_prompts as WP
import locomo as LM
import numpy as np
import situatedqa as SQA
from _writer import WRITER_CASES, ActCase, WriterCase

import nowline
from nowline.matchers import Matcher
from nowline.render import sanitize
from nowline.surfaces.prompts import SYSTEM_PROMPT
from nowline.surfaces.tools import message_note, run_tool

SEED = 23
DEV_SEED, TEST_SEED = 1000, 2000
CAVEAT = (
    "A small local model shows the direction, not production numbers "
    "(the published case reports 32 of 32 with production models)."
)
READER_SYSTEM = (
    "You are a coding agent. You are given what your long-term memory recalled for the "
    "task. Answer from that memory."
)
SQA_SYSTEM = "You answer questions from your long-term memory, which is given with each question."
WRITER_SYSTEM = "You are a helpful assistant with tools.\n\n" + SYSTEM_PROMPT


# ------------------------------------------------------------------------------ models


class Model(Protocol):
    """What the benchmark needs of a model: a chat completion as text."""

    name: str

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        tools: list[dict[str, Any]] | None = None,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 96,
    ) -> str:
        """Return the model's reply to ``messages`` (tool calls as the model writes them)."""
        ...

    def tokens(self, text: str) -> int:
        """Return how many tokens ``text`` is for this model."""
        ...


class LlamaModel:
    """A local GGUF model run by llama-cpp-python, prompted with the file's own chat template."""

    def __init__(self, path: Path, *, threads: int, n_ctx: int = 6144) -> None:
        """Load the model at ``path`` on ``threads`` CPU threads."""
        try:
            from llama_cpp import Llama
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter
        except ImportError as exc:  # pragma: no cover - depends on the extra
            raise SystemExit(
                "bench/reader.py needs llama-cpp-python: "
                '.venv/bin/pip install -c constraints.txt -e ".[reader]"'
            ) from exc
        self.name = path.name
        self._llm = Llama(
            model_path=str(path),
            n_ctx=n_ctx,
            n_threads=threads,
            n_threads_batch=threads,
            verbose=False,
        )
        meta = self._llm.metadata
        template = meta.get("tokenizer.chat_template")
        if not template:
            raise SystemExit(f"{path} carries no chat template (tokenizer.chat_template)")
        eos = self._llm._model.token_get_text(self._llm.token_eos())
        self._format = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token="")
        self.metadata = {k: meta[k] for k in ("general.name", "general.architecture") if k in meta}

    def prompt(self, messages: list[dict[str, str]], tools: list[dict[str, Any]] | None) -> str:
        """Return the prompt text the chat template makes of ``messages`` and ``tools``."""
        return str(self._format(messages=messages, tools=tools).prompt)

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        tools: list[dict[str, Any]] | None = None,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 96,
    ) -> str:
        """Complete the templated prompt; greedy when ``temperature`` is 0."""
        out = self._llm.create_completion(
            self.prompt(messages, tools),
            max_tokens=max_tokens,
            temperature=temperature,
            top_p=0.95 if temperature else 1.0,
            top_k=40 if temperature else 0,
            seed=seed,
            stop=["<|im_end|>", "<|endoftext|>"],
        )
        return str(out["choices"][0]["text"]).strip()

    def tokens(self, text: str) -> int:
        """Return the number of tokens of ``text`` (no special tokens)."""
        return len(self._llm.tokenize(text.encode(), add_bos=False, special=False))


class FakeModel:
    """A deterministic stand-in for ``--smoke``: follows a ``now:`` line when it sees one.

    Reading tasks: it answers with the slug (channel, email address or answer) that the first
    now-line moves to, else the first one of the first memory. Writer task: it calls
    ``correct`` with the string after "from" in the user's message, except that where the
    message says "moved" it first deprecates the new value (after "to"); handed the tool's
    error, it calls again with the old one. A message that says "instead of" it recalls
    first, then calls ``correct`` with the strings the recall's answer names. It measures
    nothing; it lets the tests run every code path.
    """

    name = "fake (smoke)"

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        tools: list[dict[str, Any]] | None = None,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 96,
    ) -> str:
        """Return a rule-based reply."""
        text = messages[-1]["content"]
        if tools:
            retry = messages[-1]["role"] == "tool"
            text = next(m["content"] for m in messages if m["role"] == "user")
            m = re.search(r"\bfrom (\S+?) to (\S+?)[.,;]?(?:\s|$)", text)
            named = re.search(r"deprecates (\[.*?\])", messages[-1]["content"]) if retry else None
            if not m and named:  # handed a recall's answer that names the strings
                args = {"body": text, "deprecates": json.loads(named.group(1).replace("'", '"'))}
                return (
                    "<tool_call>\n"
                    + json.dumps({"name": "correct", "arguments": args})
                    + "\n</tool_call>"
                )
            if not m and "instead of" in text and not retry:
                call = {"name": "recall", "arguments": {"query": text}}
                return "<tool_call>\n" + json.dumps(call) + "\n</tool_call>"
            if not m:
                return "Noted."
            wrong = "moved" in text and not retry
            args: dict[str, Any] = {"body": text, "deprecates": [m.group(2 if wrong else 1)]}
            return (
                "<tool_call>\n"
                + json.dumps({"name": "correct", "arguments": args})
                + "\n</tool_call>"
            )
        now = re.search(r"^\s*now: (.*)$", text, re.M)
        shape = {"channel name only": r"#[\w-]+", "email address only": r"[\w.+-]+@[\w.-]+\w"}
        for ask_for, pattern in shape.items():
            if ask_for in text:
                found = re.findall(pattern, now.group(1) if now else text)
                return found[-1] if now and found else (found[0] if found else "unknown")
        if "git clone" in text:
            slugs = _SLUG.findall(_HOST.sub("", now.group(1) if now else text))
            slug = slugs[-1] if now and slugs else (slugs[0] if slugs else "none/none")
            return f"git clone https://github.com/{slug}.git"
        if now:
            m = re.search(r"the answer is now (.*?) \(as of", now.group(1))
            if m:
                return m.group(1)
        m = re.search(r"\? — (.*?) \(as of", text)
        return m.group(1) if m else "unknown"

    def tokens(self, text: str) -> int:
        """Return a rough token count (words and punctuation)."""
        return len(re.findall(r"\w+|[^\w\s]", text))


_HOST = re.compile(r"(?:[a-z]+://[^/\s]+/|git@[^:\s]+:)", re.I)
_SLUG = re.compile(r"(?<![\w.-])([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w-]*(?:\.[\w-]+)*)")


# ---------------------------------------------------------------------------- formats
#
# Each format renders one Recall packet (the library's hits, roles and lines). "library" is the
# library's own rendering; the others are candidates of the format study.

Renderer = Callable[[nowline.Recall], str]

LEGEND = (
    "([outdated] marks a memory that is no longer true; the now: line beneath it says what "
    "is true now.)"
)
LEGEND_USE = (
    "([outdated] marks a memory that is no longer true: do not act on it. Act on the now: "
    "line beneath it.)"
)
LEGEND_STRIKE = (
    "([outdated] marks a memory that is no longer true, with its outdated values struck "
    "through; the now: line beneath it says what is true now.)"
)
_OUTDATED = "[outdated] "


def _quote_outdated(line: str) -> str:
    """Quote a line of stored text that could pass for the ``[outdated]`` label."""
    skeleton = "".join(c for c in line.casefold() if c.isalnum())
    forged = skeleton.startswith(("outdated", "correction"))
    return "(quoted) " + line if forged else line


def _strike(hit: nowline.Hit) -> str:
    """Return a stale hit's text with each string its corrections deprecate struck through.

    Stored ``~~`` is escaped first, so only the renderer's strikes read as strikes.
    """
    text = (hit.document or "").replace("~~", "~\\~")
    strings = {d for c in hit.direct for d in c.deprecates}
    if hit.role != "historical" or not strings:
        return text
    out, at = [], 0
    for m in _matcher(sorted(strings)).find(text):
        if m.start < at:
            continue
        out += [text[at : m.start], "~~", text[m.start : m.end], "~~"]
        at = m.end
    return "".join(out) + text[at:]


def _block(
    recall: nowline.Recall,
    *,
    label: str = "",
    legend: str = "",
    header: str = "Relevant memory:",
    fix_label: str = "",
    strike: bool = False,
    top: str = "",
) -> str:
    """Render like the library, with ``label`` before each stale memory and ``legend`` on top.

    ``fix_label`` goes before a recalled correction (a ``transition`` hit); ``strike`` strikes
    the deprecated strings in a stale memory; ``top`` heads one line per distinct newest
    correction under the legend.
    """
    stale_hits = any(hit.role == "historical" for hit in recall.hits)
    out = [header if stale_hits else "Relevant memory:"]
    if legend and stale_hits:
        out.append(legend)
    if top and stale_hits:
        seen: dict[str, str] = {}
        for hit in recall.hits:
            for c in hit.now:
                seen.setdefault(c.id, " ".join(c.document.split()))
        out.extend(f"{top} {body}" for body in seen.values())
    for hit in recall.hits:
        raw = _strike(hit) if strike else (hit.document or "")
        text = [_quote_outdated(x) for x in sanitize(raw).splitlines()] or [""]
        stale = hit.role == "historical"
        mark = label if stale else (fix_label if hit.role == "transition" else "")
        out.append("- " + mark + text[0])
        out.extend("  " + x for x in text[1:])
        out.extend(
            f"    {'now' if kind == 'now' else 'superseded correction'}: " + " ".join(body.split())
            for kind, body in hit.lines()
            if kind != "not covered"  # the library's label for siblings: see _grouped_uncovered
        )
    if len(out) == 1:
        out.append("(none)")
    return "\n".join(out)


def _grouped(recall: nowline.Recall, *, stale_first: bool = False) -> str:
    """Render current hits first, then the stale ones under a heading of their own.

    Each group keeps the hits' rank order; a stale hit keeps its mark and its lines.
    ``stale_first`` puts the stale group first and heads the rest "Current memories:".
    """
    stale = [h for h in recall.hits if h.role == "historical"]
    live = [h for h in recall.hits if h.role != "historical"]
    body = _block(recall.model_copy(update={"hits": live})).splitlines()
    if not stale:
        return "\n".join(body)
    if body[1:] == ["(none)"]:
        body = body[:1]
    rest = _block(recall.model_copy(update={"hits": stale}), label=_OUTDATED).splitlines()[1:]
    heading = (
        "Outdated memories (no longer true, kept as history; the now: line beneath each says "
        "what is true now):"
    )
    if stale_first:
        return "\n".join([body[0], heading, *rest, "Current memories:", *body[1:]])
    return "\n".join([*body, heading, *rest])


# Candidates for what the block says of a current memory that names a longer name beginning
# like a deprecated string (the sibling that a broad correction does not move). Each is the
# stale-first layout plus a mark and/or a line; the names come from nowline's own rule.


def _uncovered_of(recall: nowline.Recall, hit: nowline.Hit) -> list[Any]:
    """Return the longer names of a current hit that the packet's corrections do not cover."""
    from nowline._rules.uncovered import uncovered

    if hit.role != "current":
        return []
    refs = {c.id: c for h in recall.hits for c in [*h.direct, *h.now]}
    return uncovered(hit.document or "", [(c.id, c.deprecates, c.document) for c in refs.values()])


UNCOVERED_STYLES = {
    "line": "    not covered: {name} is not {deprecated}; no correction changes {name}.",
    "keep": "    not covered: the correction of {deprecated} does not apply to {name}; "
    "use {name} as written.",
    # the line without the old string: the old slug is not repeated among current memories
    "stays": "    not covered: {name} did not move; use {name} as written.",
    # the keep line with the deprecated string's new value beside it (where one is known)
    "keep-new": "    not covered: the correction of {deprecated}{now} does not apply to {name}; "
    "use {name} as written.",
}


def _first_row(hit: nowline.Hit, mark: str = "") -> str:
    """Return the row a hit's first line makes in a rendered block (after ``mark``)."""
    lines = [_quote_outdated(x) for x in sanitize(hit.document or "").splitlines()] or [""]
    return "- " + mark + lines[0]


def _grouped_uncovered(recall: nowline.Recall, *, mark: str = "", line: str = "") -> str:
    """Render the stale-first layout with ``mark``/``line`` on current hits that name siblings."""
    base = _grouped(recall, stale_first=True).split("\n")
    out = []
    shown = {h.id: _uncovered_of(recall, h) for h in recall.hits}
    firsts = {_first_row(h): h for h in recall.hits if shown[h.id]}
    refs = {c.id: c for h in recall.hits for c in [*h.direct, *h.now]}
    for row in base:
        hit = firsts.get(row)
        if hit is None:
            out.append(row)
            continue
        out.append("- " + mark + row[2:])
        if line:
            for u in shown[hit.id]:
                news = refs[u.correction].replaced_by if u.correction in refs else []
                now = f" (now {news[0]})" if len(news) == 1 else ""
                out.append(line.format(name=u.name, deprecated=u.deprecated, now=now))
    return "\n".join(out)


def _use_lines(hit: nowline.Hit, *, longer: bool = False) -> list[str]:
    """Return ``use:`` lines for a stale hit: each word of it holding an old string, rewritten.

    A candidate of the clone study: the model splices a new slug into an old URL
    (``github.com/<old owner>/<new slug>``); this line writes the memory's own word with the
    chain's one new value in place of the old string (none where the newest correction names
    no single new value).
    """
    if hit.role != "historical" or not hit.now:
        return []
    newest = hit.now[-1]
    if len(newest.replaced_by) != 1:
        return []
    new = newest.replaced_by[0]
    olds = {d for c in [*hit.direct, *hit.now] for d in c.deprecates}
    out: list[str] = []
    for word in (hit.document or "").split():
        word = word.rstrip(".,;:)")
        for old in olds:
            at = word.lower().find(old.lower())
            if longer and len(word) == len(old):
                continue
            if at >= 0 and old.lower() != new.lower():
                line = f"    use: {word[:at]}{new}{word[at + len(old) :]} (in place of {word})"
                if line not in out:
                    out.append(line)
                break
    return out


def _with_use(text: str, recall: nowline.Recall, *, longer: bool = False) -> str:
    """Add :func:`_use_lines` after the labelled lines of each stale hit in a rendered block."""
    lines = text.split("\n")
    for hit in recall.hits:
        extra = _use_lines(hit, longer=longer)
        if not extra:
            continue
        first = _first_row(hit, _OUTDATED)
        if first not in lines:
            continue
        at = lines.index(first) + 1
        while at < len(lines) and lines[at].startswith("  "):
            at += 1
        lines[at:at] = extra
    return "\n".join(lines)


# The reading half of a revised system prompt (a candidate of the format study): what the agent
# is told about the [outdated] mark and the now: line, in place of the current prompt's bullet.
READING_REVISED = """\
## Long-term memory

Reading memory:
- A recalled memory marked [outdated] is no longer true. The line beneath it that starts with \
"now:" is its newest correction: take names, repositories, URLs and other values from that \
line, never from the [outdated] memory above it (kept only as history).
- Memories without the mark are current.
"""

# Formats whose name ends in one of these suffixes add to the reader's system prompt: nowline's
# own SYSTEM_PROMPT (what a deployed agent with nowline's tools is given), or the revised
# reading guidance. The context is the library's rendering.
SYSTEM_EXTRAS = {"+sysprompt": "\n\n" + SYSTEM_PROMPT, "+reading": "\n\n" + READING_REVISED}


def _system_extra(condition: str) -> str:
    """Return what a condition adds to the reader's system prompt (usually nothing)."""
    return next((v for k, v in SYSTEM_EXTRAS.items() if condition.endswith(k)), "")


FORMATS: dict[str, Renderer] = {
    "library": lambda r: r.render(),
    # the library's rendering before the format study: now-lines only, no mark, no legend
    "now-lines": lambda r: _block(r),
    "outdated": lambda r: _block(r, label=_OUTDATED),
    # the library's rendering from the first study until the grouped layout (stale first)
    "outdated+legend": lambda r: _block(r, label=_OUTDATED, legend=LEGEND),
    "outdated+legend-short": lambda r: _block(
        r, label=_OUTDATED, legend="(Use the now: line beneath an [outdated] memory.)"
    ),
    "outdated+header": lambda r: _block(
        r,
        label=_OUTDATED,
        header="Relevant memory ([outdated]: no longer true; the now: line beneath it holds now):",
    ),
    "outdated+legend+fix": lambda r: _block(
        r, label=_OUTDATED, legend=LEGEND, fix_label="[correction] "
    ),
    "outdated+legend-use": lambda r: _block(r, label=_OUTDATED, legend=LEGEND_USE),
    "outdated+legend+strike": lambda r: _block(
        r, label=_OUTDATED, legend=LEGEND_STRIKE, strike=True
    ),
    "outdated+legend+top": lambda r: _block(r, label=_OUTDATED, legend=LEGEND, top="Now true:"),
    "library+sysprompt": lambda r: r.render(),
    "library+reading": lambda r: r.render(),
    # the same two, over the rendering the library had before the grouped layout
    "outdated+legend+sysprompt": lambda r: _block(r, label=_OUTDATED, legend=LEGEND),
    "outdated+legend+reading": lambda r: _block(r, label=_OUTDATED, legend=LEGEND),
    "grouped": lambda r: _grouped(r),
    "grouped-stale-first": lambda r: _grouped(r, stale_first=True),
    # what a broad correction does not cover (the sibling study)
    "uncovered-line": lambda r: _grouped_uncovered(r, line=UNCOVERED_STYLES["line"]),
    "uncovered-keep": lambda r: _grouped_uncovered(r, line=UNCOVERED_STYLES["keep"]),
    "uncovered-mark": lambda r: _grouped_uncovered(r, mark="[unchanged] "),
    "uncovered-mark+keep": lambda r: _grouped_uncovered(
        r, mark="[unchanged] ", line=UNCOVERED_STYLES["keep"]
    ),
    "uncovered-stays": lambda r: _grouped_uncovered(r, line=UNCOVERED_STYLES["stays"]),
    "library+use": lambda r: _with_use(r.render(), r),
    "uncovered-keep-new": lambda r: _grouped_uncovered(r, line=UNCOVERED_STYLES["keep-new"]),
    "use+keep-new": lambda r: _with_use(
        _grouped_uncovered(r, line=UNCOVERED_STYLES["keep-new"]), r
    ),
    # only the words longer than the old string (a URL, a path): the splice's source
    "library+use-longer": lambda r: _with_use(r.render(), r, longer=True),
}


# -------------------------------------------------------------------------- the stores


class RankedEmbedding:
    """Place each known text at a chosen rank from the query (cosine distance grows with rank).

    The query maps to e0; the text at rank r to cos(a_r) e0 + sin(a_r) e_{r+1}, a_r increasing.
    """

    def __init__(self, query: str, ranked: Sequence[str], dim: int = 64) -> None:
        """Create the table for one query and its texts in order."""
        self.table: dict[str, np.ndarray] = {}
        e0 = np.zeros(dim, dtype=np.float32)
        e0[0] = 1.0
        self.table[query] = e0
        for r, text in enumerate(ranked):
            v = np.zeros(dim, dtype=np.float32)
            a = 0.2 + 0.05 * r
            v[0], v[1 + r % (dim - 1)] = np.cos(a), np.sin(a)
            self.table.setdefault(text, v)

    def vector(self, text: str) -> list[float]:
        """Return the vector of a known text."""
        return [float(x) for x in self.table[text]]


@dataclass
class Case:
    """One reading case: its records in hit order, questions and the strings that score them."""

    key: str
    memories: list[tuple[str, str]]  # (id, text), in the order a store ranks them
    correction: tuple[str, str, list[str], list[str]]  # id, text, deprecates, about
    questions: dict[str, tuple[str, list[str], list[str]]]  # task -> (question, right, wrong)
    query: str
    extra: dict[str, Any] = field(default_factory=dict)


class Stores:
    """One PersistentClient in a temporary folder; a nowline collection per case."""

    def __init__(self) -> None:
        """Open the client."""
        self._tmp = tempfile.TemporaryDirectory(prefix="nowline-reader-")
        self.client = C.new_client(self._tmp.name)
        self._n = 0

    def fresh(self, prefix: str) -> Any:
        """Return a new empty nowline collection with the cheap hash embedding."""
        self._n += 1
        return nowline.wrap(
            C.new_collection(self.client, f"{prefix}-{self._n}"),
            embedding_function=C.HashEmbedding(64),
        )

    def close(self) -> None:
        """Remove the folder."""
        del self.client
        self._tmp.cleanup()

    def recall(self, case: Case, order: list[str], *, correction_hit: bool = True) -> Any:
        """Store the case through nowline, write its correction, recall every record."""
        self._n += 1
        emb = RankedEmbedding(case.query, [t for _, t in _ordered(case, order)])
        fake = C.CachedEmbedding(emb.table, C.HashEmbedding(64))
        col = nowline.wrap(
            C.new_collection(self.client, f"case-{self._n}"), embedding_function=fake
        )
        col.add(
            ids=[i for i, _ in case.memories],
            documents=[t for _, t in case.memories],
            embeddings=[emb.vector(t) for _, t in case.memories],
        )
        cid, ctext, deprecates, about = case.correction
        col.correct(
            ctext,
            deprecates=deprecates,
            about=about or None,
            id=cid,
            allow_generic=True,
            allow_person=True,
            max_reach=None,
        )
        n = len(case.memories) + 1
        where = None if correction_hit else {"nowline_role": {"$ne": "transition"}}
        return col.recall(case.query, n_results=n, where=where)


def _ordered(case: Case, order: list[str]) -> list[tuple[str, str]]:
    """Return the case's records (memories and correction) in the given id order."""
    texts = dict(case.memories)
    texts[case.correction[0]] = case.correction[1]
    return [(i, texts[i]) for i in order]


def plain_block(records: Sequence[tuple[str, str]]) -> str:
    """Render records as a plain store's context: the library's block with no lines."""
    return nowline.Recall(
        query="",
        hits=[
            nowline.Hit(id=i, document=t, metadata=None, distance=None, role="current")
            for i, t in records
        ],
    ).render()


# --------------------------------------------------------------------- the clone task

_PROJECTS = ["UFO", "Nova", "Orbit", "Quasar", "Comet", "Pulsar", "Zephyr", "Atlas", "Vega", "Lyra"]
_ORGS = ["metalcraftai", "brightforge", "tinkerlabs", "copperworks", "bluepeak", "ironleaf",
         "northwind-dev", "saltmarsh", "redkite-io", "hollowoak"]  # fmt: skip
_NEW = ["{p}-ai", "{p}-org", "{p}-dev", "{p}hq", "{p}-project", "{p}-labs"]
_SIBLINGS = ["hosted", "cloud", "web", "infra"]
_STALE = [
    "{P} core PRs are opened against {old} (base branch main).",
    "{P} core lives in {old}; PR #{n1} for the core was opened there.",
    "The {P} core repo is {old} — clone it with git clone https://github.com/{old}.git before "
    "opening a PR.",
    "CI for {P} core runs on every PR to {old}.",
    "Reminder: {P} core pull requests need two approvals in {old}.",
    "{P} core release {v} was tagged in {old} after PR #{n2} was merged.",
]
_SIBLING = [
    "The {s} {P} service lives in {sib}; it deploys after each merged PR.",
    "To work on the {s} {P} service, clone https://github.com/{sib}.git.",
    "{sib} holds the {s} {P} deployment config (PR #{n3} merged).",
]
_OTHER = [
    "The {P} team standup is at 9:{m:02d} in #{p}-dev.",
    "{P} uses Python {py} and ruff for linting.",
]


def clone_case(seed: int) -> tuple[Case, list[str]]:
    """Return clone variation ``seed`` and its hit order (seed 0 of dev is the incident)."""
    rng = random.Random(seed)
    incident = seed == DEV_SEED
    P = "UFO" if incident else rng.choice(_PROJECTS)
    p = P.lower()
    org = "metalcraftai" if incident else rng.choice(_ORGS)
    new_org = "ufo-ai" if incident else rng.choice(_NEW).format(p=p)
    s = "hosted" if incident else rng.choice(_SIBLINGS)
    old, new, sib = f"{org}/{p}", f"{new_org}/{p}", f"{org}/{p}-{s}"
    fill = {
        "P": P, "p": p, "old": old, "sib": sib, "s": s,
        "n1": rng.randint(100, 2999), "n2": rng.randint(100, 2999), "n3": rng.randint(10, 999),
        "v": f"{rng.randint(0, 2)}.{rng.randint(1, 19)}", "m": rng.choice([0, 15, 30, 45]),
        "py": f"3.{rng.randint(10, 13)}",
    }  # fmt: skip
    stale = rng.sample(_STALE, rng.randint(3, 4))
    sibling = rng.sample(_SIBLING, 2)
    other = rng.sample(_OTHER, 1)
    memories = [(f"stale{i}", t.format(**fill)) for i, t in enumerate(stale)]
    memories += [(f"sibling{i}", t.format(**fill)) for i, t in enumerate(sibling)]
    memories += [(f"other{i}", t.format(**fill)) for i, t in enumerate(other)]
    ctext = f"{P} core — Moved from {old} to {new}; do GitHub work in {new}."
    order = [i for i, _ in memories] + ["correction"]
    rng.shuffle(order)
    case = Case(
        key=f"clone-{seed}",
        memories=memories,
        correction=("correction", ctext, [old], []),
        questions={
            "clone": (
                f"Clone the {P} core repository so I can start on a fix. Reply with the exact "
                "git clone command only.",
                [new],
                [old],
            ),
            "sibling": (
                f"Clone the {s} {P} service repository (not the core). Reply with the exact git "
                "clone command only.",
                [sib],
                [old, new],
            ),
        },
        query=f"{P} core repository clone",
        extra={"old": old, "new": new, "sibling": sib},
    )
    return case, order


# ------------------------------------------------------- the broad correction's sibling
#
# The same memories as the clone task, but the correction speaks broadly: "use <new> for all
# <P> work". Its deprecated string is still the core's slug alone, so the sibling memories stay
# current; the question is whether the reader leaves the sibling where it is.

BROAD_DEV_SEED, BROAD_TEST_SEED = 3000, 4000
BROAD_TASKS = ("broad-clone", "broad-sibling")
_BROAD = [
    "{P} moved from {old} to {new}: use {new} for all {P} development from now on.",
    "Use {new} for all {P} work; {old} is retired.",
    "{old} is archived. Use {new} for all {P} work going forward.",
    "From today all {P} development happens in {new} (it was {old}).",
    "{P}: do all GitHub work in {new} now, no longer in {old}.",
]


def broad_case(seed: int) -> tuple[Case, list[str]]:
    """Return broad-correction variation ``seed`` (memories as :func:`clone_case`) and its order.

    The correction says to use the new repository for all of the project's work and
    deprecates the old slug only; the questions are ``broad-clone`` (the new slug) and
    ``broad-sibling`` (the sibling, unchanged: the old owner's ``<p>-<s>``, never the new
    owner's).
    """
    rng = random.Random(seed)
    P = rng.choice(_PROJECTS)
    p = P.lower()
    org = rng.choice(_ORGS)
    new_org = rng.choice(_NEW).format(p=p)
    s = rng.choice(_SIBLINGS)
    old, new, sib = f"{org}/{p}", f"{new_org}/{p}", f"{org}/{p}-{s}"
    fill = {
        "P": P, "p": p, "old": old, "sib": sib, "s": s, "new": new,
        "n1": rng.randint(100, 2999), "n2": rng.randint(100, 2999), "n3": rng.randint(10, 999),
        "v": f"{rng.randint(0, 2)}.{rng.randint(1, 19)}", "m": rng.choice([0, 15, 30, 45]),
        "py": f"3.{rng.randint(10, 13)}",
    }  # fmt: skip
    memories = [(f"stale{i}", t.format(**fill)) for i, t in enumerate(rng.sample(_STALE, 3))]
    memories += [(f"sibling{i}", t.format(**fill)) for i, t in enumerate(rng.sample(_SIBLING, 2))]
    memories += [(f"other{i}", t.format(**fill)) for i, t in enumerate(rng.sample(_OTHER, 1))]
    ctext = rng.choice(_BROAD).format(**fill)
    order = [i for i, _ in memories] + ["correction"]
    rng.shuffle(order)
    moved = f"{new_org}/{p}-{s}"
    case = Case(
        key=f"broad-{seed}",
        memories=memories,
        correction=("correction", ctext, [old], []),
        questions={
            "broad-clone": (
                f"Clone the {P} core repository so I can start on a fix. Reply with the exact "
                "git clone command only.",
                [new],
                [old],
            ),
            "broad-sibling": (
                f"Clone the {s} {P} service repository (not the core). Reply with the exact git "
                "clone command only.",
                [sib],
                [old, new, moved],
            ),
        },
        query=f"{P} {s} service repository clone",
        extra={"old": old, "new": new, "sibling": sib, "moved_sibling": moved},
    )
    return case, order


def slug_score(answer: str, right: Sequence[str], wrong: Sequence[str]) -> str:
    """Return ``right``, ``wrong`` (an old or other-task slug) or ``other`` for an answer."""
    bare = _HOST.sub("", answer)
    found = {s.removesuffix(".git").lower() for s in _SLUG.findall(bare)}
    if {r.lower() for r in right} & found and not {w.lower() for w in wrong} & found:
        return "right"
    if {w.lower() for w in wrong} & found:
        return "wrong"
    return "other"


# ------------------------------------------------------------------------- SituatedQA


def sqa_cases(path: Path, n: int, seed: int) -> list[Case]:
    """Return ``n`` changed questions of a SituatedQA split as reading cases."""
    questions = SQA.load(path)
    changed = [q for q in questions if q.changed]
    others = [q for q in questions if not q.changed]
    rng = random.Random(seed)
    picked = rng.sample(changed, min(n, len(changed)))
    records, _plan = SQA.build(picked, [])
    by_q: dict[str, list[Any]] = {}
    for r in records:
        by_q.setdefault(r.qid, []).append(r)
    cases = []
    for q in picked:
        own = by_q[q.qid]
        fix = next(r for r in own if r.kind == "correction")
        old = [(r.id, r.text) for r in own if r.kind in ("old-a", "old-b")]
        dis = rng.sample(others, 2)
        extra = [
            (f"{d.qid}:fact", f"{d.question}? — {d.answers[0]}.")
            for d in dis
            if not _matcher(q.old + q.answers).keys(f"{d.question}? — {d.answers[0]}.")
        ]
        cases.append(
            Case(
                key=f"sqa-{q.qid}",
                memories=old + extra,
                correction=(
                    fix.id,
                    fix.text,
                    fix.deprecates["anchored"],
                    fix.about.get("anchored", []),
                ),
                questions={
                    "sqa": (f"{q.question}? Reply with the current answer only.", q.answers, q.old)
                },
                query=q.question,
                extra={"question": q.question, "old": q.old, "new": q.answers},
            )
        )
    return cases


def _matcher(strings: Sequence[str]) -> Matcher[str]:
    """Return nowline's matcher over the non-blank strings."""
    return Matcher((s, s) for s in strings if s.strip())


def answer_score(answer: str, right: Sequence[str], wrong: Sequence[str]) -> str:
    """Return ``right`` (a current answer, no old one), ``wrong`` (an old one) or ``other``."""
    has_right = bool(_matcher(right).keys(answer))
    has_wrong = bool(_matcher(wrong).keys(answer))
    if has_right and not has_wrong:
        return "right"
    return "wrong" if has_wrong else "other"


# ----------------------------------------------------------------------------- writer


_TOOL_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.S)
_FENCED = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.S)


def parse_calls(reply: str) -> list[dict[str, Any]] | None:
    """Return the tool calls in a reply, or None if one is malformed JSON.

    A call is Qwen's ``<tool_call>`` JSON, or (what small models often write instead) a JSON
    object with ``name`` and ``arguments`` in a fenced code block or as the whole reply.
    """
    calls: list[dict[str, Any]] = []
    bodies = _TOOL_CALL.findall(reply) or _FENCED.findall(reply)
    if not bodies and reply.lstrip().startswith("{"):
        bodies = [reply.strip()]
    for body in bodies:
        try:
            call = json.loads(body)
        except json.JSONDecodeError:
            return None
        if isinstance(call, dict):
            calls.append(call)
    return calls


_REFUSALS = (
    ("narrows nothing: every record", "about is the deprecated string"),
    ("is a function word", "about is a function word"),
    ("narrows nothing", "about inside the deprecated string"),
    ("does not mention", "deprecated string not in body"),
    ("is the new value", "new value in deprecates"),
    ("is current: correction", "a current value in deprecates"),
    ("is given both as an old value", "new value in deprecates"),
    ("names a person", "person without an anchor"),
    ("together with the anchor", "anchor the memories do not name"),
    ("generic", "generic string"),
    ("names no particular thing", "generic string"),
    ("near miss", "near miss"),
)


def _refusal_kind(message: str) -> str:
    """Return a short name for why the tool refused a call (for the report's counts)."""
    return next((kind for key, kind in _REFUSALS if key in message), "other")


def writer_store(stores: Stores, case: WriterCase) -> Any:
    """Return a fresh nowline collection holding the case's memories and prior corrections."""
    col = stores.fresh("writer")
    col.add(ids=[i for i, _ in case.memories], documents=[t for _, t in case.memories])
    for n, prior in enumerate(case.prior):
        # a prior correction is history: the memories of its old value may be gone (blind5
        # n23's names a link that only a longer one of memory c begins with), so it is stored
        # where it reaches nothing too, as it was when it was written
        col.correct(
            prior.text,
            deprecates=list(prior.deprecates),
            replaced_by=list(prior.replaced_by) or None,
            id=f"prior{n}",
            allow_unreached=True,
        )
    return col


def writer_score(
    stores: Stores, case: WriterCase, reply: str, *, col: Any = None
) -> dict[str, Any]:
    """Run the model's ``correct`` call on a store with the case's memories; classify it.

    ``col`` is the store to run it on (default: a fresh one from :func:`writer_store`).
    """
    out: dict[str, Any] = {"reply": reply}
    missing, args = correct_call(reply)
    if missing is not None:
        return {**out, "outcome": missing}
    out["arguments"] = args
    col = writer_store(stores, case) if col is None else col
    result = run_tool(col, "correct", args if isinstance(args, dict) else {})
    if result.is_error:
        return {**out, "outcome": "refused: " + _refusal_kind(result.text), "error": result.text}
    marked = {h.id for h in col.hits([i for i, _ in case.memories]) if h.role == "historical"}
    # what nowline stored, not what the model sent: a new value given beside the old one in
    # deprecates is dropped there (its replaced_by says it is new), and stays current
    deprecates = [
        d.casefold()
        for c in col.corrections()
        if not c.id.startswith("prior") and not c.retracted
        for d in c.deprecates
    ]
    out["marked"] = sorted(marked)
    if any(n.casefold() in deprecates for n in case.new):
        return {**out, "outcome": "new value in deprecates"}
    if marked == case.stale:
        return {**out, "outcome": "right"}
    if marked - case.stale:
        return {**out, "outcome": "marked unrelated memories"}
    return {**out, "outcome": "missed stale memories"}


def correct_call(reply: str) -> tuple[str | None, Any]:
    """Return a reply's first ``correct`` call's arguments, or the outcome of a reply without one.

    The outcome is ``malformed call``, ``called <tools>`` or ``no tool call`` (then the
    arguments are None); the arguments are as the model wrote them (a JSON string parsed).
    """
    calls = parse_calls(reply)
    if calls is None:
        return "malformed call", None
    fixes = [c for c in calls if c.get("name") == "correct"]
    if not fixes:
        names = sorted({str(c.get("name")) for c in calls})
        return (f"called {', '.join(names)}" if names else "no tool call"), None
    args = fixes[0].get("arguments")
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except json.JSONDecodeError:
            return "malformed call", None
    return None, args


def gold_reply(case: WriterCase) -> str:
    """Return the reply of a careful writer: the case's gold call, as Qwen writes a call."""
    args = {"body": case.message, **case.gold}
    return "<tool_call>\n" + json.dumps({"name": "correct", "arguments": args}) + "\n</tool_call>"


# ------------------------------------------------------------------------------- runs


@dataclass(frozen=True)
class Run:
    """One decoding setting."""

    temperature: float
    seed: int

    @property
    def label(self) -> str:
        """Return ``greedy`` or ``t=0.7 seed=1``."""
        return "greedy" if self.temperature == 0 else f"t={self.temperature:g} seed={self.seed}"


def runs_of(args: argparse.Namespace) -> list[Run]:
    """Return greedy plus each (temperature, seed) asked for."""
    runs = [] if args.sampled_only else [Run(0.0, 0)]
    runs += [Run(t, s) for t in args.temperatures for s in range(1, args.seeds + 1)]
    if not runs:
        raise SystemExit("--sampled-only needs --temperatures")
    return runs


def ask(model: Model, system: str, context: str, question: str, run: Run) -> str:
    """Ask one question with a context block."""
    messages = [
        {"role": "system", "content": system},
        {"role": "user", "content": f"{context}\n\n{question}"},
    ]
    return model.chat(messages, temperature=run.temperature, seed=run.seed, max_tokens=48)


def contexts_for(
    stores: Stores, case: Case, order: list[str], formats: Sequence[str], *, old_only: bool
) -> dict[str, str]:
    """Return each condition's context block for one case."""
    records = _ordered(case, order)
    bare = [r for r in records if r[0] != case.correction[0]]
    out = {"bare": plain_block(bare), "plain": plain_block(records)}
    recall = stores.recall(case, order)
    for f in formats:
        out[f"nowline:{f}"] = FORMATS[f](recall)
    if old_only:
        recall_old = stores.recall(case, order, correction_hit=False)
        for f in formats:
            out[f"nowline old only:{f}"] = FORMATS[f](recall_old)
    return out


def reading_task(
    model: Model,
    stores: Stores,
    cases: Sequence[tuple[Case, list[str]]],
    tasks: Sequence[str],
    conditions: Sequence[str] | None,
    formats: Sequence[str],
    runs: Sequence[Run],
    *,
    system: str,
    old_only: bool,
    scorer: Callable[[str, Sequence[str], Sequence[str]], str],
    bar: Any,
    checkpoint: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Ask every case's questions under every condition and decoding run; count the outcomes.

    ``checkpoint`` gets the counts so far after each case (a long run leaves partial results).
    """
    counts: dict[str, dict[str, dict[str, Counter[str]]]] = {}
    samples: list[dict[str, Any]] = []
    tokens: dict[str, list[int]] = {}
    for case, order in cases:
        ctxs = contexts_for(stores, case, order, formats, old_only=old_only)
        if conditions is not None:
            ctxs = {k: v for k, v in ctxs.items() if k in conditions}
        for cond, ctx in ctxs.items():
            tokens.setdefault(cond, []).append(model.tokens(ctx))
        # Each context's questions in a row: llama.cpp reuses the evaluated context prefix.
        for cond, ctx in ctxs.items():
            for task in tasks:
                question, right, wrong = case.questions[task]
                for run in runs:
                    reply = ask(model, system + _system_extra(cond), ctx, question, run)
                    outcome = scorer(reply, right, wrong)
                    counts.setdefault(task, {}).setdefault(cond, {}).setdefault(
                        run.label, Counter()
                    )[outcome] += 1
                    samples.append(
                        {
                            "case": case.key,
                            "task": task,
                            "condition": cond,
                            "run": run.label,
                            "reply": reply,
                            "outcome": outcome,
                        }
                    )
                    bar.update(1)
        if checkpoint is not None:
            checkpoint(_counted(counts, tokens, samples, {}))
    first = cases[0][0] if cases else None
    example = contexts_for(stores, first, cases[0][1], formats, old_only=old_only) if first else {}
    return _counted(counts, tokens, samples, example)


def _counted(
    counts: dict[str, dict[str, dict[str, Counter[str]]]],
    tokens: dict[str, list[int]],
    samples: list[dict[str, Any]],
    example: dict[str, str],
) -> dict[str, Any]:
    """Return a reading task's result as plain data."""
    return {
        "counts": {
            t: {c: {r: dict(v) for r, v in by_run.items()} for c, by_run in by_cond.items()}
            for t, by_cond in counts.items()
        },
        "context_tokens": {c: _mean_int(v) for c, v in tokens.items()},
        "example_contexts": example,
        "samples": list(samples),
    }


def _mean_int(values: Sequence[int]) -> float:
    """Return the mean of ``values`` (0 when empty), rounded to one decimal."""
    return round(sum(values) / len(values), 1) if values else 0.0


def writer_call(
    model: Model,
    stores: Stores,
    case: WriterCase,
    col: Any,
    system: str,
    tools: list[dict[str, Any]],
    run: Run,
    *,
    bar: Any,
    note: bool = False,
) -> dict[str, Any]:
    """Ask one stated change on the store ``col``; after a refusal, hand the error back once.

    A refused call stores nothing, so the retry runs on the same store, which then holds
    whatever the model's calls stored. With ``note``, the loop first adds nowline's note on
    the user's message (:func:`nowline.tools.message_note`, what the ``UserPromptSubmit``
    hook adds) to the user's turn, as Claude Code adds a hook's context to the prompt.
    """
    said = message_note(col, case.message) if note else ""
    messages = _write_turn(system, case.message, said)
    reply = model.chat(
        messages, tools=tools, temperature=run.temperature, seed=run.seed, max_tokens=256
    )
    scored = writer_score(stores, case, reply, col=col)
    if note:
        scored["note"] = said
    bar.update(1)
    answer = scored.get("error") or _answer_instead(col, reply)
    if answer is not None:  # the agent loop hands nowline's answer back, once
        if "error" not in scored:
            scored["answer"] = answer
        retry = model.chat(
            retry_turn(messages, reply, answer),
            tools=tools,
            temperature=run.temperature,
            seed=run.seed,
            max_tokens=256,
        )
        scored["retry"] = writer_score(stores, case, retry, col=col)
        bar.update(1)
    return scored


_INSTEAD = ("recall", "remember", "check", "preview")
"""Tools a model calls instead of ``correct`` whose answer goes back to it, as a loop would."""


def instead_call(reply: str) -> tuple[str, dict[str, Any]] | None:
    """Return the single call a reply made to another of nowline's tools: (name, arguments).

    None where the reply made no such single call (a malformed one, a ``correct``, none).
    """
    calls = parse_calls(reply) or []
    if len(calls) != 1 or calls[0].get("name") not in _INSTEAD:
        return None
    args = calls[0].get("arguments")
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except json.JSONDecodeError:
            return None
    return str(calls[0]["name"]), args if isinstance(args, dict) else {}


def _answer_instead(col: Any, reply: str) -> str | None:
    """Run a first call that went to another of nowline's tools; return its answer.

    An agent loop answers a ``recall`` (or ``remember``, ``check``, ``preview``) and asks the
    model again, so the model's second call is scored as its retry. None when the reply made
    no such single call.
    """
    call = instead_call(reply)
    return None if call is None else run_tool(col, *call).text


def retry_turn(messages: Sequence[dict[str, str]], reply: str, answer: str) -> list[dict[str, str]]:
    """Return the conversation that asks again: the first turn, the reply, the tool's answer."""
    return [
        *messages,
        {"role": "assistant", "content": reply},
        {"role": "tool", "content": answer},
    ]


def writer_task(
    model: Model,
    stores: Stores,
    runs: Sequence[Run],
    *,
    bar: Any,
    cases: Sequence[WriterCase] = WRITER_CASES,
    variant: str = "library",
    checkpoint: Callable[[dict[str, Any]], None] | None = None,
    note: bool = False,
) -> dict[str, Any]:
    """Ask each writer case, and once more after a refusal with the tool's error; count both.

    ``checkpoint`` gets the result so far after each case (a long run leaves partial results).
    """
    system, tools = WP.variant(variant)
    results: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        for run in runs:
            col = writer_store(stores, case)
            scored = writer_call(model, stores, case, col, system, tools, run, bar=bar, note=note)
            results.setdefault(run.label, []).append({"case": case.key, **scored})
        if checkpoint is not None:
            checkpoint(
                {
                    "variant": variant,
                    "note": note,
                    "runs": results,
                    "summary": writer_summary(results),
                }
            )
    return {"variant": variant, "note": note, "runs": results, "summary": writer_summary(results)}


def act_task(
    model: Model,
    stores: Stores,
    cases: Sequence[ActCase],
    runs: Sequence[Run],
    *,
    bar: Any,
    variant: str = "library",
    checkpoint: Callable[[dict[str, Any]], None] | None = None,
    reader: Model | None = None,
    note: bool = False,
) -> dict[str, Any]:
    """The end to end task: the model stores a stated change, a later session acts on memory.

    The change is stated as in the writer task, and the model's own ``correct`` call (with one
    retry after a refusal) runs on a real store of the old memories. A later session, with no
    conversation, recalls that store through nowline and asks for the action (clone, post,
    email); ``bare`` asks the same over the old memories alone (no correction stored).
    ``reader`` is the same model loaded once more for the later session (default ``model``),
    so that each instance keeps its own prompt prefix evaluated.
    """
    system, tools = WP.variant(variant)
    rows: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        for run in runs:
            col = writer_store(stores, case.writer)
            scored = writer_call(
                model, stores, case.writer, col, system, tools, run, bar=bar, note=note
            )
            final = scored.get("retry", scored)
            contexts = {
                "bare": plain_block(case.writer.memories),
                "nowline": col.recall(case.query, n_results=col.count()).render(),
            }
            row: dict[str, Any] = {
                "case": case.writer.key,
                "action": case.action,
                "write": scored["outcome"],
                "write after retry": final["outcome"],
                "arguments": final.get("arguments"),
                "write replies": list(dict.fromkeys([scored["reply"], final["reply"]])),
            }
            for cond, ctx in contexts.items():
                reply = ask(reader or model, READER_SYSTEM, ctx, case.question, run)
                row[cond] = {"reply": reply, "outcome": answer_score(reply, case.right, case.wrong)}
                bar.update(1)
            row["context"] = contexts["nowline"]
            rows.setdefault(run.label, []).append(row)
        if checkpoint is not None:
            checkpoint(
                {"variant": variant, "note": note, "runs": rows, "summary": act_summary(rows)}
            )
    return {"variant": variant, "note": note, "runs": rows, "summary": act_summary(rows)}


def act_summary(rows: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Return each run's counts: the write (first call, after a retry) and each action."""
    return {
        label: {
            "write, first call": dict(Counter(r["write"] for r in rs)),
            "write, after one retry": dict(Counter(r["write after retry"] for r in rs)),
            "act, bare": dict(Counter(r["bare"]["outcome"] for r in rs)),
            "act, nowline": dict(Counter(r["nowline"]["outcome"] for r in rs)),
        }
        for label, rs in rows.items()
    }


def writer_summary(results: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Return each run's outcomes at the first call and after one retry on a refusal."""
    out: dict[str, dict[str, Any]] = {}
    for label, rows in results.items():
        first = Counter(r["outcome"] for r in rows)
        final = Counter(r.get("retry", r)["outcome"] for r in rows)
        out[label] = {"first call": dict(first), "after one retry": dict(final)}
    return out


def quiet_task(
    model: Model,
    stores: Stores,
    runs: Sequence[Run],
    *,
    bar: Any,
    variant: str = "library",
    smoke: bool = False,
) -> dict[str, Any]:
    """Texts that state no change and get nowline's note anyway: does the model store one?

    The texts are the change line's negative arm (``bench/_nochange.py`` to
    ``_nochange3.py``), each on a store of its set's memories. Only a text that gets a note
    (:func:`nowline.tools.message_note`, a false one) is asked: without one, the model sees
    what it sees with no hook. Each is asked twice, without the note and with it (as
    ``--prompt-note`` adds it), and the reply's ``correct`` call, if any, is run on a fresh
    store: ``stored a correction`` is the harm (a current value marked outdated), a refused
    call stores nothing.
    """
    system, tools = WP.variant(variant)
    rows: dict[str, list[dict[str, Any]]] = {}
    for module in (_nochange, _nochange2, _nochange3):
        probe = texts_store(stores, module)
        texts = [t for kind in module.NO_CHANGE.values() for t in (kind[:1] if smoke else kind)]
        for text in texts:
            said = message_note(probe, text)
            if not said:
                continue
            for run in runs:
                row: dict[str, Any] = {"set": module.__name__.strip("_"), "text": text}
                for cond, shown in (("without", ""), ("with note", said)):
                    reply = model.chat(
                        _write_turn(system, text, shown), tools=tools,
                        temperature=run.temperature, seed=run.seed, max_tokens=256,
                    )  # fmt: skip
                    row[cond] = {"reply": reply, "outcome": _quiet_outcome(stores, module, reply)}
                    bar.update(1)
                row["note"] = said
                rows.setdefault(run.label, []).append(row)
    summary = {
        label: {
            cond: dict(Counter(r[cond]["outcome"] for r in got))
            for cond in ("without", "with note")
        }
        for label, got in rows.items()
    }
    return {"variant": variant, "runs": rows, "summary": summary}


def chat_task(
    model: Model,
    stores: Stores,
    runs: Sequence[Run],
    *,
    bar: Any,
    path: Path,
    per: int,
    variant: str = "library",
    note: bool = False,
    smoke: bool = False,
) -> dict[str, Any]:
    """Ordinary conversation as the user's messages: does the writer store a correction?

    LoCoMo's ten two-person conversations (real talk between friends; Maharana et al., ACL
    2024; CC BY-NC 4.0, read from ``../shared/data/locomo/``): ``per`` turns of each, evenly
    spaced, each asked as the user's message on a store of the turns before it (hashed
    vectors), with nowline's system prompt and tools, and with the note where ``note`` and
    :func:`nowline.tools.message_note` gives one. The first call is scored: a ``correct``
    call is run on that store (``stored a correction`` is the harm, retracted at once so that
    later turns see the store as it was; a refused call stores nothing). Friends catching up
    state few changes of a thing a memory names, so any stored correction here is a false one.
    """
    system, tools = WP.variant(variant)
    samples = json.loads(path.read_text())[: 1 if smoke else None]
    rows: dict[str, list[dict[str, Any]]] = {run.label: [] for run in runs}
    for sample in samples:
        conv = sample["conversation"]
        turns = [t for n in LM.session_numbers(conv) for t in conv[f"session_{n}"]]
        step = max(1, len(turns) // per)
        picks = set(list(range(step // 2, len(turns), step))[: 2 if smoke else per])
        col = stores.fresh("chat")
        for i, turn in enumerate(turns):
            if i in picks:
                said = message_note(col, turn["text"]) if note else ""
                for run in runs:
                    reply = model.chat(
                        _write_turn(system, turn["text"], said), tools=tools,
                        temperature=run.temperature, seed=run.seed, max_tokens=256,
                    )  # fmt: skip
                    rows[run.label].append(
                        {"turn": f"{sample['sample_id']}:{turn['dia_id']}", "text": turn["text"],
                         "note": said, "reply": reply,
                         "outcome": _write_outcome(reply, lambda c=col: c, undo=True)}
                    )  # fmt: skip
                    bar.update(1)
            col.add(ids=[turn["dia_id"]], documents=[LM.document(turn)])
    summary = {label: dict(Counter(r["outcome"] for r in got)) for label, got in rows.items()}
    return {"variant": variant, "note": note, "per": per, "runs": rows, "summary": summary}


def _write_outcome(reply: str, store: Callable[[], Any], *, undo: bool = False) -> str:
    """Run a reply's ``correct`` call on ``store()``; return what it did: stored, refused, no write.

    The store is made only for a ``correct`` call. With ``undo`` a stored correction is
    retracted at once, so that the store stays as it was for the next question.
    """
    missing, args = correct_call(reply)
    if missing is not None:
        return missing
    col = store()
    result = run_tool(col, "correct", args if isinstance(args, dict) else {})
    if result.is_error:
        return "refused: " + _refusal_kind(result.text)
    if undo and result.data is not None:
        col.retract(result.data["id"])
    return "stored a correction"


def texts_store(stores: Stores, module: Any) -> Any:
    """Return a fresh collection of a text set's memories (``module.MEMORIES``).

    The sets of texts that state no change (``bench/_nochange*.py``): the ``quiet`` task here
    and the change line's arms (``bench/change_line.py``) recall and write on it.
    """
    col = stores.fresh(f"texts-{module.__name__.strip('_')}")
    col.add(ids=list(module.MEMORIES), documents=list(module.MEMORIES.values()))
    return col


def _quiet_outcome(stores: Stores, module: Any, reply: str) -> str:
    """Return what a reply to a text that states no change did: stored, refused, or no write."""
    return _write_outcome(reply, lambda: texts_store(stores, module))


def _write_turn(system: str, message: str, note: str = "") -> list[dict[str, str]]:
    """Return the write's first turn: the system prompt, then the user's message (and note).

    A note is added to the user's turn as Claude Code adds a hook's context to the prompt.
    """
    user = message + (f"\n\n{note}" if note else "")
    return [
        {"role": "system", "content": "You are a helpful assistant with tools.\n\n" + system},
        {"role": "user", "content": user},
    ]


# ---------------------------------------------------------------------------- report


def sha256_of(path: Path) -> str:
    """Return the hex sha256 of a file."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson 95% interval of a share of ``k`` in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return (max(0.0, mid - half), min(1.0, mid + half))


def _cell(by_run: dict[str, dict[str, int]]) -> str:
    """Return 'right of n [Wilson 95%]' for greedy, then each sampled run's right count."""
    parts = []
    for label, c in by_run.items():
        n, k = sum(c.values()), c.get("right", 0)
        lo, hi = wilson(k, n)
        run = "" if label == "greedy" else f" ({label})"
        parts.append(f"{k}/{n} [{lo * n:.0f}–{hi * n:.0f}]{run}")
    return "<br>".join(parts)


def markdown(data: dict[str, Any]) -> str:
    """Return the report."""
    model = data["model"]
    head = C.run_header(
        f"Reader benchmark ({data['config']['split']}): {model['name']}",
        data["machine"],
        data["command"],
        data["seconds"],
    )
    lines = [
        head,
        f"Model: **{model['name']}** (sha256 `{model['sha256']}`). {CAVEAT}",
        "",
        "Cells: right answers / asked [the Wilson 95% interval, in answers], greedy first, "
        "then each sampled run. `bare`: the "
        "memories alone; `plain`: the correction as one more memory (a plain vector store); "
        "`nowline:<format>`: the same records recalled through nowline and rendered by that "
        "format (`library` is `Recall.render()`). See bench/reader.md.",
        "",
    ]
    for task, title in (
        ("clone", "Clone task: the new repository"),
        ("sibling", "Sibling question: the repository that did not move"),
        ("sqa", "SituatedQA: the current answer"),
        ("broad-clone", 'Broad correction ("use X for all <P> work"): the new repository'),
        ("broad-sibling", "Broad correction: the sibling repository, which did not move"),
    ):
        block = data["tasks"].get(task)
        if not block:
            continue
        lines += _heading(title, model)
        rows = []
        for cond, by_run in block["counts"].items():
            wrong = sum(c.get("wrong", 0) for c in by_run.values())
            other = sum(c.get("other", 0) for c in by_run.values())
            rows.append([f"`{cond}`", _cell(by_run), wrong, other, block["tokens"].get(cond, "")])
        lines += [
            C.md_table(
                ["condition", "right", "old/wrong (all runs)", "other", "tokens per context"],
                rows,
            ),
            "",
        ]
    writer = data["tasks"].get("writer")
    if writer:
        lines += _heading(
            "Writer: does the model call `correct` right?",
            model,
            CAVEAT.replace("32 of 32", "27 of 30 right `deprecates`"),
        )
        lines += [
            f"Prompt and schemas: `{writer.get('variant', 'library')}` (bench/_writer_prompts.py).",
            "",
        ]
        lines += ["", C.md_table(["run", "when", "right", "outcomes"], [
            [label, when, _right_of(c),
             _outcomes_cell(c)]
            for label, by_when in writer["summary"].items() for when, c in by_when.items()
        ]), ""]  # fmt: skip
        rows = [
            [
                r["case"],
                r["outcome"],
                _args_cell(r),
                r["retry"]["outcome"] if "retry" in r else "",
                _args_cell(r["retry"]) if "retry" in r else "",
            ]
            for r in writer["runs"].get("greedy", [])
        ]
        lines += [
            C.md_table(
                ["case (greedy)", "outcome", "arguments", "after the error", "arguments"], rows
            ),
            "",
        ]
    act = data["tasks"].get("act")
    if act:
        lines += [
            *_heading("Act: store a stated change, then act on memory", model),
            f"Prompt and schemas of the write: `{act.get('variant', 'library')}`. `bare`: the "
            "old memories alone (no correction stored); `nowline`: a later session recalls the "
            "store the model's own correct call (and one retry after a refusal) wrote.",
            "",
            C.md_table(["run", "what", "right", "outcomes"], [
                [label, what, _right_of(c), _outcomes_cell(c)]
                for label, by_what in act["summary"].items() for what, c in by_what.items()
            ]),
            "",
        ]  # fmt: skip
        rows = [
            [r["case"], r["write after retry"], _args_cell(r), r["bare"]["outcome"],
             r["nowline"]["outcome"], r["nowline"]["reply"][:80].replace("|", "\\|")]
            for r in act["runs"].get("greedy", [])
        ]  # fmt: skip
        lines += [
            C.md_table(
                ["case (greedy)", "write", "arguments", "bare", "nowline", "nowline's answer"],
                rows,
            ),
            "",
        ]
    quiet = data["tasks"].get("quiet")
    if quiet:
        lines += [
            *_heading("Texts that state no change, with a false note", model),
            "The change line's negative arm (bench/_nochange*.py): each text that gets nowline's "
            "note on a user's message although it states no change, asked without the note and "
            "with it. `stored a correction` is the harm: a current value marked outdated.",
            "",
            C.md_table(["run", "asked", "outcomes"], [
                [label, cond, _outcomes_cell(c)]
                for label, by_cond in quiet["summary"].items() for cond, c in by_cond.items()
            ]),
            "",
            C.md_table(["set", "text", "without", "with note"], [
                [r["set"], r["text"][:90].replace("|", "\\|").replace("\n", " "),
                 r["without"]["outcome"], r["with note"]["outcome"]]
                for r in quiet["runs"].get("greedy", [])
            ]),
            "",
        ]  # fmt: skip
    chat = data["tasks"].get("chat")
    if chat:
        lines += [
            *_heading("Ordinary conversation as the user's messages (LoCoMo)", model),
            f"{chat['per']} turns of each LoCoMo conversation, each on a store of the turns "
            "before it, first call only" + (", with nowline's note" if chat["note"] else "")
            + ". `stored a correction` is the harm: no turn states a change a memory names.",
            "",
            C.md_table(["run", "asked", "outcomes"], [
                [label, sum(c.values()), _outcomes_cell(c)]
                for label, c in chat["summary"].items()
            ]),
            "",
        ]  # fmt: skip
        wrote = [
            r for r in chat["runs"].get("greedy", [])
            if r["outcome"].startswith(("stored", "refused"))
        ]  # fmt: skip
        if wrote:
            lines += [
                C.md_table(["turn", "text", "outcome"], [
                    [r["turn"], r["text"][:90].replace("|", "\\|").replace("\n", " "),
                     r["outcome"]] for r in wrote
                ]),
                "",
            ]  # fmt: skip
    return "\n".join(lines)


def _heading(title: str, model: dict[str, Any], caveat: str = CAVEAT) -> list[str]:
    """Return a task's section heading: its title with the model's name, then the caveat."""
    return [f"## {title} — {model['name']}", "", caveat, ""]


def _outcomes_cell(c: dict[str, int]) -> str:
    """Return outcome counts as one cell: 'called recall: 3, right: 13', by outcome."""
    return ", ".join(f"{k}: {v}" for k, v in sorted(c.items()))


def _right_of(c: dict[str, int]) -> str:
    """Return 'right/n [Wilson 95% interval, in answers]' of an outcome count."""
    n, k = sum(c.values()), c.get("right", 0)
    lo, hi = wilson(k, n)
    return f"{k}/{n} [{lo * n:.0f}–{hi * n:.0f}]"


def _args_cell(row: dict[str, Any]) -> str:
    """Return a call's arguments as a short table cell (its deprecates and about first)."""
    args = row.get("arguments")
    if not isinstance(args, dict):
        return ""
    brief = {k: args[k] for k in ("deprecates", "about", "replaced_by") if k in args}
    return json.dumps(brief, ensure_ascii=False)[:120].replace("|", "\\|")


# ------------------------------------------------------------------------------ main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse the command line."""
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    C.add_common_args(p, seed=SEED)
    p.add_argument("--model", type=Path, help="a local GGUF file (not needed with --smoke)")
    p.add_argument("--threads", type=int, default=1, help="CPU threads for the model (default 1)")
    p.add_argument(
        "--split",
        choices=W._SPLITS,
        default="test",
        help="dev: the variations and questions formats are chosen on; test: fresh ones to "
        "report (SituatedQA: dev split, and train for test; its test split is not here); "
        "fresh: the writer and act cases written after the test ones were looked at; blind: "
        "writer and act cases written by another engineer, blind to every result and never "
        "used to choose; blind2 to blind9: 30 more such cases each, by helper engineers "
        "(fresh and the blind splits: the other tasks use the test split's)",
    )
    p.add_argument("--variations", type=int, default=30, help="clone variations (default 30)")
    p.add_argument("--questions", type=int, default=30, help="SituatedQA questions (default 30)")
    p.add_argument(
        "--tasks",
        default="clone,sibling,sqa,writer,act",
        help="comma-separated: clone, sibling, sqa, writer, act, broad-clone, broad-sibling, "
        "quiet (texts that state no change but get a note), chat (LoCoMo's turns as the "
        "user's messages; default: the first five)",
    )
    p.add_argument(
        "--chat-data",
        type=Path,
        default=C.default_data("locomo/locomo10.json"),
        help="LoCoMo's locomo10.json for the chat task (default: ../shared/data/locomo/)",
    )
    p.add_argument(
        "--chat-turns", type=int, default=10, help="chat task: turns per conversation (10)"
    )
    p.add_argument(
        "--writer-variant",
        default="library",
        help="the system prompt and correct schema of the writer and act tasks, of: "
        + ", ".join(WP.VARIANTS)
        + " (default library: what nowline ships)",
    )
    p.add_argument(
        "--prompt-note",
        action="store_true",
        help="writer and act tasks: the agent loop adds nowline's note on the user's message "
        "(nowline.tools.message_note, what nowline hook adds on UserPromptSubmit) to the "
        "user's turn before the model's first call",
    )
    p.add_argument(
        "--writer-cases",
        default="",
        help="the split's writer cases to ask: a slice (0:12) or indices (0,4,9); default all "
        "(34 dev, 30 test)",
    )
    p.add_argument("--act-cases", type=int, default=30, help="end-to-end act cases (default 30)")
    p.add_argument(
        "--formats",
        default="library",
        help=f"comma-separated nowline formats, of: {', '.join(FORMATS)} (default library)",
    )
    p.add_argument(
        "--conditions",
        default="",
        help="comma-separated conditions to ask (default: bare, plain and every format)",
    )
    p.add_argument("--temperatures", type=float, nargs="*", default=[], help="sampled runs")
    p.add_argument("--seeds", type=int, default=1, help="seeds per temperature (default 1)")
    p.add_argument(
        "--sampled-only", action="store_true", help="only the sampled runs (no greedy run)"
    )
    p.add_argument(
        "--data",
        type=Path,
        default=None,
        help="SituatedQA raw_data folder (default ../shared/data/situatedqa/data/raw_data)",
    )
    p.add_argument("--name", default="", help="suffix of the result files' name")
    p.add_argument(
        "--first",
        type=int,
        default=0,
        help="skip this many variations and questions (to split a run over processes)",
    )
    p.add_argument(
        "--merge",
        type=Path,
        nargs="*",
        default=None,
        help="instead of running: add up the counts of these JSON results into one report",
    )
    args = p.parse_args(argv)
    if not args.smoke and args.model is None and args.merge is None:
        p.error("--model is required (or --smoke)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and write its report."""
    args = parse_args(argv)
    if args.merge is not None:
        return merge(args)
    start = time.perf_counter()
    tasks = [t for t in args.tasks.split(",") if t]
    formats = [f for f in args.formats.split(",") if f]
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise SystemExit(f"unknown format(s) {unknown}; choose from {list(FORMATS)}")
    conditions = [c for c in args.conditions.split(",") if c] or None
    if args.smoke:
        args.variations, args.questions = min(args.variations, 3), min(args.questions, 3)
        model: Model = FakeModel()
        model_info = {"name": model.name, "sha256": "-", "path": None}
    else:
        model = LlamaModel(args.model, threads=args.threads)
        model_info = {
            "name": args.model.name,
            "sha256": sha256_of(args.model),
            "path": C.portable(args.model),
            "metadata": model.metadata,  # type: ignore[attr-defined]
        }
    runs = runs_of(args)
    base = DEV_SEED if args.split == "dev" else TEST_SEED
    raw = args.data or C.DATA_ROOT / "situatedqa" / "data" / "raw_data"
    sqa_file = raw / ("temp.dev.jsonl" if args.split == "dev" else "temp.train.jsonl")
    data: dict[str, Any] = {
        "benchmark": "reader",
        "machine": C.machine_info(),
        "command": C.command_line(),
        "model": model_info,
        "caveat": CAVEAT,
        "config": {
            "smoke": args.smoke,
            "split": args.split,
            "variations": args.variations,
            "questions": args.questions,
            "tasks": tasks,
            "formats": formats,
            "conditions": conditions,
            "runs": [r.label for r in runs],
            "threads": args.threads,
            "writer_variant": args.writer_variant,
            "prompt_note": args.prompt_note,
            "writer_cases": args.writer_cases,
            "sqa_file": C.portable(sqa_file),
            "git": _git_head(),
        },
        "tasks": {},
    }
    name = f"reader.{args.split}" + (f".{args.name}" if args.name else "")

    def checkpoint(task_names: Sequence[str]) -> Callable[[dict[str, Any]], None]:
        """Return a function that writes the partial counts of ``task_names``."""

        def write(res: dict[str, Any]) -> None:
            for t in task_names:
                if t in res["counts"]:
                    data["tasks"][t] = {"counts": res["counts"][t], "tokens": res["context_tokens"]}
            key = "sqa" if "sqa" in task_names else "clone"
            key = "broad" if set(task_names) & set(BROAD_TASKS) else key
            data[f"{key}_samples"] = res["samples"]
            data["partial"] = True
            data["seconds"] = time.perf_counter() - start
            C.write_report(args.out, name, data, markdown(data), echo=False)

        return write

    def partial(task: str) -> Callable[[dict[str, Any]], None]:
        """Return a function that writes the result of ``task`` so far."""

        def write(res: dict[str, Any]) -> None:
            data["tasks"][task] = res
            data["partial"] = True
            data["seconds"] = time.perf_counter() - start
            C.write_report(args.out, name, data, markdown(data), echo=False)

        return write

    stores = Stores()
    try:
        with C.progress(desc="prompts", unit="prompt") as bar:
            reading = [t for t in ("clone", "sibling") if t in tasks]
            if reading:
                cases = [clone_case(base + args.first + i) for i in range(args.variations)]
                res = reading_task(
                    model, stores, cases, reading, conditions, formats, runs,
                    system=READER_SYSTEM, old_only=False, scorer=slug_score, bar=bar,
                    checkpoint=checkpoint(reading),
                )  # fmt: skip
                for t in reading:
                    data["tasks"][t] = {"counts": res["counts"][t], "tokens": res["context_tokens"]}
                data["clone_example_contexts"] = res["example_contexts"]
                data["clone_samples"] = res["samples"]
            broad = [t for t in BROAD_TASKS if t in tasks]
            if broad:
                bbase = BROAD_DEV_SEED if args.split == "dev" else BROAD_TEST_SEED
                cases = [broad_case(bbase + args.first + i) for i in range(args.variations)]
                res = reading_task(
                    model, stores, cases, broad, conditions, formats, runs,
                    system=READER_SYSTEM, old_only=False, scorer=slug_score, bar=bar,
                    checkpoint=checkpoint(broad),
                )  # fmt: skip
                for t in broad:
                    data["tasks"][t] = {"counts": res["counts"][t], "tokens": res["context_tokens"]}
                data["broad_example_contexts"] = res["example_contexts"]
                data["broad_samples"] = res["samples"]
            if "sqa" in tasks and sqa_file.exists():
                picked = sqa_cases(sqa_file, args.first + args.questions, base)[args.first :]
                cases = [(c, _sqa_order(c)) for c in picked]
                res = reading_task(
                    model, stores, cases, ["sqa"], conditions, formats, runs,
                    system=SQA_SYSTEM, old_only=True, scorer=answer_score, bar=bar,
                    checkpoint=checkpoint(["sqa"]),
                )  # fmt: skip
                data["tasks"]["sqa"] = {
                    "counts": res["counts"].get("sqa", {}),
                    "tokens": res["context_tokens"],
                }
                data["sqa_example_contexts"] = res["example_contexts"]
                data["sqa_samples"] = res["samples"]
            if "writer" in tasks:
                data["tasks"]["writer"] = writer_task(
                    model, stores, runs, bar=bar, cases=_sliced(W.writer_cases(args.split),
                    args.writer_cases), variant=args.writer_variant,
                    checkpoint=partial("writer"), note=args.prompt_note,
                )  # fmt: skip
            if "quiet" in tasks:
                data["tasks"]["quiet"] = quiet_task(
                    model, stores, runs, bar=bar, variant=args.writer_variant, smoke=args.smoke
                )
            if "chat" in tasks:
                if args.chat_data is None or not args.chat_data.exists():
                    raise SystemExit("the chat task needs LoCoMo: pass --chat-data")
                data["tasks"]["chat"] = chat_task(
                    model, stores, runs, bar=bar, path=args.chat_data, per=args.chat_turns,
                    variant=args.writer_variant, note=args.prompt_note, smoke=args.smoke,
                )  # fmt: skip
            if "act" in tasks:
                n_act = min(args.act_cases, 3) if args.smoke else args.act_cases
                acts = W.act_cases(args.split, args.first + n_act)[args.first :]
                second = None if args.smoke else LlamaModel(args.model, threads=args.threads)
                data["tasks"]["act"] = act_task(
                    model, stores, acts, runs, bar=bar, variant=args.writer_variant,
                    checkpoint=partial("act"), reader=second, note=args.prompt_note,
                )  # fmt: skip
    finally:
        stores.close()
    data["seconds"] = time.perf_counter() - start
    data["partial"] = False
    C.write_report(args.out, name, data, markdown(data))
    return 0


def merge(args: argparse.Namespace) -> int:
    """Add up the counts of several results of one model into ``reader.<split>.<name>``."""
    parts = [json.loads(path.read_text()) for path in args.merge]
    if not parts:
        raise SystemExit("--merge needs at least one JSON result")
    if len({p["model"]["sha256"] for p in parts}) != 1:
        raise SystemExit("--merge: the results come from different models")
    data = dict(parts[0], tasks={}, merged_from=[C.portable(str(p)) for p in args.merge])
    data["partial"] = any(p.get("partial") for p in parts)
    data["seconds"] = sum(p.get("seconds", 0.0) for p in parts)
    data["command"] = C.command_line()
    cases = {c.key: c for split in W._SPLITS for c in W.writer_cases(split)}
    stores = Stores()
    weights: dict[str, dict[str, list[float]]] = {}
    for part in parts:
        for task, block in part["tasks"].items():
            if task == "act":  # counted as it was run: the actions depend on the stores
                into = data["tasks"].setdefault(task, {"runs": {}, "summary": {}})
                into["variant"] = block.get("variant")
                for label, rows in block["runs"].items():
                    into["runs"].setdefault(label, []).extend(rows)
                into["summary"] = act_summary(into["runs"])
                continue
            if task == "writer":  # scored again from the replies, with this scorer
                into = data["tasks"].setdefault(task, {"runs": {}, "summary": {}})
                for label, rows in block["runs"].items():
                    for row in rows:
                        scored = writer_score(stores, cases[row["case"]], row["reply"])
                        if "retry" in row:
                            case = cases[row["case"]]
                            scored["retry"] = writer_score(stores, case, row["retry"]["reply"])
                        if "answer" in row:
                            scored["answer"] = row["answer"]
                        into["runs"].setdefault(label, []).append({"case": row["case"], **scored})
                into["variant"] = block.get("variant")
                into["summary"] = writer_summary(into["runs"])
                continue
            into = data["tasks"].setdefault(task, {"counts": {}, "tokens": {}})
            for cond, by_run in block["counts"].items():
                asked = sum(next(iter(by_run.values()), {}).values())  # contexts of this part
                if cond in block["tokens"]:
                    sums = weights.setdefault(task, {}).setdefault(cond, [0.0, 0])
                    sums[0] += block["tokens"][cond] * asked
                    sums[1] += asked
                for label, c in by_run.items():
                    have = into["counts"].setdefault(cond, {}).setdefault(label, {})
                    for outcome, k in c.items():
                        have[outcome] = have.get(outcome, 0) + k
    for task, by_cond in weights.items():  # each part's mean, weighted by its contexts
        for cond, (total, n) in by_cond.items():
            data["tasks"][task]["tokens"][cond] = round(total / n, 1) if n else 0.0
    stores.close()
    name = f"reader.{parts[0]['config']['split']}" + (f".{args.name}" if args.name else "")
    C.write_report(args.out, name, data, markdown(data))
    return 0


def _sliced(cases: Sequence[WriterCase], spec: str) -> Sequence[WriterCase]:
    """Return the cases ``--writer-cases`` picks (``start:stop`` or ``i,j,k``); all when empty."""
    if not spec:
        return cases
    if ":" not in spec:
        return [cases[int(i)] for i in spec.split(",")]
    start, _, stop = spec.partition(":")
    return cases[int(start or 0) : int(stop) if stop else None]


def _git_head() -> str | None:
    """Return the repository's commit (what ``library`` renders depends on it), or None."""
    import subprocess

    try:
        out = subprocess.run(
            ["git", "-C", str(C.REPO_ROOT), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _sqa_order(case: Case) -> list[str]:
    """Return a SituatedQA case's hit order: the old facts, the correction, the others."""
    ids = [i for i, _ in case.memories]
    olds = [i for i in ids if i.endswith((":old-a", ":old-b"))]
    rest = [i for i in ids if i not in olds]
    return [*olds, case.correction[0], *rest]


if __name__ == "__main__":
    raise SystemExit(main())

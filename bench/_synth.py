"""Deterministic synthetic agent memories for the core benchmarks (no downloads)."""

from __future__ import annotations

import random

import numpy as np

__all__ = ["SIBLING", "STALE", "memories", "random_embeddings"]

STALE = "metalcraftai/ufo"
SIBLING = "metalcraftai/ufo-hosted"

_VERBS = ["merged", "reviewed", "opened", "closed", "tagged", "deployed", "pinned", "forked"]
_NOUNS = ["PR", "issue", "release", "branch", "build", "pipeline", "ticket", "draft"]
_ORGS = ["acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "tyrell"]
_REPOS = ["api", "web", "infra", "docs", "sdk", "cli", "core", "mobile", "data", "ml"]
_PEOPLE = ["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun"]


def _sentence(rng: random.Random, repo: str) -> str:
    """Return one memory-like sentence about ``repo``."""
    kind = rng.randrange(4)
    n = rng.randrange(1, 9999)
    if kind == 0:
        return f"{repo} — {rng.choice(_NOUNS)} #{n} {rng.choice(_VERBS)} by {rng.choice(_PEOPLE)}."
    if kind == 1:
        return (
            f"Clone with git clone https://github.com/{repo}.git before the {rng.choice(_NOUNS)}."
        )
    if kind == 2:
        return f"{rng.choice(_PEOPLE)} asked about {repo} in #{rng.choice(_REPOS)}-dev on day {n}."
    return f"Deadline for {repo}/{rng.choice(_REPOS)} {rng.choice(_NOUNS)} is in {n % 30} days."


def memories(n: int, stale: int, sibling: int, seed: int = 7) -> list[tuple[str, str]]:
    """Return ``n`` (id, text) memories: ``stale`` name STALE, ``sibling`` name SIBLING."""
    rng = random.Random(seed)
    kinds = ["stale"] * stale + ["sibling"] * sibling + ["other"] * (n - stale - sibling)
    rng.shuffle(kinds)
    out = []
    for i, kind in enumerate(kinds):
        if kind == "stale":
            repo = STALE
        elif kind == "sibling":
            repo = SIBLING
        else:
            repo = f"{rng.choice(_ORGS)}/{rng.choice(_REPOS)}{rng.randrange(500)}"
        out.append((f"{kind}-{i}", _sentence(rng, repo)))
    return out


def random_embeddings(n: int, dim: int = 384, seed: int = 7) -> np.ndarray:
    """Return ``n`` unit-length float32 vectors (a stand-in for real embeddings)."""
    rng = np.random.default_rng(seed)
    v = rng.standard_normal((n, dim)).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return v

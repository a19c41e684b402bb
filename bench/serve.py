"""``nowline serve``: how long a GitHub delivery takes to be answered, over loopback.

DESIGN §9: a delivery answered in under 0.5 s at 100k records (the correction's own
propagation aside). This script builds one local store of ``--size`` memories (written with
plain chromadb and random embeddings, so building costs Chroma's insert alone; ``--per-repo``
of them name each repository that will be renamed), serves it with the receiver (uvicorn in a
thread of this process, on a free 127.0.0.1 port) and measures, with httpx over a real socket:

* ``ping``: a signed ``ping`` (verified, parsed, answered 202, nothing stored): the HTTP and
  signature floor;
* ``rename``: a signed ``repository`` ``renamed`` delivery that stores a correction reaching
  ``--per-repo`` memories (answered 201): the whole path, propagation included;
* ``redelivery``: the same delivery again (answered 200; finds the stored correction and
  counts its reach with ``preview()``);
* ``correct()``: the same kind of correction written directly, without HTTP (the propagation
  the design target sets aside), for comparison.

Caveats: the correction's embedding is a hash stand-in (``_common.HashEmbedding``), so no model
time is included (the real model adds its own few milliseconds per correction); the client
and the server share the machine; every timing is one round trip, so load on a shared machine
shows up directly (the load average is in the report).

Run ``.venv/bin/python bench/serve.py`` (100k records; a few minutes, mostly building) or
``--smoke``. Writes ``serve.json`` and ``serve.md`` to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import uvicorn

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C
from _synth import random_embeddings

import nowline
from nowline.surfaces.github_events import sign
from nowline.surfaces.serve import create_app

SECRET = "bench-secret"
WORDS = ["deploy", "review", "merged", "release", "staging", "pipeline", "flaky", "owner"]


def memories(n: int, repos: list[str], per_repo: int, seed: int) -> list[tuple[str, str]]:
    """Return (id, text) of ``n`` memories; ``per_repo`` of them name each repository."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        words = " ".join(rng.choice(WORDS) for _ in range(8))
        out.append((f"m{i}", f"Note {i}: {words}."))
    for r, repo in enumerate(repos):
        for k in range(per_repo):
            i = r * per_repo + k
            out[i] = (out[i][0], f"{repo} — {out[i][1]}")
    return out


def build(path: Path, n: int, repos: list[str], per_repo: int, seed: int) -> None:
    """Write the memories with plain chromadb in batches (no nowline bookkeeping needed)."""
    client = C.new_client(path)
    col = C.new_collection(client, "memory")
    rows = memories(n, repos, per_repo, seed)
    vectors = random_embeddings(n, seed=seed)
    batch = client.get_max_batch_size()
    for start in range(0, n, batch):
        part = rows[start : start + batch]
        col.add(
            ids=[r for r, _ in part],
            documents=[t for _, t in part],
            embeddings=vectors[start : start + len(part)],
        )


def renamed(repo: str, when: str) -> dict[str, Any]:
    """Return a renamed payload: ``repo`` was renamed to ``repo``-next."""
    owner, name = repo.split("/")
    return {
        "action": "renamed",
        "changes": {"repository": {"name": {"from": name}}},
        "repository": {
            "full_name": f"{owner}/{name}-next",
            "html_url": f"https://github.com/{owner}/{name}-next",
            "updated_at": when,
        },
    }


def post(http: httpx.Client, event: str, payload: Any, delivery: str) -> tuple[float, int]:
    """POST one signed delivery; return (seconds, status)."""
    raw = json.dumps(payload).encode()
    headers = {
        "Content-Type": "application/json",
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": delivery,
        "X-Hub-Signature-256": sign(SECRET, raw),
    }
    start = time.perf_counter()
    got = http.post("/github", content=raw, headers=headers)
    return time.perf_counter() - start, got.status_code


def main() -> None:
    """Build, serve, measure, report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=100_000, help="memories in the store")
    parser.add_argument("--repeats", type=int, default=20, help="deliveries of each kind")
    parser.add_argument("--per-repo", type=int, default=50, help="memories naming each repo")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--smoke", action="store_true", help="2,000 records, 5 repeats")
    parser.add_argument("--out", type=Path, default=C.REPO_ROOT / "bench" / "results")
    args = parser.parse_args()
    if args.smoke:
        args.size, args.repeats = 2000, 5
    info = C.machine_info()
    began = time.perf_counter()
    repos = [f"bench-org/repo-{i}" for i in range(2 * args.repeats)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "store"
        start = time.perf_counter()
        build(path, args.size, repos, args.per_repo, args.seed)
        build_s = time.perf_counter() - start
        raw = C.new_client(path).get_collection("memory", embedding_function=C.HashEmbedding())
        col = nowline.wrap(raw, embedding_function=C.HashEmbedding())
        server = uvicorn.Server(
            uvicorn.Config(
                create_app(col, github_secret=SECRET), host="127.0.0.1", port=0, log_level="error"
            )
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        times: dict[str, list[float]] = {"ping": [], "rename": [], "redelivery": [], "correct": []}
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            post(http, "ping", {"zen": "warm up", "hook_id": 1}, "warm")
            for i in range(args.repeats):
                seconds, status = post(http, "ping", {"zen": "hi", "hook_id": 1}, f"p{i}")
                assert status == 202, status
                times["ping"].append(seconds)
                delivery = str(uuid.uuid4())
                payload = renamed(repos[i], "2026-03-02T10:00:00Z")
                seconds, status = post(http, "repository", payload, delivery)
                assert status == 201, status
                times["rename"].append(seconds)
                seconds, status = post(http, "repository", payload, delivery)
                assert status == 200, status
                times["redelivery"].append(seconds)
        server.should_exit = True
        thread.join(30)
        for repo in repos[args.repeats :]:
            start = time.perf_counter()
            report = col.correct(
                f"GitHub repository {repo} was renamed to {repo}-next on 2026-03-02; use "
                f"{repo}-next.",
                deprecates=[repo],
            )
            times["correct"].append(time.perf_counter() - start)
            assert report.reached == args.per_repo, report.reached
    stats = {k: C.summarize(v) for k, v in times.items()}
    data = {
        "machine": info,
        "size": args.size,
        "per_repo": args.per_repo,
        "repeats": args.repeats,
        "build_seconds": build_s,
        "seconds": stats,
    }
    rows = [
        (
            kind,
            C.fmt_s(stats[kind]["p50"]),
            C.fmt_s(stats[kind]["p95"]),
            C.fmt_s(stats[kind]["max"]),
        )
        for kind in ("ping", "rename", "redelivery", "correct")
    ]
    markdown = (
        C.run_header(
            "nowline serve: a delivery answered over loopback",
            info,
            C.command_line(),
            time.perf_counter() - began,
        )
        + f"\n{args.size:,} memories; each rename reaches {args.per_repo}; "
        f"{args.repeats} deliveries of each kind. `correct()` is the same correction written "
        "directly (the propagation the target sets aside).\n\n"
        + C.md_table(("what", "p50", "p95", "max"), rows)
    )
    C.write_report(args.out, "serve", data, markdown)


if __name__ == "__main__":
    main()

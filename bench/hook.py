"""Hook: what ``nowline hook`` costs per tool call, as a whole process, against its floors.

See docs/tool-boundary.md (issue 26). Run ``.venv/bin/python bench/hook.py`` (a store of
1,000 active corrections and 10,000 memories, 7 samples per case; about two minutes on a
shared 2-core machine) or ``--smoke`` (seconds). Writes ``hook.json`` and ``hook.md`` to
``--out``.

A coding agent starts the hook command once per tool call, so what counts is the whole process:
Python's start, the imports, opening the store, the check, the output. Every sample is a new
process; the cases run in turn (one sample of each, then the next round), so a machine that
slows down slows every case alike. The figures per process come from the operating system
(``os.wait4``: user and system CPU); wall time is measured around it. Peak memory is left
out: a child's ``ru_maxrss`` counts the pages of this parent process that it had before
``exec``.

Cases:

* ``import chromadb``: ``python -c "import chromadb"``, the floor of any Python process that
  reads a Chroma store (``nowline`` must import chromadb to read one);
* ``nowline check``: the CLI's own floor: the same store opened read-only and one text checked;
* ``hook: stale call (deny)``: a PreToolUse event whose command names a deprecated slug; the
  hook prints the deny;
* ``hook: current call``: a PreToolUse event that names nothing outdated (the common case);
* ``hook: 1 MB result``: a PostToolUse event whose Bash stdout is 1 MB of text naming nothing
  outdated;
* ``hook: 1 MB stale write (deny)``: a PreToolUse ``Write`` of a 1 MB CSV file whose first
  line names a deprecated slug beside its new value (the shape an adversarial review found
  slow: the reader of a statement of the change read the whole text, 7 µs a character);
* ``nowline check, full path`` and ``hook: current call, full path``: the same with
  ``NOWLINE_NO_FAST_PATH=1``, which opens the store through chromadb instead of answering
  from the snapshot the store's generation mark confirms (the other cases take the fast path:
  the store was written through nowline, which saved that snapshot).

Caveats: the store is local (a ``--url`` server adds a round trip and saves opening the store
in the process); the embeddings are a cheap hash (the hook embeds nothing, so this changes
nothing it measures); the machine is shared with other jobs, so compare the ratios, not the
absolute times.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C

import nowline

SEED = 20261226
NAME = "memory"
FULL_PATH = ["env", "NOWLINE_NO_FAST_PATH=1"]
"""The prefix that sends ``nowline hook`` and ``nowline check`` down their full path."""


def slug(i: int) -> str:
    """Return the deprecated slug of correction ``i``."""
    return f"org{i}/repo{i}"


def build(path: Path, corrections: int, memories: int) -> None:
    """Write a store of active corrections and plain memories (hash embeddings)."""
    col = nowline.wrap(
        C.new_client(path).create_collection(NAME, embedding_function=None),
        embedding_function=C.HashEmbedding(),
    )
    for lo in range(0, corrections, 500):
        hi = min(corrections, lo + 500)
        col.add(
            ids=[f"fix-{i}" for i in range(lo, hi)],
            documents=[f"Moved from {slug(i)} to team{i}/proj{i}." for i in range(lo, hi)],
            metadatas=[{"deprecates": [slug(i)]} for i in range(lo, hi)],
        )
    for lo in range(0, memories, 1000):
        hi = min(memories, lo + 1000)
        col.add(
            ids=[f"mem-{i}" for i in range(lo, hi)],
            documents=[
                f"Build notes {i}: the nightly job of service {i} passed." for i in range(lo, hi)
            ],
        )


def event(name: str, **fields: Any) -> str:
    """Return a hook event as Claude Code writes it."""
    return json.dumps(
        {"session_id": "bench", "hook_event_name": name, "tool_name": "Bash", **fields}
    )


def run_once(cmd: list[str], stdin: Path | None) -> dict[str, Any]:
    """Run one process; return its wall time, CPU, exit code and output."""
    with tempfile.TemporaryFile() as out:
        source = open(stdin, "rb") if stdin is not None else subprocess.DEVNULL  # noqa: SIM115
        try:
            start = time.perf_counter()
            proc = subprocess.Popen(cmd, stdin=source, stdout=out, stderr=subprocess.STDOUT)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
        finally:
            if stdin is not None:
                source.close()  # type: ignore[union-attr]
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "rc": proc.returncode,
        "output": text,
    }


def cases(store: Path, folder: Path) -> dict[str, tuple[list[str], Path | None, str]]:
    """Return each case: its command, its stdin file and what its output must show."""
    nowline_cli = str(Path(sys.executable).with_name("nowline"))
    hook = [nowline_cli, "hook", "--path", str(store)]
    stale = folder / "stale.json"
    stale.write_text(
        event("PreToolUse", tool_input={"command": f"git clone https://github.com/{slug(7)}.git"})
    )
    current = folder / "current.json"
    current.write_text(
        event("PreToolUse", tool_input={"command": "git clone https://github.com/team7/proj7.git"})
    )
    big = folder / "big.json"
    line = "service 12 passed; see https://github.com/team12/proj12 for the log\n"
    big.write_text(
        event(
            "PostToolUse",
            tool_input={"command": "cat build.log"},
            tool_response={"stdout": line * (1_000_000 // len(line)), "stderr": ""},
        )
    )
    stale_big = folder / "stale_big.json"
    rows = "".join(f"{i},{i * 3},{i % 13},ok\n" for i in range(80_000))
    stale_big.write_text(
        event(
            "PreToolUse",
            tool_name="Write",
            tool_input={
                "file_path": "repos.csv",
                "content": f"repo,{slug(12)},team12/proj12\n{rows}"[:1_000_000],
            },
        )
    )
    return {
        "import chromadb": ([sys.executable, "-c", "import chromadb"], None, ""),
        "nowline check": (
            [nowline_cli, "check", str(store), f"git clone {slug(7)}"],
            None,
            "now: Moved from",
        ),
        "hook: stale call (deny)": (hook, stale, '"permissionDecision": "deny"'),
        "hook: current call": (hook, current, ""),
        "hook: 1 MB result": (hook, big, ""),
        "hook: 1 MB stale write (deny)": (hook, stale_big, '"permissionDecision": "deny"'),
        # The same commands told to skip the fast path: they open the store through chromadb.
        "nowline check, full path": (
            [*FULL_PATH, nowline_cli, "check", str(store), f"git clone {slug(7)}"],
            None,
            "now: Moved from",
        ),
        "hook: current call, full path": ([*FULL_PATH, *hook], current, ""),
    }


def markdown(data: dict[str, Any]) -> str:
    """Return the report."""
    cfg = data["config"]
    lines = [
        C.run_header("Hook", data["machine"], data["command"], data["seconds"]),
        f"A local store of {cfg['corrections']:,} active corrections and {cfg['memories']:,} "
        f"memories; medians of {cfg['repeats']} fresh processes per case, the cases in turn. "
        "Ratios are the medians of the per-round ratios; on a loaded machine the CPU ratios "
        "are the steadier ones.\n",
    ]
    rows = []
    for case, s in data["cases"].items():
        rows.append(
            [
                case,
                f"**{C.fmt_s(s['wall_s'])}**",
                C.fmt_s(s["cpu_s"]),
                C.fmt_ratio(s["vs_import_chromadb"]),
                C.fmt_ratio(s["vs_nowline_check"]),
                C.fmt_ratio(s["cpu_vs_import_chromadb"]),
                C.fmt_ratio(s["cpu_vs_nowline_check"]),
            ]
        )
    lines.append(
        C.md_table(
            [
                "case",
                "wall",
                "CPU",
                "wall / import chromadb",
                "wall / nowline check",
                "CPU / import chromadb",
                "CPU / nowline check",
            ],
            rows,
        )
    )
    return "\n".join(lines)


def main() -> None:
    """Build the store, time each case, write the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    C.add_common_args(parser, seed=SEED)
    parser.add_argument("--corrections", type=int, default=1000)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    if args.smoke:
        args.corrections, args.memories, args.repeats = 50, 200, 1
    began = time.perf_counter()
    info = C.machine_info()
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        folder = Path(tmp)
        store = folder / "store"
        build(store, args.corrections, args.memories)
        todo = cases(store, folder)
        samples: dict[str, list[dict[str, Any]]] = {name: [] for name in todo}
        for _ in C.progress(range(args.repeats + 1), desc="rounds"):  # the first warms up
            for name, (cmd, stdin, expect) in todo.items():
                got = run_once(cmd, stdin)
                wanted_rc = 1 if name.startswith("nowline check") else 0
                if got["rc"] != wanted_rc or expect not in got["output"]:
                    raise RuntimeError(f"{name}: exit {got['rc']}\n{got['output'][-2000:]}")
                if name.startswith("hook") and not expect and got["output"]:
                    raise RuntimeError(f"{name} printed {got['output'][-500:]!r}")
                samples[name].append(got)
    out: dict[str, Any] = {}
    for name, runs in samples.items():
        runs = runs[1:]
        floor = samples["import chromadb"][1:]
        check = samples["nowline check"][1:]
        out[name] = {
            "wall_s": float(np.median([r["wall_s"] for r in runs])),
            "cpu_s": float(np.median([r["cpu_s"] for r in runs])),
            "vs_import_chromadb": float(
                np.median([r["wall_s"] / f["wall_s"] for r, f in zip(runs, floor, strict=True)])
            ),
            "vs_nowline_check": float(
                np.median([r["wall_s"] / c["wall_s"] for r, c in zip(runs, check, strict=True)])
            ),
            "cpu_vs_import_chromadb": float(
                np.median([r["cpu_s"] / f["cpu_s"] for r, f in zip(runs, floor, strict=True)])
            ),
            "cpu_vs_nowline_check": float(
                np.median([r["cpu_s"] / c["cpu_s"] for r, c in zip(runs, check, strict=True)])
            ),
            "samples_wall_s": [r["wall_s"] for r in runs],
        }
    data = {
        "machine": info,
        "command": C.command_line(),
        "seconds": time.perf_counter() - began,
        "config": {
            "corrections": args.corrections,
            "memories": args.memories,
            "repeats": args.repeats,
        },
        "cases": out,
    }
    C.write_report(args.out, "hook", data, markdown(data))


if __name__ == "__main__":
    main()

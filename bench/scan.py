"""Scan: how fast ``nowline scan`` reads a workspace, beside raw pyahocorasick on the same files.

See docs/tool-boundary.md (issue 26). Run ``.venv/bin/python bench/scan.py`` (the installed
``sympy`` package as the tree, about 80 MB; a few minutes on a shared 2-core machine) or
``--smoke`` (a small generated tree; seconds). ``--tree FOLDER`` scans another folder. Writes
``scan.json`` and ``scan.md`` to ``--out``.

Setup. A local store holds ``--corrections`` active corrections: slugs that occur nowhere
(``org<i>/repo<i>``), plus a few dotted module names that occur in the tree, so that the scan
reports findings. The tree is copied into a temporary folder first, outside any git work tree
(a virtualenv often sits in an ignored folder of one, where a scan reads only tracked files),
so every file is read; binary files (``.pyc``, shared objects) are read and skipped.

Measurement, in one process, each ``--repeats`` times after one warm-up (so the files are in
the page cache and the store is open: what is left is reading and matching):

* ``read + decode``: read every file, skip binaries, decode UTF-8: the floor of any scan;
* ``raw pyahocorasick``: the same, lower-cased, through one pyahocorasick automaton of the
  lower-cased deprecated strings (``Automaton.iter``), counting hits. It has no token
  boundaries, no Unicode folding, no anchors and no scopes, so it reports more than nowline
  (for example ``org1/repo1`` inside ``org1/repo10``) and does less work;
* ``nowline scan``: ``nowline.surfaces.scan.scan([tree], collection.check)``: the same reads,
  each text through ``Collection.check()`` (the registry's matcher, token-bounded and
  Unicode-folded, anchors and scope), line and column for every finding.

The raw count is higher than nowline's: it has no boundaries (``sympy.utilities`` inside
``sympy.utilities.iterables``, which nowline's dotted-name rule leaves alone). In this tree
about four in ten text files trip, far more than in a real workspace; each check() that trips
re-reads the corrections it shows from the store (nowline's freshness rule), which is most of
the time nowline spends beyond the raw automaton.

MB/s is the tree's bytes (binaries included, as all are read) over the median time. The whole
``nowline scan`` command is timed once more as a process (Python's start, the imports, opening
the store included). The machine is shared with other jobs: compare the rows, not absolute
times.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import ahocorasick
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C

import nowline
from nowline.surfaces import scan

SEED = 20261226
NAME = "memory"
PRESENT = ["sympy.core.numbers", "sympy.polys.polytools", "mpmath.libmp", "sympy.utilities"]


def default_tree() -> Path:
    """Return the folder of the installed sympy package (chromadb's if sympy is missing)."""
    for name in ("sympy", "chromadb"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            return Path(next(iter(spec.submodule_search_locations)))
    raise SystemExit("give --tree FOLDER")


def smoke_tree(folder: Path) -> Path:
    """Write a small tree of text files (and one binary) that names the PRESENT strings."""
    folder.mkdir()
    for i in range(40):
        body = "".join(
            f"line {j}: import {PRESENT[(i + j) % len(PRESENT)]} as m{j}\n"
            if j % 50 == 0
            else f"line {j}: nothing to see in module {i}.{j}\n"
            for j in range(400)
        )
        (folder / f"f{i}.py").write_text(body, encoding="utf-8")
    (folder / "blob.bin").write_bytes(b"\0" * 10_000)
    return folder


def build(path: Path, corrections: int) -> nowline.Collection:
    """Write the store's corrections (hash embeddings); return the open collection."""
    col = nowline.wrap(
        C.new_client(path).create_collection(NAME, embedding_function=None),
        embedding_function=C.HashEmbedding(),
    )
    phrases = [f"org{i}/repo{i}" for i in range(corrections - len(PRESENT))] + PRESENT
    for lo in range(0, len(phrases), 500):
        chunk = phrases[lo : lo + 500]
        col.add(
            ids=[f"fix-{lo + i}" for i in range(len(chunk))],
            documents=[f"{p} is gone; use the new name." for p in chunk],
            metadatas=[{"deprecates": [p]} for p in chunk],
        )
    return col


def files_of(tree: Path) -> list[Path]:
    """Return every regular file of the tree, as the scan lists them."""
    return [tree / rel for rel in scan.workspace_files(str(tree))]


def read_decode(files: list[Path]) -> int:
    """Read and decode every text file; return the characters decoded."""
    total = 0
    for path in files:
        data = path.read_bytes()
        if data and not scan.is_binary(data):
            total += len(scan.decode(data))
    return total


def raw_aho(files: list[Path], automaton: Any) -> int:
    """Read, decode and lower-case every text file through pyahocorasick; return the hits."""
    hits = 0
    for path in files:
        data = path.read_bytes()
        if data and not scan.is_binary(data):
            for _ in automaton.iter(scan.decode(data).lower()):
                hits += 1
    return hits


def median_time(fn: Any, repeats: int) -> tuple[float, Any]:
    """Return the median wall time of ``fn`` over ``repeats`` runs (after one warm-up)."""
    result = fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), result


def markdown(data: dict[str, Any]) -> str:
    """Return the report."""
    cfg = data["config"]
    lines = [
        C.run_header("Scan", data["machine"], data["command"], data["seconds"]),
        f"Tree: {cfg['tree']} ({cfg['files']:,} files, {cfg['mb']:.1f} MB, of which "
        f"{cfg['text_files']:,} text files); {cfg['corrections']:,} active corrections. "
        f"Medians of {cfg['repeats']} runs in one warm process (files cached, store open).\n",
    ]
    rows = [
        [
            name,
            C.fmt_s(r["seconds"]),
            f"**{r['mb_per_s']:.1f} MB/s**",
            C.fmt_ratio(r["vs_raw"]),
            r["found"],
        ]
        for name, r in data["cases"].items()
    ]
    lines.append(C.md_table(["case", "time", "throughput", "/ raw pyahocorasick", "found"], rows))
    proc = data["process"]
    lines.append(
        f"\nThe whole `nowline scan` command on the tree, as one process: "
        f"{C.fmt_s(proc['seconds'])} (exit {proc['rc']})."
    )
    return "\n".join(lines)


def main() -> None:
    """Build the store, time each case, write the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    C.add_common_args(parser, seed=SEED)
    parser.add_argument("--tree", type=Path, default=None, help="folder to scan")
    parser.add_argument("--corrections", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    began = time.perf_counter()
    info = C.machine_info()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.smoke:
            args.corrections, args.repeats = 50, 1
            tree = args.tree or smoke_tree(folder / "tree")
        else:
            tree = shutil.copytree(args.tree or default_tree(), folder / "tree", symlinks=True)
        col = build(folder / "store", args.corrections)
        files = files_of(tree)
        size = sum(p.stat().st_size for p in files)
        text_files = sum(1 for p in files if not scan.is_binary(p.read_bytes()))
        automaton = ahocorasick.Automaton()
        for item in col.corrections():
            for phrase in item.deprecates:
                automaton.add_word(phrase.lower(), item.id)
        automaton.make_automaton()
        floor_s, chars = median_time(lambda: read_decode(files), args.repeats)
        raw_s, raw_hits = median_time(lambda: raw_aho(files, automaton), args.repeats)
        nl_s, report = median_time(lambda: scan.scan([str(tree)], col.check), args.repeats)
        nowline_cli = str(Path(sys.executable).with_name("nowline"))
        start = time.perf_counter()
        proc = subprocess.run(
            [nowline_cli, "scan", "--path", str(folder / "store"), str(tree), "--format", "json"],
            capture_output=True,
            env={**os.environ},
            check=False,
        )
        process_s = time.perf_counter() - start
        if proc.returncode not in (0, 1):
            raise RuntimeError(proc.stderr.decode()[-2000:])
    mb = size / 1e6
    cases = {
        "read + decode": {"seconds": floor_s, "found": "–"},
        "raw pyahocorasick": {"seconds": raw_s, "found": f"{raw_hits:,} hits"},
        "nowline scan": {
            "seconds": nl_s,
            "found": f"{len(report.findings):,} findings in "
            f"{len({f.path for f in report.findings}):,} files",
        },
    }
    for case in cases.values():
        case["mb_per_s"] = mb / case["seconds"]
        case["vs_raw"] = case["seconds"] / raw_s
    data = {
        "machine": info,
        "command": C.command_line(),
        "seconds": time.perf_counter() - began,
        "config": {
            "tree": C.portable(args.tree or default_tree())
            if not args.smoke
            else "generated (smoke)",
            "files": len(files),
            "text_files": text_files,
            "mb": mb,
            "characters": chars,
            "corrections": args.corrections,
            "repeats": args.repeats,
        },
        "cases": cases,
        "process": {"seconds": process_s, "rc": proc.returncode},
    }
    C.write_report(args.out, "scan", data, markdown(data))


if __name__ == "__main__":
    main()

"""Async memory: nowline over chromadb's AsyncHttpClient, several recalls at once on one loop.

``python examples/async_memory.py`` starts a Chroma server (``chroma run``) on a free port
with its data in a temporary folder, runs the example against it and stops it; an async client
always talks to a server, so this is what a real program does too (usually with the server
already running: ``--url http://localhost:8000``). The part between the README markers is the
README's "Async" example, verbatim (a test compares them); it comes first, so the demo's
own imports follow it.
"""

# ruff: noqa: E402

# README: start
import asyncio

import chromadb

import nowline


async def remember_and_recall(host: str = "localhost", port: int = 8000) -> list[nowline.Recall]:
    client = nowline.wrap(await chromadb.AsyncHttpClient(host=host, port=port))
    memory = await client.get_or_create_collection("agent")  # offline MiniLM by default

    await memory.remember("metalcraftai/ufo — PR #1705 passed review.", id="pr")
    await memory.correct(
        "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo.",
        deprecates=["metalcraftai/ufo"],
    )

    @memory.guard  # an async tool: checked before it runs
    async def open_pr(repo: str, title: str) -> str:
        return f"opened {title!r} on {repo}"

    try:
        await open_pr("metalcraftai/ufo", "Fix the build")
    except nowline.StaleReference as stale:
        print(stale)  # names the correction and the current repository

    # Many recalls at once on one event loop: Chroma requests are awaited, and embedding and
    # matcher scans run in worker threads, so the loop is never blocked by them.
    questions = ["Where is the UFO core PR?", "Which repository do we push to?"]
    return await asyncio.gather(*(memory.recall(q, n_results=3) for q in questions))


# With a server running (chroma run --path ./memory --port 8000):
#     for packet in asyncio.run(remember_and_recall()):
#         print(packet.render())
# README: end

# ---------------------------------------------------- the demo: a server to talk to

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit


def _free_port() -> int:
    """Return a loopback TCP port that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def chroma_run(folder: Path) -> Iterator[tuple[str, int]]:
    """Run ``chroma run`` on a free loopback port, data in ``folder``; yield (host, port)."""
    beside = Path(sys.executable).parent / "chroma"
    cli = str(beside) if beside.exists() else shutil.which("chroma")
    if cli is None:
        raise SystemExit("The chroma command is missing; it comes with chromadb.")
    port = _free_port()
    with open(folder / "server.log", "wb") as log:
        server = subprocess.Popen(
            [
                cli,
                "run",
                "--path",
                str(folder / "data"),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "ANONYMIZED_TELEMETRY": "False"},
        )
        try:
            deadline = time.monotonic() + 60
            url = f"http://127.0.0.1:{port}/api/v2/heartbeat"
            while True:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"The Chroma server did not start; see {folder}/server.log")
                with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=1):
                    break
                time.sleep(0.2)
            yield "127.0.0.1", port
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="a running Chroma server (default: start one for the demo)")
    parser.add_argument(
        "--path", help="the started server's data folder (default: a temporary folder)"
    )
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        if args.url:
            parts = urlsplit(args.url)
            host, port = parts.hostname or "localhost", parts.port or 8000
        else:
            if args.path:
                folder = Path(args.path)
                folder.mkdir(parents=True, exist_ok=True)
            else:
                folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            host, port = stack.enter_context(chroma_run(folder))
        for packet in asyncio.run(remember_and_recall(host, port)):
            print(packet.render())


if __name__ == "__main__":
    main()

"""Guard an agent's tool call: a shell command naming a moved repository is stopped.

In the published incident the agent cloned the archived repository: the memories were
corrected, but the action was not checked. Here `run_shell` is guarded by nowline. This example
never touches the network: `run_shell` is a stand-in that records the command instead of
running it.
"""

from __future__ import annotations

import tempfile

import chromadb

import nowline

CORRECTION = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."


def main() -> None:
    """Run the guarded tool on a stale and on a current command."""
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as path:
        memory = nowline.wrap(chromadb.PersistentClient(path=path)).create_collection("agent")
        memory.correct(CORRECTION, deprecates=["metalcraftai/ufo"])
        ran: list[str] = []

        @memory.guard
        def run_shell(cmd: str) -> str:
            """Run a shell command (a stand-in: it only records the command)."""
            ran.append(cmd)
            return f"(dry run) $ {cmd}"

        for cmd in (
            "git clone https://github.com/metalcraftai/ufo.git",
            "git clone https://github.com/metalcraftai/ufo-hosted.git",
        ):
            print(f"agent> run_shell({cmd!r})")
            try:
                print(run_shell(cmd))
            except nowline.StaleReference as stale:
                print(f"blocked: {stale}")
            print()
        print("cached tool output, annotated:")
        print(memory.annotate("README: contributions go to github.com/metalcraftai/ufo."))
        assert ran == ["git clone https://github.com/metalcraftai/ufo-hosted.git"]


if __name__ == "__main__":
    main()

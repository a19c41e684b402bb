"""Run ``tests.reliability.worker`` modes as child processes and follow their event lines."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from types import TracebackType

import pytest

ROOT = Path(__file__).resolve().parents[2]


class Child:
    """One worker process: read its event lines with a timeout, write lines to it, kill it."""

    def __init__(
        self,
        *args: str,
        module: str = "tests.reliability.worker",
        env: dict[str, str] | None = None,
    ) -> None:
        """Start ``python -m MODULE ARGS`` from the repository root (``env`` adds variables)."""
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in __exit__)
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False", **(env or {})}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env=env,
        )
        self.args = args
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        """Move stdout lines to the queue; None marks the end."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def stderr(self) -> str:
        """Return what the process wrote to stderr so far (the tail)."""
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")[-3000:]

    def expect(self, prefix: str | tuple[str, ...], timeout: float = 120.0) -> str:
        """Return the first next line that starts with ``prefix`` (other lines are skipped).

        ``prefix`` may be a tuple: the first line that starts with any of them.
        """
        while True:
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                pytest.fail(f"worker {self.args} printed no {prefix!r} in {timeout} s")
            if line is None:
                self.proc.wait(timeout=30)
                pytest.fail(
                    f"worker {self.args} exited ({self.proc.returncode}) before {prefix!r}:\n"
                    + self.stderr()
                )
            if line.startswith(prefix):
                return line

    def send(self, line: str = "go") -> None:
        """Write one line to the process's stdin."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        """Kill the process with SIGKILL (no cleanup runs in it) and reap it."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def finish(self, timeout: float = 120.0) -> int:
        """Wait for the process to exit and return its exit code."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        return self.proc.wait(timeout=timeout)

    def __enter__(self) -> Child:
        """Return self."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Kill the process if it is still running (a failed test must not leave it behind)."""
        self.kill()
        self._stderr.close()

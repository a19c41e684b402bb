"""One writer process per local Chroma store (DESIGN.md §10)."""

from __future__ import annotations

import fcntl
import os
import threading

from nowline.errors import StoreBusy

__all__ = ["LOCK_NAME", "hold_writer_lock", "holds_writer_lock"]

LOCK_NAME = "nowline-writer.lock"

_guard = threading.Lock()
_held: dict[str, int] = {}  # real path of the store -> open lock file descriptor


def hold_writer_lock(path: str) -> None:
    """Make this process the only nowline writer of the local store at ``path``.

    The lock is an exclusive ``flock`` on a file in the store's folder, taken at the first
    write and held until the process exits (the kernel releases it then, even after SIGKILL).
    Taking it again in the same process is free.

    Raises:
        StoreBusy: another process holds it.
    """
    real = os.path.realpath(path)
    with _guard:
        if real in _held:
            return
        os.makedirs(real, exist_ok=True)
        fd = os.open(os.path.join(real, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StoreBusy(
                f"Another process is already writing to the local Chroma store at {real}. "
                "Two processes writing to one PersistentClient path corrupt it silently, so "
                "nowline refuses the second writer. For several writer processes run a Chroma "
                f"server (`chroma run --path {real}`) and connect every process with "
                "chromadb.HttpClient; or give each process its own path."
            ) from None
        _held[real] = fd


def holds_writer_lock(path: str) -> bool:
    """Return whether this process holds the writer lock of the store at ``path``."""
    return os.path.realpath(path) in _held

"""The writer lock of a local store: one nowline writer process per store folder.

Two processes writing to one ``PersistentClient`` folder corrupt it silently, so the first
write of a process takes an exclusive lock on a file in the folder and holds it until exit.
"""

from __future__ import annotations

import fcntl
import os
import threading

from ..errors import StoreBusy

__all__ = ["LOCK_NAME", "hold_writer_lock"]

LOCK_NAME = "nowline-writer.lock"
"""The lock file in a local store's folder, held by its one writer process."""

_lock_guard = threading.Lock()
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
    with _lock_guard:
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
                "nowline refuses the second writer; reading still works. For several writer "
                f"processes run a Chroma server (`chroma run --path {real}`) and connect every "
                "process to it (chromadb.HttpClient, or the CLI's --url); or give each process "
                "its own path."
            ) from None
        _held[real] = fd

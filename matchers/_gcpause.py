"""Pausing Python's cyclic garbage collector while nowline builds many objects at once.

CPython starts a collection each time a few hundred container objects (lists, tuples,
dicts) have been allocated, and a full one, which walks every tracked object of the process,
whenever the objects that survived grow by a quarter. Loading 100k corrections allocates
hundreds of thousands of containers, none of them garbage, so a process that has imported
chromadb ran seven full collections during one load: 0.56 s of a 1.5 s start, measured with
``gc.callbacks``. Pausing the collector for the length of such a bulk build removes that work;
whatever becomes garbage meanwhile is collected once the collector runs again.

The pause is shared: when several threads are inside it (a snapshot's read and the build of
the automata overlap), the collector is enabled again when the last one leaves, and only if
it was enabled when the first one came in, so a process that turned the collector off keeps
it off. A child forked while another thread was inside the pause (nowline's background build,
say) starts with the pause undone: that thread does not exist in the child, so the collector is
turned on again there, and the count and lock start afresh.

A process that manages the collector itself (``gc.disable()`` or ``gc.freeze()`` before
forking workers, say) should do so once nowline's first read has returned, or set
``NOWLINE_GC_PAUSE=0``: a pause that ends after its own ``gc.disable()`` turns the collector
on again, since it was on when the pause began.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused"]

_lock = threading.Lock()
_depth = 0
_was_enabled = False


def _after_fork_in_child() -> None:
    """Undo, in a forked child, a pause held by threads that did not come along."""
    global _lock, _depth
    if _depth and _was_enabled:
        gc.enable()
    _lock = threading.Lock()  # it may have been held, by a thread the child lacks
    _depth = 0


os.register_at_fork(after_in_child=_after_fork_in_child)


@contextmanager
def paused() -> Iterator[None]:
    """Keep the cyclic garbage collector off for the block (no collection starts in it)."""
    global _depth, _was_enabled
    if os.environ.get("NOWLINE_GC_PAUSE", "1") == "0":
        yield
        return
    entered = False
    try:
        with _lock:
            if _depth == 0:
                _was_enabled = gc.isenabled()
                gc.disable()
            _depth += 1
            entered = True
        yield
    finally:
        if entered:  # an interrupt before the count went up leaves nothing to undo
            with _lock:
                _depth = max(0, _depth - 1)  # 0 already: this process forked inside the pause
                if _depth == 0 and _was_enabled:
                    gc.enable()

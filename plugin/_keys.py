"""The metadata keys nowline reads and writes (every bookkeeping key starts with ``nowline_``)."""

from __future__ import annotations

__all__ = [
    "BY",
    "CHANGED",
    "CORRECTION",
    "DEPRECATES",
    "NOW",
    "OBSERVED_AT",
    "PREFIX",
    "RETRACTED",
    "ROLE",
    "SCOPE_KEY",
    "TIME",
    "WRITTEN",
]

PREFIX = "nowline_"
DEPRECATES = "deprecates"  # user-facing: the outdated strings a correction names
OBSERVED_AT = "observed_at"  # user-facing: when the fact was observed (ISO 8601 or epoch s)
TIME = "nowline_time"  # float epoch seconds: observed_at, else the moment nowline wrote it
WRITTEN = "nowline_written"  # float epoch seconds of the first write; breaks ties of TIME
BY = "nowline_by"  # list of ids of the active corrections that supersede the record
ROLE = "nowline_role"  # "current" | "historical" | "transition"
CORRECTION = "nowline_correction"  # True on every correction record (active or retracted)
CHANGED = "nowline_changed"  # float epoch seconds of a correction's last change
RETRACTED = "nowline_retracted"  # float epoch seconds when a correction was retracted
NOW = "nowline_now"  # query() output only: ids of the newest corrections to show
SCOPE_KEY = "nowline_scope_key"  # collection metadata: the scope key the store is written with

"""Test helpers: read and forge registry snapshot files (``nowline._io.snapshot``) as a state.

A state is a dict: the file's meta values (``format``, ``nowline``, ``collection``, ``mark``,
``listed``, ``applied``, ``scope_keys``, ``active``) and ``corrections``, the rows as columns
(one list per field of ``CorrectionInfo``). :func:`write_state` writes any state verbatim,
wrong types included, so tests can forge what a program that can write the folder could.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from nowline._io.snapshot import _SCHEMA
from nowline._rules.records import CorrectionInfo
from nowline._rules.registry import index_keys

__all__ = ["read_state", "snapshot_file", "write_state"]

_JSON_META = ("listed", "listing_cost", "applied", "scope_keys")
_FIELDS = CorrectionInfo._fields


def snapshot_file(store: str | Path, pattern: str = "*.snapshot.sqlite") -> Path:
    """Return the one snapshot file under a store's ``nowline`` folder (or a cache folder)."""
    folder = Path(store, "nowline")
    (found,) = (folder if folder.is_dir() else Path(store)).glob(pattern)
    return found


def read_state(path: str | Path) -> dict[str, Any]:
    """Return a snapshot file as a state (see the module)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        rows = [json.loads(r) for (r,) in conn.execute("SELECT info FROM corrections ORDER BY row")]
    finally:
        conn.close()
    state: dict[str, Any] = {k: json.loads(v) if k in _JSON_META else v for k, v in meta.items()}
    state["format"] = int(state["format"])
    state["active"] = int(state["active"])
    state["corrections"] = {
        name: [row[i] for row in rows] for i, name in enumerate(CorrectionInfo._fields)
    }
    return state


def write_state(path: str | Path, state: dict[str, Any]) -> None:
    """Write ``state`` as the snapshot file at ``path``, replacing it (values as they are)."""
    columns = state["corrections"]
    n = max((len(c) for c in columns.values() if isinstance(c, list)), default=0)
    # a column that is no list stands for that value in every row; a short one leaves its
    # field out of the last rows
    listed = [c if isinstance(c := columns[name], list) else [c] * n for name in _FIELDS]
    rows = [tuple(c[i] for c in listed if i < len(c)) for i in range(n)]
    tmp = f"{path}.forging"
    with contextlib.suppress(FileNotFoundError):
        os.remove(tmp)
    conn = sqlite3.connect(tmp)
    try:
        conn.executescript(_SCHEMA)
        for key, value in state.items():
            if key == "corrections":
                continue
            text = json.dumps(value) if key in _JSON_META or not isinstance(value, str) else value
            conn.execute("INSERT INTO meta VALUES (?, ?)", (key, text))
        seen: set[str] = set()
        for row, values in enumerate(rows):
            rid = f"{values[0]}" if isinstance(values[0], str) else f"?{row}"
            rid = rid if rid not in seen else f"{rid}?{row}"  # the file keeps ids apart
            seen.add(rid)
            conn.execute(
                "INSERT INTO corrections VALUES (?, ?, ?)", (row, rid, json.dumps(list(values)))
            )
            _file(conn, row, values)
        conn.commit()
    finally:
        conn.close()
    os.replace(tmp, path)


def _file(conn: sqlite3.Connection, row: int, values: tuple[Any, ...]) -> None:
    """File an active row under its keys, as the writer would.

    A row it cannot file (a forged value of the wrong type) is filed to be read by every
    lookup, so that a forgery is read rather than hidden.
    """
    try:
        if len(values) != len(_FIELDS):
            raise TypeError("a forged row")
        info = CorrectionInfo(*values)
        if type(info.retracted) in (float, int):
            return  # retracted: read by id only
        runs, always, holds = index_keys(info)
        if info.retracted is not None or not (runs or always):
            raise TypeError("a forged row")
    except Exception:
        conn.execute("INSERT INTO always VALUES (?)", (row,))
        return
    conn.executemany("INSERT OR IGNORE INTO runs VALUES (?, ?)", [(r, row) for r in runs])
    conn.executemany("INSERT OR IGNORE INTO holders VALUES (?, ?)", [(k, row) for k in holds])
    if always:
        conn.execute("INSERT INTO always VALUES (?)", (row,))

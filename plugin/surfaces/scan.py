r"""Scanning a workspace for outdated strings: files, git remotes and submodule URLs.

``nowline scan PATH...`` is this module over ``Collection.check()``: :func:`scan` reads every
file under each PATH once (the files git tracks when PATH is inside a git work tree, else every
file; binary files are skipped) and the work tree's remote and submodule URLs, hands each text
to the ``check`` it is given, and returns one :class:`Finding` per occurrence of an active
deprecated string. The formats (:func:`to_text`, :func:`to_json`, :func:`to_sarif`) are pure
functions of the findings.

Columns count Unicode code points from 1 (SARIF's ``unicodeCodePoints``), as nowline's
offsets do; a UTF-8 byte order mark is not counted. A correction with anchors trips a file
that names one of its strings and one of its anchors anywhere, as it trips a memory.

>>> finding_lines("a\nsee acme/app here\n", [(6, 14)])
[(2, 5, 'see acme/app here')]
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

if TYPE_CHECKING:
    from ..models import CorrectionRef, Trip

__all__ = [
    "COLUMN_KIND",
    "SARIF_SCHEMA",
    "Finding",
    "ScanReport",
    "decode",
    "finding_lines",
    "git_config",
    "is_binary",
    "remote_urls",
    "scan",
    "to_json",
    "to_sarif",
    "to_text",
    "workspace_files",
]

COLUMN_KIND = "unicodeCodePoints"
"""How columns are counted (SARIF's ``columnKind``): Unicode code points, from 1."""

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
"""The ``$schema`` a SARIF log names (SARIF 2.1.0)."""

_SNIFF = 8000  # bytes looked at for a NUL, as git decides that a file is binary
_LINE_CUT = 300  # a longer line is shown as a window around the occurrence
_GIT_TIMEOUT = 60

Check = Callable[[str], "list[Trip]"]


@dataclass(frozen=True)
class Finding:
    """One occurrence of an active deprecated string in a workspace.

    Attributes:
        root: the PATH argument it was found under, as given (``.`` for a file argument,
            whose ``path`` is then the argument itself).
        path: the file, relative to ``root``, with ``/`` separators (``.git/config`` for a
            remote or submodule URL).
        line: the line, from 1.
        column: the occurrence's first column, from 1, in Unicode code points.
        end_column: the column just past the occurrence.
        text: the line (a window of it when long), or the URL for a remote.
        deprecated: the deprecated string, as the correction names it.
        correction: the correction whose string it is.
        newest: the newest correction of its chain (the now-line); ``correction`` itself when
            nothing supersedes it.
    """

    root: str
    path: str
    line: int
    column: int
    end_column: int
    text: str
    deprecated: str
    correction: CorrectionRef
    newest: CorrectionRef


@dataclass
class ScanReport:
    """What a scan found and read.

    Attributes:
        findings: every occurrence, by PATH argument, then file, line and column.
        files: files read (URL lists of git configs included).
        bytes: bytes read.
        skipped: files that could not be read, each with the reason.
    """

    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    bytes: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)


# ----------------------------------------------------------------------------- pure parts


def is_binary(data: bytes) -> bool:
    """Return whether file content is binary: a NUL byte in its first 8,000 bytes (git's rule)."""
    return b"\0" in data[:_SNIFF]


def decode(data: bytes) -> str:
    """Return file content as text: UTF-8 without a byte order mark, bad bytes as U+FFFD."""
    return data.decode("utf-8-sig", errors="replace")


def finding_lines(text: str, spans: Iterable[tuple[int, int]]) -> list[tuple[int, int, str]]:
    r"""Return (line, column, line text) from 1 for each (start, end) code-point span of ``text``.

    Lines end at ``\n``; a ``\r`` before it is not part of the line's text. Only the text up
    to the last span's line is looked at.
    """
    given = list(spans)
    out: list[tuple[int, int, str]] = [(0, 0, "")] * len(given)
    line, counted = 1, 0  # the line number at offset ``counted``
    for index in sorted(range(len(given)), key=given.__getitem__):
        start, end = given[index]
        line += text.count("\n", counted, start)
        counted = start
        first = text.rfind("\n", 0, start) + 1
        stop = text.find("\n", start)
        shown = text[first : len(text) if stop == -1 else stop].removesuffix("\r")
        out[index] = (line, start - first + 1, _window(shown, start - first, end - first))
    return out


def _window(line: str, start: int, end: int) -> str:
    """Return ``line``, or a window of it around ``start:end`` when it is long."""
    if len(line) <= _LINE_CUT:
        return line
    margin = max(0, (_LINE_CUT - (end - start)) // 2)
    lo, hi = max(0, start - margin), min(len(line), end + margin)
    return ("…" if lo else "") + line[lo:hi] + ("…" if hi < len(line) else "")


def remote_urls(config: str) -> list[tuple[int, int, str]]:
    """Return (line, column of the value, URL) of each remote and submodule URL of a git config.

    The keys read are ``url`` and ``pushurl`` in ``[remote "..."]`` and ``[submodule "..."]``
    sections; line and column count from 1.
    """
    out: list[tuple[int, int, str]] = []
    section = ""
    for number, raw in enumerate(config.split("\n"), start=1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if stripped.startswith("["):
            section = stripped[1:].split("]", 1)[0].strip().split(None, 1)[0].lower()
            stripped = stripped.split("]", 1)[1].strip() if "]" in stripped else ""
            if not stripped:
                continue
        if section not in ("remote", "submodule") or "=" not in stripped:
            continue
        key, value = stripped.split("=", 1)
        if key.strip().lower() not in ("url", "pushurl"):
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        if value:
            out.append((number, line.find(value) + 1, value))
    return out


def _findings(
    root: str, path: str, text: str, trips: Sequence[Trip], url: bool = False
) -> list[Finding]:
    """Return the findings of one checked text (a file, or a URL on a config line)."""
    spans = [(o.start, o.end, t, o.phrase) for t in trips for o in t.occurrences]
    spans.sort(key=lambda s: (s[0], s[1]))
    out = []
    placed = finding_lines(text, [(s[0], s[1]) for s in spans])
    for (start, end, trip, phrase), (line, column, shown) in zip(spans, placed, strict=True):
        out.append(
            Finding(
                root=root,
                path=path,
                line=line,
                column=column,
                end_column=column + (end - start),
                text=text if url else shown,
                deprecated=phrase,
                correction=trip.correction,
                newest=trip.newest,
            )
        )
    return out


def _ref(ref: CorrectionRef) -> dict[str, str]:
    """Return a correction as the JSON output names it."""
    return {"id": ref.id, "document": ref.document}


def to_json(findings: Iterable[Finding]) -> list[dict[str, Any]]:
    """Return the findings as JSON data: one object per occurrence."""
    return [
        {
            "root": f.root,
            "path": f.path,
            "line": f.line,
            "column": f.column,
            "end_column": f.end_column,
            "text": f.text,
            "deprecated": f.deprecated,
            "correction": _ref(f.correction),
            "newest": _ref(f.newest),
        }
        for f in findings
    ]


def _shown_path(f: Finding) -> str:
    """Return a finding's file as the text format names it (joined to its root)."""
    return f.path if f.root == "." else Path(f.root, f.path).as_posix()


def to_text(findings: Sequence[Finding]) -> str:
    """Return the findings as lines ``path:line:column: ...``, then a summary line."""
    lines = [
        f"{_shown_path(f)}:{f.line}:{f.column}: {f.deprecated!r} is outdated "
        f"(correction {f.correction.id}); now: {f.newest.document}"
        for f in findings
    ]
    files = len({(f.root, f.path) for f in findings})
    if findings:
        occurrences = "1 occurrence" if len(findings) == 1 else f"{len(findings)} occurrences"
        places = "1 file" if files == 1 else f"{files} files"
        lines.append(f"{occurrences} of outdated strings in {places}.")
    else:
        lines.append("Nothing outdated found.")
    return "\n".join(lines)


def _file_uri(folder: str) -> str:
    """Return the absolute ``file:`` URI of a folder, ending in a slash."""
    return Path(os.path.abspath(folder)).as_uri().rstrip("/") + "/"


def to_sarif(findings: Sequence[Finding], *, version: str) -> dict[str, Any]:
    """Return the findings as a SARIF 2.1.0 log: one run, one result per occurrence.

    Each correction is a rule (its id is the ``ruleId``); every result has level ``warning``
    and a location relative to its PATH argument (``uriBaseId`` ``SRCROOT``, or ``SRCROOT2``
    and on for the second and later PATH arguments), whose folder is in
    ``originalUriBaseIds``.

    Args:
        findings: what :func:`scan` found.
        version: nowline's version, for the tool's driver.
    """
    roots = list(dict.fromkeys(f.root for f in findings)) or ["."]
    base_ids = {root: "SRCROOT" if i == 0 else f"SRCROOT{i + 1}" for i, root in enumerate(roots)}
    rules: dict[str, int] = {}
    rule_list: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for f in findings:
        if f.correction.id not in rules:
            rules[f.correction.id] = len(rule_list)
            rule_list.append(
                {
                    "id": f.correction.id,
                    "name": "OutdatedString",
                    "shortDescription": {
                        "text": "Outdated: " + ", ".join(repr(d) for d in f.correction.deprecates)
                    },
                    "fullDescription": {"text": f.correction.document},
                    "defaultConfiguration": {"level": "warning"},
                }
            )
        results.append(
            {
                "ruleId": f.correction.id,
                "ruleIndex": rules[f.correction.id],
                "level": "warning",
                "message": {"text": f"{f.deprecated!r} is outdated. now: {f.newest.document}"},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {
                                "uri": quote(f.path),
                                "uriBaseId": base_ids[f.root],
                            },
                            "region": {
                                "startLine": f.line,
                                "startColumn": f.column,
                                "endColumn": f.end_column,
                                "snippet": {"text": f.text},
                            },
                        }
                    }
                ],
            }
        )
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "nowline",
                        "version": version,
                        "rules": rule_list,
                    }
                },
                "originalUriBaseIds": {base_ids[root]: {"uri": _file_uri(root)} for root in roots},
                "columnKind": COLUMN_KIND,
                "results": results,
            }
        ],
    }


# ------------------------------------------------------------------------- reading


def _git(folder: str, *args: str) -> str | None:
    """Return git's output in ``folder``, or None when git fails or is not installed."""
    try:
        out = subprocess.run(
            # a workspace's own config may name programs for these; a scan runs none of them
            ["git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", *args],
            cwd=folder,
            capture_output=True,
            timeout=_GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.decode("utf-8", errors="surrogateescape")


def _in_work_tree(folder: str) -> bool:
    """Return whether ``folder`` is inside a git work tree."""
    return (_git(folder, "rev-parse", "--is-inside-work-tree") or "").strip() == "true"


def workspace_files(folder: str) -> list[str]:
    """Return the files to scan under ``folder``, relative to it, with ``/`` separators.

    Inside a git work tree these are the files git tracks (that exist, and are not symbolic
    links); elsewhere every regular file, ``.git`` folders left out. Sorted.
    """
    if _in_work_tree(folder):
        listed = _git(folder, "ls-files", "-z", "--cached")
        if listed is not None:
            names = sorted({n for n in listed.split("\0") if n})
            return [n for n in names if _regular(os.path.join(folder, n))]
    out: list[str] = []
    stack = [("", folder)]
    while stack:
        prefix, top = stack.pop()
        try:
            entries = list(os.scandir(top))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != ".git":
                    stack.append((prefix + entry.name + "/", entry.path))
            elif entry.is_file(follow_symlinks=False):
                out.append(prefix + entry.name)
    return sorted(out)


def _regular(path: str) -> bool:
    """Return whether ``path`` is a regular file and not a symbolic link."""
    return os.path.isfile(path) and not os.path.islink(path)


def git_config(folder: str) -> str | None:
    """Return the path of the git config of the work tree ``folder`` is in, or None."""
    if not _in_work_tree(folder):
        return None
    found = (_git(folder, "rev-parse", "--git-path", "config") or "").strip()
    if not found:
        return None
    path = os.path.join(folder, found)
    return path if os.path.isfile(path) else None


def _read(path: str, report: ScanReport, shown: str) -> str | None:
    """Return a file's text, or None when it is binary, empty or cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        report.skipped.append((shown, exc.strerror or str(exc)))
        return None
    report.files += 1
    report.bytes += len(data)
    if not data or is_binary(data):
        return None
    return decode(data)


def _relative(path: str, root: str) -> str:
    """Return ``path`` relative to the folder ``root``, with ``/`` separators."""
    return Path(os.path.relpath(path, root)).as_posix()


def scan(paths: Sequence[str], check: Check) -> ScanReport:
    """Find every occurrence of an active deprecated string under ``paths``.

    Each file is read once; each PATH's git work tree has its remote and submodule URLs
    checked too (once per config file).

    Args:
        paths: folders or files. A folder's findings are relative to it; a file's path is
            reported as given (with ``.`` as its root).
        check: what checks a text, such as ``lambda t: collection.check(t)`` (with the scope's
            metadata on a scoped store).

    Returns:
        The findings, and how much was read.

    Raises:
        FileNotFoundError: a path does not exist.
    """
    report = ScanReport()
    seen: set[str] = set()
    configs: set[str] = set()
    for given in paths:
        if not os.path.exists(given):
            raise FileNotFoundError(given)
        if os.path.isdir(given):
            root, folder = given, given
            files = [(os.path.join(given, rel), rel) for rel in workspace_files(given)]
        else:
            root, folder = ".", os.path.dirname(given) or "."
            files = [(given, Path(given).as_posix())]
        for full, rel in files:
            if len(paths) > 1:  # the same file under two PATH arguments is read once
                real = os.path.realpath(full)
                if real in seen:
                    continue
                seen.add(real)
            text = _read(full, report, rel)
            if text:
                trips = check(text)
                if trips:
                    report.findings += _findings(root, rel, text, trips)
        config = git_config(folder)
        if config is not None and os.path.realpath(config) not in configs:
            configs.add(os.path.realpath(config))
            report.findings += _remote_findings(config, root, report, check)
    return report


def _remote_findings(config: str, root: str, report: ScanReport, check: Check) -> list[Finding]:
    """Return the findings of a git config's remote and submodule URLs, each checked alone."""
    text = _read(config, report, config)
    if not text:
        return []
    path = _relative(config, root)
    out: list[Finding] = []
    for line, column, url in remote_urls(text):
        for f in _findings(root, path, url, check(url), url=True):
            shift = column - 1
            out.append(
                replace(f, line=line, column=f.column + shift, end_column=f.end_column + shift)
            )
    return out

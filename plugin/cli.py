"""nowline's command line: look inside a memory store, fix it, load it, serve it over MCP.

Every command takes the folder of a local Chroma store (a ``chromadb.PersistentClient``
path) and works offline with the collection's own embedding function (nowline's bundled
all-MiniLM-L6-v2 by default)::

    nowline stats PATH                      records, corrections, share historical, widest reach
    nowline corrections PATH                every correction: time, deprecates, reach, status
    nowline recall PATH "text" [-k N] [--as-of T] [--json]
    nowline preview PATH --deprecates S [--deprecates S2 ...]
    nowline check PATH "text" | -            exit 1 when the text names something outdated
    nowline retract PATH ID
    nowline repair PATH
    nowline import PATH FILE.jsonl
    nowline mcp --path PATH                 serve the memory tools to a model over stdio

``--collection NAME`` picks the collection (default: the store's only one). Exit codes: 0
success, 1 nowline refused or failed (the message says what to do), 2 usage error (a bad
option, a missing store or collection). Needs the ``cli`` extra:
``pip install 'nowline[cli]'``.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any, NoReturn, cast

try:
    import typer
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table
except ImportError as exc:
    raise ImportError(
        "nowline's command line needs typer and rich: pip install 'nowline[cli]'"
    ) from exc

from pydantic import BaseModel, ConfigDict, StrictFloat, StrictInt, StrictStr, ValidationError

from nowline import (
    DEFAULT_MAX_REACH,
    REACH_FLOOR,
    AbsentString,
    Collection,
    CorrectionSummary,
    GenericString,
    InvalidInput,
    NowlineError,
    stale_message,
    to_epoch,
    validate_correction,
)
from nowline.tools import open_collection

__all__ = ["app", "main"]

app = typer.Typer(
    name="nowline",
    help="Inspect, repair, load and serve a nowline memory store (a local Chroma folder).",
    epilog="Exit codes: 0 ok, 1 nowline refused or failed (see the message), 2 usage error.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_PAGE = 2000  # rows per read while scanning a store
_BATCH = 256  # plain memories per write while importing
_SHOWN_BAD_LINES = 50  # bad lines listed before "... and N more"

PathArg = Annotated[
    str,
    typer.Argument(
        metavar="PATH",
        help="Folder of a local Chroma store (a chromadb.PersistentClient path).",
        show_default=False,
    ),
]
CollectionOpt = Annotated[
    str | None,
    typer.Option(
        "--collection",
        "-c",
        help="Collection name (default: the store's only collection).",
        show_default=False,
    ),
]
ScopeKeyOpt = Annotated[
    str | None,
    typer.Option(
        "--scope-key",
        help="Metadata key that separates scopes, as given to nowline.wrap(scope_key=...). "
        "Give it for a store written with one; without it, writes link across scopes.",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def main() -> None:
    """Run the ``nowline`` command (the console-script entry point)."""
    # The bundled model loads from its installed folder; never reach for a model hub.
    for key, value in (
        ("HF_HUB_OFFLINE", "1"),
        ("TRANSFORMERS_OFFLINE", "1"),
        ("TOKENIZERS_PARALLELISM", "false"),
        ("HF_HUB_DISABLE_PROGRESS_BARS", "1"),
        ("ANONYMIZED_TELEMETRY", "False"),
    ):
        os.environ.setdefault(key, value)
    app()


# ---------------------------------------------------------------------- helpers


def _out() -> Console:
    """Return a console on stdout (created per call, so redirected streams are honoured)."""
    return Console(highlight=False, soft_wrap=False)


def _err() -> Console:
    """Return a console on stderr, for errors and progress."""
    return Console(stderr=True, highlight=False)


def _fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` as an error and exit with ``code``."""
    _err().print(f"[bold red]Error:[/] {escape(message)}")
    raise typer.Exit(code)


@contextmanager
def _nowline_errors() -> Iterator[None]:
    """Turn nowline's errors into a message on stderr and exit code 1."""
    try:
        yield
    except NowlineError as exc:
        _fail(str(exc))


def _open(
    path: str, collection: str | None, scope_key: str | None, *, create: bool = False
) -> Collection:
    """Open the collection, turning a missing store or collection into a usage error."""
    if scope_key is not None and (
        not scope_key or scope_key.startswith("nowline_") or scope_key in ("deprecates", "about")
    ):
        raise typer.BadParameter(
            f"{scope_key!r} cannot be a scope key: give the user metadata key (e.g. user_id) "
            "that separates scopes.",
            param_hint="'--scope-key'",
        )
    if not create and not os.path.isfile(os.path.join(path, "chroma.sqlite3")):
        raise typer.BadParameter(
            f"there is no Chroma store at {path!r} (no chroma.sqlite3 there). Give the folder "
            "of a chromadb.PersistentClient.",
            param_hint="'PATH'",
        )
    try:
        return open_collection(path, collection, create=create, scope_key=scope_key)
    except InvalidInput as exc:
        raise typer.BadParameter(str(exc), param_hint="'--collection'") from None


def _utc(seconds: float | None) -> str:
    """Return epoch seconds as UTC time text, or '-'."""
    if seconds is None:
        return "-"
    try:
        return datetime.fromtimestamp(seconds, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return str(seconds)


def _number(value: object) -> float | None:
    """Return ``value`` if it is a finite number, else None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _short(text: str | None, width: int = 100) -> str:
    """Return ``text`` on one line, cut to ``width`` characters."""
    one = " ".join((text or "").split())
    return one if len(one) <= width else one[: width - 1] + "…"


# ------------------------------------------------------------------ commands


@app.command()
def stats(
    path: PathArg,
    collection: CollectionOpt = None,
    top: Annotated[
        int, typer.Option("--top", min=1, help="How many deprecated strings to list.")
    ] = 5,
    json_out: JsonOpt = False,
) -> None:
    """Show records, corrections, the share that is historical, and the widest reach."""
    col = _open(path, collection, None)
    with _nowline_errors():
        roles = col.stats()
        rows = col.corrections()
    active = sum(1 for c in rows if c.status == "active")
    records = roles["records"]
    share = roles["historical"] / records if records else 0.0
    widest = sorted((c for c in rows if c.status == "active"), key=lambda c: -c.reach)[:top]
    if json_out:
        data = {
            "path": path,
            "collection": col.name,
            "records": records,
            "roles": {k: v for k, v in roles.items() if k != "records"},
            "corrections": {"active": active, "retracted": len(rows) - active},
            "historical": roles["historical"],
            "historical_share": share,
            "widest_reach": [
                {"id": c.id, "deprecates": c.deprecates, "reach": c.reach} for c in widest
            ],
        }
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    out = _out()
    out.print(f"[bold]{escape(col.name)}[/] in {escape(path)}")
    summary = Table.grid(padding=(0, 2))
    summary.add_row("records", str(records))
    summary.add_row(
        "corrections",
        f"{len(rows)} ({active} active, {len(rows) - active} retracted)",
    )
    summary.add_row(
        "roles",
        ", ".join(f"{roles[k]} {k}" for k in ("current", "historical", "transition", "retracted")),
    )
    summary.add_row(
        "historical",
        f"{roles['historical']} ({share:.1%}) superseded by an active correction",
    )
    out.print(summary)
    if widest:
        out.print("Corrections with the widest reach:")
        table = Table()
        table.add_column("deprecates")
        table.add_column("reach", justify="right")
        for c in widest:
            table.add_row(escape(", ".join(c.deprecates)), str(c.reach))
        out.print(table)


@app.command()
def corrections(
    path: PathArg,
    collection: CollectionOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """List every correction: id, time, deprecates, reach and status, oldest first."""
    col = _open(path, collection, None)
    with _nowline_errors():
        rows = col.corrections()
    if json_out:
        typer.echo(json.dumps([_summary_json(r) for r in rows], indent=2, ensure_ascii=False))
        return
    out = _out()
    if not rows:
        out.print(f"No corrections in {escape(col.name)}.")
        return
    table = Table(title=f"Corrections in {escape(col.name)}", title_justify="left")
    table.add_column("id", overflow="fold")
    table.add_column("time (UTC)", no_wrap=True)
    table.add_column("deprecates", overflow="fold")
    table.add_column("reach", justify="right")
    table.add_column("status")
    for r in rows:
        table.add_row(
            escape(r.id), _utc(r.time), escape(", ".join(r.deprecates)), str(r.reach), r.status
        )
    out.print(table)


def _summary_json(row: CorrectionSummary) -> dict[str, Any]:
    """Return one correction as the JSON output shows it (times as ISO 8601 and epoch)."""
    data = row.model_dump(mode="json")
    data["time_iso"] = _iso(row.time)
    data["retracted_iso"] = _iso(row.retracted)
    return data


def _iso(seconds: float | None) -> str | None:
    """Return epoch seconds as ISO 8601 text in UTC, or None."""
    if seconds is None:
        return None
    try:
        return datetime.fromtimestamp(seconds, tz=timezone.utc).isoformat()
    except (OverflowError, OSError, ValueError):
        return None


@app.command()
def recall(
    path: PathArg,
    text: Annotated[
        str, typer.Argument(metavar="TEXT", help="What to recall.", show_default=False)
    ],
    k: Annotated[int, typer.Option("-k", "--n-results", min=1, help="How many hits.")] = 5,
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            help="Answer as the store knew things then (ISO 8601 or epoch seconds).",
            show_default=False,
        ),
    ] = None,
    historical: Annotated[
        bool,
        typer.Option("--historical/--no-historical", help="Keep historical hits."),
    ] = True,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the evidence packet as JSON.")
    ] = False,
    collection: CollectionOpt = None,
    scope_key: ScopeKeyOpt = None,
) -> None:
    """Recall memories as a model would see them: each outdated one with its now-line."""
    if as_of is not None:
        try:
            to_epoch(as_of, what="--as-of")
        except InvalidInput as exc:
            raise typer.BadParameter(str(exc), param_hint="'--as-of'") from None
    col = _open(path, collection, scope_key)
    with _nowline_errors():
        packet = col.recall(text, n_results=k, as_of=as_of, include_historical=historical)
    typer.echo(packet.model_dump_json(indent=2) if json_out else packet.render())


@app.command()
def preview(
    path: PathArg,
    deprecates: Annotated[
        list[str],
        typer.Option(
            "--deprecates",
            "-d",
            help="An outdated string the correction would name (repeat for several).",
            show_default=False,
        ),
    ],
    scope: Annotated[
        str | None,
        typer.Option(
            "--scope",
            help="The scope value the correction would have (needs --scope-key).",
            show_default=False,
        ),
    ] = None,
    json_out: JsonOpt = False,
    collection: CollectionOpt = None,
    scope_key: ScopeKeyOpt = None,
) -> None:
    """Show which records a correction would reach, without writing anything."""
    if scope is not None and scope_key is None:
        raise typer.BadParameter("--scope needs --scope-key.", param_hint="'--scope'")
    col = _open(path, collection, scope_key)
    metadata = {scope_key: scope} if scope_key is not None and scope is not None else None
    with _nowline_errors():
        ids = col.preview(deprecates, metadata=metadata)
    total = col.count()
    limit = max(REACH_FLOOR, math.floor(DEFAULT_MAX_REACH * total))
    docs = col.get(ids=ids, include=["documents"])["documents"] if ids else []
    if json_out:
        data = {
            "deprecates": deprecates,
            "reach": len(ids),
            "limit": limit,
            "records": [{"id": i, "document": d} for i, d in zip(ids, docs or [], strict=True)],
        }
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    out = _out()
    noun = "record" if len(ids) == 1 else "records"
    out.print(f"{len(ids)} of {total} {noun} would be reached by {escape(repr(deprecates))}.")
    if ids:
        table = Table()
        table.add_column("id", overflow="fold")
        table.add_column("document")
        for rid, doc in zip(ids, docs or [], strict=True):
            table.add_row(escape(rid), escape(_short(doc)))
        out.print(table)
    if len(ids) > limit:
        out.print(
            f"[yellow]correct() would refuse this by default: the limit is {limit} records "
            f"({DEFAULT_MAX_REACH:.0%} of the store, at least {REACH_FLOOR}). Use a narrower "
            "string, or pass a larger max_reach.[/]"
        )


@app.command()
def check(
    path: PathArg,
    text: Annotated[
        str,
        typer.Argument(
            metavar="TEXT",
            help="The text to check, or - to read it from stdin.",
            show_default=False,
        ),
    ],
    metadata: Annotated[
        str | None,
        typer.Option(
            "--metadata",
            help="The caller's metadata as JSON (its scope key selects the corrections).",
            show_default=False,
        ),
    ] = None,
    json_out: JsonOpt = False,
    collection: CollectionOpt = None,
    scope_key: ScopeKeyOpt = None,
) -> None:
    """Check a command, plan or document against the corrections; exit 1 if any apply.

    Use it as a pre-tool-use hook or a git hook: it prints each correction the text trips,
    with the now-line, and exits 1; it exits 0 when nothing is outdated.
    """
    body = sys.stdin.read() if text == "-" else text
    meta: dict[str, Any] | None = None
    if metadata is not None:
        try:
            parsed = json.loads(metadata)
        except json.JSONDecodeError as exc:
            raise typer.BadParameter(f"not JSON: {exc}", param_hint="'--metadata'") from None
        if not isinstance(parsed, dict):
            raise typer.BadParameter("give a JSON object", param_hint="'--metadata'")
        meta = parsed
    col = _open(path, collection, scope_key)
    with _nowline_errors():
        trips = col.check(body, metadata=meta)
    if json_out:
        typer.echo(json.dumps([t.model_dump(mode="json") for t in trips], indent=2))
    elif trips:
        typer.echo(stale_message(trips))
    else:
        typer.echo("Nothing in this text is outdated.")
    if trips:
        raise typer.Exit(1)


@app.command()
def retract(
    path: PathArg,
    correction_id: Annotated[
        str, typer.Argument(metavar="ID", help="The correction's id.", show_default=False)
    ],
    collection: CollectionOpt = None,
    scope_key: ScopeKeyOpt = None,
) -> None:
    """Undo a wrong correction; it stays in the store, marked retracted."""
    col = _open(path, collection, scope_key)
    with _nowline_errors():
        before = {c.id: c for c in col.corrections()}.get(correction_id)
        if before is not None and before.status == "retracted":
            _out().print(
                f"Correction {escape(correction_id)} was already retracted at "
                f"{_utc(before.retracted)} UTC; nothing changed."
            )
            return
        col.retract(correction_id)
    covered = before.reach if before is not None else 0
    noun = "record" if covered == 1 else "records"
    _out().print(
        f"Retracted correction {escape(correction_id)}. It covered {covered} {noun}; they read "
        "as current again unless another correction still covers them. The correction stays "
        "in the store, marked retracted."
    )


@app.command()
def repair(
    path: PathArg,
    collection: CollectionOpt = None,
    scope_key: ScopeKeyOpt = None,
) -> None:
    """Rebuild every link from the documents and store what differs (safe to rerun)."""
    col = _open(path, collection, scope_key)
    total = col.count()
    with (
        _nowline_errors(),
        _err().status(f"Repairing links of {total} records in {escape(col.name)}…"),
    ):
        report = col.repair()
    out = _out()
    summary = Table.grid(padding=(0, 2))
    summary.add_row("records scanned", str(report.records))
    summary.add_row("corrections", str(report.corrections))
    summary.add_row("records updated", str(report.updated))
    summary.add_row("links added", str(report.links_added))
    summary.add_row("links removed", str(report.links_removed))
    summary.add_row("seconds", f"{report.seconds:.2f}")
    out.print(f"Repaired {escape(col.name)}:")
    out.print(summary)
    if report.updated == 0:
        out.print("Every stored link was already right.")


# -------------------------------------------------------------------- import


class _Line(BaseModel):
    """One line of an import file, as given."""

    model_config = ConfigDict(extra="forbid")

    text: StrictStr
    id: StrictStr | None = None
    metadata: dict[str, Any] | None = None
    observed_at: StrictStr | StrictInt | StrictFloat | None = None
    deprecates: list[StrictStr] | StrictStr | None = None
    about: list[StrictStr] | StrictStr | None = None


@dataclass(frozen=True)
class _Planned:
    """A validated line, ready to write."""

    line: int
    id: str
    text: str
    metadata: dict[str, Any] | None
    observed_at: str | int | float | None
    deprecates: tuple[str, ...] | None
    about: tuple[str, ...] = ()


def _metadata_value_ok(value: object) -> bool:
    """Return whether Chroma can store ``value`` as a metadata value."""
    scalar = (str, int, float, bool)
    if isinstance(value, scalar):
        return True
    if isinstance(value, list) and value:
        kinds = {type(v) for v in value}
        return len(kinds) == 1 and isinstance(value[0], scalar)
    return value is None


def _plan_line(number: int, raw: str, allow_absent: bool, allow_generic: bool) -> _Planned:
    """Validate one line; raise ValueError with a message for the user."""
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    try:
        line = _Line.model_validate(obj)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in e['loc']) or 'line'}: {e['msg']}"
            for e in exc.errors(include_url=False)
        ]
        raise ValueError("; ".join(problems)) from None
    if not line.text.strip():
        raise ValueError("text is empty")
    _check_utf8(line.text, "text")
    if line.id is not None and not line.id:
        raise ValueError("id is empty; leave it out for a generated one")
    meta = dict(line.metadata) if line.metadata is not None else None
    deprecates: object = line.deprecates
    about: object = line.about
    if meta is not None:
        for key, value in meta.items():
            if key.startswith("nowline_"):
                raise ValueError(f"metadata key {key!r} is reserved for nowline's bookkeeping")
            if not _metadata_value_ok(value):
                raise ValueError(
                    f"metadata {key!r} must be a string, number, boolean or a non-empty list "
                    "of one of those"
                )
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(
                    f"metadata {key!r} is {value}; Chroma would drop it silently, so give a "
                    "finite number or leave the key out"
                )
        for key in ("deprecates", "about"):
            if key in meta:
                if getattr(line, key) is not None:
                    raise ValueError(f"{key} is given both at the top level and in metadata")
                if key == "deprecates":
                    deprecates = meta.pop(key)
                else:
                    about = meta.pop(key)
        meta = {k: v for k, v in meta.items() if v is not None}
        if meta.get("observed_at") is not None:
            try:
                to_epoch(meta["observed_at"])
            except InvalidInput as exc:
                raise ValueError(str(exc)) from None
    if line.observed_at is not None:
        try:
            to_epoch(line.observed_at)
        except InvalidInput as exc:
            raise ValueError(str(exc)) from None
    phrases: tuple[str, ...] | None = None
    anchors: tuple[str, ...] = ()
    if deprecates is not None:
        try:
            found, anchor_list = validate_correction(
                line.text,
                cast(Any, deprecates),
                cast(Any, about),
                allow_absent=allow_absent,
                allow_generic=allow_generic,
            )
        except AbsentString as exc:
            raise ValueError(
                f"the text does not mention {exc.absent!r}; name the outdated string in the "
                "text (a now-line must show what changed), or pass --allow-absent"
            ) from None
        except GenericString as exc:
            raise ValueError(
                f'{exc.phrase!r} is {exc.reason}: use a more specific string, or add "about" '
                "(the subject it belongs to) to the line, or pass --allow-generic"
            ) from None
        except InvalidInput as exc:
            raise ValueError(str(exc)) from None
        phrases, anchors = tuple(found), tuple(anchor_list)
    elif about is not None:
        raise ValueError("about needs deprecates: only a correction has anchors")
    return _Planned(
        line=number,
        id=line.id if line.id is not None else str(uuid.uuid4()),
        text=line.text,
        metadata=meta or None,
        observed_at=line.observed_at,
        deprecates=phrases,
        about=anchors,
    )


def _check_utf8(text: str, what: str) -> None:
    """Reject text with lone surrogates (JSON can encode them; Chroma cannot store them)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{what} contains a lone surrogate (\\ud800-\\udfff)") from None


def _plan_file(
    file: Path, col: Collection | None, allow_absent: bool, allow_generic: bool
) -> tuple[list[_Planned], list[tuple[int, str]]]:
    """Validate every line of ``file``; return the plan and the bad lines."""
    plan: list[_Planned] = []
    bad: list[tuple[int, str]] = []
    first_use: dict[str, int] = {}
    with file.open(encoding="utf-8") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                item = _plan_line(number, raw, allow_absent, allow_generic)
            except ValueError as exc:
                bad.append((number, str(exc)))
                continue
            if item.id in first_use:
                bad.append((number, f"id {item.id!r} is already used on line {first_use[item.id]}"))
                continue
            first_use[item.id] = number
            plan.append(item)
    if col is not None and plan:
        ids = [p.id for p in plan]
        existing: set[str] = set()
        for i in range(0, len(ids), _PAGE):
            existing.update(col.get(ids=ids[i : i + _PAGE], include=[])["ids"])
        for p in plan:
            if p.id in existing:
                bad.append((p.line, f"id {p.id!r} is already in the collection"))
        bad.sort()
    return plan, bad


def _max_reach(value: str) -> float | int | None:
    """Parse ``--max-reach``: a share like 0.25, a count like 500, or 'none'."""
    text = value.strip().lower()
    if text == "none":
        return None
    try:
        number: float | int = float(text) if "." in text else int(text)
    except ValueError:
        number = -1
    if (isinstance(number, float) and 0 < number <= 1) or (isinstance(number, int) and number >= 0):
        return number
    raise typer.BadParameter(
        "give a share of the store (0 < x <= 1, e.g. 0.25), a count (e.g. 500) or 'none'.",
        param_hint="'--max-reach'",
    )


@app.command("import")
def import_(
    path: PathArg,
    file: Annotated[
        Path,
        typer.Argument(
            exists=True,
            dir_okay=False,
            readable=True,
            metavar="FILE.jsonl",
            help="One JSON object per line: text, and optionally id, metadata, observed_at, "
            "deprecates (a line with deprecates is a correction).",
            show_default=False,
        ),
    ],
    allow_generic: Annotated[
        bool,
        typer.Option(
            "--allow-generic",
            help="Accept deprecated strings that are common words or bare numbers without an "
            '"about" anchor.',
        ),
    ] = False,
    allow_absent: Annotated[
        bool,
        typer.Option(
            "--allow-absent",
            help="Accept deprecated strings that do not occur in their correction's text.",
        ),
    ] = False,
    max_reach: Annotated[
        str,
        typer.Option(
            "--max-reach",
            help="Refuse a correction that reaches more than this: a share of the store, a "
            "count, or 'none'.",
        ),
    ] = str(DEFAULT_MAX_REACH),
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Validate every line and write nothing.")
    ] = False,
    collection: CollectionOpt = None,
    scope_key: ScopeKeyOpt = None,
) -> None:
    """Load memories and corrections from a JSON Lines file, in file order.

    Every line is validated first; if any is bad, their line numbers are listed and nothing
    is written. An empty store gets a collection named "memory".
    """
    reach_setting = _max_reach(max_reach)
    has_store = os.path.isfile(os.path.join(path, "chroma.sqlite3"))
    col = _open(path, collection, scope_key, create=True) if has_store or not dry_run else None
    plan, bad = _plan_file(file, col, allow_absent, allow_generic)
    if bad:
        lines = [f"line {n}: {msg}" for n, msg in bad[:_SHOWN_BAD_LINES]]
        if len(bad) > _SHOWN_BAD_LINES:
            lines.append(f"... and {len(bad) - _SHOWN_BAD_LINES} more bad lines")
        _fail(
            f"{file}: {len(bad)} bad line(s); nothing was written. Fix them and import again.\n"
            + "\n".join(lines)
        )
    n_corr = sum(1 for p in plan if p.deprecates)
    summary = f"{len(plan)} records ({len(plan) - n_corr} memories, {n_corr} corrections)"
    if dry_run or col is None:
        _out().print(f"{file}: {summary} are valid; nothing was written (--dry-run).")
        return
    start = time.perf_counter()
    written = _write_plan(col, plan, allow_absent, allow_generic, reach_setting)
    _out().print(
        f"Imported {summary} into {escape(col.name)} in {time.perf_counter() - start:.1f} s."
        if written == len(plan)
        else f"Imported {written} records."
    )


def _write_plan(
    col: Collection,
    plan: list[_Planned],
    allow_absent: bool,
    allow_generic: bool,
    max_reach: float | int | None,
) -> int:
    """Write the plan in file order, batching runs of plain memories; return records written."""
    written = 0
    batch: list[_Planned] = []
    columns = (
        TextColumn("importing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )

    def flush(progress: Progress, task: Any) -> None:
        nonlocal written
        if not batch:
            return
        metas = []
        for p in batch:
            meta = dict(p.metadata or {})
            if p.observed_at is not None:
                meta["observed_at"] = p.observed_at
            metas.append(meta or None)
        try:
            col.add(
                ids=[p.id for p in batch],
                documents=[p.text for p in batch],
                metadatas=cast(Any, metas) if any(metas) else None,
            )
        except NowlineError as exc:
            _stop(written, batch[0].line, f"lines {batch[0].line}-{batch[-1].line}: {exc}")
        written += len(batch)
        progress.advance(task, len(batch))
        batch.clear()

    with Progress(*columns, console=_err(), transient=False) as progress:
        task = progress.add_task("import", total=len(plan))
        for p in plan:
            if p.deprecates is None:
                batch.append(p)
                if len(batch) >= _BATCH:
                    flush(progress, task)
                continue
            flush(progress, task)
            try:
                col.correct(
                    p.text,
                    deprecates=list(p.deprecates),
                    id=p.id,
                    metadata=p.metadata,
                    observed_at=p.observed_at,
                    about=list(p.about) or None,
                    allow_absent=allow_absent,
                    allow_generic=allow_generic,
                    max_reach=max_reach,
                )
            except NowlineError as exc:
                _stop(written, p.line, f"line {p.line}: {exc}")
            written += 1
            progress.advance(task)
        flush(progress, task)
    return written


def _stop(written: int, line: int, message: str) -> NoReturn:
    """Stop an import that failed while writing, saying what was written."""
    _fail(
        f"{message}\nThe {written} records before line {line} were written; nothing from line "
        f"{line} on was. Fix that line and import the lines from {line} on again."
    )


# ----------------------------------------------------------------------- mcp


@app.command("mcp")
def mcp_command(
    path: Annotated[
        str,
        typer.Option(
            "--path",
            help="Folder of the local Chroma store (created if missing).",
            show_default=False,
        ),
    ],
    collection: CollectionOpt = None,
    scope_key: ScopeKeyOpt = None,
) -> None:
    """Serve the memory tools to a model over MCP (stdio): remember, correct, recall, ...

    An empty store gets a collection named "memory". Register this command with an MCP
    client; it speaks JSON-RPC on stdin and stdout and logs to stderr.
    """
    try:
        from nowline import mcp_server
    except ImportError as exc:
        _fail(str(exc))
    col = _open(path, collection, scope_key, create=True)
    with _nowline_errors():
        mcp_server.serve(col)


if __name__ == "__main__":
    main()

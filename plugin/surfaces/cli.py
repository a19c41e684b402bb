"""nowline's command line: look inside a memory store, fix it, load it, serve it over MCP.

Every command works on a local Chroma store (the folder of a ``chromadb.PersistentClient``)
or on a Chroma server (``--url``, or the ``NOWLINE_URL`` environment variable), offline, with
the collection's own embedding function (nowline's bundled all-MiniLM-L6-v2 by default)::

    nowline stats [PATH]                    records, corrections, share historical, widest reach
    nowline corrections [PATH]              every correction: time, deprecates, reach, status
    nowline recall [PATH] "text" [-k N] [--as-of T] [--json]
    nowline preview [PATH] --deprecates S [--about A]
    nowline check [PATH] "text" | -         exit 1 when the text names something outdated
    nowline remember [PATH] "text" [--create]
    nowline correct [PATH] "text" -d S [--about A] [--create]
    nowline retract [PATH] ID
    nowline repair [PATH]
    nowline import [PATH] FILE.jsonl [--from github-events] [--create]
    nowline mcp --path PATH | --url URL     serve the memory tools to a model over stdio
    nowline hook --path PATH | --url URL    a coding agent's tool hook (event JSON on stdin)
    nowline scan --path PATH | --url URL DIR...  outdated strings in a workspace (CI, pre-commit)
    nowline serve --path PATH | --url URL   receive corrections: GitHub webhooks, JSON

PATH is left out when the store is a server: ``nowline retract --url http://localhost:8000
ID``. ``--collection NAME`` picks the collection (default: the store's only one). No
command creates a store or a collection unless it is given ``--create`` (the commands that
write offer it), so a mistyped path is refused instead of becoming a new store. A local
store has one writer process; the commands that only read (``stats``, ``corrections``,
``recall``, ``preview``, ``check``) work while another process writes to it. Exit codes: 0
success, 1 nowline refused or failed (the message says what to do), 2 usage error (a bad
option, a missing store or collection). Needs the ``cli`` extra.

Commands that embed nothing import neither torch nor sentence-transformers, and ``--help`` and
``--version`` import no chromadb.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, cast

try:
    import typer
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from typer.core import TyperCommand
except ImportError as exc:
    from ..errors import MissingExtra

    raise MissingExtra("nowline's command line needs typer and rich", "cli") from exc

from ..models import CURRENT, HISTORICAL, RETRACTED, TRANSITION, OnExisting
from ..render import MIN_TERMINAL_WIDTH, iso_times, json_text, terminal_safe
from ..terms import CLI_TERMS, JSONL_TERMS, using

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..collection import Collection
    from ..models import CorrectionSummary
    from ..stores import Store

__all__ = ["app", "main"]

app = typer.Typer(
    name="nowline",
    help="Inspect, repair, load and serve a nowline memory store: a local Chroma folder, or a "
    "Chroma server (--url).",
    epilog="Exit codes: 0 ok, 1 nowline refused or failed (see the message), 2 usage error.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

URL_ENV = "NOWLINE_URL"
"""The environment variable that gives ``--url``: the Chroma server every command uses."""

TOKEN_ENV = "NOWLINE_TOKEN"
"""The environment variable that gives ``--token``: the Chroma server's auth token."""

_SHOWN_BAD_LINES = 50  # bad lines listed before "... and N more"
_SERVER = "Chroma server (instead of PATH)"
_STORE = "Store"

# ------------------------------------------------------------------ options


def _arg(metavar: str, help: str) -> Any:
    """Return an optional positional argument (the command checks it, with its own message)."""
    return typer.Argument(metavar=metavar, help=help, show_default=False)


def _opt(
    *names: str,
    help: str,
    store: bool = False,
    server: bool = False,
    envvar: str | None = None,
) -> Any:
    """Return an option without a default shown, filed under the Store or server panel."""
    return typer.Option(
        *names,
        help=help,
        envvar=envvar,
        rich_help_panel=_STORE if store else _SERVER if server else None,
        show_default=False,
    )


PathArg = Annotated[
    str | None,
    _arg(
        "PATH",
        "Folder of a local Chroma store (a chromadb.PersistentClient path). Leave it "
        f"out with --url (or {URL_ENV}) for a Chroma server.",
    ),
]
UrlOpt = Annotated[
    str | None,
    _opt(
        "--url",
        envvar=URL_ENV,
        help="A Chroma server instead of PATH: http://host:port, or https://... for SSL "
        "(`chroma run` listens on http://localhost:8000).",
        server=True,
    ),
]
TokenOpt = Annotated[
    str | None,
    _opt(
        "--token",
        envvar=TOKEN_ENV,
        help="The server's auth token (prefer the environment variable: a command line is "
        "visible to other users). Without it, chromadb's own CHROMA_CLIENT_AUTH_* settings "
        "apply.",
        server=True,
    ),
]


class TokenHeader(str, Enum):
    """The headers that can carry a Chroma server's token (``nowline.tools.TOKEN_HEADERS``)."""

    AUTHORIZATION = "Authorization"
    X_CHROMA_TOKEN = "X-Chroma-Token"


TokenHeaderOpt = Annotated[
    TokenHeader,
    typer.Option(
        "--token-header",
        help="How the token is sent, as chromadb's token auth: 'Authorization: Bearer TOKEN' "
        "or 'X-Chroma-Token: TOKEN'.",
        rich_help_panel=_SERVER,
    ),
]
_TENANT_HELP = "The server's tenant (default: chromadb's default_tenant)."
_DATABASE_HELP = "The server's database (default: chromadb's default_database)."
TenantOpt = Annotated[
    str | None, _opt("--tenant", envvar="CHROMA_TENANT", help=_TENANT_HELP, server=True)
]
DatabaseOpt = Annotated[
    str | None, _opt("--database", envvar="CHROMA_DATABASE", help=_DATABASE_HELP, server=True)
]
CollectionOpt = Annotated[
    str | None,
    _opt(
        "--collection",
        "-c",
        help="Collection name (default: the store's only collection).",
        store=True,
    ),
]
ScopeKeyOpt = Annotated[
    str | None,
    _opt(
        "--scope-key",
        help="Metadata key that separates scopes, as given to nowline.wrap(scope_key=...). "
        "A store remembers the key its corrections were written with; give it for a new "
        "scoped store.",
        store=True,
    ),
]
ScopeOpt = Annotated[
    str | None,
    typer.Option(
        "--scope",
        help="The scope to work in: the value of the store's scope key (e.g. a user id).",
        rich_help_panel=_STORE,
        show_default=False,
    ),
]


DeprecatesOpt = Annotated[
    list[str] | None,
    _opt(
        "--deprecates",
        "-d",
        help="An exact outdated string, as the old memories write it (repeat for several).",
    ),
]
AboutOpt = Annotated[
    list[str] | None,
    _opt(
        "--about",
        "-a",
        help="An anchor: the subject the outdated strings belong to (repeat for several). "
        "With it only records that also name an anchor are reached, e.g. -d Michelle -a Acme.",
    ),
]
ReplacedByOpt = Annotated[
    list[str] | None,
    _opt(
        "--replaced-by",
        "-r",
        help="A new value: what an outdated string became (repeat for several). It is never "
        "deprecated; without it the new values are read from TEXT ('from A to B').",
    ),
]
AllowPersonOpt = Annotated[
    bool,
    typer.Option(
        "--allow-person",
        help="Accept a person's full name without --about (everything about them is outdated).",
    ),
]


AllowGenericOpt = Annotated[
    bool,
    typer.Option("--allow-generic", help="Accept a common word or bare number without --about."),
]


AllowUnreachedOpt = Annotated[
    bool,
    typer.Option(
        "--allow-unreached",
        help="Store it even if it reaches no record while the store names a near miss.",
    ),
]


AllowAbsentOpt = Annotated[
    bool,
    typer.Option("--allow-absent", help="Accept outdated strings that TEXT does not name."),
]


CreateOpt = Annotated[
    bool,
    typer.Option(
        "--create",
        help="Create the store (a new folder, or a new collection) if it is not there. "
        "Without it a path that holds no store is refused, so a mistyped path creates nothing.",
        rich_help_panel=_STORE,
    ),
]


def _json_opt(what: str) -> Any:
    """Return the ``--json`` option, saying what it prints."""
    return typer.Option("--json", help=f"Print {what} as JSON.")


# --------------------------------------------------------------------- entry


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


def _print_version(value: bool) -> None:
    """Print nowline's version (and chromadb's) and exit, for ``--version``."""
    if not value:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        chroma = f" (chromadb {version('chromadb')})"
    except PackageNotFoundError:  # pragma: no cover - chromadb is a dependency
        chroma = ""
    typer.echo(f"nowline {version('nowline')}{chroma}")
    raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print nowline's version and exit.",
        ),
    ] = False,
) -> None:
    pass


# ----------------------------------------------------------------- output


def _safe(text: object) -> str:
    """Return ``text`` ready for a rich table cell: terminal-safe and markup-escaped."""
    return escape(terminal_safe(str(text)))


def _echo(text: str) -> None:
    """Print plain text to stdout, terminal-safe."""
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    typer.echo(terminal_safe(text, width=max(width, MIN_TERMINAL_WIDTH) if width else None))


def _echo_json(data: Any) -> None:
    """Print ``data`` as JSON; controls inside strings are escaped, so it is terminal-safe."""
    typer.echo(json_text(data))


def _out() -> Console:
    """Return a console on stdout (created per call, so redirected streams are honoured)."""
    return Console(highlight=False, soft_wrap=False)


def _err() -> Console:
    """Return a console on stderr, for errors and progress."""
    return Console(stderr=True, highlight=False)


def _fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` as an error and exit with ``code``."""
    _err().print(f"[bold red]Error:[/] {_safe(message)}")
    raise typer.Exit(code)


def _plural(count: int, singular: str, plural: str | None = None) -> str:
    """Return ``count`` with the noun in the right number ("1 correction", "2 corrections")."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"


def _utc(seconds: float | None) -> str:
    """Return epoch seconds as UTC time text for a table, or '-'."""
    if seconds is None:
        return "-"
    try:
        return datetime.fromtimestamp(seconds, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return str(seconds)


def _short(text: str | None, width: int = 100) -> str:
    """Return ``text`` on one line, cut to ``width`` characters."""
    one = " ".join((text or "").split())
    return one if len(one) <= width else one[: width - 1] + "…"


# ------------------------------------------------------------------ the store


@dataclass(frozen=True)
class _Options:
    """The store options every command shares (defined once, added by :func:`_command`)."""

    collection: str | None = None
    scope_key: str | None = None
    url: str | None = None
    token: str | None = None
    token_header: TokenHeader = TokenHeader.AUTHORIZATION
    tenant: str | None = None
    database: str | None = None


_SHARED: tuple[tuple[str, Any, Any], ...] = (
    ("collection", CollectionOpt, None),
    ("scope_key", ScopeKeyOpt, None),
    ("url", UrlOpt, None),
    ("token", TokenOpt, None),
    ("token_header", TokenHeaderOpt, TokenHeader.AUTHORIZATION),
    ("tenant", TenantOpt, None),
    ("database", DatabaseOpt, None),
)


class _Command(TyperCommand):
    """A command whose help shows no ``<bool>`` for flags, and whose typo hints make sense.

    click suggests options by ``difflib`` over whole names, so the shared ``--`` makes a
    short typo look close to any option that holds its letter (``--k`` suggested
    ``--token``). Names are compared without their dashes instead: ``--tokn`` still
    suggests ``--token``; ``--k`` suggests nothing.
    """

    def get_params(self, ctx: Any) -> list[Any]:
        """Return the parameters, with no type shown for flags (``--json``, ``--help``)."""
        params = super().get_params(ctx)
        for param in params:
            if getattr(param, "is_flag", False) and not getattr(param, "count", False):
                param.metavar = ""
        return params

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse as click does; an unknown option is suggested only by a close name."""
        try:
            return super().parse_args(ctx, args)
        except Exception as exc:
            given = getattr(exc, "option_name", None)
            if isinstance(given, str) and hasattr(exc, "possibilities"):
                from difflib import get_close_matches

                names = {o.lstrip("-"): o for p in self.get_params(ctx) for o in p.opts}
                close = get_close_matches(given.lstrip("-"), list(names), cutoff=0.7)
                exc.possibilities = [names[c] for c in close if names[c].startswith("--")]
            raise


def _command(name: str | None = None) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register a command that takes the shared store options, passed to it as ``opts``."""

    def register(func: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(func, eval_str=True)
        own = [p for p in signature.parameters.values() if p.name != "opts"]
        shared = [
            inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=ann)
            for key, ann, default in _SHARED
        ]

        @functools.wraps(func)
        def run(**kwargs: Any) -> None:
            opts = _Options(**{key: kwargs.pop(key) for key, _, _ in _SHARED})
            with using(CLI_TERMS):  # nowline's messages name flags, not keywords
                func(opts=opts, **kwargs)

        params = [*own, *shared]
        run.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in params}
        app.command(name, cls=_Command)(run)
        return func

    return register


def _from_env(value: str | None, variable: str) -> bool:
    """Return whether an option's value is (or may be) its environment variable's.

    An explicit option with the same value as the variable counts as the variable's, which
    changes nothing: PATH then wins over it just the same.
    """
    return value is not None and value == os.environ.get(variable)


def _store(path: str | None, opts: _Options, flag: str = "PATH") -> Store:
    """Return the store the options name: PATH (or --path), or --url (or NOWLINE_URL).

    A leading ``~`` in PATH is expanded (by :class:`nowline.stores.Store`): MCP clients start
    commands without a shell.
    """
    from ..stores import Store

    url, token, tenant, database = opts.url, opts.token, opts.tenant, opts.database
    hint = "'PATH'" if flag == "PATH" else f"'{flag}'"
    served = path is not None and path.startswith(("http://", "https://"))
    if flag == "PATH" and url is None and served:
        path, url = None, path  # a server URL given where PATH goes
    if path is not None and url is not None:
        if not _from_env(url, URL_ENV):
            raise typer.BadParameter(
                f"give the store once: a folder {flag}, or --url for a Chroma server.",
                param_hint="'--url'",
            )
        url = None  # an explicit PATH wins over NOWLINE_URL
    if path is None and url is None:
        raise typer.BadParameter(
            f"give the store: a folder {flag}, or --url http://host:port for a Chroma server "
            f"(or set {URL_ENV}).",
            param_hint=hint,
        )
    if url is None:
        for name, value in (("tenant", tenant), ("database", database)):
            if value is not None and not _from_env(value, f"CHROMA_{name.upper()}"):
                raise typer.BadParameter(
                    f"--{name} is for a Chroma server; give --url too (a local folder has "
                    "one database).",
                    param_hint=f"'--{name}'",
                )
        tenant = database = token = None
    from ..errors import InvalidInput

    try:
        return Store(path, url, token, opts.token_header.value, tenant, database)
    except InvalidInput as exc:
        raise typer.BadParameter(str(exc), param_hint=hint) from None


def _shift(
    path: str | None, value: str | None, url: str | None, what: str
) -> tuple[str | None, str]:
    """Return (PATH, the command's own argument) from one or two positional arguments.

    PATH comes first and is left out for a server, so a lone argument is the command's own
    one when --url (or NOWLINE_URL) names a server.
    """
    if value is None and path is not None and url is not None:
        return None, path
    if value is None:
        raise typer.BadParameter(f"missing: give {what}.", param_hint=f"'{what}'")
    return path, value


def _open(
    store: Store,
    opts: _Options,
    *,
    create: bool = False,
    embeds: bool = False,
    creatable: bool = False,
) -> Collection:
    """Open the collection through nowline's store opener; its refusals become CLI errors.

    ``embeds`` says whether the command embeds (recall, the writes of documents): the others
    open any collection, whatever embedding function it was made with. ``create`` is the
    command's ``--create``; ``creatable`` says the command offers it, so a refusal names it.
    """
    from ..errors import (
        AmbiguousCollection,
        CollectionNotFound,
        EmbeddingUnavailable,
        InvalidInput,
        StoreBusy,
        StoreNotFound,
    )
    from ..requests import check_scope_key
    from ..stores import check_collection_name, open_collection

    try:
        check_scope_key(opts.scope_key)
    except InvalidInput as exc:
        raise typer.BadParameter(str(exc), param_hint="'--scope-key'") from None
    if create and opts.collection is not None:
        try:
            check_collection_name(opts.collection)
        except InvalidInput as exc:
            raise typer.BadParameter(str(exc), param_hint="'--collection'") from None
    try:
        client = store.connect(create=create)
    except StoreNotFound:
        raise typer.BadParameter(_no_store(store, creatable), param_hint="'PATH'") from None
    except InvalidInput as exc:  # the URL or the token header
        raise typer.BadParameter(str(exc), param_hint="'--url'") from None
    except ValueError as exc:  # chromadb: the server does not answer, or no such tenant/db
        _fail(
            f"Could not use the Chroma server at {store.url}: {exc} Check --url (and "
            "--tenant, --database, --token); start a server with `chroma run --path FOLDER`."
        )
    try:
        return open_collection(
            client,
            opts.collection,
            create=create,
            scope_key=opts.scope_key,
            embeds=embeds,
        )
    except AmbiguousCollection as exc:
        raise typer.BadParameter(
            f"{store.describe()} holds {len(exc.names)} collections; pick one with "
            f"--collection: {', '.join(exc.names)}.",
            param_hint="'--collection'",
        ) from None
    except CollectionNotFound as exc:
        if exc.name is None:  # nothing was asked for by name: the store itself is empty
            remedy = (
                "give --create to make one (named 'memory', or --collection NAME)"
                if creatable
                else "store memories first (nowline remember --create, nowline import "
                "--create or nowline mcp --create)"
            )
            _fail(
                f"{store.describe()[0].upper()}{store.describe()[1:]} has no collections yet: "
                f"{remedy}, or check that this is the store you meant.",
                code=2,
            )
        listed = ", ".join(exc.names) if exc.names else "none"
        more = "; --create makes it" if creatable else ""
        raise typer.BadParameter(
            f"No collection {exc.name!r} in {store.describe()} (it has: {listed}){more}.",
            param_hint="'--collection'",
        ) from None
    except EmbeddingUnavailable as exc:
        _fail(
            f"The collection {exc.collection!r} embeds with a function that the nowline command "
            "cannot build, and this command embeds text. Run it from Python instead, with the "
            "module that registers the function imported first (nowline.open_collection "
            "opens the store as this command does). The commands that embed nothing (stats, "
            "corrections, check, preview, retract, repair, hook, scan) work on this collection "
            "as they are."
        )
    except StoreBusy:
        _busy(store)
    except InvalidInput as exc:
        if opts.scope_key is None:
            _fail(str(exc))
        raise typer.BadParameter(
            f"{exc} Leave --scope-key out (the store remembers its key) or give that key.",
            param_hint="'--scope-key'",
        ) from None


def _no_store(store: Store, creatable: bool) -> str:
    """Return why a local folder is not a store, and what to give instead."""
    path = store.path or "."
    if os.path.exists(path) and not os.path.isdir(path):
        return f"{path!r} is a file; give the folder of a Chroma store, or a server with --url."
    create = "; --create makes a new store there" if creatable else ""
    return (
        f"There is no Chroma store at {path!r} (no chroma.sqlite3 there); nothing was "
        "created. Check the path (the folder of a chromadb.PersistentClient), or give a "
        f"server with --url{create}."
    )


def _where(col: Collection, store: Store, created: bool) -> str:
    """Return where a command wrote: the collection and the store's folder (or server)."""
    new = ", created now" if created else ""
    return f"collection {col.name!r} of {store.describe()}{new}"


def _busy(store: Store) -> NoReturn:
    """Fail because another process writes to the local store; say how to share it."""
    path = os.path.realpath(store.path or ".")
    _fail(
        f"Another process is writing to the local store at {path} (`nowline mcp`, "
        "`nowline serve`, or another command that writes): a local store has one writer, so "
        "this command cannot write to it. For several writers, serve the folder with a "
        f"Chroma server (`chroma run --path {path} --port 8000`) and point every writer at "
        "it with --url http://localhost:8000: this command, `nowline mcp --url ...` and "
        "`nowline serve --url ...`. The commands that only read (stats, corrections, "
        "recall, preview, check) work as they are."
    )


@contextmanager
def _nowline_errors(store: Store) -> Iterator[None]:
    """Turn nowline's errors into a message on stderr and exit code 1."""
    from ..errors import NowlineError, StoreBusy

    try:
        yield
    except StoreBusy:
        _busy(store)
    except NowlineError as exc:
        _fail(str(exc))


def _scope_metadata(col: Collection, scope: str | None) -> dict[str, Any] | None:
    """Return the metadata that selects ``--scope``, or None without it."""
    if scope is None:
        return None
    if col.scope_key is None:
        raise typer.BadParameter(
            "this store has no scope key; give --scope-key KEY with --scope (the metadata "
            "key whose value --scope is).",
            param_hint="'--scope'",
        )
    from ..errors import InvalidInput
    from ..requests import scope_value

    try:
        return {col.scope_key: scope_value(col, col.scope_key, scope)}
    except InvalidInput as exc:
        raise typer.BadParameter(str(exc), param_hint="'--scope'") from None


def _require_scope(col: Collection, metadata: dict[str, Any] | None, what: str) -> None:
    """Refuse a command on a scoped collection without the scope (the library's rule)."""
    from ..requests import scope_needed

    key = scope_needed(col.scope_key, col.scope_keys, metadata)
    if key is not None:
        raise typer.BadParameter(
            f"this store keeps scopes apart by the metadata key {key!r}, so {what} needs the "
            f"scope: pass --scope VALUE (a {key}).",
            param_hint="'--scope'",
        )


# ------------------------------------------------------------------ commands


@_command()
def stats(
    path: PathArg = None,
    top: Annotated[
        int, typer.Option("--top", min=1, help="How many deprecated strings to list.")
    ] = 5,
    json_out: Annotated[bool, _json_opt("the counts")] = False,
    *,
    opts: _Options,
) -> None:
    """Show records, corrections, the share that is historical, and the widest reach."""
    store = _store(path, opts)
    col = _open(store, opts)
    with _nowline_errors(store):
        roles = col.stats()
        rows = col.corrections()
    active = sum(1 for c in rows if c.status == "active")
    records = roles["records"]
    share = roles[HISTORICAL] / records if records else 0.0
    widest = sorted((c for c in rows if c.status == "active"), key=lambda c: -c.reach)[:top]
    if json_out:
        _echo_json(
            {
                "store": store.path or store.url,
                "collection": col.name,
                "records": records,
                "roles": {k: v for k, v in roles.items() if k != "records"},
                "corrections": {"active": active, "retracted": len(rows) - active},
                HISTORICAL: roles[HISTORICAL],
                "historical_share": share,
                "widest_reach": [
                    {"id": c.id, "deprecates": c.deprecates, "about": c.about, "reach": c.reach}
                    for c in widest
                ],
            }
        )
        return
    out = _out()
    out.print(f"[bold]{_safe(col.name)}[/] in {_safe(store.path or store.url)}")
    summary = Table.grid(padding=(0, 2))
    summary.add_row("records", str(records))
    summary.add_row("corrections", f"{len(rows)} ({active} active, {len(rows) - active} retracted)")
    summary.add_row(
        "roles",
        ", ".join(f"{roles[k]} {k}" for k in (CURRENT, HISTORICAL, TRANSITION, RETRACTED)),
    )
    summary.add_row(
        HISTORICAL, f"{roles[HISTORICAL]} ({share:.1%}) superseded by an active correction"
    )
    out.print(summary)
    if widest:
        out.print("Corrections with the widest reach:")
        table = Table()
        table.add_column("deprecates")
        table.add_column("reach", justify="right")
        for c in widest:
            table.add_row(_safe(", ".join(c.deprecates)), str(c.reach))
        out.print(table)


@_command()
def corrections(
    path: PathArg = None,
    json_out: Annotated[bool, _json_opt("the corrections")] = False,
    *,
    opts: _Options,
) -> None:
    """List every correction: id, time, deprecates, source, reach and status, oldest first.

    The same list as Collection.corrections(); --json gives times as ISO 8601 (UTC) with the
    epoch seconds beside them (time_epoch, retracted_epoch).
    """
    store = _store(path, opts)
    col = _open(store, opts)
    with _nowline_errors(store):
        rows = col.corrections()
    if json_out:
        _echo_json([_summary_json(r) for r in rows])
        return
    out = _out()
    if not rows:
        out.print(f"No corrections in {_safe(col.name)}.")
        return
    anchored = any(r.about for r in rows)
    sourced = any(r.source for r in rows)
    table = Table(title=f"Corrections in {_safe(col.name)}", title_justify="left")
    table.add_column("id", overflow="fold")
    table.add_column("time (UTC)", no_wrap=True)
    table.add_column("deprecates", overflow="fold")
    if anchored:
        table.add_column("about", overflow="fold")
    if sourced:
        table.add_column("source", overflow="fold")
    table.add_column("reach", justify="right")
    table.add_column("status")
    for r in rows:
        cells = [_safe(r.id), _utc(r.time), _safe(", ".join(r.deprecates))]
        if anchored:
            cells.append(_safe(", ".join(r.about)))
        if sourced:
            cells.append(_safe(r.source or "-"))
        table.add_row(*cells, str(r.reach), r.status)
    out.print(table)


def _summary_json(row: CorrectionSummary) -> dict[str, Any]:
    """Return one correction as the JSON output shows it (times as ISO 8601 and epoch)."""
    return cast(dict[str, Any], iso_times(row.model_dump(mode="json")))


def _dump(model: BaseModel) -> Any:
    """Return a nowline model as the JSON output shows it."""
    return iso_times(model.model_dump(mode="json"))


@_command()
def recall(
    path: PathArg = None,
    text: Annotated[
        str | None,
        typer.Argument(
            metavar="TEXT", help="What to recall (required, not empty).", show_default=False
        ),
    ] = None,
    k: Annotated[int, typer.Option("-k", "--n-results", "--k", min=1, help="How many hits.")] = 5,
    as_of: Annotated[
        str | None,
        _opt("--as-of", help="Answer as the store knew things then (ISO 8601 or epoch seconds)."),
    ] = None,
    historical: Annotated[
        bool,
        typer.Option("--historical/--no-historical", help="Keep historical hits."),
    ] = True,
    scope: ScopeOpt = None,
    json_out: Annotated[
        bool, _json_opt("the evidence packet (times as ISO 8601 with *_epoch)")
    ] = False,
    *,
    opts: _Options,
) -> None:
    """Recall memories as a model would see them: each outdated one with its now-line."""
    path, query = _shift(path, text, opts.url, "TEXT")
    if not query.strip():
        raise typer.BadParameter(
            "the text to recall is empty; say what to recall.", param_hint="'TEXT'"
        )
    if as_of is not None:
        from ..errors import InvalidInput
        from ..requests import to_epoch

        try:
            to_epoch(as_of, what="--as-of")
        except InvalidInput as exc:
            raise typer.BadParameter(str(exc), param_hint="'--as-of'") from None
    store = _store(path, opts)
    col = _open(store, opts, embeds=True)
    where = _scope_metadata(col, scope)
    with _nowline_errors(store):
        packet = col.recall(
            query, n_results=k, as_of=as_of, include_historical=historical, where=cast(Any, where)
        )
    if json_out:
        _echo_json(_dump(packet))
    else:
        _echo(packet.render())


@_command()
def preview(
    path: PathArg = None,
    deprecates: DeprecatesOpt = None,
    about: AboutOpt = None,
    replaced_by: ReplacedByOpt = None,
    scope: Annotated[
        str | None,
        _opt(
            "--scope",
            help="The scope value the correction would have (its scope key is the store's, or "
            "--scope-key).",
            store=True,
        ),
    ] = None,
    text: Annotated[
        str | None,
        _opt(
            "--text",
            "-t",
            help="The correction's text, if written: the guards that read it apply (each "
            "deprecated string must occur in it, its new value is never deprecated); without "
            "--deprecates, the strings it states as old are proposed.",
        ),
    ] = None,
    allow_person: AllowPersonOpt = False,
    allow_generic: AllowGenericOpt = False,
    allow_unreached: AllowUnreachedOpt = False,
    allow_absent: AllowAbsentOpt = False,
    json_out: Annotated[bool, _json_opt("the reach and the records")] = False,
    *,
    opts: _Options,
) -> None:
    """Show which records a correction would reach, and whether it would be refused.

    The refusal is the one `nowline correct` would give with the same --allow-* flags.
    """
    from ..requests import DEFAULT_MAX_REACH, REACH_FLOOR, reach_limit

    if not deprecates and not text:
        raise typer.BadParameter(
            "missing: give the outdated strings (e.g. -d metalcraftai/ufo), or the "
            "correction's --text to have them proposed.",
            param_hint="'--deprecates'",
        )
    store = _store(path, opts)
    col = _open(store, opts)
    metadata = _scope_metadata(col, scope)
    with _nowline_errors(store):
        ids = col.preview(
            deprecates or None,
            about=about or None,
            metadata=metadata,
            text=text,
            replaced_by=replaced_by,
            allow_person=allow_person,
            allow_generic=allow_generic,
            allow_unreached=allow_unreached,
            allow_absent=allow_absent,
        )
    proposed = not deprecates
    deprecates, about = list(ids.deprecates), list(ids.about)
    total = col.count()
    limit = reach_limit(DEFAULT_MAX_REACH, total) or 0
    docs = col.get(ids=ids, include=["documents"])["documents"] if ids else []
    if json_out:
        _echo_json(
            {
                "deprecates": deprecates,
                "about": about,
                "reach": len(ids),
                "limit": limit,
                "records": [{"id": i, "document": d} for i, d in zip(ids, docs or [], strict=True)],
                "near_misses": [{"string": s, "records": n} for s, n in ids.near_misses],
                "suggestions": [{"string": s, "records": n} for s, n in ids.suggestions],
                "refusal": ids.refusal,
                "repeat_of": ids.repeat_of,
            }
        )
        return
    if not deprecates:
        _echo(
            "The text states no old value that a record names; give the outdated strings "
            "with --deprecates."
        )
        return
    out = _out()
    if proposed:
        flags = " ".join(
            [
                *(f"-d {_safe(repr(d))}" for d in deprecates),
                *(f"-a {_safe(repr(a))}" for a in about),
            ]
        )
        out.print(f"The text states these old values that records name: {flags}")
    anchors = f" about {_safe(repr(about))}" if about else ""
    out.print(
        f"{len(ids)} of {_plural(total, 'record')} would be reached by "
        f"{_safe(repr(deprecates))}{anchors}."
    )
    if ids:
        table = Table()
        table.add_column("id", overflow="fold")
        table.add_column("document")
        for rid, doc in zip(ids, docs or [], strict=True):
            table.add_row(_safe(rid), _safe(_short(doc)))
        out.print(table)
    if len(ids) > limit:
        out.print(
            f"[yellow]A correction with this reach is refused by default: the limit is {limit} "
            f"records ({DEFAULT_MAX_REACH:.0%} of the store, at least {REACH_FLOOR}). Use a "
            "narrower string, or add --about; `nowline import` takes a larger --max-reach.[/]"
        )
    elif ids.refusal is not None:
        out.print(f"[yellow]nowline correct would refuse it: {_safe(ids.refusal)}[/]")
    if ids.repeat_of is not None:
        out.print(
            f"Already stored: correction {_safe(ids.repeat_of)} tells this change; nowline "
            "correct would write nothing."
        )
    others = [(d, n) for d, n in ids.suggestions if n > 0 and d not in deprecates]
    if others:
        listed = ", ".join(f"-d {_safe(repr(d))} ({_plural(n, 'record')})" for d, n in others)
        out.print(f"The text also states as old: {listed}")


@_command()
def check(
    path: PathArg = None,
    text: Annotated[
        str | None, _arg("TEXT", "The text to check, or - to read it from stdin (required).")
    ] = None,
    scope: Annotated[
        str | None,
        _opt(
            "--scope",
            help="On a scoped store: whose corrections apply (the value of its scope key).",
            store=True,
        ),
    ] = None,
    metadata: Annotated[
        str | None,
        _opt(
            "--metadata",
            help="The caller's metadata as JSON; on a scoped store its scope key selects the "
            "corrections (--scope is the short form).",
            store=True,
        ),
    ] = None,
    json_out: Annotated[bool, _json_opt("the trips (each correction the text names)")] = False,
    *,
    opts: _Options,
) -> None:
    """Check a command, plan or document against the corrections; exit 1 if any apply.

    Use it in scripts and git hooks: for each correction the text trips it prints the
    outdated string and the now-line, and exits 1; it exits 0 when nothing is outdated. A
    coding agent's tool hook needs `nowline hook` (exit 1 does not block a tool call there).
    """
    path, given = _shift(path, text, opts.url, "TEXT")
    meta: dict[str, Any] | None = None
    if metadata is not None:
        try:
            parsed = json.loads(metadata)
        except json.JSONDecodeError as exc:
            raise typer.BadParameter(f"not JSON: {exc}", param_hint="'--metadata'") from None
        if not isinstance(parsed, dict):
            raise typer.BadParameter("give a JSON object", param_hint="'--metadata'")
        meta = parsed
    body = sys.stdin.read() if given == "-" else given
    if not body.strip():  # as recall: an empty text is a mistake, not "nothing outdated"
        raise typer.BadParameter(
            "the text to check is empty; give the text, or - and the text on stdin.",
            param_hint="'TEXT'",
        )
    store = _store(path, opts)
    col = _open(store, opts)
    if scope is not None:
        meta = {**(meta or {}), **(_scope_metadata(col, scope) or {})}
    _require_scope(col, meta, "check")
    from ..models import stale_message

    with _nowline_errors(store):
        trips = col.check(body, metadata=meta)
    if json_out:
        _echo_json([_dump(t) for t in trips])
    elif trips:
        _echo(stale_message(trips, override=None))
    else:
        _echo("Nothing in this text is outdated.")
    if trips:
        raise typer.Exit(1)


@_command()
def retract(
    path: PathArg = None,
    correction_id: Annotated[
        str | None,
        typer.Argument(metavar="ID", help="The correction's id (required).", show_default=False),
    ] = None,
    *,
    opts: _Options,
) -> None:
    """Undo a wrong correction; it stays in the store, marked retracted."""
    path, cid = _shift(path, correction_id, opts.url, "ID")
    store = _store(path, opts)
    col = _open(store, opts)
    with _nowline_errors(store):
        before = {c.id: c for c in col.corrections()}.get(cid)
        if before is not None and before.status == "retracted":
            _out().print(
                f"Correction {_safe(cid)} was already retracted at {_utc(before.retracted)} "
                "UTC; nothing changed."
            )
            return
        covered = _covered(col, cid, before)
        col.retract(cid)
        roles = [h.role for h in col.hits(covered)] if covered else []
    still = sum(1 for r in roles if r == HISTORICAL)
    freed = len(roles) - still
    message = f"Retracted correction {_safe(cid)}. "
    if not roles:
        message += "It covered no records, so no other memory changed."
    elif not still:
        message += f"The {_plural(freed, 'record')} it covered read as current again."
    elif not freed:
        message += (
            f"The {_plural(still, 'record')} it covered "
            f"{'is' if still == 1 else 'are'} still covered by another correction."
        )
    else:
        message += (
            f"Of the {len(roles)} records it covered, {freed} read as current again and "
            f"{still} {'is' if still == 1 else 'are'} still covered by another correction."
        )
    _out().print(message + " The correction stays in the store, marked retracted.")


def _covered(col: Collection, cid: str, summary: CorrectionSummary | None) -> list[str]:
    """Return the ids of the records a correction covers (its strings, in its scope)."""
    if summary is None:
        return []
    scope = None
    if col.scope_key is not None:
        got = col.get(ids=[cid], include=["metadatas"])
        metas = got["metadatas"] or []
        meta = (metas[0] if metas else None) or {}
        if col.scope_key in meta:
            scope = {col.scope_key: meta[col.scope_key]}
    ids = col.preview(summary.deprecates, about=summary.about or None, metadata=scope)
    return [i for i in ids if i != cid]


@_command()
def repair(
    path: PathArg = None,
    *,
    opts: _Options,
) -> None:
    """Rebuild every link from the documents and store what differs (safe to rerun)."""
    store = _store(path, opts)
    col = _open(store, opts)
    total = col.count()
    with (
        _nowline_errors(store),
        _err().status(f"Repairing links of {_plural(total, 'record')} in {_safe(col.name)}…"),
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
    out.print(f"Repaired {_safe(col.name)}:")
    out.print(summary)
    if report.updated == 0:
        out.print("Every stored link was already right.")


# ----------------------------------------------------------- remember, correct

TextArg = Annotated[
    str | None,
    typer.Argument(metavar="TEXT", help="The record's text (required).", show_default=False),
]
IdOpt = Annotated[
    str | None,
    typer.Option("--id", help="The record id (default: a new UUID).", show_default=False),
]
MetadataOpt = Annotated[
    str | None,
    typer.Option(
        "--metadata",
        help='User metadata as a JSON object, e.g. \'{"source": "standup"}\'.',
        show_default=False,
    ),
]
ObservedOpt = Annotated[
    str | None,
    typer.Option(
        "--observed-at",
        help="When the fact was observed (ISO 8601 or epoch seconds; default: now).",
        show_default=False,
    ),
]
WriteScopeOpt = Annotated[
    str | None,
    typer.Option(
        "--scope",
        help="On a scoped store: the scope to write in (the value of its scope key).",
        rich_help_panel=_STORE,
        show_default=False,
    ),
]


def _record_metadata(metadata: str | None, col: Collection, scope: str | None) -> Any:
    """Return the metadata of a record to write: --metadata checked, --scope added."""
    from ..errors import InvalidInput
    from ..requests import check_metadata

    meta: dict[str, Any] | None = None
    if metadata is not None:
        try:
            parsed = json.loads(metadata)
            meta = check_metadata(parsed) if isinstance(parsed, dict) else None
        except json.JSONDecodeError as exc:
            raise typer.BadParameter(f"not JSON: {exc}", param_hint="'--metadata'") from None
        except InvalidInput as exc:
            raise typer.BadParameter(str(exc), param_hint="'--metadata'") from None
        if meta is None:
            raise typer.BadParameter("give a JSON object", param_hint="'--metadata'")
    if scope is not None:
        meta = {**(meta or {}), **(_scope_metadata(col, scope) or {})}
    return meta


@_command()
def remember(
    path: PathArg = None,
    text: TextArg = None,
    record_id: IdOpt = None,
    metadata: MetadataOpt = None,
    observed_at: ObservedOpt = None,
    scope: WriteScopeOpt = None,
    create: CreateOpt = False,
    json_out: Annotated[bool, _json_opt("the id and the corrections that cover it")] = False,
    *,
    opts: _Options,
) -> None:
    """Store one memory; say if a stored correction already covers it.

    The memory is embedded with the collection's own function. A path that holds no store is
    refused unless --create is given; a new store gets a collection named "memory".
    """
    path, body = _shift(path, text, opts.url, "TEXT")
    if not body.strip():
        raise typer.BadParameter("the text is empty; say what to remember.", param_hint="'TEXT'")
    store = _store(path, opts)
    created = not store.exists
    col = _open(store, opts, create=create, embeds=True, creatable=True)
    meta = _record_metadata(metadata, col, scope)
    _require_scope(col, meta, "remember")
    with _nowline_errors(store):
        rid = col.remember(body, id=record_id, metadata=meta, observed_at=observed_at)
        hit = next(iter(col.hits([rid])), None)
    by = [c.id for c in hit.direct] if hit is not None else []
    if json_out:
        _echo_json({"id": rid, "superseded_by": by})
        return
    _echo(f"Stored memory {rid} in {_where(col, store, created)}.")
    if hit is not None and by:
        from ..render import format_lines

        _echo("It names something a stored correction marks as outdated; recall shows:")
        _echo("\n".join(format_lines(hit.lines())))


@_command()
def correct(
    path: PathArg = None,
    text: Annotated[
        str | None,
        _arg(
            "TEXT",
            'The correction: what changed, naming the outdated strings ("Moved from A to B").',
        ),
    ] = None,
    deprecates: DeprecatesOpt = None,
    about: AboutOpt = None,
    replaced_by: ReplacedByOpt = None,
    record_id: IdOpt = None,
    metadata: MetadataOpt = None,
    observed_at: ObservedOpt = None,
    scope: WriteScopeOpt = None,
    allow_person: AllowPersonOpt = False,
    allow_generic: AllowGenericOpt = False,
    allow_unreached: AllowUnreachedOpt = False,
    allow_absent: AllowAbsentOpt = False,
    create: CreateOpt = False,
    json_out: Annotated[bool, _json_opt("the id, the reach and any near misses")] = False,
    *,
    opts: _Options,
) -> None:
    """Store a correction: every memory naming an outdated string shows it beneath.

    Refused (exit 1, nothing written) when a string is a new value (its own, or one a stored
    correction made current), absent from TEXT, generic or a person's name without --about,
    too broad for the store, or reaches nothing while the store names a near miss; the
    message names the strings to try. Check first with `nowline preview`. A path that holds
    no store is refused unless --create is given. It prints the command that undoes it.
    """
    from ..errors import InvalidCorrection, NowlineError, StoreBusy

    path, body = _shift(path, text, opts.url, "TEXT")
    if not body.strip():
        raise typer.BadParameter("the text is empty; say what changed.", param_hint="'TEXT'")
    if not deprecates:
        raise typer.BadParameter(
            "missing: give the outdated strings, e.g. -d metalcraftai/ufo.",
            param_hint="'--deprecates'",
        )
    store = _store(path, opts)
    created = not store.exists
    col = _open(store, opts, create=create, embeds=True, creatable=True)
    meta = _record_metadata(metadata, col, scope)
    _require_scope(col, meta, "correct")
    try:
        report = col.correct(
            body,
            deprecates=deprecates,
            about=about or None,
            replaced_by=replaced_by,
            id=record_id,
            metadata=meta,
            observed_at=observed_at,
            allow_absent=allow_absent,
            allow_generic=allow_generic,
            allow_person=allow_person,
            allow_unreached=allow_unreached,
        )
    except StoreBusy:
        _busy(store)
    except InvalidCorrection as exc:
        if json_out:
            _echo_json(
                {
                    "stored": False,
                    "refusal": str(exc),
                    "near_misses": [
                        {"string": m, "records": n} for m, n in getattr(exc, "near_misses", [])
                    ],
                    "suggestions": [{"string": m, "records": n} for m, n in exc.suggestions],
                }
            )
            raise typer.Exit(1) from None
        _fail(str(exc))
    except NowlineError as exc:
        _fail(str(exc))
    undo = _retract_command(store, opts, report.id)
    if json_out:  # a repeat wrote nothing: there is nothing of this call to undo
        _echo_json({**_dump(report), "undo": undo if report.stored else None})
        return
    noun = "memory that names" if report.reached == 1 else "memories that name"
    shown = f"{report.reached} {noun} {', '.join(repr(d) for d in deprecates)}"
    if not report.stored:
        _echo(
            f"Already stored: correction {report.id} tells the same change (the same text, "
            f"strings, anchors and new values) and stands, in {_where(col, store, created)}. "
            f"Nothing was written; it is shown beneath {shown}."
        )
        _echo(f"To state it anew, retract it first: {undo}")
        return
    for note in report.notes:
        _echo(f"Note: {note}")
    _echo(
        f"Stored correction {report.id} in {_where(col, store, created)}. It is shown "
        f"beneath {shown}."
    )
    _echo(f"Undo: {undo}")


def _retract_command(store: Store, opts: _Options, cid: str) -> str:
    """Return the ``nowline retract`` command that undoes ``cid``, ready to run in a shell.

    It names the store as this command was given it (the folder, or the server with its
    tenant and database) and the collection and scope key when they were given; a token
    is never printed (give it again, or keep it in NOWLINE_TOKEN).
    """
    import shlex

    words = ["nowline", "retract"]
    positional = [cid] if store.path is None else [store.path, cid]
    if store.url is not None:
        words += ["--url", store.url]
        for flag, value in (("--tenant", store.tenant), ("--database", store.database)):
            if value is not None:
                words += [flag, value]
    for flag, value in (("--collection", opts.collection), ("--scope-key", opts.scope_key)):
        if value is not None:
            words += [flag, value]
    if any(p.startswith("-") for p in positional):
        words.append("--")  # a path or an id that starts with "-" is not an option
    return " ".join(shlex.quote(w) for w in [*words, *positional])


# -------------------------------------------------------------------- import
# The rules live in nowline.jsonl (plan, against, write); the command draws the progress.


def _max_reach(value: str) -> float | int | str | None:
    """Parse ``--max-reach`` by the library's one rule (``nowline.requests.parse_max_reach``)."""
    from ..errors import InvalidInput
    from ..requests import parse_max_reach

    try:
        return parse_max_reach(value)
    except InvalidInput as exc:
        raise typer.BadParameter(str(exc), param_hint="'--max-reach'") from None


@_command("import")
def import_(
    path: PathArg = None,
    file: Annotated[
        str | None,
        _arg(
            "FILE.jsonl",
            "One JSON object per line: text, and optionally id, metadata, observed_at, "
            "deprecates (a line with deprecates is a correction) and about (its anchors).",
        ),
    ] = None,
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
    allow_person: Annotated[
        bool,
        typer.Option(
            "--allow-person",
            help='Accept a person\'s full name without an "about" anchor (everything about them '
            "is outdated).",
        ),
    ] = False,
    allow_unreached: Annotated[
        bool,
        typer.Option(
            "--allow-unreached",
            help="Store a correction that reaches no record even where the store names a "
            "near miss of its strings (a typo or swapped old and new values).",
        ),
    ] = False,
    max_reach: Annotated[
        str,
        typer.Option(
            "--max-reach",
            help="Refuse a correction that reaches more than this: a share of the store, a "
            "count, or 'none'. Default: a quarter of the store, at least 100 records.",
        ),
    ] = "default",
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Validate every line and judge each correction against the store as it "
            "stands, as an import does before it writes; write nothing.",
        ),
    ] = False,
    on_existing: Annotated[
        OnExisting,
        typer.Option(
            "--on-existing",
            help="A line whose id the collection already holds: fail (nothing is written), "
            "skip it (the stored record stays), or upsert it (the line replaces the record).",
        ),
    ] = OnExisting.FAIL,
    from_: Annotated[
        str,
        typer.Option(
            "--from",
            help="The file's format: 'nowline' (the lines above) or 'github-events' (one "
            'GitHub webhook delivery a line: {"event", "delivery", "payload"}; repository '
            "renames, transfers and archives become corrections, stored once each).",
        ),
    ] = "nowline",
    scope: Annotated[
        str | None,
        _opt(
            "--scope",
            help="With --from github-events on a scoped store: the scope value of every "
            "correction.",
            store=True,
        ),
    ] = None,
    scope_for: Annotated[
        list[str] | None,
        _opt(
            "--scope-for",
            help="With --from github-events: OWNER=VALUE, the scope of the corrections of one "
            "repository owner (repeat for several; wins over --scope).",
            store=True,
        ),
    ] = None,
    create: CreateOpt = False,
    *,
    opts: _Options,
) -> None:
    """Load memories and corrections from a JSON Lines file, in file order.

    Every line is validated first, and every correction judged against the store as it
    stands; if any is bad or refused, their line numbers are listed and nothing is written.
    What the file's own earlier corrections change (a value one of them made current, a
    repeat of one) is judged as the lines are written: such a refusal stops the import
    there, and says which lines were written. A path that holds no store is refused unless
    --create is given; a new store gets a collection named "memory". With --from
    github-events, other events and deliveries already stored are skipped and counted.
    """
    path, name = _shift(path, file, opts.url, "FILE.jsonl")
    source = Path(name)
    if not source.is_file():
        raise typer.BadParameter(f"{name!r} is not a readable file.", param_hint="'FILE.jsonl'")
    if from_ not in ("nowline", "github-events"):
        raise typer.BadParameter("give 'nowline' or 'github-events'.", param_hint="'--from'")
    if from_ == "github-events":
        ignored = [
            flag
            for flag, given in (
                ("--allow-generic", allow_generic),
                ("--allow-absent", allow_absent),
                ("--allow-person", allow_person),
                ("--allow-unreached", allow_unreached),
                ("--on-existing", on_existing is not OnExisting.FAIL),
            )
            if given
        ]
        if ignored:
            raise typer.BadParameter(
                f"{', '.join(ignored)} judge nowline lines; a GitHub event's correction is "
                "judged as the receiver judges it (give --max-reach for a widely named "
                "repository).",
                param_hint=f"'{ignored[0]}'",
            )
        reach = _max_reach(max_reach)
        store = _store(path, opts)
        _import_github_events(store, opts, source, scope, scope_for, dry_run, create, reach)
        return
    if scope is not None or scope_for:
        raise typer.BadParameter(
            "--scope and --scope-for are for --from github-events; a nowline line carries "
            "its scope in its metadata.",
            param_hint="'--scope'",
        )
    from . import jsonl

    reach_setting = _max_reach(max_reach)
    store = _store(path, opts)
    created = not store.exists
    col = _collection_there(store, opts, create)
    with source.open("rb") as fh, using(JSONL_TERMS):  # bytes: a bad byte is a bad line
        plan = jsonl.plan(
            fh, allow_absent=allow_absent, allow_generic=allow_generic, allow_person=allow_person
        )
    plan = jsonl.against(plan, col, on_existing.value)
    if plan.bad:
        listed = _numbered([(b.line, _bad_line(b)) for b in plan.bad], "bad")
        advice = ""
        if any(b.stored for b in plan.bad):
            advice = (
                " Lines whose ids the collection holds: --on-existing skip leaves the stored "
                "records, --on-existing upsert replaces them."
            )
        _fail(
            f"{name}: {_plural(len(plan.bad), 'bad line')}; nothing was written. Fix them and "
            f"import again.{advice}\n{listed}"
        )
    summary = (
        f"{_plural(len(plan.lines), 'record')} ({_plural(plan.memories, 'memory', 'memories')}, "
        f"{_plural(plan.corrections, 'correction')})"
    )
    skipped = (
        f"; skipped {_plural(len(plan.skipped), 'line')} already stored" if plan.skipped else ""
    )
    if col is not None and plan.corrections:  # the store's guards, before any write
        with _nowline_errors(store), using(JSONL_TERMS):
            refused = jsonl.judge(
                col,
                plan,
                allow_absent=allow_absent,
                allow_generic=allow_generic,
                allow_person=allow_person,
                max_reach=reach_setting,
                allow_unreached=allow_unreached,
            )
        if refused:
            _refused(name, refused, " (--dry-run)" if dry_run else "")
    if dry_run:
        _out().print(
            f"{_safe(name)}: {summary}, all valid{skipped}; nothing was written (--dry-run)."
        )
        return
    if col is None:
        col = _open(store, opts, create=True, embeds=True)
    elif plan.lines:
        col = _open(store, opts, embeds=True)  # writing embeds: the function is needed now
    if plan.lines:
        _warm_up(col)
    start = time.perf_counter()
    repeats: list[tuple[int, str]] = []
    with _nowline_errors(store), using(JSONL_TERMS):
        written = _write_plan(
            col,
            plan,
            allow_absent,
            allow_generic,
            reach_setting,
            allow_unreached,
            allow_person,
            lambda line, cid: repeats.append((line, cid)),
        )
    seconds = time.perf_counter() - start
    rate = f", {written / seconds:.0f} records/s" if seconds > 0 and written else ""
    if repeats:  # the headline counts what was written
        summary = (
            f"{_plural(written, 'record')} of {summary}; {_plural(len(repeats), 'correction')} "
            "repeated one already stored and wrote nothing"
        )
    _out().print(
        f"Imported {summary} into {_safe(_where(col, store, created))} in {seconds:.1f} s"
        f"{rate}{skipped}."
    )
    for line, cid in repeats:
        _out().print(
            f"Line {line} repeats correction {_safe(cid)}, which the store holds and which "
            "stands (the same text, strings, anchors and new values): nothing was written for it."
        )


def _has_collection(store: Store, opts: _Options) -> bool:
    """Return whether the store holds the collection an import would write to."""
    try:
        client = store.connect()
    except ValueError:
        return True  # _open says what is wrong
    names = [c.name for c in client.list_collections()]
    return bool(names) and (opts.collection is None or opts.collection in names)


def _bad_line(bad: Any) -> str:
    """Return a bad line's reason (worded in the line's fields and the command's flags)."""
    return str(bad.message)


def _warm_up(col: Collection) -> None:
    """Load the embedding model before the progress bar starts, so its rate is the writes'."""
    function = col.embedding_function
    if function is None:
        return
    with _err().status("Loading the embedding model…"):
        try:
            function(["warm up"])
        except Exception:  # the first write reports the problem with its line number
            return


def _write_plan(
    col: Collection,
    plan: Any,
    allow_absent: bool,
    allow_generic: bool,
    max_reach: float | int | str | None,
    allow_unreached: bool = False,
    allow_person: bool = False,
    repeated: Callable[[int, str], None] | None = None,
) -> int:
    """Write the plan with nowline.jsonl.write, drawing its progress; return records written."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    from . import jsonl

    class RateColumn(ProgressColumn):
        """Records per second."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("? rec/s" if speed is None else f"{speed:,.0f} rec/s")

    columns = (
        TextColumn("importing"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=_err(), transient=False) as progress:
        task = progress.add_task("import", total=len(plan.lines))
        try:
            return jsonl.write(
                col,
                plan,
                allow_absent=allow_absent,
                allow_generic=allow_generic,
                allow_person=allow_person,
                max_reach=max_reach,
                allow_unreached=allow_unreached,
                progress=lambda n: progress.advance(task, n),
                repeated=repeated,
                judge_first=False,  # judged before the bar started
            )
        except jsonl.Stopped as exc:
            _stop(exc.written, exc.line, str(exc))


def _refused(name: str, refused: list[Any], dry: str) -> NoReturn:
    """Stop an import whose corrections the store's guards refuse, before any write."""
    listed = _numbered([(b.line, _bad_line(b)) for b in refused], "refused")
    _fail(
        f"{name}: the store refuses {_plural(len(refused), 'correction line')}; nothing was "
        f"written{dry}. Fix them and import again.\n{listed}"
    )


def _numbered(reasons: list[tuple[int, str]], kind: str) -> str:
    """Return a file's bad lines, one ``line N: reason`` each, the first few of many."""
    lines = [f"line {n}: {reason}" for n, reason in reasons[:_SHOWN_BAD_LINES]]
    if len(reasons) > _SHOWN_BAD_LINES:
        lines.append(f"... and {len(reasons) - _SHOWN_BAD_LINES} more {kind} lines")
    return "\n".join(lines)


def _collection_there(store: Store, opts: _Options, create: bool, **how: bool) -> Collection | None:
    """Return an import's collection if the store holds it, else None (nothing is created).

    Without --create, a path that holds no store (or not the collection) is refused here,
    naming what is missing and --create; with it, the import creates it only to write.
    """
    there = store.exists and _has_collection(store, opts)
    if not there and not create:
        _open(store, opts, creatable=True)  # says what is missing, and names --create
    return _open(store, opts, **how) if there else None


def _stop(written: int, line: int, message: str) -> NoReturn:
    """Stop an import that failed while writing, saying what was written."""
    if written == 0:
        _fail(f"{message}\nNothing was written. Fix line {line} and import the file again.")
    verb = "was" if written == 1 else "were"
    _fail(
        f"{message}\nThe {_plural(written, 'record')} before line {line} {verb} written; "
        f"nothing from line {line} on was. Fix that line and import the lines from {line} on "
        "again."
    )


# ----------------------------------------------------------------------- mcp


@_command("mcp")
def mcp_command(
    folder: PathArg = None,
    path: Annotated[
        str | None,
        _opt(
            "--path",
            help="Folder of a local Chroma store (created only with --create); the same as PATH.",
            store=True,
        ),
    ] = None,
    scope: Annotated[
        str | None,
        _opt(
            "--scope",
            help="Serve one scope of a scoped store: the value of its scope key (e.g. a user "
            "id). Every tool then writes, recalls and checks in that scope only.",
            store=True,
        ),
    ] = None,
    create: CreateOpt = False,
    *,
    opts: _Options,
) -> None:
    """Serve the memory tools to a model over MCP (stdio): remember, correct, recall, ...

    The store is a local folder (PATH or --path) or a Chroma server (--url, or NOWLINE_URL), which
    other processes (the CLI, other agents) can write to at the same time. A path that holds
    no store is refused unless --create is given; a new store gets a collection named
    "memory". Register this command with an MCP client; it speaks
    JSON-RPC on stdin and stdout and logs to stderr. The embedding model loads in the
    background at start.
    """
    try:
        from . import mcp_server
    except ImportError as exc:
        _fail(str(exc))
    if folder is not None and path is not None:
        raise typer.BadParameter("give the folder once: PATH or --path.", param_hint="'--path'")
    path = folder if path is None else path
    store = _store(path, opts, flag="PATH" if folder is not None else "--path")
    col = _open(store, opts, create=create, embeds=True, creatable=True)
    metadata = _scope_metadata(col, scope)
    _require_scope(col, metadata, "the MCP server (one scope per session)")
    import logging

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(message)s")
    logging.getLogger("nowline").setLevel(logging.INFO)
    with _nowline_errors(store):
        mcp_server.serve(col, metadata=metadata)


# --------------------------------------------------------- at the tool boundary

StorePathOpt = Annotated[
    str | None,
    typer.Option(
        "--path",
        help="Folder of a local Chroma store (never created: it must exist).",
        rich_help_panel=_STORE,
        show_default=False,
    ),
]


def _checker(
    path: str | None, opts: _Options, scope: str | None
) -> tuple[Collection, dict[str, Any] | None]:
    """Open an existing store's collection to check against; return it and the scope's metadata."""
    store = _store(path, opts, flag="--path")
    col = _open(store, opts)
    metadata = _scope_metadata(col, scope)
    _require_scope(col, metadata, "a check")
    return col, metadata


@contextmanager
def _failing_with(code: int, what: str, note: str = "") -> Iterator[None]:
    """Turn any failure inside into exit ``code``, the reason on stderr (prefixed by ``what``).

    The store helpers exit 1 or 2 on their own; a hook and a scan keep their own meaning for
    those codes, so every failure is mapped to ``code``. ``note`` follows the reason.
    """
    try:
        yield
    except typer.Exit as exc:
        if exc.exit_code == 0:
            raise
        reason = None  # the helper already said why on stderr
    except typer.BadParameter as exc:
        reason = exc.format_message()
    except Exception as exc:
        reason = f"{type(exc).__name__}: {exc}"
    else:
        return
    if reason is not None:
        typer.echo(terminal_safe(f"Error: {what}: {reason}"), err=True)
    if note:
        typer.echo(note, err=True)
    raise typer.Exit(code)


@_command("hook")
def hook_command(
    path: StorePathOpt = None,
    scope: ScopeOpt = None,
    fail_open: Annotated[
        bool,
        typer.Option(
            "--fail-open",
            help="When the hook cannot check (bad input, no store, any error), let the tool "
            "call go ahead: exit 0 with the reason on stderr. Default: exit 2, which blocks it.",
        ),
    ] = False,
    *,
    opts: _Options,
) -> None:
    """A coding agent's hook: deny a stale tool call, add the now-line to a stale result or message.

    Reads one hook event as JSON on stdin, as Claude Code (and Codex) write it. PreToolUse:
    when a string in tool_input names something outdated, prints a JSON "deny" whose reason
    gives the now-lines, and exits 0. PostToolUse: when a string in tool_response does, prints
    the now-lines as additionalContext. UserPromptSubmit: when the user's message names
    something outdated, or states a change no correction holds yet, prints the now-lines or
    the correct call that stores the change as additionalContext. Otherwise prints nothing.
    When it cannot check a tool call (bad JSON, no store at --path: it never creates one, any
    error) it exits 2 with the reason on stderr, which blocks the call; --fail-open lets the
    call go ahead instead. A message it cannot check always goes ahead (exit 0, the reason on
    stderr). Reads only.
    """
    from ..fastpath import SNAPSHOT_WRITE_ENV
    from . import hook as agent_hook

    os.environ[SNAPSHOT_WRITE_ENV] = "0"  # the hook only reads: it never writes a snapshot
    data = sys.stdin.buffer.read()
    if agent_hook.is_message_event(data):
        # a message does nothing by itself, and exit 2 would block and erase the user's
        # prompt: a message the hook cannot read goes ahead, the reason on stderr
        what, code, note = "this message", 0, "The message goes ahead without nowline's context."
    else:
        what, code = "this tool call", 0 if fail_open else 2
        note = "--fail-open: the tool call goes ahead unchecked." if fail_open else ""
    with _failing_with(code, f"nowline hook could not check {what}", note):
        event = agent_hook.parse_event(data)
        col, metadata = _checker(path, opts, scope)
        trips = col.check(event.text, metadata=metadata)
        said = ""
        if event.name == agent_hook.USER_PROMPT_SUBMIT:
            from .tools import message_note

            said = message_note(col, event.text, metadata=metadata)
        output = agent_hook.decide(event, trips, said)
    if output is not None:
        typer.echo(json.dumps(output, ensure_ascii=False))


def _nowline_command() -> list[str]:
    """Return this installation's ``nowline`` as absolute paths (the script beside Python)."""
    python = os.path.abspath(sys.executable)  # not resolved: a venv's python is a link
    script = os.path.join(os.path.dirname(python), "nowline")
    if os.path.isfile(script) and os.access(script, os.X_OK):
        return [script]
    return [python, "-m", "nowline"]


@_command("hook-settings")
def hook_settings_command(
    path: StorePathOpt = None,
    scope: ScopeOpt = None,
    agent: Annotated[
        str,
        typer.Option(
            "--agent",
            help="The agent whose settings to write: claude-code (.claude/settings.json) or "
            "codex (.codex/hooks.json).",
        ),
    ] = "claude-code",
    messages: Annotated[
        bool,
        typer.Option(
            "--messages",
            help="Also run the hook on each user message (UserPromptSubmit): the now-lines of "
            "the outdated values it names, and the correct call for a change it states. A small "
            "model makes that call even after a message that states no change.",
        ),
    ] = False,
    install: Annotated[
        Path | None,
        typer.Option(
            "--install",
            help="Write the hooks into this settings file (created if missing; other settings "
            "and hooks kept, an earlier nowline hook replaced). Default: print them.",
            show_default=False,
        ),
    ] = None,
    *,
    opts: _Options,
) -> None:
    """Print (or install) an agent's hook settings for this store, with absolute paths.

    The command it writes names this installation's nowline and the store by absolute path,
    so it runs even where the agent's PATH lacks the virtualenv (a missing command exits 127,
    which Claude Code and Codex treat as a non-blocking error: the stale call would run). The
    store must exist and the scope must suit it, as for nowline hook. A server token is never
    written into the file: set it in the agent's environment instead.
    """
    from ..errors import InvalidInput
    from . import hook as agent_hook

    if opts.token is not None and not _from_env(opts.token, TOKEN_ENV):
        raise typer.BadParameter(
            f"a settings file is no place for a secret: set {TOKEN_ENV} in the agent's "
            "environment instead of --token.",
            param_hint="'--token'",
        )
    if agent not in agent_hook.AGENTS:
        raise typer.BadParameter(
            f"give one of {', '.join(agent_hook.AGENTS)}, not {agent!r}.", param_hint="'--agent'"
        )
    store = _store(path, opts, flag="--path")
    _checker(path, opts, scope)  # the store exists and the scope suits it, as the hook needs
    args = [*_nowline_command(), "hook"]
    if store.path is not None:
        args += ["--path", os.path.abspath(os.path.expanduser(store.path))]
    else:
        args += ["--url", str(store.url)]
        if opts.tenant:
            args += ["--tenant", opts.tenant]
        if opts.database:
            args += ["--database", opts.database]
    for flag, value in (
        ("--collection", opts.collection),
        ("--scope-key", opts.scope_key),
        ("--scope", scope),
    ):
        if value is not None:
            args += [flag, value]
    settings = agent_hook.hook_settings(agent, args, messages=messages)
    if install is None:
        typer.echo(json.dumps(settings, indent=2, ensure_ascii=False))
        return
    target = install.expanduser()
    existing: Any = {}
    if target.exists():
        try:
            existing = json.loads(target.read_text(encoding="utf-8") or "{}")
        except (OSError, ValueError) as exc:
            raise typer.BadParameter(
                f"{target} cannot be read as JSON ({exc}); fix or move it first.",
                param_hint="'--install'",
            ) from None
    try:
        merged = agent_hook.merged_settings(existing, settings)
    except InvalidInput as exc:
        raise typer.BadParameter(f"{target}: {exc}", param_hint="'--install'") from None
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(merged, indent=2, ensure_ascii=False) + "\n")
    os.replace(temp, target)
    line = settings["hooks"][agent_hook.PRE_TOOL_USE][0]["hooks"][0]["command"]
    events = ", ".join(settings["hooks"])
    typer.echo(f"Installed nowline's hook in {target} ({events}): {line}")


class ScanFormat(str, Enum):
    """The output formats of ``nowline scan``."""

    TEXT = "text"
    JSON = "json"
    SARIF = "sarif"


@_command("scan")
def scan_command(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="PATH...",
            help="Folders or files to scan (inside a git work tree: the files git tracks).",
            show_default=False,
        ),
    ] = None,
    path: StorePathOpt = None,
    output_format: Annotated[
        ScanFormat,
        typer.Option(
            "--format",
            help="text (path:line:column lines), json (one object per occurrence) or sarif "
            "(SARIF 2.1.0, for code scanning).",
        ),
    ] = ScanFormat.TEXT,
    scope: ScopeOpt = None,
    *,
    opts: _Options,
) -> None:
    """Find every outdated string in a workspace: its files, git remotes and submodule URLs.

    Each occurrence of an active correction's deprecated string is reported with its file,
    line and column (Unicode code points, from 1). Binary files are skipped. Exit codes: 0
    nothing outdated, 1 something is, 2 usage error or the store could not be read. For CI
    and pre-commit (hook id nowline-scan).
    """
    from . import scan as workspace

    if not paths:
        raise typer.BadParameter("missing: give the folders or files to scan.", param_hint="PATH")
    for given in paths:
        if not os.path.exists(given):
            raise typer.BadParameter(f"{given!r} does not exist.", param_hint="PATH")
    with _failing_with(2, "nowline scan could not read the store"):
        col, metadata = _checker(path, opts, scope)
    with _failing_with(2, "nowline scan failed"):
        report = workspace.scan(paths, lambda text: col.check(text, metadata=metadata))
    for name, reason in report.skipped:
        _err().print(f"[yellow]Skipped {_safe(name)}: {_safe(reason)}[/]")
    if output_format is ScanFormat.JSON:
        _echo_json(workspace.to_json(report.findings))
    elif output_format is ScanFormat.SARIF:
        from importlib.metadata import version

        _echo_json(workspace.to_sarif(report.findings, version=version("nowline")))
    else:
        typer.echo(terminal_safe(workspace.to_text(report.findings)))
    raise typer.Exit(1 if report.findings else 0)


# --------------------------------------------------------------------- serve
# The receiver of corrections from connected systems (nowline.serve) and the import of the
# same GitHub events; the rules live in nowline.requests and nowline.surfaces.github_events.


def _audience(
    col: Collection | None,
    scope: str | None,
    scope_for: list[str] | None,
    scope_key: str | None = None,
) -> Any:
    """Return the ``nowline.requests.Audience`` that --scope and --scope-for configure.

    ``col`` None: a collection not created yet, with ``scope_key`` (--scope-key); its values
    stay as given, for no record holds one to type them by.
    """
    from ..requests import Audience

    owners: dict[str, str] = {}
    for item in scope_for or []:
        owner, sep, value = item.partition("=")
        if not sep or not owner.strip() or not value:
            raise typer.BadParameter(
                f"{item!r}: give OWNER=VALUE, e.g. --scope-for acme=team-acme.",
                param_hint="'--scope-for'",
            )
        owners[owner.strip()] = value
    key = col.scope_key if col is not None else scope_key
    if (scope is not None or owners) and key is None:
        raise typer.BadParameter(
            "this store has no scope key; give --scope-key KEY with --scope or --scope-for "
            "(the metadata key whose value they are).",
            param_hint="'--scope'",
        )
    from ..errors import InvalidInput

    try:
        audience = Audience(scope_key=key, default=scope, owners=owners)
        return audience if col is None else audience.typed(col)
    except InvalidInput as exc:
        raise typer.BadParameter(str(exc), param_hint="'--scope-for'") from None


def _import_github_events(
    store: Store,
    opts: _Options,
    source: Path,
    scope: str | None,
    scope_for: list[str] | None,
    dry_run: bool,
    create: bool = False,
    max_reach: float | int | str | None = "default",
) -> None:
    """Import a file of GitHub deliveries: plan every line, then store each correction once."""
    from ..errors import NowlineError, StoreBusy
    from ..requests import already_stored
    from ..requests import store as store_request
    from . import github_events

    created = not store.exists
    col = _collection_there(store, opts, create, embeds=True)
    audience = _audience(col, scope, scope_for, opts.scope_key)
    with source.open("rb") as fh:
        plan = github_events.plan_lines(fh, audience)
    if plan.bad:
        _fail(
            f"{source}: {_plural(len(plan.bad), 'bad line')}; nothing was written. Fix them "
            f"and import again.\n{_numbered(list(plan.bad), 'bad')}"
        )
    skipped = _plural(len(plan.skipped), "other event")
    if dry_run:
        stored_before = 0
        if col is not None:
            with _nowline_errors(store):
                stored_before = sum(
                    already_stored(col, item.request) is not None for item in plan.items
                )
        _out().print(
            f"{_safe(source)}: {_plural(len(plan.items) - stored_before, 'correction')} to "
            f"store, {_plural(stored_before, 'delivery', 'deliveries')} already stored, "
            f"{skipped} skipped; nothing was written (--dry-run)."
        )
        return
    if col is None:
        col = _open(store, opts, create=True, embeds=True, creatable=True)
    stored = again = 0
    with _nowline_errors(store):
        for item in plan.items:
            try:
                result = store_request(
                    col, item.request, item.scope, max_reach=cast(Any, max_reach)
                )
            except NowlineError as exc:
                if isinstance(exc, StoreBusy):
                    raise
                _stop(stored, item.line, f"line {item.line}: {exc}")
            stored += result.created
            again += not result.created
    _out().print(
        f"Stored {_plural(stored, 'correction')} from {_safe(source)} in "
        f"{_safe(_where(col, store, created))}; "
        f"skipped {_plural(again, 'delivery', 'deliveries')} already stored and {skipped}."
    )


@_command("serve")
def serve_command(
    path: Annotated[
        str | None,
        _opt(
            "--path",
            help="Folder of a local Chroma store (created only with --create).",
            store=True,
        ),
    ] = None,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (keep loopback behind a proxy).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port.")] = 8080,
    github_secret: Annotated[
        str | None,
        typer.Option(
            "--github-secret",
            envvar="NOWLINE_GITHUB_SECRET",
            help="The GitHub webhook's secret; enables POST /github (prefer the environment "
            "variable: a command line is visible to other users).",
            show_default=False,
        ),
    ] = None,
    api_token: Annotated[
        str | None,
        typer.Option(
            "--api-token",
            envvar="NOWLINE_SERVE_TOKEN",
            help="A bearer token of POST /corrections for the source api; enables it (prefer "
            "the environment variable). Not --token, which is the Chroma server's.",
            show_default=False,
        ),
    ] = None,
    tokens_file: Annotated[
        Path | None,
        typer.Option(
            "--tokens-file",
            envvar="NOWLINE_SERVE_TOKENS_FILE",
            help="A JSON file of bearer tokens of POST /corrections, each with the source it "
            'writes for and optionally its scope: [{"token": "...", "source": "statuspage", '
            '"scope": "team-a"}]. --api-token is a token for the source api.',
            show_default=False,
        ),
    ] = None,
    scope: Annotated[
        str | None,
        _opt(
            "--scope", help="On a scoped store: the scope value of everything received.", store=True
        ),
    ] = None,
    scope_for: Annotated[
        list[str] | None,
        _opt(
            "--scope-for",
            help="OWNER=VALUE: the scope of GitHub corrections for one repository owner "
            "(the owner of the outdated name; repeat for several; wins over --scope).",
            store=True,
        ),
    ] = None,
    max_body: Annotated[
        int, typer.Option("--max-body", min=1024, help="Largest request body, in bytes.")
    ] = 256 * 1024,
    max_pending: Annotated[
        int,
        typer.Option("--max-pending", min=1, help="Requests that may wait for the writer."),
    ] = 16,
    max_reach: Annotated[
        str,
        typer.Option(
            "--max-reach",
            help="Refuse (422) a correction that reaches more than this: a share of the store, "
            "a count, or 'none'. Default: a quarter of the store, at least 100 records.",
        ),
    ] = "default",
    create: CreateOpt = False,
    *,
    opts: _Options,
) -> None:
    """Receive corrections over HTTP: GitHub webhooks (POST /github) and JSON (POST /corrections).

    A repository renamed, transferred or archived on GitHub becomes a correction the moment
    GitHub delivers it, with its provenance (source, source_id, source_url); a delivery is
    stored once. GET /health answers while it runs. Run it behind a reverse proxy with TLS;
    over a Chroma server (--url) it is one writer among the MCP server and the CLI. Needs the
    serve extra. See docs/serve.md.
    """
    try:
        from . import serve as receiver
    except ImportError as exc:
        _fail(str(exc))
    if not github_secret and not api_token and tokens_file is None:
        raise typer.BadParameter(
            "give --github-secret (or NOWLINE_GITHUB_SECRET) for GitHub webhooks, --api-token "
            "(or NOWLINE_SERVE_TOKEN) or --tokens-file for JSON corrections, or both.",
            param_hint="'--github-secret'",
        )
    from ..errors import InvalidInput

    try:
        tokens = receiver.read_tokens(tokens_file) if tokens_file is not None else []
    except InvalidInput as exc:
        raise typer.BadParameter(str(exc), param_hint="'--tokens-file'") from None
    reach_setting = _max_reach(max_reach)
    store = _store(path, opts, flag="--path")
    col = _open(store, opts, create=create, embeds=True, creatable=True)
    audience = _audience(col, scope, scope_for)
    if github_secret and col.scope_key is not None and scope is None and not scope_for:
        raise typer.BadParameter(
            f"this store keeps scopes apart by {col.scope_key!r}: say where GitHub corrections "
            "go with --scope VALUE or --scope-for OWNER=VALUE.",
            param_hint="'--scope'",
        )
    import logging

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(message)s")
    logging.getLogger("nowline").setLevel(logging.INFO)
    _warm_up(col)
    with _nowline_errors(store):
        app_ = receiver.create_app(
            col,
            audience=audience,
            github_secret=github_secret,
            api_token=api_token,
            tokens=tokens,
            limits=receiver.Limits(
                max_body=max_body,
                max_pending=max_pending,
                max_reach=cast(Any, reach_setting),
            ),
        )
        receiver.run(app_, host=host, port=port)


if __name__ == "__main__":
    main()

"""The ``nowline`` command's entry point: ``hook`` and ``check`` answer fast where they can.

``nowline hook`` runs before and after every tool call of a coding agent, so its cost is the
agent's latency; importing the command line (typer, rich) and chromadb costs more than
answering. This entry point reads the arguments of the commonest ``hook`` and ``check`` calls
itself, and where the collection's snapshot is confirmed by the store's generation mark
(:func:`nowline.fastpath.confirmed`) answers from it, printing what the full command prints.
Anything else (another command, an option it does not read, ``--json``, a scope it cannot
type, no confirmed snapshot, any failure) goes to the full command line
(:func:`nowline.surfaces.cli.main`) with the arguments and the standard input untouched: this
path decides nothing the full path would decide otherwise.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Sequence

__all__ = ["main"]

_URL_ENV = "NOWLINE_URL"  # as nowline.surfaces.cli.URL_ENV
_TOKEN_ENV = "NOWLINE_TOKEN"  # as nowline.surfaces.cli.TOKEN_ENV
_VALUED = {
    "--path",
    "--url",
    "--collection",
    "--scope",
    "--scope-key",
    "--token",
    "--tenant",
    "--database",
}
_SHORT = {"-c": "--collection"}  # the short options of these, as the full command line has them
_FLAGS = {"--fail-open"}
_DOUBT = None


def main() -> None:
    """Run the ``nowline`` command (the console-script entry point)."""
    args = sys.argv[1:]
    if args and args[0] in ("hook", "check") and not os.environ.get("NOWLINE_NO_FAST_PATH"):
        code = _fast(args[0], args[1:])
        if code is not None:
            sys.stdout.flush()
            raise SystemExit(code)
    from .cli import main as full

    full()


def _parse(args: Sequence[str]) -> tuple[dict[str, str | bool], list[str]] | None:
    """Return the options and positional arguments, or None for anything not read here."""
    options: dict[str, str | bool] = {}
    positional: list[str] = []
    items = iter(args)
    for arg in items:
        name, eq, value = (_SHORT[arg], "", "") if arg in _SHORT else arg.partition("=")
        if name in _VALUED:
            if not eq:
                value = next(items, None)  # type: ignore[assignment]
                if value is None:
                    return None
            if name in options:
                return None
            options[name] = value
        elif arg in _FLAGS:
            options[arg] = True
        elif arg.startswith("-") and arg != "-":
            return None  # --json, --metadata, --help, a typo: the full command line
        else:
            positional.append(arg)
    return options, positional


def _fast(command: str, args: Sequence[str]) -> int | None:
    """Answer ``hook`` or ``check`` from a confirmed snapshot; None: take the full path."""
    parsed = _parse(args)
    if parsed is None:
        return _DOUBT
    options, positional = parsed
    if command == "hook":
        if positional:
            return _DOUBT
        return _hook(options)
    return _check(options, positional)


def _store(path: str | None, options: dict[str, str | bool]) -> object | None:
    """Return the store the options name, as the full command line would, or None."""
    from ..stores import Store

    url = options.get("--url") or os.environ.get(_URL_ENV) or None
    token = options.get("--token") or os.environ.get(_TOKEN_ENV) or None
    if path is not None and path.startswith(("http://", "https://")) and "--url" not in options:
        path, url = None, path
    if path is not None and (
        "--url" in options or "--tenant" in options or "--database" in options
    ):
        return None  # given twice, or server options with a folder: the full path says so
    try:
        if path is not None:
            return Store(path=path)
        if isinstance(url, str):
            tenant, database = options.get("--tenant"), options.get("--database")
            return Store(
                url=url,
                token=token if isinstance(token, str) else None,
                tenant=tenant if isinstance(tenant, str) else None,
                database=database if isinstance(database, str) else None,
            )
    except Exception:
        return None
    return None


def _confirmed(store: object | None, options: dict[str, str | bool]) -> object | None:
    """Return the confirmed corrections of the collection the options name, or None."""
    from ..fastpath import confirmed
    from ..stores import Store

    if not isinstance(store, Store):
        return None
    collection = options.get("--collection")
    scope_key = options.get("--scope-key")
    return confirmed(
        store,
        collection if isinstance(collection, str) else None,
        scope_key=scope_key if isinstance(scope_key, str) else None,
    )


def _restore_stdin(data: bytes) -> None:
    """Give the full path the standard input this path read."""
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding=sys.stdin.encoding or "utf-8")


def _hook(options: dict[str, str | bool]) -> int | None:
    """Answer one hook event from a confirmed snapshot (what ``nowline hook`` prints)."""
    path = options.get("--path")
    data = sys.stdin.buffer.read()
    try:
        answer = _hook_answer(data, path if isinstance(path, str) else None, options)
    except Exception:
        answer = None
    if answer is None:
        _restore_stdin(data)
        return _DOUBT
    if answer:
        sys.stdout.write(answer + "\n")
    return 0


def _hook_answer(data: bytes, path: str | None, options: dict[str, str | bool]) -> str | None:
    """Return the hook's output ("" for none), or None for the full path."""
    from ..fastpath import Confirmed
    from . import hook as agent_hook

    if path is None and "--url" not in options and not os.environ.get(_URL_ENV):
        return None
    event = agent_hook.parse_event(data)
    if event.name == agent_hook.USER_PROMPT_SUBMIT:
        return None  # the note on a message reads the store's memories: the full path's work
    found = _confirmed(_store(path, options), options)
    if not isinstance(found, Confirmed):
        return None
    scope = options.get("--scope")
    metadata = found.scope_metadata(scope if isinstance(scope, str) else None)
    if metadata is False:
        return None
    output = agent_hook.decide(event, found.check(event.text, metadata or None))
    return "" if output is None else json.dumps(output, ensure_ascii=False)


def _check(options: dict[str, str | bool], positional: list[str]) -> int | None:
    """Answer ``nowline check`` from a confirmed snapshot (its text output and exit code)."""
    from ..fastpath import Confirmed
    from ..models import stale_message
    from ..render import MIN_TERMINAL_WIDTH, terminal_safe

    if "--fail-open" in options or len(positional) not in (1, 2):
        return _DOUBT
    url = options.get("--url") or os.environ.get(_URL_ENV)
    if len(positional) == 1 and not url:
        return _DOUBT
    path, given = (None, positional[0]) if len(positional) == 1 else positional
    if given == "-":
        return _DOUBT  # the text on stdin: the full path reads it
    if not given.strip():
        return _DOUBT
    try:
        found = _confirmed(_store(path, options), options)
        if not isinstance(found, Confirmed):
            return _DOUBT
        scope = options.get("--scope")
        metadata = found.scope_metadata(scope if isinstance(scope, str) else None)
        if metadata is False:
            return _DOUBT
        trips = found.check(given, metadata or None)
    except Exception:
        return _DOUBT
    text = stale_message(trips, override=None) if trips else "Nothing in this text is outdated."
    width = None
    if sys.stdout.isatty():
        import shutil

        width = max(shutil.get_terminal_size().columns, MIN_TERMINAL_WIDTH)
    sys.stdout.write(terminal_safe(text, width=width) + "\n")
    return 1 if trips else 0

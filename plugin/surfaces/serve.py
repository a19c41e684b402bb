"""``nowline serve``: an HTTP receiver that stores corrections from connected systems.

An ASGI app (starlette) over one nowline collection, run by uvicorn:

* ``GET /health``: ``{"status": "ok"}`` while the receiver runs.
* ``POST /github``: GitHub webhook deliveries, verified with ``X-Hub-Signature-256``; a
  repository rename, transfer or archive becomes a correction (:mod:`nowline.github_events`).
* ``POST /corrections``: a JSON correction, with ``Authorization: Bearer TOKEN``
  (:func:`nowline.requests.parse_correction`). Each token (:class:`Token`) names the source
  its corrections are stored with, and may name the one scope it writes for; the body never
  sets the source (a ``source`` field may only repeat the token's, else 422).

Every request is treated as hostile: the body is read up to :attr:`Limits.max_body` bytes
(413 beyond, 408 when it arrives too slowly), the signature or token is checked before the body
is parsed (401), the content type must be JSON (415), the JSON must parse (400) and make sense
(422, with nowline's own message). Writes go through one writer thread; at most
:attr:`Limits.max_pending` requests wait for it, and a request beyond that is answered 503 with
``Retry-After`` before anything is read from the store. A correction is written whole or not
at all (``Collection.correct`` validates everything first), and the same event is stored
once, decided by what its sender vouched for: a GitHub delivery by the digest of its signed
body (never the unsigned ``X-GitHub-Delivery``), a JSON correction by its ``source_id`` under
its token's source. A redelivery or a replay answers 200 with the id stored before, also
when two receivers on one Chroma server receive it at the same moment (one 201, the other
200). Every scope value is typed as the store holds it (:func:`nowline.requests.scope_value`).
Each request is logged once, on the ``nowline.serve`` logger (uvicorn's access log is off).

Status codes: 201 stored, 200 already stored (same id), 202 accepted and nothing to store
(other events, ``ping``), 400 malformed, 401 unsigned or unauthorised, 404 endpoint not
configured, 408 body too slow, 413 body too large, 415 not JSON, 422 refused by nowline, 503
busy or store unavailable. Needs the ``serve`` extra (starlette, uvicorn).
"""

from __future__ import annotations

import hmac
import logging
import os
import shlex
import stat
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

try:
    import anyio
    from starlette.applications import Starlette
    from starlette.requests import ClientDisconnect, Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from ..errors import MissingExtra

    raise MissingExtra("nowline serve needs starlette and uvicorn", "serve") from exc

import orjson

from ..errors import InvalidInput, NowlineError, StoreBusy
from ..requests import (
    API_SOURCE,
    MAX_SOURCE_ID,
    Audience,
    CorrectionRequest,
    ScopeValue,
    Stored,
    parse_correction,
    scope_value,
    store,
)
from ..terms import HTTP_TERMS, using
from . import github_events as gh

if TYPE_CHECKING:
    from ..collection import Collection

__all__ = [
    "DEFAULT_MAX_BODY",
    "DEFAULT_MAX_PENDING",
    "GITHUB_SECRET_ENV",
    "HEADER_TIMEOUT",
    "MIN_TOKEN_LENGTH",
    "SERVE_TOKENS_FILE_ENV",
    "SERVE_TOKEN_ENV",
    "Limits",
    "Token",
    "create_app",
    "read_tokens",
    "run",
    "server_config",
]

logger = logging.getLogger("nowline.serve")

GITHUB_SECRET_ENV = "NOWLINE_GITHUB_SECRET"
"""The environment variable that gives ``--github-secret``."""

SERVE_TOKEN_ENV = "NOWLINE_SERVE_TOKEN"
"""The environment variable that gives ``--api-token`` (the receiver's own bearer token)."""

SERVE_TOKENS_FILE_ENV = "NOWLINE_SERVE_TOKENS_FILE"
"""The environment variable that gives ``--tokens-file`` (tokens that each name a source)."""

MIN_TOKEN_LENGTH = 16
"""The shortest token a tokens file may hold (characters)."""

DEFAULT_MAX_BODY = 256 * 1024
"""The largest request body accepted, in bytes (a repository event is about 10 KiB)."""

DEFAULT_MAX_PENDING = 16
"""How many requests may wait for the writer before the receiver answers 503."""

_BODY_TIMEOUT = 10.0  # seconds for a whole body to arrive (GitHub itself waits 10 s)


@dataclass(frozen=True)
class Limits:
    """What the receiver accepts.

    Attributes:
        max_body: the largest request body, in bytes (413 beyond).
        max_pending: requests that may wait for the writer (503 beyond).
        body_timeout: seconds for a body to arrive (408 beyond).
        max_reach: the reach limit of a stored correction, as ``Collection.correct()`` takes
            it (default: the collection's; a correction beyond it answers 422).
    """

    max_body: int = DEFAULT_MAX_BODY
    max_pending: int = DEFAULT_MAX_PENDING
    body_timeout: float = _BODY_TIMEOUT
    max_reach: float | int | Literal["default"] | None = "default"


@dataclass(frozen=True)
class Token:
    """A bearer token of ``POST /corrections`` and what its holder may write.

    Attributes:
        token: the secret itself.
        source: the ``source`` every correction sent with it is stored with (the body cannot
            change it). ``github`` is the ``/github`` endpoint's alone.
        scope: on a scoped store, the one scope it writes for (the body may repeat it, never
            name another); None: the receiver's ``--scope``, else the scope the body names.
    """

    token: str
    source: str = API_SOURCE
    scope: ScopeValue | None = None

    def __post_init__(self) -> None:
        """Check the token at start."""
        if not isinstance(self.token, str) or not self.token or not self.token.isprintable():
            raise InvalidInput("A token must be non-empty printable text.")
        if (
            not isinstance(self.source, str)
            or not self.source.strip()
            or len(self.source) > MAX_SOURCE_ID
            or not self.source.isprintable()
        ):
            raise InvalidInput(
                f"A token's source must be printable text of 1 to {MAX_SOURCE_ID} characters."
            )
        if self.source.strip().casefold() == gh.SOURCE:
            raise InvalidInput(
                f"The source {gh.SOURCE!r} is the /github endpoint's (signed deliveries) alone; "
                "give the token another source."
            )
        if self.scope is not None and (
            isinstance(self.scope, float) or not isinstance(self.scope, (str, int, bool))
        ):
            raise InvalidInput("A token's scope must be text, an integer or a boolean.")

    def __repr__(self) -> str:
        """Show the token's source and scope, never the secret."""
        return f"Token(source={self.source!r}, scope={self.scope!r})"


def read_tokens(path: str | Path) -> list[Token]:
    """Return the tokens of a tokens file: a JSON list of ``{"token", "source", "scope"}``.

    ``token`` and ``source`` are required (a token at least :data:`MIN_TOKEN_LENGTH`
    characters), ``scope`` is optional and keeps its JSON type (``42`` or ``"team-a"``).

    The file holds secrets, so, as ssh does with a private key, it is refused where other
    users may read or write it (on systems with POSIX permissions): ``chmod 600`` it.

    Raises:
        InvalidInput: the file cannot be read, others may read or change it, or an entry is
            unusable (named by its position); nothing is served.
    """
    try:
        with open(path, "rb") as fh:  # the mode of the file read, not of a path swapped since
            mode = os.fstat(fh.fileno()).st_mode
            raw = fh.read()
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot read the tokens file ({exc.strerror}).") from None
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise InvalidInput(
            f"{path}: the tokens file holds secrets, and users other than its owner may read "
            f"or change it (mode {stat.S_IMODE(mode):o}). Make it private: chmod 600 "
            f"{shlex.quote(str(path))}"
        )
    try:
        entries = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise InvalidInput(f"{path}: not JSON ({exc}).") from None
    if not isinstance(entries, list) or not entries:
        raise InvalidInput(
            f"{path}: give a JSON list of tokens, e.g. "
            '[{"token": "...", "source": "statuspage"}].'
        )
    tokens = []
    for number, entry in enumerate(entries, start=1):
        where = f"{path}: token {number}"
        if not isinstance(entry, dict):
            raise InvalidInput(f"{where} is not a JSON object.")
        unknown = sorted(set(entry) - {"token", "source", "scope"})
        if unknown:
            raise InvalidInput(
                f"{where}: unknown field {unknown[0]!r}; the fields are token, source, scope."
            )
        missing = [k for k in ("token", "source") if k not in entry]
        if missing:
            raise InvalidInput(f"{where}: {missing[0]} is missing.")
        secret = entry["token"]
        if not isinstance(secret, str) or len(secret) < MIN_TOKEN_LENGTH:
            raise InvalidInput(
                f"{where}: token must be text of at least {MIN_TOKEN_LENGTH} characters."
            )
        try:
            tokens.append(Token(secret, entry["source"], entry.get("scope")))
        except InvalidInput as exc:
            raise InvalidInput(f"{where}: {exc}") from None
    return tokens


def _tokens(api_token: str | None, tokens: Iterable[Token]) -> list[Token]:
    """Return every token the receiver takes, each once (a token given twice is refused)."""
    every = ([Token(api_token)] if api_token else []) + list(tokens)
    secrets = [t.token for t in every]
    if len(set(secrets)) != len(secrets):
        raise InvalidInput("A token is given twice; give each token once, with one source.")
    return every


class _Refusal(Exception):
    """A request is answered with an error status (raised inside a handler)."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """Return a JSON error response."""
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _body(request: Request, limits: Limits) -> bytes:
    """Return the request body, read no further than the size limit and the time limit."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise _Refusal(400, "Content-Length is not a number.")
        if int(length) > limits.max_body:
            raise _Refusal(413, f"The body is larger than {limits.max_body} bytes.")
    chunks: list[bytes] = []
    size = 0
    with anyio.move_on_after(limits.body_timeout) as deadline:
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > limits.max_body:
                    raise _Refusal(413, f"The body is larger than {limits.max_body} bytes.")
                chunks.append(chunk)
        except ClientDisconnect:
            raise _Refusal(400, "The client went away before the body arrived.") from None
    if deadline.cancelled_caught:
        raise _Refusal(408, f"The body did not arrive within {limits.body_timeout:g} s.")
    return b"".join(chunks)


def _json_content(request: Request, hint: str = "") -> None:
    """Refuse a body that is not declared as UTF-8 JSON."""
    media, _, params = request.headers.get("content-type", "").partition(";")
    charset = params.strip().lower().removeprefix("charset=").strip('"')
    if media.strip().lower() != "application/json" or (params.strip() and charset != "utf-8"):
        raise _Refusal(415, f"Send the body as application/json (UTF-8).{hint}")


def _parse(body: bytes) -> Any:
    """Return the parsed JSON body, or refuse it."""
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise _Refusal(400, f"The body is not valid JSON: {exc}") from None


class _Receiver:
    """The request handlers over one collection."""

    def __init__(
        self,
        col: Collection,
        audience: Audience,
        limits: Limits,
        github_secret: str | None,
        tokens: Sequence[Token],
    ) -> None:
        self.col = col
        self.audience = audience
        self.limits = limits
        self.github_secret = github_secret
        self.tokens = [(t, t.token.encode("utf-8")) for t in tokens]
        self.pending = 0
        self.writer = anyio.CapacityLimiter(1)

    def _bearer(self, request: Request) -> Token | None:
        """Return the token the request carries, or None (every token is compared, in full)."""
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        raw = given.strip().encode("utf-8", "surrogateescape")
        found = None
        for token, secret in self.tokens:
            if hmac.compare_digest(raw, secret) and found is None:
                found = token
        return found if scheme.lower() == "bearer" else None

    async def _store(self, request: CorrectionRequest, audience: Audience) -> Response:
        """Store a request through the one writer thread; answer 201, 200, 422 or 503."""
        if self.pending >= self.limits.max_pending:
            raise _Refusal(
                503, "The receiver is busy; retry shortly.", headers={"Retry-After": "1"}
            )
        self.pending += 1
        try:
            stored: Stored = await anyio.to_thread.run_sync(
                partial(_store_in_http_terms, max_reach=self.limits.max_reach),
                self.col,
                request,
                audience,
                limiter=self.writer,
            )
        except StoreBusy as exc:
            raise _Refusal(503, str(exc), headers={"Retry-After": "5"}) from None
        except NowlineError as exc:
            raise _Refusal(422, str(exc)) from None
        except Exception as exc:  # the store failed (a Chroma server down, a full disk)
            logger.exception("Storing a correction failed.")
            raise _Refusal(
                503, f"The store failed ({type(exc).__name__}); retry later.", {"Retry-After": "5"}
            ) from None
        finally:
            self.pending -= 1
        return JSONResponse(
            {"id": stored.id, "reached": stored.reached}, status_code=201 if stored.created else 200
        )

    async def health(self, request: Request) -> Response:
        """Answer that the receiver runs."""
        return JSONResponse({"status": "ok"})

    async def github(self, request: Request) -> Response:
        """Store a GitHub delivery's correction (see the module docstring)."""
        if not self.github_secret:
            raise _Refusal(404, "GitHub deliveries are not configured (--github-secret).")
        body = await _body(request, self.limits)
        signature = request.headers.get(gh.SIGNATURE_HEADER)
        if not gh.verify_signature(self.github_secret, body, signature):
            raise _Refusal(
                401, f"Missing or wrong {gh.SIGNATURE_HEADER}; check the webhook's secret."
            )
        _json_content(request, " Set the webhook's content type to application/json.")
        payload = _parse(body)
        try:
            got = gh.translate(
                request.headers.get(gh.EVENT_HEADER, ""),
                request.headers.get(gh.DELIVERY_HEADER, ""),
                payload,
            )
        except InvalidInput as exc:
            raise _Refusal(422, str(exc)) from None
        if isinstance(got, gh.Skip):
            return JSONResponse({"stored": False, "reason": got.reason}, status_code=202)
        return await self._store(got, self.audience)

    async def corrections(self, request: Request) -> Response:
        """Store a JSON correction sent with the bearer token."""
        if not self.tokens:
            raise _Refusal(
                404, "The corrections endpoint is not configured (--api-token, --tokens-file)."
            )
        token = self._bearer(request)
        if token is None:
            raise _Refusal(
                401, "Missing or wrong bearer token.", headers={"WWW-Authenticate": "Bearer"}
            )
        _json_content(request)
        payload = _parse(await _body(request, self.limits))
        try:
            correction = parse_correction(payload, self.audience.scope_key, source=token.source)
        except InvalidInput as exc:
            raise _Refusal(422, str(exc)) from None
        return await self._store(correction, self.audience.only(token.scope))


def _store_in_http_terms(
    col: Collection,
    request: CorrectionRequest,
    audience: Audience,
    *,
    max_reach: float | int | Literal["default"] | None,
) -> Stored:
    """Store a request in its audience's scope (typed as the store holds it), in HTTP terms.

    nowline's messages name the body's fields (``"about": [...]``).
    """
    with using(HTTP_TERMS):
        return store(col, request, audience.metadata(request, col), max_reach=max_reach)


def _answering(
    handler: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """Return ``handler`` with its refusals turned into JSON error responses."""

    async def endpoint(request: Request) -> Response:
        try:
            with using(HTTP_TERMS):
                response = await handler(request)
        except _Refusal as refusal:
            response = _error(refusal.status, refusal.message, refusal.headers)
        _log(request, response.status_code)
        return response

    return endpoint


def _log(request: Request, status: int) -> None:
    """Log one request once: its method, path and status, and the delivery id it names.

    What the sender chose (the path, the delivery id) is logged quoted and cut short, so that
    a hostile request cannot write lines of its own into the log.
    """
    logger.info(
        "%s %r -> %d (delivery %r) from %s",
        request.method[:16],
        request.url.path[:200],
        status,
        request.headers.get(gh.DELIVERY_HEADER, "-")[:64],
        request.client.host if request.client else "-",
    )


async def _unrouted(request: Request, exc: Exception) -> Response:
    """Answer a request for no endpoint (404), or with a method it does not take (405); log it."""
    status = getattr(exc, "status_code", 404)
    message = (
        "Not found: the endpoints are POST /github, POST /corrections and GET /health."
        if status == 404
        else f"{request.method[:16]} is not allowed here."
    )
    _log(request, status)
    return _error(status, message)


def create_app(
    col: Collection,
    *,
    audience: Audience | None = None,
    github_secret: str | None = None,
    api_token: str | None = None,
    tokens: Iterable[Token] = (),
    limits: Limits | None = None,
) -> Starlette:
    """Return the receiver's ASGI app over ``col``.

    Args:
        col: the nowline collection corrections are stored in.
        audience: where corrections go on a scoped store (default: a store without scopes);
            its scope values are typed as the store holds them, here at start.
        github_secret: the GitHub webhook's secret; without it ``/github`` answers 404.
        api_token: a bearer token of ``/corrections`` for the source ``api``, in the
            audience's scope (the same as ``Token(api_token)``).
        tokens: more bearer tokens, each with its source and scope (:func:`read_tokens`).
            Without any token ``/corrections`` answers 404.
        limits: body size, waiting requests and body time limits.

    Raises:
        InvalidInput: neither a secret nor a token is given, a token is given twice or names
            a scope on a store without scopes, or the audience does not fit the store's
            scope key.
    """
    every = _tokens(api_token, tokens)
    if not github_secret and not every:
        raise InvalidInput(
            "Give --github-secret (or NOWLINE_GITHUB_SECRET) for GitHub deliveries, "
            "--api-token (or NOWLINE_SERVE_TOKEN) or --tokens-file (or "
            "NOWLINE_SERVE_TOKENS_FILE) for JSON corrections, or both."
        )
    audience = audience if audience is not None else Audience(scope_key=col.scope_key)
    if audience.scope_key != col.scope_key:
        raise InvalidInput(
            f"The audience's scope key {audience.scope_key!r} is not the store's "
            f"({col.scope_key!r})."
        )
    audience = audience.typed(col)
    key = col.scope_key
    if key is None and any(t.scope is not None for t in every):
        raise InvalidInput(
            "A token names a scope, but this store has no scope key: give the scope key too "
            "(e.g. --scope-key user_id), or leave the token's scope out."
        )
    if key is not None:
        every = [
            t if t.scope is None else Token(t.token, t.source, scope_value(col, key, t.scope))
            for t in every
        ]
    receiver = _Receiver(col, audience, limits or Limits(), github_secret, every)
    routes = [
        Route("/health", _answering(receiver.health), methods=["GET"]),
        Route("/github", _answering(receiver.github), methods=["POST"]),
        Route("/corrections", _answering(receiver.corrections), methods=["POST"]),
    ]
    return Starlette(routes=routes, exception_handlers={404: _unrouted, 405: _unrouted})


HEADER_TIMEOUT = 10.0
"""Seconds a connection has to send a request's line and headers; it is closed beyond."""


def server_config(
    app: Starlette,
    *,
    host: str = "127.0.0.1",
    port: int = 8080,
    log_level: str = "info",
    header_timeout: float = HEADER_TIMEOUT,
) -> Any:
    """Return the ``uvicorn.Config`` that :func:`run` serves ``app`` with.

    No server header, a short keep-alive, at most 256 connections and tasks, headers of at
    most 16 KiB, and ``header_timeout`` for a request's headers to arrive: uvicorn has no
    such limit, and 300 connections that each sent half a header kept ``/health`` at 503 for
    as long as their client held them (an adversarial review). The parser is uvicorn's h11
    protocol, whichever others are installed, so that these limits hold.
    """
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,  # the receiver logs each request once, with its delivery id
        server_header=False,
        timeout_keep_alive=5,
        limit_concurrency=256,
        h11_max_incomplete_event_size=16 * 1024,
        http=_deadlined(header_timeout),
    )


def _deadlined(header_timeout: float) -> type[Any]:
    """Return uvicorn's h11 protocol, closing a connection whose headers come too slowly."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Deadlined(H11Protocol):
        """A connection has ``header_timeout`` seconds for each request's headers."""

        _deadline: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            self._arm()  # the next request on a kept-alive connection; a pipelined one disarms
            super().on_response_complete()

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()  # its headers are in: the body has a deadline of its own

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

    return Deadlined


def run(app: Starlette, *, host: str = "127.0.0.1", port: int = 8080) -> None:
    """Serve ``app`` with uvicorn until interrupted (the settings of :func:`server_config`)."""
    import uvicorn

    uvicorn.Server(server_config(app, host=host, port=port)).run()

"""Open a Chroma store and one of its collections, wrapped by nowline: the one store opener.

Every surface that starts from "a folder or a server" (the CLI, the tools, the MCP server, the
receiver) opens its collection here, so a missing store, a missing collection and a store with
several collections are refused the same way everywhere, with typed errors
(:mod:`nowline.errors`):

* :class:`~nowline.errors.StoreNotFound`: no Chroma store at the folder (one is created only
  with ``create=True``; a folder that is a file is never one);
* :class:`~nowline.errors.CollectionNotFound`: no collection of that name (or none at all);
* :class:`~nowline.errors.AmbiguousCollection`: several collections, and no name;
* :class:`~nowline.errors.EmbeddingUnavailable`: the collection's persisted embedding
  function cannot be built in this process, and the caller needs to embed.

>>> from nowline.stores import open_collection  # doctest: +SKIP
>>> memory = open_collection("~/memory", create=True)                 # a local folder
>>> memory = open_collection(url="http://localhost:8000", token="s3cret")  # a server
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from ._io.mark import is_companion
from .errors import (
    AmbiguousCollection,
    CollectionNotFound,
    EmbeddingUnavailable,
    InvalidInput,
    StoreNotFound,
)
from .terms import active

if TYPE_CHECKING:
    from chromadb.api import ClientAPI
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

    from .collection import Collection

__all__ = [
    "DEFAULT_COLLECTION",
    "TOKEN_HEADERS",
    "Store",
    "check_collection_name",
    "connect",
    "open_collection",
]

DEFAULT_COLLECTION = "memory"
"""The collection that is created when an empty store is opened with ``create=True``."""

TOKEN_HEADERS = ("Authorization", "X-Chroma-Token")
"""The headers that carry a Chroma server's auth token, as chromadb's token auth sends them:
``Authorization: Bearer <token>`` (chromadb's default) or ``X-Chroma-Token: <token>``."""

_STORE_FILE = "chroma.sqlite3"  # what makes a folder a chromadb.PersistentClient store
_NAME = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9._-]{1,510}[a-zA-Z0-9]")


@dataclass(frozen=True)
class Store:
    """Where a collection lives: a local folder, or a Chroma server.

    Attributes:
        path: the folder of a ``chromadb.PersistentClient`` (a leading ``~`` is expanded:
            programs such as MCP clients start commands without a shell).
        url: a Chroma server, ``http://host:port`` or ``https://...``.
        token: the server's auth token (see :data:`TOKEN_HEADERS`).
        token_header: the header that carries ``token``.
        tenant: the server's tenant (default: chromadb's ``default_tenant``).
        database: the server's database (default: chromadb's ``default_database``).

    Raises:
        InvalidInput: neither or both of ``path`` and ``url`` are given, or server options
            are given with a folder.
    """

    path: str | None = None
    url: str | None = None
    token: str | None = field(default=None, repr=False)
    token_header: str = "Authorization"
    tenant: str | None = None
    database: str | None = None

    def __post_init__(self) -> None:
        """Check that one place is named, and expand ``~`` in the folder."""
        if (self.path is None) == (self.url is None):
            raise InvalidInput("Give the store once: a folder (path) or a server (url).")
        if self.path is not None:
            if not isinstance(self.path, str) or not self.path:
                raise InvalidInput(f"path must be a folder name, not {self.path!r}.")
            object.__setattr__(self, "path", os.path.expanduser(self.path))
            if self.tenant is not None or self.database is not None:
                raise InvalidInput(
                    "tenant and database are for a Chroma server (url); a local folder has one."
                )

    @property
    def exists(self) -> bool:
        """Whether the store is there to open: a folder holding a store, or any server."""
        return self.path is None or os.path.isfile(os.path.join(self.path, _STORE_FILE))

    def describe(self) -> str:
        """Return the store as messages name it."""
        if self.path is not None:
            return f"the store at {self.path!r}"
        return f"the database {self.database or 'default_database'!r} on {self.url}"

    def connect(self, *, create: bool = False) -> ClientAPI:
        """Return a chromadb client of the store (a PersistentClient, or an HttpClient).

        Args:
            create: create a local store when the folder holds none.

        Raises:
            StoreNotFound: the folder holds no store (and ``create`` is False), or is a file.
            InvalidInput: the URL or the token header cannot be used.
            ValueError: chromadb's error when the server does not answer (or the tenant or
                database does not exist there).
        """
        if self.path is None:
            assert self.url is not None
            return _http_client(self)
        import chromadb

        if os.path.exists(self.path) and not os.path.isdir(self.path):
            raise StoreNotFound(
                f"{self.path!r} is a file; give the folder of a Chroma store.", path=self.path
            )
        if not create and not self.exists:
            spelled = active().say("create")
            create_one = f", or create one ({spelled})" if spelled else ""
            raise StoreNotFound(
                f"There is no Chroma store at {self.path!r} (no {_STORE_FILE} there); none was "
                f"created. Give the folder of a chromadb.PersistentClient{create_one}.",
                path=self.path,
            )
        return chromadb.PersistentClient(path=self.path)


def connect(
    path: str | None = None,
    *,
    url: str | None = None,
    token: str | None = None,
    token_header: str = "Authorization",
    tenant: str | None = None,
    database: str | None = None,
    create: bool = False,
) -> ClientAPI:
    """Return a chromadb client of a local folder or of a Chroma server (not wrapped).

    Args:
        path: the folder of a ``chromadb.PersistentClient`` (``~`` is expanded).
        url: instead of ``path``, a Chroma server: ``http://host:port`` or ``https://...``
            (https turns on SSL); a path after the port is kept, for a server behind a
            reverse proxy. A URL without a port uses its scheme's (80, 443).
        token: the server's auth token, sent as chromadb's token auth sends it. Without it,
            chromadb's own client settings apply, also from the environment
            (``CHROMA_CLIENT_AUTH_PROVIDER``, ``CHROMA_CLIENT_AUTH_CREDENTIALS``).
        token_header: ``"Authorization"`` (``Bearer <token>``) or ``"X-Chroma-Token"``.
        tenant: the server's tenant (default: chromadb's ``default_tenant``).
        database: the server's database (default: chromadb's ``default_database``).
        create: create a local store when the folder holds none.

    Returns:
        A chromadb client; wrap it with :func:`nowline.wrap`.

    Raises:
        StoreNotFound: the folder holds no store (and ``create`` is False), or is a file.
        InvalidInput: neither or both of ``path`` and ``url``, or a URL or token header that
            cannot be used.
        ValueError: chromadb's error when the server does not answer.
    """
    store = Store(path, url, token, token_header, tenant, database)
    return store.connect(create=create)


def open_collection(
    store: str | Store | ClientAPI,
    name: str | None = None,
    *,
    create: bool = False,
    scope_key: str | None = None,
    embeds: bool = True,
) -> Collection:
    """Open a collection of a Chroma store, wrapped by nowline.

    Without ``name`` the store's only collection is opened; with ``create`` a missing store
    (in a folder) or collection is created, and an empty store gets
    :data:`DEFAULT_COLLECTION`, with nowline's offline embedding function. Nothing is
    created otherwise. An existing collection keeps the embedding function persisted in its
    configuration, and where its corrections carry exactly one scope key it is opened with
    that key (unless ``scope_key`` is given).

    Args:
        store: the folder of a ``chromadb.PersistentClient`` (``~`` is expanded), a server's
            URL (``http://host:port``), a :class:`Store` (a server with a token, tenant or
            database), or a chromadb client (e.g. from :func:`connect`).
        name: the collection's name.
        create: create the store, or the collection, when missing.
        scope_key: passed to :func:`nowline.wrap`.
        embeds: whether the caller will embed (add documents, query by text). With False, a
            collection whose persisted embedding function cannot be built here opens all
            the same, and raises :class:`~nowline.errors.EmbeddingUnavailable` only if asked
            to embed: reading, checking, previewing, retracting and repairing embed nothing.

    Raises:
        StoreNotFound: there is no store in the folder (and ``create`` is False).
        CollectionNotFound: ``name`` is not one of the store's collections, or the store has
            none (and ``create`` is False).
        AmbiguousCollection: no ``name``, and the store holds several collections.
        EmbeddingUnavailable: the collection's embedding function cannot be built in this
            process, and ``embeds`` is True.
        InvalidInput: ``store`` is none of those; a name chromadb refuses for a new
            collection; a scope key that cannot be used.
        ValueError: chromadb's error when a server does not answer.
    """
    from chromadb.api import ClientAPI

    from .client import Client, wrap

    if isinstance(store, Client):  # already wrapped: open through its chromadb client
        store = store.raw
    if isinstance(store, str):
        served = store.startswith(("http://", "https://"))
        store = Store(url=store) if served else Store(path=store)
    if isinstance(store, Store):
        where = store.describe()
        if name is not None and create:
            check_collection_name(name, where)  # before a store is created for it
        client = store.connect(create=create)
    elif isinstance(store, ClientAPI):
        client, where = store, f"the database {store.database!r}"
    else:
        raise InvalidInput(
            "open_collection() takes a folder, a server URL, a nowline.stores.Store or a "
            f"chromadb client, not {type(store).__name__}."
        )
    names = sorted(c.name for c in client.list_collections() if not is_companion(c.name))
    name = _pick(names, name, where, create)
    if name not in names:
        check_collection_name(name, where)
        return wrap(client, scope_key=scope_key).get_or_create_collection(name)
    raw = client.get_collection(name)
    function: Any = None
    if not _buildable(raw):
        if embeds:
            raise _unavailable(name)
        function = _stand_in_class()(name)
    collection = wrap(raw, scope_key=scope_key, embedding_function=function)
    if scope_key is None:
        keys = collection.scope_keys
        if len(keys) == 1:  # the store's corrections are scoped: write and check likewise
            collection = wrap(raw, **{**collection.options, "scope_key": next(iter(keys))})
    return collection


def _pick(names: Sequence[str], name: str | None, where: str, create: bool) -> str:
    """Return the collection to open among the store's ``names``, or raise the typed error."""
    if name is not None:
        if name not in names and not create:
            listed = ", ".join(names) if names else "none"
            raise CollectionNotFound(
                f"No collection {name!r} in {where} (it has: {listed}).", name=name, names=[*names]
            )
        return name
    if len(names) == 1:
        return names[0]
    if not names and create:
        return DEFAULT_COLLECTION
    if not names:
        raise CollectionNotFound(
            f"{where[0].upper()}{where[1:]} has no collections yet.", name=None, names=[]
        )
    raise AmbiguousCollection(
        f"{where[0].upper()}{where[1:]} holds {len(names)} collections; name the one to open: "
        f"{', '.join(names)}.",
        names=[*names],
    )


def check_collection_name(name: str, where: str = "the store") -> None:
    """Refuse a name chromadb would refuse for a new collection, before anything is created.

    chromadb checks names in its Rust core, with no Python function to ask; these are its
    documented rules (3-512 characters of ``[a-zA-Z0-9._-]``, starting and ending with a
    letter or digit, no ``..``, not an IP address). chromadb stays the authority: a name it
    refuses otherwise fails as chromadb says.

    Args:
        name: the collection's name.
        where: the store, as the message names it.

    Raises:
        InvalidInput: chromadb would refuse the name.
    """
    import ipaddress

    problem = None
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        problem = (
            "a name has 3-512 characters from [a-zA-Z0-9._-], starting and ending with a "
            "letter or digit"
        )
    elif ".." in name:
        problem = "a name has no two consecutive periods"
    else:
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return
        problem = "a name is not an IP address"
    raise InvalidInput(
        f"chromadb cannot create a collection named {name!r} in {where}: {problem}. Nothing "
        "was created."
    )


def _buildable(raw: Any) -> bool:
    """Return whether the collection's persisted embedding function can be built here."""
    try:
        raw.configuration  # noqa: B018 (chromadb builds the persisted function here)
    except ValueError:
        return False
    return True


def _unavailable(collection: str) -> EmbeddingUnavailable:
    """Return the refusal to embed for a collection, saying how to provide its function."""
    return EmbeddingUnavailable(
        f"The collection {collection!r} embeds with a function this process cannot build "
        "(the module that registers it is not imported here), so nothing can be embedded for "
        "it. Open it from Python with that module imported first, or pass "
        "embedding_function= to nowline.wrap(); embedding with another model would make its "
        "vectors meaningless. Reading, checking, previewing, retracting and repairing embed "
        "nothing and work without it.",
        collection=collection,
    )


@cache
def _stand_in_class() -> type[EmbeddingFunction[Documents]]:
    """Return the class that stands in for an unbuildable function (chromadb loads lazily)."""
    from chromadb.api.types import Documents, EmbeddingFunction

    class Unavailable(EmbeddingFunction[Documents]):
        """Stands in for an embedding function this process cannot build; refuses to embed."""

        def __init__(self, collection: str) -> None:
            """Stand in for the function of the collection named ``collection``."""
            self.collection = collection

        def __call__(self, input: Documents) -> Embeddings:
            """Refuse to embed."""
            raise _unavailable(self.collection)

        def embed_query(self, input: Documents) -> Embeddings:
            """Refuse to embed a query."""
            raise _unavailable(self.collection)

    return Unavailable


def _http_client(store: Store) -> ClientAPI:
    """Return a ``chromadb.HttpClient`` on the server the store names."""
    from urllib.parse import urlsplit

    import chromadb
    from chromadb.config import Settings

    url, token, token_header = store.url, store.token, store.token_header
    text = url.strip() if isinstance(url, str) else ""
    parts = urlsplit(text)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme not in ("http", "https") or not parts.hostname or port == -1:
        raise InvalidInput(
            f"{url!r} is not a server URL; give it like http://localhost:8000 (or https://...)."
        )
    if parts.username is not None or parts.password is not None or parts.query or parts.fragment:
        raise InvalidInput(
            f"{url!r} carries credentials, a query or a fragment; give the server's URL alone "
            "(http://host:port) and the token apart."
        )
    if token is not None and token_header not in TOKEN_HEADERS:
        raise InvalidInput(
            f"The token header must be one of {', '.join(TOKEN_HEADERS)}, not {token_header!r}."
        )
    ssl = parts.scheme == "https"
    port = port if port is not None else (443 if ssl else 80)
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    settings = Settings()
    # The URL says where the server is; CHROMA_SERVER_HOST/_HTTP_PORT in the environment would
    # otherwise make chromadb.HttpClient refuse a different host.
    settings.chroma_server_host = None
    settings.chroma_server_http_port = None
    if token is not None:
        settings.chroma_client_auth_provider = "chromadb.auth.token_authn.TokenAuthClientProvider"
        settings.chroma_client_auth_credentials = token
        settings.chroma_auth_token_transport_header = token_header
    path = parts.path.rstrip("/")
    kwargs: dict[str, Any] = {}
    if store.tenant is not None:
        kwargs["tenant"] = store.tenant
    if store.database is not None:
        kwargs["database"] = store.database
    return chromadb.HttpClient(
        host=f"{parts.scheme}://{host}:{port}{path}" if path else host,
        port=port,
        ssl=ssl,
        settings=settings,
        **kwargs,
    )

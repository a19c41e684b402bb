"""What the async work of issue 16 found in the async layer, pinned after the fix.

Each test states a promise the sync collection kept and the async one did not, until
``plugin/aio.py`` was fixed (they were strict xfails before). The finding and the fix are in
each docstring. A finding that is not fixed yet is marked ``xfail(strict=True)`` here, so that
its fix makes the run fail until the mark comes off; there is none at present.
"""

from __future__ import annotations

import chromadb
import pytest

import nowline
from tests.conftest import ChromaServer, FakeEmbedding

pytestmark = [pytest.mark.server, pytest.mark.asyncio(loop_scope="module")]


async def test_scope_key_is_known_when_an_async_collection_opens(
    chroma_server: ChromaServer,
) -> None:
    """A store scoped by its corrections opens with its scope keys known, as a sync one does.

    (Since the scope travels with each correction, ``scope_key`` is the option given and
    ``scope_keys`` the keys the corrections carry.)

    Found: the sync collection loads its corrections in ``__init__`` and settles ``scope_key``
    from them (``_facade.Facade._setup`` -> ``_flows.load``); the async one deferred the load
    to its first awaited call (``aio.AsyncCollection._ready``), so until then ``scope_key``
    gave the option passed (None), and a caller that reads it first, as
    ``nowline.surfaces.tools.run_tool`` does before it refuses an unscoped call, treated a
    scoped store as unscoped. Fixed: the ``AsyncClient`` accessors (coroutines already) await the
    load before they return; ``nowline.wrap(async_collection)`` stays lazy (``__init__`` cannot
    await), as its docstring says.
    """
    database = chroma_server.new_database()
    sync = nowline.wrap(
        chroma_server.client(database).create_collection("mem", embedding_function=FakeEmbedding()),
        scope_key="user_id",
    )
    sync.correct(
        "Moved from acme/app to acme/web.", deprecates=["acme/app"], metadata={"user_id": "a"}
    )
    client = nowline.wrap(
        await chromadb.AsyncHttpClient(
            host=chroma_server.host, port=chroma_server.port, database=database
        )
    )
    col = await client.get_collection("mem", embedding_function=FakeEmbedding())
    assert col.scope_key is None and col.scope_keys == {"user_id"}
    assert [c.scope_keys for c in await client.list_collections()] == [{"user_id"}]
    lazy = nowline.wrap(await client.raw.get_collection("mem", embedding_function=FakeEmbedding()))
    assert await lazy.check("acme/app", metadata={"user_id": "a"})  # the first awaited call
    assert lazy.scope_keys == {"user_id"}
    assert not await lazy.check("acme/app", metadata={"user_id": "b"})


async def test_guard_of_a_non_function_says_what_it_got(chroma_server: ChromaServer) -> None:
    """``guard(5)`` says it takes a function and got an int, as the sync guard says.

    Found: ``aio.AsyncCollection.guard`` raised "decorates an async function; use
    Collection.guard() for a plain one" for anything that is not a coroutine function, 5
    included, which sent the caller to the sync guard for no reason (also caught by
    test_validate.py::test_flags_must_be_booleans on the async layer). Fixed: the sync guard's
    check first, then the coroutine check.
    """
    client = nowline.wrap(
        await chromadb.AsyncHttpClient(
            host=chroma_server.host, port=chroma_server.port, database=chroma_server.new_database()
        )
    )
    col = await client.create_collection("mem", embedding_function=FakeEmbedding())
    with pytest.raises(nowline.InvalidInput, match="decorates a function, not int"):
        col.guard(5)
    with pytest.raises(nowline.InvalidInput, match="async function"):
        col.guard(lambda text: text)

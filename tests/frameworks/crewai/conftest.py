"""CrewAI's environment for these tests: its storage in a temporary folder, no telemetry.

CrewAI conflicts with the dev environment (it needs pydantic<2.13 and mcp<2), so these tests
run in their own virtualenv, built and run by ``make crewai-suite`` (which ``make test``
calls); in the dev environment, where CrewAI is not installed, pytest does not collect them.

CrewAI computes its storage folder when it is imported (from ``XDG_DATA_HOME`` and
``CREWAI_STORAGE_DIR``), so the variables are set here, before any test module imports it,
and only where CrewAI is installed.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

collect_ignore_glob: list[str] = []

if importlib.util.find_spec("crewai") is None:
    collect_ignore_glob.append("test_*.py")
else:
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="crewai-data-")
    atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], ignore_errors=True)
    os.environ["CREWAI_STORAGE_DIR"] = "nowline-tests"
    os.environ["CREWAI_DISABLE_TELEMETRY"] = "true"
    os.environ["OTEL_SDK_DISABLED"] = "true"


@pytest.fixture(autouse=True)
def chroma_rag() -> Iterator[None]:
    """Put CrewAI's RAG on its Chroma provider, as a nowline user does.

    ``KnowledgeStorage`` builds its client for the active RAG config's provider, and recent
    crewai 1.15 releases (1.15.44 here) default to Qdrant where earlier ones used Chroma: the
    suite failed on a fresh machine when the resolver took a newer release.
    """
    from crewai.rag.chromadb.config import ChromaDBConfig
    from crewai.rag.config.utils import set_rag_config

    from tests.conftest import FakeEmbedding

    set_rag_config(ChromaDBConfig(embedding_function=FakeEmbedding()))
    yield

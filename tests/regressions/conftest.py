"""Fixtures for the regression tests: the reliability tests' store per module and server."""

from __future__ import annotations

from tests.reliability.conftest import memory, module_client, new_collection, scoped, server

__all__ = ["memory", "module_client", "new_collection", "scoped", "server"]

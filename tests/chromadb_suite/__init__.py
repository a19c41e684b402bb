"""Harness that runs chromadb's own shipped test suite with every client wrapped by nowline."""

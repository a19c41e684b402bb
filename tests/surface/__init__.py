"""Tests of the public surface: drop-in fidelity, conformance, async, client, instrument."""

"""Tests of the tool-boundary commands: ``nowline hook`` and ``nowline scan`` (issue 26)."""

"""Tests of the core rules: one file per rule (lines, roles and chains, guards, scope, undo)."""

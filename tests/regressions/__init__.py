"""Regression tests: one minimal test per fault found, each failed before its fix."""

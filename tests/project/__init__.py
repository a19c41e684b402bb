"""Tests of the repository as a whole: package shape, docs, examples, benchmark smoke runs."""

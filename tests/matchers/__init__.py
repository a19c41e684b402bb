"""Tests of nowline.matchers: examples, API, and property tests against an oracle."""

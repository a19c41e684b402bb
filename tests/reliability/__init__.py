"""Reliability tests: what must hold under scopes, undo, crashes, concurrency and bad input.

``reference`` recomputes roles, links and now-lines straight from DESIGN.md §4–§5, with a slow
obvious matcher, so every test here can compare a store against a from-scratch answer.
"""

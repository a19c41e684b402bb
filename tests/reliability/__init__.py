"""Reliability tests: what must hold under processes, crashes, concurrency, restarts, bad input.

``reference`` recomputes roles, links and now-lines straight from the README's "Linking" and
"What a stale hit shows", with a slow obvious matcher, so every test here can compare a store
against a from-scratch answer.
"""

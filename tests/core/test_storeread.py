"""The store's reading of a stated change (``nowline._rules.storeread``), without a store.

Through a real store: tests/guards/test_store_reading.py.
"""

from __future__ import annotations

from nowline._rules.storeread import (
    MAX_VALUES,
    identifiers,
    kin,
    kind_of,
    olds_by_store,
    states_change,
)


def test_the_rule_alone() -> None:
    """The pure parts: identifiers, a plain change, and the pairing by kind."""
    assert identifiers("Fjord: https://x.io/a, 55 zł, v1.2, 10:30, ops@acme.io, acme/app.git") == (
        "https://x.io/a",
        "ops@acme.io",
        "acme/app",
    )
    assert [kind_of(v) for v in ("https://x.io", "a@b.io", "#c", "~c", "a/b", "a.io", "ab")] == [
        "url",
        "address",
        "channel",
        "channel",
        "path",
        "host",
        "other",
    ]
    assert states_change("#a is retired, use #b", ["#a", "#b"])
    assert not states_change("#a is not retired, use #b", ["#a", "#b"])
    assert not states_change("is #a retired? use #b", ["#a", "#b"])
    assert states_change("the channel is #b again; drop #a", ["#a", "#b"])  # a change back
    assert states_change("we're going back to #b from #a", ["#a", "#b"])
    assert not states_change("post to #b again, and to #a", ["#a", "#b"])
    assert not states_change("send it back to #b and #a", ["#a", "#b"])
    assert not states_change("#a might be swapped for #b", ["#a", "#b"])
    assert not states_change("post to #moved-to-b", ["#moved-to-b"])  # a value's word is no cue
    # the doubt of another sentence does not undo a plain one
    assert states_change("#a moved to #b. The #c channel stays.", ["#a", "#b", "#c"])
    assert olds_by_store(["#a", "#b"], {"#a": 2}) == ("#a",)
    assert olds_by_store(["#a", "#b"], {"#a": 2, "#b": 1}) == ()  # #b named too
    assert olds_by_store(["#a", "b/c"], {"#a": 2}) == ()  # not of one kind
    assert olds_by_store(["a/b", "a/b/c"], {"a/b": 2}) == ()  # one inside the other
    many = [f"#c{i}" for i in range(MAX_VALUES + 1)]
    assert olds_by_store(many, {"#c0": 1}) == ()
    assert kin(["acme/app", "#c", "go.acme.dev/app/v2"], ["go.acme.dev/app"]) == {
        "acme/app": "go.acme.dev/app"
    }
    assert kin(many, ["#x"]) == {}


def test_a_hostile_text_is_read_in_linear_time() -> None:
    """20,000 identifiers and change words: read once, and too many to pair."""
    text = " ".join(f"#c{i} moved" for i in range(20_000))
    values = identifiers(text)
    assert len(values) == 20_000 and not states_change(text, values)
    assert olds_by_store(values, {v: 1 for v in values}) == ()


def test_a_long_sentence_of_change_words_is_read_in_linear_time() -> None:
    """Two values and 100,000 negated change words in one sentence: each looked at once."""
    text = "#a " + "not moved " * 100_000 + "#b"
    assert not states_change(text, ["#a", "#b"])

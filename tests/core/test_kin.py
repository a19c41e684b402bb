"""The new value sent alone, across shapes (``nowline._rules.kin``), without a store.

Through a real store: tests/guards/test_swapped_kin.py.
"""

from __future__ import annotations

from nowline._rules.kin import MAX_VALUES, identifiers, kind_of, states_change, swapped_kin


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
    assert not states_change("#a was neither archived nor moved to #b", ["#a", "#b"])
    assert not states_change("Nobody renamed #a; #b is another channel", ["#a", "#b"])
    assert not states_change("did #a get moved to #b", ["#a", "#b"])
    assert not states_change("post to #moved-to-b", ["#moved-to-b"])  # a value's word is no cue
    # the doubt of another sentence does not undo a plain one
    assert states_change("#a moved to #b. The #c channel stays.", ["#a", "#b", "#c"])
    text = "The acme/app import path is retired, use go.acme.dev/app in go.mod."
    assert swapped_kin(text, ["go.acme.dev/app"]) == {"acme/app": "go.acme.dev/app"}
    # the wording calls the sent string old: no swap
    assert (
        swapped_kin("Logs moved from /var/log/a to /srv/a; config is /etc/a.", ["/var/log/a"]) == {}
    )
    # another deprecated string is no candidate; nor is a text that states no change
    assert (
        swapped_kin(
            "acme/web and gitlab.com/acme/m were archived", ["acme/web", "gitlab.com/acme/m"]
        )
        == {}
    )
    assert swapped_kin("Fork acme/app into my-user/app now.", ["my-user/app"]) == {}
    many = " ".join(f"#c{i}" for i in range(MAX_VALUES + 1))
    assert swapped_kin(f"{many} moved to #x", ["#x"]) == {}


def test_a_hostile_text_is_read_in_linear_time() -> None:
    """20,000 identifiers and change words: read once, and too many to pair."""
    text = " ".join(f"#c{i} moved" for i in range(20_000))
    values = identifiers(text)
    assert len(values) == 20_000 and not states_change(text, values)
    assert swapped_kin(text, ["#x"]) == {}


def test_a_long_sentence_of_change_words_is_read_in_linear_time() -> None:
    """Two values and 100,000 negated change words in one sentence: each looked at once."""
    text = "#a " + "not moved " * 100_000 + "#b"
    assert not states_change(text, ["#a", "#b"])

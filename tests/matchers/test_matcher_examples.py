"""Worked examples of what occurs where (the README's "Matching"): cases, named regressions."""

from __future__ import annotations

import pytest

from nowline.matchers import Matcher, fold


def _spans(phrase: str, text: str) -> list[tuple[int, int]]:
    """Return the (start, end) of every occurrence of ``phrase`` in ``text``."""
    return [(m.start, m.end) for m in Matcher([(phrase, "k")]).find(text)]


# -------------------------------------------------------------- the README's "Matching"

UFO = "metalcraftai/ufo"


@pytest.mark.parametrize(
    "text",
    [
        "Metalcraftai/UFO — PR #1705",
        "github.com/metalcraftai/ufo.git",
        "metalcraftai/ufo/pull/3",
        "(metalcraftai/ufo)",
    ],
)
def test_design_examples_that_occur(text: str) -> None:
    """The design's positive examples contain metalcraftai/ufo exactly once, at its offsets."""
    (match,) = Matcher([(UFO, "c1")]).find(text)
    assert match.phrase == UFO
    assert match.key == "c1"
    assert fold(text[match.start : match.end]) == UFO


@pytest.mark.parametrize(
    "text",
    [
        "metalcraftai/ufo-hosted",
        "metalcraftai/ufology",
        "xmetalcraftai/ufo",
        "acme/metalcraftai/ufo_v2",
    ],
)
def test_design_examples_that_do_not_occur(text: str) -> None:
    """The design's negative examples do not contain metalcraftai/ufo as a bounded token."""
    assert Matcher([(UFO, "c1")]).find(text) == []


# Dotted names (the README's "Matching"): (phrase, text, expected spans), half-open offsets
# into the text.
DOTTED_DESIGN_EXAMPLES = [
    pytest.param("billing@oldco.example", "billing@oldco.example.net", [], id="email-longer-host"),
    pytest.param("dara@corp.example", "dara@corp.example.org", [], id="email-longer-tld"),
    pytest.param("v1.2", "v1.2.3", [], id="version-longer"),
    pytest.param("v1.2", "upgrade from v1.2.", [(13, 17)], id="version-sentence-end"),
    pytest.param("v1.2", "v1.2, v1.3", [(0, 4)], id="version-in-list"),
    pytest.param("oldco.example", "mail.oldco.example", [(5, 18)], id="subdomain"),
    pytest.param(UFO, "github.com/metalcraftai/ufo.git", [(11, 27)], id="undotted-clone-url"),
    pytest.param(UFO, "We moved metalcraftai/ufo.", [(9, 25)], id="undotted-sentence-end"),
]


@pytest.mark.parametrize(("phrase", "text", "expected"), DOTTED_DESIGN_EXAMPLES)
def test_design_examples_of_dotted_names(
    phrase: str, text: str, expected: list[tuple[int, int]]
) -> None:
    """A dotted name goes on through a dot and a token character; an undotted one stops at dots."""
    assert _spans(phrase, text) == expected


def test_prefix_phrase_and_longer_phrase_both_occur() -> None:
    """Both ufo-ai and ufo-ai/ufo occur in ufo-ai/ufo: neither hides the other."""
    matcher = Matcher([("ufo-ai", "short"), ("ufo-ai/ufo", "long")])
    found = [(m.key, m.start, m.end) for m in matcher.find("ufo-ai/ufo")]
    assert found == [("short", 0, 6), ("long", 0, 10)]


# ------------------------------------------------------------------------------ case table

# (phrase, text, expected spans). Each expected span is half-open code-point offsets into the
# text as given, so text[start:end] is the occurrence there.
CASES = [
    # URLs, paths, clone URLs
    pytest.param(UFO, "https://github.com/metalcraftai/ufo", [(19, 35)], id="url"),
    pytest.param(UFO, "https://github.com/metalcraftai/ufo?tab=readme", [(19, 35)], id="url-query"),
    pytest.param(UFO, "git@github.com:metalcraftai/ufo.git", [(15, 31)], id="ssh-clone-url"),
    pytest.param(UFO, "git clone https://x.org/metalcraftai/ufo.git", [(24, 40)], id="clone-url"),
    pytest.param(UFO, "/home/me/src/metalcraftai/ufo/README.md", [(13, 29)], id="path"),
    pytest.param(UFO, "C:\\src\\metalcraftai/ufo\\bin", [(7, 23)], id="windows-path"),
    pytest.param(
        "github.com/metalcraftai", "https://github.com/metalcraftai/ufo", [(8, 31)], id="host"
    ),
    # PR refs
    pytest.param("#1705", "PR #1705 merged", [(3, 8)], id="pr-ref"),
    pytest.param("#1705", "PR #17055 merged", [], id="pr-ref-longer-number"),
    pytest.param("#1705", "PR#1705", [(2, 7)], id="pr-ref-no-boundary-before-hash"),
    pytest.param("PR #1705", "see pr #1705.", [(4, 12)], id="pr-ref-with-prefix"),
    pytest.param("1705", "#1705", [(1, 5)], id="number-after-hash"),
    # punctuation, start and end of the text, newlines
    pytest.param("ufo", "ufo, ufo; (ufo)!", [(0, 3), (5, 8), (11, 14)], id="punctuation"),
    pytest.param("ufo", "ufo's", [(0, 3)], id="apostrophe"),
    pytest.param("ufo", "ufo", [(0, 3)], id="whole-text"),
    pytest.param("ufo", "ufos", [], id="plural"),
    pytest.param("ufo", "line\nufo\n", [(5, 8)], id="own-line"),
    pytest.param("old api", "the old api", [(4, 11)], id="multi-word"),
    # Whitespace inside a phrase is literal: a newline or two spaces are other characters.
    pytest.param("old api", "the old\napi", [], id="multi-word-newline"),
    pytest.param("old api", "the old  api", [], id="multi-word-double-space"),
    # hyphens, underscores and e-mail addresses
    pytest.param("auth-service", "auth-service.", [(0, 12)], id="hyphenated"),
    pytest.param("auth-service", "auth-service-v2", [], id="hyphenated-longer"),
    pytest.param("auth", "auth-service", [], id="hyphen-is-token"),
    pytest.param("auth", "auth_service", [], id="underscore-is-token"),
    pytest.param("auth_service", "AUTH_SERVICE=1", [(0, 12)], id="underscored"),
    pytest.param("service", "auth-service", [], id="hyphen-before"),
    pytest.param("bob@acme.com", "mail bob@acme.com.", [(5, 17)], id="email"),
    pytest.param("bob@acme.com", "mail jbob@acme.com", [], id="email-longer-user"),
    pytest.param("acme.com", "bob@acme.com", [(4, 12)], id="email-domain"),
    pytest.param("acme.com", "bob@acme.community", [], id="email-domain-longer"),
    # Dotted names (the README's "Matching"): a "." and a token character after one continue it.
    pytest.param(
        "billing@oldco.example",
        "write to billing@oldco.example.",
        [(9, 30)],
        id="dotted-email-sentence-end",
    ),
    pytest.param(
        "billing@oldco.example", "billing@oldco.example.\nnext", [(0, 21)], id="dotted-line-end"
    ),
    pytest.param("oldco.example", "https://oldco.example/login", [(8, 21)], id="dotted-host-url"),
    pytest.param("oldco.example", "oldco.example:8080", [(0, 13)], id="dotted-host-port"),
    pytest.param("oldco.example", "oldco.examples", [], id="dotted-token-after"),
    pytest.param("oldco.example", "mail.oldco.example.", [(5, 18)], id="dotted-subdomain-end"),
    pytest.param("v1.2", "v1.2.x", [], id="dotted-letter-after-dot"),
    pytest.param("v1.2", "v1.2._", [], id="dotted-underscore-after-dot"),
    pytest.param("v1.2", "v1.2.-rc", [], id="dotted-hyphen-after-dot"),
    pytest.param("v1.2", "v1.2.é", [], id="dotted-non-ascii-letter-after-dot"),
    pytest.param("v1.2", "v1.2..", [(0, 4)], id="dotted-two-dots"),
    pytest.param("v1.2", "v1.2.3-rc v1.2", [(10, 14)], id="dotted-second-occurrence"),
    pytest.param("v1.2", "ß v1.2.3 v1.2", [(9, 13)], id="dotted-after-length-change"),
    # The check is on the folded text: "．" folds to "." and "…" to "...", "。" stays itself.
    pytest.param("v1.2", "v1.2．3", [], id="dotted-full-width-dot-in-text"),
    pytest.param("ｖ１．２", "v1.2.3", [], id="dotted-full-width-phrase"),
    pytest.param("ｖ１．２", "see v1.2 now", [(4, 8)], id="dotted-full-width-phrase-occurs"),
    pytest.param("v1.2", "v1.2…3", [(0, 4)], id="dotted-ellipsis"),
    pytest.param("v1.2", "V1.2。3", [(0, 4)], id="dotted-ideographic-full-stop"),
    # A dotted name that ends with "." goes on when a token character follows that dot; a
    # trailing "." alone makes no dotted name ("ufo." is a sentence's end); a dotted name that
    # ends with another non-token character ends there.
    pytest.param("v1.2.", "v1.2.3", [], id="dotted-trailing-dot"),
    pytest.param("v1.2.", "since v1.2. Then", [(6, 11)], id="dotted-trailing-dot-occurs"),
    pytest.param("ufo.", "ufo.git", [(0, 4)], id="undotted-trailing-dot"),
    pytest.param("v1.2)", "(v1.2).x", [(1, 6)], id="dotted-closing-paren"),
    # The last segment follows the last "/", "@", ":" or whitespace.
    pytest.param("dara@corp", "dara@corp.example", [(0, 9)], id="undotted-last-segment"),
    pytest.param("release v1.2", "release v1.2.3", [], id="dotted-after-space"),
    pytest.param("v1.2 release", "v1.2 release.notes", [(0, 12)], id="undotted-after-space"),
    pytest.param("docs:v1.2", "docs:v1.2.3", [], id="dotted-after-colon"),
    pytest.param(".env", ".env.local", [], id="dotted-leading-dot"),
    pytest.param(".net", "ASP.NET", [(3, 7)], id="dotted-leading-dot-occurs"),
    # Slack channels
    pytest.param("#general", "post in #general.", [(8, 16)], id="channel"),
    pytest.param("#general", "post in #General", [(8, 16)], id="channel-case"),
    pytest.param("#general", "post in #general-2", [], id="channel-longer"),
    pytest.param("#general", "post in##general", [(8, 16)], id="channel-after-hash"),
    # non-ASCII: case, ß, Turkish I, full-width, combining accents, emoji
    pytest.param("Zürich", "ZÜRICH office", [(0, 6)], id="umlaut-upper"),
    pytest.param("zürich", "Zürich", [(0, 6)], id="umlaut"),
    pytest.param("zurich", "Zürich", [], id="accents-are-not-stripped"),
    pytest.param("straße", "STRASSE 5", [(0, 7)], id="sharp-s-phrase"),
    pytest.param("STRASSE", "die Straße.", [(4, 10)], id="sharp-s-text"),
    pytest.param("strass", "Straße", [], id="sharp-s-half"),
    pytest.param("ẞ", "ss", [(0, 2)], id="capital-sharp-s"),
    # "İ" casefolds to "i̇" (i + U+0307 COMBINING DOT ABOVE); "ı" folds to itself.
    pytest.param("İstanbul", "İSTANBUL", [(0, 8)], id="turkish-dotted-capital"),
    pytest.param("İstanbul", "i\u0307stanbul", [(0, 9)], id="turkish-i-dot-above"),
    pytest.param("istanbul", "İstanbul", [], id="turkish-dot-stays"),
    pytest.param("ISTANBUL", "ıstanbul", [], id="turkish-dotless-differs"),
    pytest.param("ıstanbul", "ISTANBUL", [], id="turkish-dotless-phrase"),
    # The dot above is not a token character, so a plain "i" occurs in "İ" (all of it).
    pytest.param("i", "İ", [(0, 1)], id="turkish-i-in-dotted-capital"),
    pytest.param("ufo", "ＵＦＯ", [(0, 3)], id="full-width-text"),
    pytest.param("ＵＦＯ", "ufo", [(0, 3)], id="full-width-phrase"),
    pytest.param("ufo", "ＵＦＯｓ", [], id="full-width-longer"),
    pytest.param("file", "ﬁle", [(0, 3)], id="ligature-text"),
    pytest.param("ﬁle", "FILE", [(0, 4)], id="ligature-phrase"),
    pytest.param("café", "cafe\u0301!", [(0, 5)], id="decomposed-text"),
    pytest.param("cafe\u0301", "Café", [(0, 4)], id="decomposed-phrase"),
    pytest.param("cafe", "cafe\u0301", [], id="accent-composes-away"),
    # A combining mark that does not compose folds with its letter; the span covers both.
    pytest.param("x", "x\u0300", [(0, 2)], id="non-composing-mark"),
    pytest.param("ufo", "🛸ufo🛸", [(1, 4)], id="emoji-around"),
    pytest.param("🛸 ufo", "see 🛸 UFO", [(4, 9)], id="emoji-in-phrase"),
    # An occurrence inside one character's folded form widens to the whole character:
    # "½" folds to "1⁄2", and "⁄2" starts with a non-token character.
    pytest.param("⁄2", "½ cup", [(0, 1)], id="inside-one-character"),
]


@pytest.mark.parametrize(("phrase", "text", "expected"), CASES)
def test_case_table(phrase: str, text: str, expected: list[tuple[int, int]]) -> None:
    """Each phrase occurs in its text exactly at the expected original offsets."""
    spans = _spans(phrase, text)
    assert spans == expected
    for start, end in spans:
        assert fold(phrase) in fold(text[start:end])


def test_turkish_capital_dotted_i_folds_to_i_and_combining_dot() -> None:
    """Casefolding turns "İ" into "i" + U+0307 and keeps the dotless "ı" as it is."""
    assert fold("İ") == "i\u0307"
    assert fold("ı") == "ı"
    assert fold("I") == "i"


def test_offsets_after_length_changing_folds() -> None:
    """Offsets stay in original code points after characters that fold longer or shorter."""
    text = "ß ﬁ e\u0301 İ — metalcraftai/ufo"
    (match,) = Matcher([(UFO, 1)]).find(text)
    assert text[match.start : match.end] == UFO
    assert (match.start, match.end) == (11, 27)


def test_offsets_are_code_points_not_bytes() -> None:
    """Offsets count code points, so characters of several UTF-8 bytes count once."""
    text = "Zürich → 🛸 metalcraftai/ufo"
    (match,) = Matcher([(UFO, 1)]).find(text)
    assert (match.start, match.end) == (11, 27)
    assert text[match.start : match.end] == UFO


# ----------------------------------------------------------------------------- regressions


def test_regression_short_phrase_not_hidden_by_failed_longer_one() -> None:
    """A longer phrase that starts like the text hides no shorter phrase (pyahocorasick #133)."""
    # pyahocorasick's iter_long used to report only "c" for the words "b", "c", "abd" in "abc":
    # the partial match of "abd" hid "b". The same shape with token-bounded phrases:
    matcher = Matcher([("b", "b"), ("c", "c"), ("a b d", "abd")])
    assert [(m.key, m.start, m.end) for m in matcher.find("a b c")] == [
        ("b", 2, 3),
        ("c", 4, 5),
    ]


def test_regression_boundaries_filtered_after_longest_match() -> None:
    """A phrase is found where a longer phrase matches but fails its boundary check."""
    # Filtering boundaries after a leftmost-longest search would pick "testing 123" in
    # "testing 12345", reject it (a digit follows) and lose "testing".
    matcher = Matcher([("testing", "short"), ("testing 123", "long")])
    assert [(m.key, m.start, m.end) for m in matcher.find("testing 12345")] == [("short", 0, 7)]
    assert matcher.keys("testing 123.") == {"short", "long"}


def test_dotted_rule_is_checked_per_overlapping_hit() -> None:
    """Overlapping hits are judged one by one: a dotted name rejected at "." hides no other."""
    matcher = Matcher(
        [
            ("billing@oldco.example", "email"),
            ("oldco.example", "host"),
            ("example", "word"),
            ("oldco.example.net", "longer-host"),
            ("billing@oldco", "user-at-host"),
        ]
    )
    found = [(m.key, m.start, m.end) for m in matcher.find("billing@oldco.example.net")]
    assert found == [("user-at-host", 0, 13), ("longer-host", 8, 25), ("word", 14, 21)]


def test_regression_contained_phrase_found_inside_longer_phrase() -> None:
    """A phrase inside another phrase's occurrence is reported too, at its own offsets."""
    matcher = Matcher([("metalcraftai/ufo", "repo"), ("ufo", "word")])
    found = [(m.key, m.start, m.end) for m in matcher.find("metalcraftai/ufo")]
    assert found == [("repo", 0, 16), ("word", 13, 16)]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("git clone https://github.com/acme/widget.js.git", True),
        ("git clone git@github.com:acme/widget.js.git && cd widget.js", True),
        ("see github.com/acme/widget.js.git.", True),
        ("acme/widget.js.github is another name", False),
        ("acme/widget.js.gitx", False),
        ("acme/widget.js.git.bak", False),
    ],
)
def test_a_clone_urls_git_is_no_part_of_a_dotted_name(text: str, found: bool) -> None:
    """``acme/widget.js`` (a repository whose name has a dot) occurs in its clone URLs."""
    assert (Matcher([("acme/widget.js", 1)]).keys(text) == {1}) is found

"""Generic deprecated strings: common words and bare numbers (the README's "Guards and undo")."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from nowline._rules.generic import (
    MAX_GENERIC_WORDS,
    ZIPF_THRESHOLD,
    _shape,
    is_generic,
    is_identifier,
    is_person_name,
)
from nowline._rules.wording import new_values, old_values

IDENTIFIERS = [
    # The README's examples and the tests' own deprecated strings.
    "metalcraftai/ufo",
    "ufo-ai/ufo",
    "metalcraftai/ufo-hosted",
    "#ufo-dev",
    "acme/app",
    "billing@oldco.example",
    "dara@corp.example",
    "oldco.example",
    "v1.2",
    "https://github.com/metalcraftai/ufo.git",
    # Tickets, handles, hosts, paths, code names, versions, addresses.
    "PROJ-1234",
    "PR #1705",
    "@dara",
    "api.example.com",
    "localhost:8080",
    "/etc/nginx/nginx.conf",
    "config.yaml",
    ".NET",
    "DATABASE_URL",
    "billing-service",
    "billing_v2",
    "ufo-ai",
    "T-Pain",
    "mp3",
    "1.2.3",
    "10.0.0.1",
    "192.168.1.0/24",
    "redis:7",
    "a3f9c21",
    "AT&T",
    # letters and digits that are no number with a unit
    "h264",
    "x86",
    "s3",
    "ec2",
    "e2e",
    "2FA",
    "gpt-4o",
    "19c",  # Oracle's version, not a temperature
    "11g",
]

SPECIFIC_NAMES = [
    "Acme Corp",
    "Acme",
    "nowline",
    "metalcraftai",
    "Elgin Baylor",
    "Marina Bay Sands",
    "Ole Einar Bjørndalen",
    "Renée Zellweger",
]

NUMBERS = [
    "5",
    "2018",
    "0",
    "1,000",
    "1.000.000",
    "3.5",
    "-2",
    "+7",
    "$200,000",
    "€3,50",
    "4.25%",
    "2018-05-01",
    "17/08/2019",
    "10:30",
    "27–10",
    "2010-2011",
    "1 000 000",
    "(2018)",
    "4th",
    "21st",
    "$80/hour",
    "€5/month",
    "2018.",
    "５",  # full-width digit, NFKC 5
    "١٢٣",  # Arabic-Indic digits
    "४२",  # Devanagari digits
    # a number with its unit or scale on, as "5 GB" or "3 pm" is (an adversarial review)
    "3pm",
    "3:00pm",
    "5GB",
    "12h",
    "100ms",
    "$200k",
    "10k",
    "1990s",
    "2x",
    "½",
    "Q3",
    "H1",
    "FY24",
]

COMMON_WORDS = [
    # (string, language named in the reason)
    ("billing", "en"),
    ("owner", "en"),
    ("memory", "en"),
    ("api", "en"),
    ("Apple", "en"),
    ("APPLE", "en"),
    ("ＢＩＬＬＩＮＧ", "en"),  # full-width letters
    ('"owner"', "en"),
    ("owner.", "en"),
    ("don’t", "en"),
    ("Rechnung", "de"),
    ("Straße", "de"),
    ("propietario", "es"),
    ("facture", "fr"),
    ("владелец", "ru"),
    ("数据", "zh"),
    ("İstanbul", "tr"),
]


@pytest.mark.parametrize("phrase", IDENTIFIERS)
def test_identifiers_are_not_generic(phrase: str) -> None:
    """A string with / @ # _ : or a dot inside a word, a hyphenated or alphanumeric word is kept."""
    assert is_generic(phrase) is None


@pytest.mark.parametrize(
    "phrase", ["https://", "http://", "git+ssh://", "ssh:", ".git", "https://www.", "`.git`"]
)
def test_a_scheme_or_suffix_alone_is_generic(phrase: str) -> None:
    """What only decorates an address is in every address written so: refused."""
    reason = is_generic(phrase)
    assert reason is not None and "scheme or suffix" in reason


@pytest.mark.parametrize(
    "phrase", ["https://github.com/acme/app", "acme/app.git", "github.com", "zkvault:", "ci-7:"]
)
def test_an_address_with_a_scheme_or_suffix_is_not(phrase: str) -> None:
    """The decoration rule takes a scheme or ``.git`` alone, not an address written with one.

    Nor any word with a colon: ``zkvault:`` is no URL scheme.
    """
    assert is_generic(phrase) is None


@pytest.mark.parametrize("phrase", SPECIFIC_NAMES)
def test_rare_words_and_names_are_not_generic(phrase: str) -> None:
    """Words and names that wordfreq does not find common are accepted."""
    assert is_generic(phrase) is None


@pytest.mark.parametrize("phrase", NUMBERS)
def test_bare_numbers_are_generic(phrase: str) -> None:
    """Counts, years, amounts, percentages, dates, times and ranges are bare numbers."""
    assert is_generic(phrase) == "a bare number"


@pytest.mark.parametrize(("phrase", "lang"), COMMON_WORDS)
def test_common_words_are_generic_in_any_covered_language(phrase: str, lang: str) -> None:
    """A common word of any wordfreq language is refused, whatever its case or width."""
    reason = is_generic(phrase)
    assert reason is not None
    assert reason.startswith("a common word (wordfreq Zipf ")
    assert f"in '{lang}'" in reason
    assert reason.endswith(f"at least {ZIPF_THRESHOLD})")


@pytest.mark.parametrize(
    ("phrase", "kind"),
    [
        ("the project", "a phrase of common words"),
        ("new owner", "a phrase of common words"),
        ("March 2019", "common words with a number"),
        ("December 8, 2019", "common words with a number"),
        ("5 people", "common words with a number"),
    ],
)
def test_phrases_of_common_words_are_generic(phrase: str, kind: str) -> None:
    """A phrase wordfreq estimates as common (its words combined) is refused."""
    reason = is_generic(phrase)
    assert reason is not None
    assert reason.startswith(kind + " (")


def test_a_phrase_is_rarer_than_its_words() -> None:
    """Two common words can make a phrase that is not common (1/f = 1/f1 + 1/f2)."""
    assert is_generic("Marina") is not None
    assert is_generic("Sands") is not None
    assert is_generic("Marina Bay Sands") is None


@pytest.mark.parametrize(
    "phrase",
    [
        "when did england last get to the semi final of a world cup",
        "who has the most home runs in a season",
        "the new head of sales",
        "the 2018 world cup",
    ],
)
def test_four_or_more_words_are_never_generic(phrase: str) -> None:
    """Common words in a given order name a particular thing once there are four or more.

    wordfreq's phrase estimate keeps a sentence of common words near its rarest word's
    frequency; such fragments of SituatedQA questions were refused before this rule.
    """
    assert len(phrase.split()) > MAX_GENERIC_WORDS
    assert is_generic(phrase) is None


def test_up_to_three_words_are_still_judged() -> None:
    """The length rule starts above MAX_GENERIC_WORDS: three common words are refused."""
    assert is_generic("the new owner") is not None
    assert is_generic("the 2018 final") is not None
    assert is_generic("5 6 7 8") == "a bare number"


def test_a_single_identifier_word_keeps_a_phrase_specific() -> None:
    """One identifier-like word among common words makes the whole string specific."""
    assert is_generic("the new owner") is not None
    assert is_generic("the new owner of acme/app") is None


@pytest.mark.parametrize("phrase", ["–", "&", "...", "/"])
def test_punctuation_alone_is_not_generic(phrase: str) -> None:
    """A string without letters or digits is left to the other guards."""
    assert is_generic(phrase) is None


def test_shape_drops_edge_punctuation_and_splits_numbers_from_words() -> None:
    """Quotes, brackets and sentence punctuation at word edges are dropped before judging."""
    shape = _shape("“Home” (2018), owner’s.")
    assert shape is not None
    assert shape.words == ("Home", "owner's")
    assert shape.numbers == ("2018",)


def test_a_unit_per_time_after_a_number_is_no_identifier() -> None:
    """A rate such as "300 req/min" is a number with its unit: its anchors stay."""
    assert not is_identifier("300 req/min") and not is_identifier("100 MB/s")
    assert is_identifier("req/min")  # alone, a slash between words names a thing


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_every_integer_is_a_bare_number(n: int) -> None:
    """Any integer, written plainly or with thousands separators, is a bare number."""
    assert is_generic(str(n)) == "a bare number"
    assert is_generic(f"{n:,}") == "a bare number"


@given(
    st.from_regex(r"[a-z][a-z0-9]{0,8}", fullmatch=True),
    st.sampled_from("/@#:_."),
    st.from_regex(r"[a-z][a-z0-9]{0,8}", fullmatch=True),
)
def test_joined_names_are_never_generic(left: str, joiner: str, right: str) -> None:
    """Two names joined by / @ # : _ or . form an identifier, however common the parts."""
    assert is_generic(f"{left}{joiner}{right}") is None


@pytest.fixture(scope="module")
def imported() -> dict[str, set[str]]:
    """Return the top-level modules one fresh interpreter holds after each step of a script."""
    script = textwrap.dedent(
        """
        import sys

        def snapshot(step):
            print(step, *sorted({name.split(".")[0] for name in sys.modules}))

        import nowline
        snapshot("import")
        from nowline._rules.generic import is_generic
        assert is_generic("metalcraftai/ufo") is None
        assert is_generic("2018") == "a bare number"
        snapshot("shape")
        assert is_generic("owner") is not None
        snapshot("word")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    return {step: set(names) for step, *names in (line.split() for line in out.splitlines())}


def test_importing_nowline_does_not_import_wordfreq(imported: dict[str, set[str]]) -> None:
    """``import nowline`` loads no word lists; they load on the first frequency lookup."""
    assert "wordfreq" not in imported["import"]


def test_identifiers_and_numbers_are_judged_without_wordfreq(
    imported: dict[str, set[str]],
) -> None:
    """Identifiers and bare numbers never import wordfreq; the first word does."""
    assert "wordfreq" not in imported["shape"]
    assert "wordfreq" in imported["word"]


_PIECES = [
    "_",
    "-",
    "\u2010",
    " ",
    ",",
    ".",
    "'",
    "from ",
    " to ",
    "Wang",
    "Wei",
    "Kim",
    "Min-jun",
    "Michelle",
    "Rivera",
    "Dr.",
    "Le",
    "of",
    "the",
    "#",
    "/",
    "1",
    "MOVED",
    "Hong Kong",
]


@settings(deadline=None)  # the first judgement loads the word lists
@given(st.lists(st.sampled_from(_PIECES), max_size=14).map("".join))
@example(" ,_")  # a comma with no name before it (found by this test)
def test_every_value_the_wording_reads_is_judged_without_an_error(text: str) -> None:
    """The guards judge each value a text states (a suggestion, a note) on any text.

    ``is_person_name`` read the first word of a name with none ("from _ to -"), and the
    ``remember`` tool raised IndexError after its write (an adversarial review; 566 of 20,000
    such texts).
    """
    for value in (*old_values(text), *new_values(text), text):
        is_person_name(value, text)
        is_generic(value, text)

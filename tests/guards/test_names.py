"""Names: a full name is specific but asks for an anchor, a given name alone is generic.

The name rule of ``nowline._rules.generic`` is measured on full names that Faker generates in 31
locales and 11 scripts. nowline never imports Faker: the given names it needs (a first name
alone is generic; a full name starts with one) ship as data (``nowline._rules.names``).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import nowline
from nowline._rules.generic import _english_title_words, assess, is_generic, is_person_name
from tests.guards.names import LOCALES, full_names

PER_LOCALE = 200
MAX_REFUSED = 0.01


@pytest.fixture(scope="module")
def refused() -> dict[str, list[str]]:
    """Return, per locale, the generated full names that the guard refuses."""
    return {
        locale: [n for n in full_names(locale, PER_LOCALE, seed=23) if is_generic(n)]
        for locale in LOCALES
    }


@pytest.mark.parametrize("locale", LOCALES)
def test_full_names_are_specific_in_every_locale(
    refused: dict[str, list[str]], locale: str
) -> None:
    """At most 1% of a locale's generated full names are refused as generic."""
    assert len(refused[locale]) <= MAX_REFUSED * PER_LOCALE, refused[locale]


def test_at_most_one_percent_of_all_names_are_refused(refused: dict[str, list[str]]) -> None:
    """Over every locale together, at most 1% of the full names are refused."""
    total = sum(len(v) for v in refused.values())
    assert len(LOCALES) >= 10
    assert total <= MAX_REFUSED * PER_LOCALE * len(LOCALES)


@pytest.mark.parametrize(
    "name",
    [
        "John Smith",
        "Maria Garcia",
        "Anna Müller",
        "Wei Zhang",
        "Tomasz Kowalczyk",
        "Michelle Obama",
        "Karen Green",
        "Rachel Davis",
        "Olivier de Man",  # a particle
        "Benício da Cunha",
        "Charlotte van Vliet",
        "Ludwig van der Berg",
        "Asunción del Manuel",
        "José Pedro Moraes",  # three parts
        "Nagy Levente Péter",  # family name first
        "R. Jakab Zoltán",  # an initial
        "Seán O'Brien",
        "Ronald McDonald",
        "Иван Петрович Сидоров",  # Cyrillic, with a patronymic
        "Γιώργος Παπαδόπουλος",  # Greek
        "ראובן כהן",  # Hebrew
        "محمد بن علي",  # Arabic, with "bin"
        "राहुल शर्मा",  # Devanagari
        "佐藤 陽子",  # Japanese, written with a space
        "Nguyễn Văn An",  # Vietnamese
    ],
)
def test_ordinary_full_names_are_specific(name: str) -> None:
    """A person's full name is specific however common its parts are (and asks for an anchor)."""
    assert is_generic(name) is None
    text = f"{name} left the team."
    assert nowline.validate_correction(text, [name], allow_person=True) == ([name], [])
    assert nowline.validate_correction(text, [name], about=["team"]) == ([name], ["team"])


@pytest.mark.parametrize(
    "name",
    ["John Smith", "Maria Garcia", "Иван Петрович Сидоров", "Kareem Abdul-Jabbar"],
)
def test_a_persons_name_needs_an_anchor(name: str) -> None:
    """Without an anchor a person's full name is refused: everything about them would go."""
    with pytest.raises(nowline.PersonName) as info:
        nowline.validate_correction(f"The billing owner changed from {name} to Dana Wu.", [name])
    assert info.value.phrase == name and "about=" in str(info.value)
    assert ("billing", 0) in info.value.anchors


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("John", "name"),
        ("Michelle", "name"),
        ("Maria", "name"),
        ("Mohammed", "name"),
        ("Anna", "name"),
        ("Priya", "name"),
        ("Rechnung", "word"),  # a common word of another language
    ],
)
def test_a_given_or_family_name_alone_stays_generic(name: str, kind: str) -> None:
    """One name word is generic, capitalised or not, whatever the text: it needs an anchor."""
    for text in (None, f"Ask {name} about it."):
        found = assess(name, text) if kind == "name" else assess(name)
        assert found is not None and found[0] == kind


@pytest.mark.parametrize(
    ("phrase", "kind"),
    [
        ("Main Branch", "title"),
        ("Human Resources", "title"),
        ("Sales Team", "title"),
        ("Customer Support", "title"),
        ("Head of Sales", "title"),
        ("Project Manager", "title"),
        ("The Team", "title"),
        ("The API", "phrase"),  # an all-capitals word is not a name word
        ("main branch", "phrase"),
        ("human resources", "phrase"),
        ("John smith", "phrase"),  # only capitalised words are read as a name
        ("JOHN SMITH", "phrase"),
    ],
)
def test_capitalised_common_phrases_stay_generic(phrase: str, kind: str) -> None:
    """Capitalised English phrases of common words, and names not written as names, stay refused."""
    found = assess(phrase)
    assert found is not None and found[0] == kind


@pytest.mark.parametrize(
    ("phrase", "kind"),
    [
        ("billing", "word"),
        ("owner", "word"),
        ("5", "number"),
        ("2024", "number"),
        ("2018-05-01", "number"),
        ("17/08/2019", "number"),
        ("$200,000", "number"),
        ("4.25%", "number"),
        ("v1", "number"),
        ("v2", "number"),
        ("V10", "number"),
        ("API v2", "phrase"),
        ("March 2019", "phrase"),
    ],
)
def test_the_generic_list_stays_generic(phrase: str, kind: str) -> None:
    """Common words, numbers, years, dates, amounts, percentages and version tokens are generic."""
    found = assess(phrase)
    assert found is not None and found[0] == kind


@pytest.mark.parametrize("phrase", ["v1.2", "v1.2.3", "api-v2", "v2/users", "PROJ-1234"])
def test_versions_with_more_than_a_number_stay_specific(phrase: str) -> None:
    """A dotted version or an identifier that contains a version token is specific."""
    assert is_generic(phrase) is None


def test_a_short_version_token_is_refused_by_correct(memory: nowline.Collection) -> None:
    """``deprecates=["v1"]`` is refused as generic unless anchored."""
    memory.remember("The billing API v1 endpoint is /charge.", id="m")
    with pytest.raises(nowline.GenericString, match="short version token") as info:
        memory.correct("Billing API v1 is retired; use v2.", deprecates=["v1"])
    assert info.value.kind == "number"
    report = memory.correct(
        "Billing API v1 is retired; use v2.", deprecates=["v1"], about=["Billing API"]
    )
    assert report.reached == 1


@pytest.mark.parametrize("phrase", ["في البيت", "של הבית", "के लिए"])
def test_a_phrase_with_a_function_word_of_a_caseless_script_stays_generic(phrase: str) -> None:
    """In scripts without case, a phrase holding a function word is not read as a name."""
    assert is_generic(phrase) is not None


def test_one_han_character_is_not_a_german_word() -> None:
    """Word hashes cover the UTF-8 bytes: CPython's ``hash("浩") == hash("im")`` misled them."""
    found = assess("浩")
    assert found is None or "'de'" not in found[1]


def test_english_title_words_are_concentrated_in_english() -> None:
    """The title-word set holds English vocabulary and not the names that travel."""
    import wordfreq

    words = _english_title_words(wordfreq.available_languages("small"), 3.5, 0.6)
    assert {"main", "branch", "human", "resources", "sales", "team"} <= words
    assert not {"john", "maria", "garcia", "richard", "michelle", "zhang"} & words


def test_a_proper_noun_of_the_writers_text_is_specific(memory: nowline.Collection) -> None:
    """Capitalised mid-sentence, common words name a particular thing; in lower case they do not."""
    memory.remember("Cash goes to the Main Branch on Fridays.", id="m")
    report = memory.correct(
        "The bank's Main Branch moved to Elm Street.", deprecates=["Main Branch"]
    )
    assert report.reached == 1
    with pytest.raises(nowline.GenericString) as info:
        memory.correct("The main branch moved to Elm Street.", deprecates=["main branch"])
    assert "full name" not in str(info.value).split("so it names")[1]
    assert "about=" in str(info.value)
    with pytest.raises(nowline.GenericString) as word:
        memory.correct("Michelle left.", deprecates=["Michelle"])
    assert "use the full name" in str(word.value)


def test_nowline_never_imports_the_measuring_library() -> None:
    """Judging names loads no Faker: the rule is wordfreq's and the string's own writing."""
    script = textwrap.dedent(
        """
        import sys
        from nowline._rules.generic import is_generic
        assert is_generic("Maria Garcia") is None and is_generic("Main Branch")
        print("faker" in sys.modules)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_hyphenated_family_name_keeps_its_anchor() -> None:
    """A hyphenated family name is shaped as an identifier, yet its anchor narrows.

    Measured on SituatedQA: "Kareem Abdul-Jabbar" with an anchor had it dropped (anchors
    beside identifiers go), and the correction marked his other records. A hyphenated
    compound that is no person's name ("ufo-ai", "Coca-Cola") stays an identifier.
    """
    text = "The NBA games record moved from Kareem Abdul-Jabbar to Robert Parish."
    kept = nowline.validate_correction(text, ["Kareem Abdul-Jabbar"], about=["NBA games"])
    assert kept == (["Kareem Abdul-Jabbar"], ["NBA games"])
    for compound in ("ufo-ai", "Coca-Cola", "T-Pain"):
        assert not is_person_name(compound)
    assert is_person_name("Catherine Zeta-Jones")


@pytest.mark.parametrize(
    "text",
    [
        "Saoirse Gallagher has taken them over from Casimir Volkonsky.",
        "Our security contact is no longer Casimir Volkonsky; write to Dana Wu.",
        "Casimir Volkonsky stepped down as treasurer.",
        "Casimir Volkonsky handed the vendor contract over to Dana Wu.",
        "Casimir Volkonsky's role went to Dana Wu.",
        "The lead role went to Dana Wu from Casimir Volkonsky, who stays on as an adviser.",
        "Casimir Volkonsky is no longer the billing owner.",
        "Dana Wu took his place as billing lead, not Casimir Volkonsky.",
        "The billing owner changed from Casimir Volkonsky to Dana Wu.",
    ],
)
def test_a_name_the_given_names_lack_is_a_person_where_the_text_says_so(text: str) -> None:
    """A full name whose given name the list lacks needs an anchor where the text is of a person.

    Measured on the blind writer sets: "Casimir Volkonsky" and "Oluwaseun Adeyemi" were taken
    for a thing's name and stored unanchored, marking everything about the person. A role, an
    act only a person does, or a personal pronoun in the text says it is a person's.
    """
    name = "Casimir Volkonsky"
    assert not is_person_name(name)  # the given-name list lacks Casimir
    assert is_person_name(name, text)
    with pytest.raises(nowline.PersonName):
        nowline.validate_correction(text, [name])
    assert nowline.validate_correction(text, [name], about=["owner"]) == ([name], ["owner"])


@pytest.mark.parametrize(
    ("phrase", "text"),
    [
        ("Thornbury Dispatch", "In Teams, the Thornbury Dispatch channel was renamed."),
        ("Marram Labs", "The transfer of Marram to Marram Labs was reverted."),
        ("Acme Corp", "Acme Corp is our new vendor; we left Globex Holdings."),
        ("Main Branch", "Main Branch is closed; his desk moved."),  # title words: no name
    ],
)
def test_a_things_name_stays_a_things(phrase: str, text: str) -> None:
    """A capitalised name of a thing is no person's where the text does not speak of one."""
    assert not is_person_name(phrase, text)


@pytest.mark.parametrize(
    "name",
    [
        "佐藤 陽子",  # family name first, in a script without case
        "Dr. Michelle Rivera",
        "Rivera, Michelle",
        "J. Smith",
        "Mary-Jane Watson",
        "Ana de la Cruz Pérez",
        "MICHELLE RIVERA",  # refused as generic, but allow_generic skipped the person check
        # the family name first, in Latin letters: the given name last
        "Nguyễn Văn An",
        "Nguyen Van An",
        "Wang Wei",
        "Tanaka Hiroshi",
        "Kim Min-jun",
        "Kim Min\u2010jun",  # a Unicode hyphen
        "Park Ji-Sung",
        "Moon Jae-in",
        "Dr. Kim Min-jun",
        "Nagy László",
        "Nguyễn Thị Minh Anh",  # four name words
        "Min-jun Kim",  # the same, given name first
    ],
)
def test_a_full_name_in_another_common_form_is_a_person(name: str) -> None:
    """Each was stored unanchored in an adversarial review, marking everything about them."""
    assert is_person_name(name)
    text = f"The billing owner changed from {name} to Dana Wu."
    with pytest.raises(nowline.PersonName):  # allow_generic waives no person's anchor
        nowline.validate_correction(text, [name], allow_generic=True)


@pytest.mark.parametrize(
    "phrase",
    [
        "Main Branch",
        "Acme Corp",
        "Head of Sales",
        "Berlin, Germany",
        "MAIN BRANCH",
        # a family name of a family-first language, then no given name
        "Park Street",
        "Hong Kong",
        "Chen Labs",
        "Wang Computing",
        # ... then a given name of another language, an English compound, a long syllable
        "Park Hyatt Sydney",
        "Major Tom",
        "Le Georges",
        "Park Drive-in",
        "Park Slope Food Co-op",
        "Le Grand-Saconnex",
        # a hyphenated word that is no given name of two syllables
        "X-ray Lab",
        "Wi-fi Router",
        "Ray-ban Store",
        "Jo-ann Fabrics",
    ],
)
def test_those_forms_leave_other_capitalised_phrases_alone(phrase: str) -> None:
    """A title, a company or a place with a comma is not taken for a person."""
    assert not is_person_name(phrase)


@pytest.mark.parametrize("phrase", ["", " ", "_", "-", "___", "\u2010"])
def test_a_phrase_with_no_name_word_is_no_person(phrase: str) -> None:
    """Nothing of a name is left: no person (an old value the wording reads, such as ``_``)."""
    assert not is_person_name(phrase)


def test_a_hyphenated_given_name_the_lists_lack_is_a_person_where_the_text_says_so() -> None:
    """``Chow Yun-fat`` (a family name no list holds) was no name at all, so a role did not help."""
    text = "The billing owner changed from Chow Yun-fat to Dana Wu."
    assert not is_person_name("Chow Yun-fat")
    assert is_person_name("Chow Yun-fat", text)
    with pytest.raises(nowline.PersonName):
        nowline.validate_correction(text, ["Chow Yun-fat"])

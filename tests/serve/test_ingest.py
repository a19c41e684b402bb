"""The shared ingest rules: the JSON correction, the audience, and storing once."""

from __future__ import annotations

import uuid

import pytest

import nowline
from nowline import InvalidInput
from nowline.requests import (
    Audience,
    CorrectionRequest,
    correction_id,
    parse_correction,
    store,
)


def request(**fields: object) -> CorrectionRequest:
    """Return a request with a plain body and string, overridden by ``fields``."""
    base: dict[str, object] = {
        "text": "acme/app moved to acme/app2.",
        "deprecates": ("acme/app",),
        "source": "api",
    }
    return CorrectionRequest(**{**base, **fields})  # type: ignore[arg-type]


def test_correction_ids_are_stable_and_distinct_per_source() -> None:
    """The same (source, source_id) always gives one id; another source another id."""
    assert correction_id("github", "d1") == correction_id("github", "d1")
    assert correction_id("github", "d1") != correction_id("gitlab", "d1")
    assert uuid.UUID(correction_id("github", "d1")).version == 5


def test_an_unscoped_audience_stores_without_a_scope() -> None:
    """Without a scope key nothing is added, and a request naming a scope is refused."""
    assert Audience().metadata(request()) is None
    with pytest.raises(InvalidInput, match="no scopes"):
        Audience().metadata(request(scope="u1"))


def test_a_scope_without_a_scope_key_is_a_configuration_error() -> None:
    """--scope or --scope-for on a store without a scope key is refused at start."""
    with pytest.raises(InvalidInput, match="scope key"):
        Audience(default="u1")
    with pytest.raises(InvalidInput, match="scope key"):
        Audience(owners={"acme": "u1"})


def test_an_owner_mapped_twice_is_a_configuration_error() -> None:
    """Two entries for one login (GitHub logins ignore case) are refused."""
    with pytest.raises(InvalidInput, match="twice"):
        Audience("team", owners={"acme": "a", "ACME": "b"})


def test_the_owners_scope_wins_and_the_default_covers_the_rest() -> None:
    """An owner's mapping wins over --scope; other owners take --scope."""
    audience = Audience("team", default="everyone", owners={"Acme": "team-acme"})
    assert audience.metadata(request(owner="acme")) == {"team": "team-acme"}
    assert audience.metadata(request(owner="zeta")) == {"team": "everyone"}
    assert audience.metadata(request()) == {"team": "everyone"}


def test_a_scoped_store_without_configuration_never_guesses() -> None:
    """No mapping and no default: refused with the options that fix it."""
    with pytest.raises(InvalidInput, match="--scope-for OWNER=VALUE"):
        Audience("team").metadata(request(owner="acme"))
    assert Audience("team").metadata(request(scope="t1")) == {"team": "t1"}


def test_parse_correction_reads_every_field() -> None:
    """Every documented field is read; source defaults to api."""
    got = parse_correction(
        {
            "body": "Michelle left Acme; the CEO of Acme is Dara.",
            "deprecates": "Michelle",
            "about": ["Acme"],
            "observed_at": 1_700_000_000,
            "source_id": "x",
            "team": "t1",
        },
        "team",
    )
    assert (got.deprecates, got.about, got.source, got.scope) == (
        ("Michelle",),
        ("Acme",),
        "api",
        "t1",
    )


@pytest.mark.parametrize(
    "obj",
    [
        {"body": "x acme/app", "deprecates": ["acme/app"], "observed_at": True},
        {"body": "x acme/app", "deprecates": ["acme/app"], "source": ""},
        {"body": "x acme/app", "deprecates": ["acme/app"], "source_id": "x" * 201},
        {"body": "x acme/app", "deprecates": ["acme/app"], "source_url": 5},
        {"body": "x \ud800 acme/app", "deprecates": ["acme/app"]},
        {"body": "x" * 4001, "deprecates": ["acme/app"]},
        {"body": "x acme/app", "deprecates": ["acme/app"], "team": ["t1"]},
    ],
)
def test_parse_correction_refuses_odd_values(obj: dict[str, object]) -> None:
    """Booleans as times, empty or long strings, surrogates and list scopes are refused."""
    with pytest.raises(InvalidInput):
        parse_correction(obj, "team")


def test_storing_twice_writes_once_and_reports_the_reach_now(memory: nowline.Collection) -> None:
    """The second store of one source id is not created, and counts what it reaches now."""
    memory.remember("Deploy acme/app.", id="m1")
    first = store(memory, request(source_id="e1"))
    memory.remember("acme/app is green.", id="m2")
    again = store(memory, request(source_id="e1"))
    assert (first.created, first.reached) == (True, 1)
    assert (again.created, again.reached, again.id) == (False, 2, first.id)
    assert memory.count() == 3


def test_a_foreign_record_with_the_derived_id_is_not_overwritten(
    memory: nowline.Collection,
) -> None:
    """A record that holds the id but another provenance is left alone, with an error."""
    memory.remember("Unrelated.", id=correction_id("api", "e1"))
    with pytest.raises(InvalidInput, match="was not stored from api"):
        store(memory, request(source_id="e1"))
    assert memory.get(ids=[correction_id("api", "e1")])["documents"] == ["Unrelated."]

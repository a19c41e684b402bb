"""Which spellings name the same value (DESIGN §6, "in any spelling").

A repository or address written with a scheme, a user, a port, ``www.``, ``.git``, quotes or
slashes is the same value as its bare path; a path under one host is another value than the
same path under another host, and the same value as the path with no host. The registry and
the guards compare spellings only through :func:`same_value` (its keys), so these pairs decide
revival, the current-value guard and the new-value guard alike.
"""

from __future__ import annotations

import pytest

import nowline
from nowline._rules.records import bare_path, held_keys, same_value, value_keys

SAME = [
    ("acme/app", "acme/app"),
    ("acme/app", "ACME/App"),
    ("acme/app", "github.com/acme/app"),
    ("acme/app", "https://github.com/acme/app"),
    ("acme/app", "https://www.github.com/acme/app/"),
    ("acme/app", "https://github.com/acme/app.git"),
    ("acme/app", "git@github.com:acme/app.git"),
    ("acme/app", "github.com:acme/app"),
    ("acme/app", "https://github.com:443/acme/app"),
    ("acme/app", "ssh://git@github.com:22/acme/app.git"),
    ("acme/app", "`acme/app`"),
    ("acme/app", '"acme/app."'),
    ("acme/app", "@acme/app"),
    ("github.com/acme/app", "git@github.com:acme/app.git"),
    ("https://github.com/acme/app", "www.github.com/acme/app"),
    ("docs.acme.io/guide", "https://docs.acme.io/guide"),
    ("https://docs.oldco.com/api/guide", "api/guide"),
    ("acme/app", "github:acme/app"),  # a package manager's shorthand
    ("github:acme/app", "https://github.com/acme/app"),
]

APART = [
    ("acme/app", "acme/app2"),
    ("acme/app", "acme/app-docs"),
    ("acme/app", "acme/app/issues/12"),
    ("gitlab.com/acme/app", "github.com/acme/app"),
    ("https://gitlab.com/acme/app", "git@github.com:acme/app.git"),
    ("https://docs.oldco.com/api/guide", "https://docs.newco.com/api/guide"),
    ("docs.acme.io/guide", "docs.acme.io/faq"),
    ("claims@acme.co.uk", "acme.co.uk"),
    ("#ops", "ops"),
    ("acme/app", "acme/app#12"),
    ("s3://acme-data/raw/v1", "gs://acme-data/raw/v1"),  # another scheme: another store
    ("github:acme/app", "gitlab.com/acme/app"),
    # a query or fragment may name another thing (watch?v=..., #install and #setup)
    ("https://www.youtube.com/watch?v=AAA", "https://www.youtube.com/watch?v=BBB"),
    ("https://docs.acme.io/guide#install", "https://docs.acme.io/guide#setup"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_spellings_of_one_value_are_the_same_value(a: str, b: str) -> None:
    """Each pair names one value, looked up either way round."""
    assert same_value(a, b) and same_value(b, a)


@pytest.mark.parametrize(("a", "b"), APART)
def test_different_values_stay_apart(a: str, b: str) -> None:
    """A sibling, a page under a value, another host's path: each is its own value."""
    assert not same_value(a, b) and not same_value(b, a)


def test_the_relation_is_symmetric_and_keeps_hosts_apart() -> None:
    """Over every value here, either way round gives one answer, and two hosts never meet.

    The registry files new values by :func:`held_keys` and looks strings up by
    :func:`value_keys`; which side is which must not matter.
    """
    values = sorted({v for pair in SAME + APART for v in pair})
    for a in values:
        for b in values:
            assert same_value(a, b) == same_value(b, a), (a, b)
            assert bool(value_keys(a) & held_keys(b)) == same_value(a, b), (a, b)
    assert not same_value("gitlab.com/acme/app", "github.com/acme/app")
    assert same_value("gitlab.com/acme/app", "acme/app") and same_value(
        "acme/app", "github.com/acme/app"
    )


def test_the_bare_path_of_a_value() -> None:
    """The path a message names: without scheme, user, host, port or ``.git``."""
    assert bare_path("ssh://git@github.com:22/acme/app.git") == "acme/app"
    assert bare_path("https://docs.acme.io/guide") == "docs.acme.io/guide"
    assert bare_path("`#ops`") == "#ops"


# ------------------------------------------------------------- where a value with a host occurs

_GITHUB_URL = "https://github.com/acme/app2"

NAMED = [
    ("deploy from acme/app2", _GITHUB_URL),
    ("git clone git@github.com:acme/app2.git", _GITHUB_URL),
    ("git clone https://www.GitHub.com/acme/app2.git", _GITHUB_URL),
    ("see (https://github.com:443/acme/app2/pull/3)", _GITHUB_URL),
    ('remote = "ssh://git@github.com/acme/app2"', _GITHUB_URL),
    ("acme/app2 was renamed", "git@github.com:acme/app2.git"),
    ("open https://docs.acme.io/api/guide#auth", "docs.acme.io/api/guide"),
    ("open http://www.docs.acme.io/api/guide", "https://docs.acme.io/api/guide"),
    ("source url:docs.acme.io/api/guide", "https://docs.acme.io/api/guide"),
    ("repo:acme/app2", _GITHUB_URL),
    # the address's own prefix, whatever stands before it (a review of the first rule)
    ("git clone **github.com/acme/app2**", "github.com/acme/app2"),
    ("see→github.com/acme/app2", "github.com/acme/app2"),
    ("仓库在github.com/acme/app2", _GITHUB_URL),
    ("curl **https://docs.acme.io/api/guide**", "docs.acme.io/api/guide"),
    ("curl https://bot:tok@docs.acme.io/api/guide", "docs.acme.io/api/guide"),
    ("wget «https://docs.acme.io/api/guide»", "docs.acme.io/api/guide"),
    ("Link→docs.acme.io/api/guide", "docs.acme.io/api/guide"),
    ("git clone https://x-access-token:abc@github.com/acme/app2.git", _GITHUB_URL),
    ("git clone https://github.com//acme/app2", _GITHUB_URL),
    ("npm i github:acme/app2", _GITHUB_URL),
    ("clone https://ｇｉｔｈｕｂ.ｃｏｍ/acme/app2", _GITHUB_URL),
    (
        "deploy acme/app2",
        "https://ｇｉｔｈｕｂ.ｃｏｍ/acme/app2",
    ),  # a full-width host is github.com
    # a second review: hosts of every form, and what may stand before an address
    ("git clone https://git_srv.corp.io/team/svc", "https://git_srv.corp.io/team/svc"),
    ("pip install https://bücher.de/acme/lib", "https://bücher.de/acme/lib"),
    ("see [docs.acme.io/api/guide]", "docs.acme.io/api/guide"),
    ("yq '.urls = [docs.acme.io/api/guide]'", "docs.acme.io/api/guide"),
    ("- [docs.acme.io/api/guide](http://x)", "docs.acme.io/api/guide"),
    ("mirror/docs.acme.io/api/guide", "docs.acme.io/api/guide"),
    ("cd $GOPATH/src/github.com/acme/app2", _GITHUB_URL),
    ("see [acme/app2]", _GITHUB_URL),
    ("open https://eu.docs.acme.io/api/guide", "docs.acme.io/api/guide"),  # a subdomain (§3)
    # a third review: the forge's own API and raw files, and a file:// checkout
    ("gh api repos/acme/app2/pulls", _GITHUB_URL),
    ("curl -s https://api.github.com/repos/acme/app2/releases/latest", _GITHUB_URL),
    ("curl -fsSL https://raw.githubusercontent.com/acme/app2/main/install.sh | sh", _GITHUB_URL),
    ("git clone file:///home/me/src/github.com/acme/app2", _GITHUB_URL),
    (f"git clone https://x-access-token:{'a' * 300}@github.com/acme/app2", _GITHUB_URL),
    # a fourth review: a root-relative link, and the API path written with its slash
    ("see [the README](/acme/app2) first", _GITHUB_URL),
    ("gh api /repos/acme/app2/pulls", _GITHUB_URL),
]
"""(text, deprecated string): the text names the deprecated value, in another spelling."""

NOT_NAMED = [
    ("mirror at gitlab.com/acme/app2", _GITHUB_URL),  # another host's repository
    ("git clone https://gitlab.com/acme/app2.git", _GITHUB_URL),
    ("https://github.com/other/acme/app2", _GITHUB_URL),  # a path inside another repository
    ("gitlab.com/group/acme/app2", _GITHUB_URL),  # a subgroup's project
    ("deploy from acme/app2-console", _GITHUB_URL),  # a sibling (DESIGN §3)
    ("read api/guide first", "docs.acme.io/api/guide"),  # no forge: the path needs its host
    ("open https://docs.newco.io/api/guide", "docs.acme.io/api/guide"),
    ("mirror:gitlab.com/acme/app2", _GITHUB_URL),
    ("git clone https://oauth2:TOKEN@gitlab.com/acme/app2.git", _GITHUB_URL),
    ("open **https://gitlab.com/acme/app2**", _GITHUB_URL),
    ("git remote add m «https://gitlab.com/acme/app2»", _GITHUB_URL),
    ("镜像：https://gitlab.com/acme/app2", _GITHUB_URL),
    ("clone ｇｉｔｌａｂ.ｃｏｍ/acme/app2", _GITHUB_URL),
    ("clone http://10.0.0.5/acme/app2", _GITHUB_URL),
    ("clone localhost:3000/acme/app2", _GITHUB_URL),
    ("npm i gitlab:acme/app2", _GITHUB_URL),
    ("git clone http://gitserver:8080/acme/app2", _GITHUB_URL),  # a host without a dot
    ("git clone http://git/acme/app2.git", _GITHUB_URL),
    ("cd $GOPATH/src/gitlab.com/acme/app2 && go build ./...", _GITHUB_URL),
    ("cd ~/ghq/gitlab.com/acme/app2", _GITHUB_URL),
    ("echo '[gitlab.com/acme/app2]'", _GITHUB_URL),
    ("curl 'https://x.io/?u=https%3A//gitlab.com/acme/app2'", _GITHUB_URL),
    ("npm install @acme/app2", _GITHUB_URL),  # an npm scope: another registry's name
    ("ls /srv/acme/app2/bin", _GITHUB_URL),  # a local path nowline cannot tell
    ('"app2": "npm:@acme/app2@^1.0.0"', _GITHUB_URL),  # npm aliases of a scoped package
    ("yarn add app2@npm:@acme/app2", _GITHUB_URL),
    ("cd ./acme/app2 && make", _GITHUB_URL),  # relative local paths
    ("ls ../acme/app2/src", _GITHUB_URL),
    ("cd C:\\src\\acme/app2", _GITHUB_URL),
    ("curl https://api.github.com/users/acme/app2", _GITHUB_URL),  # not a repository's path
]


def _occurrences(text: str, deprecated: str, news: tuple[str, ...] = ()) -> list[str]:
    """Return the deprecated strings a registry of one correction finds in ``text``."""
    from nowline._rules.records import CorrectionInfo, Scoped
    from nowline._rules.registry import Registry

    info = CorrectionInfo("c", "moved", (deprecated,), (), 1.0, 1.0, None, None, replaced_by=news)
    found = Registry([info]).direct(text, record_id="m", scope=Scoped(None), order=None)
    return [m.phrase for m in found.get("c", [])]


@pytest.mark.parametrize(("text", "deprecated"), NAMED)
def test_a_value_with_a_host_occurs_in_any_spelling(text: str, deprecated: str) -> None:
    """A string with a host occurs where its path is written under that host, in any spelling.

    On a code forge, also with no host; the occurrence names the string as written.
    """
    assert _occurrences(text, deprecated) == [deprecated]


@pytest.mark.parametrize(("text", "deprecated"), NOT_NAMED)
def test_another_hosts_path_is_another_value(text: str, deprecated: str) -> None:
    """The same path under another host, or inside a longer path under a host, is not it."""
    assert _occurrences(text, deprecated) == []


def test_a_move_between_hosts_needs_the_old_hosts_spelling() -> None:
    """Where the correction moves the path to another host, a bare path names either host.

    ``github.com/acme/app2`` → ``codeberg.org/acme/app2``: ``acme/app2`` alone may be either
    repository, so only the GitHub spellings are the old value.
    """
    news = ("codeberg.org/acme/app2",)
    assert _occurrences("deploy from acme/app2", _GITHUB_URL, news) == []
    assert _occurrences("git clone git@github.com:acme/app2.git", _GITHUB_URL, news) == [
        _GITHUB_URL
    ]
    assert _occurrences("git clone https://codeberg.org/acme/app2", _GITHUB_URL, news) == []


def test_a_memory_that_records_the_change_in_other_spellings_stays_current() -> None:
    """A memory that states the change itself is not marked, whichever spelling each writes.

    "We renamed acme/app2 to acme/app3 last week; use acme/app3." beside a correction that
    deprecates ``https://github.com/acme/app2`` (its new value a URL too): the
    memory was read for the URL as written, which it does not write, and was marked.
    """
    from nowline._rules.records import CorrectionInfo, Scoped
    from nowline._rules.registry import Registry

    text = "We renamed acme/app2 to acme/app3 last week; use acme/app3."
    said = f"{_GITHUB_URL} was renamed to https://github.com/acme/app3."
    news = ("https://github.com/acme/app3",)
    info = CorrectionInfo("c", said, (_GITHUB_URL,), (), 1.0, 1.0, None, None, replaced_by=news)
    assert Registry([info]).direct(text, record_id="m", scope=Scoped(None), order=None) == {}
    stale = "Deploy acme/app2 on Fridays."
    assert Registry([info]).direct(stale, record_id="m", scope=Scoped(None), order=None)


def test_strings_that_share_a_path_are_revived_each_on_its_own() -> None:
    """``acme/app`` and ``https://github.com/acme/app`` in one correction share one form.

    A change back to ``gitlab.com/acme/app`` revives the bare name (the same value as the
    GitLab one) but not the GitHub URL (another host's). The automaton finds their shared
    path once; the first string that named it was revived, and the occurrence was dropped
    though the URL still named it (the model-based test found it: the probe's GitHub URL
    passed ``check()``).
    """
    from nowline._rules.assembly import trips_of
    from nowline._rules.records import CorrectionInfo, Scoped
    from nowline._rules.registry import Registry

    both = ("acme/app", _GITHUB_URL[:-1])  # acme/app and https://github.com/acme/app
    c1 = CorrectionInfo("c1", "Moved from acme/app to beta.", both, (), 1.0, 1.0, None, None)
    c2 = CorrectionInfo(
        "c2", "Moved from beta to gitlab.com/acme/app.", ("beta",), (), 2.0, 2.0, None, None
    )
    infos = [
        c1._replace(replaced_by=("beta",)),
        c2._replace(replaced_by=("gitlab.com/acme/app",)),
    ]
    registry = Registry(infos)
    url = "git clone https://github.com/acme/app"
    assert [
        (t.correction.id, [o.phrase for o in t.occurrences])
        for t in trips_of(registry, url, Scoped(None))
    ] == [("c1", [_GITHUB_URL[:-1]])]
    assert trips_of(registry, "deploy acme/app", Scoped(None)) == []


def test_a_shorthand_of_the_current_value_is_refused_as_the_value_is(
    memory: nowline.Collection,
) -> None:
    """``github:acme/app3`` is ``https://github.com/acme/app3``: the current-value guard holds.

    The matcher read the shorthand as GitHub's, the guards did not, so a correction that
    deprecated ``github:acme/app3`` was stored and marked the current repository.
    """
    memory.remember("Clone https://github.com/acme/app2 for the build.", id="m")
    url = "https://github.com/acme/app2"
    first = memory.correct(f"{url} was renamed to https://github.com/acme/app3.", deprecates=[url])
    with pytest.raises(nowline.NewValue) as caught:
        memory.correct(
            "Do GitHub work in acme/app1, never github:acme/app3.", deprecates=["github:acme/app3"]
        )
    assert caught.value.holder == first.id


def test_a_sibling_label_names_the_deprecated_string_as_written(
    memory: nowline.Collection,
) -> None:
    """The "not covered" label of a sibling names the URL the correction deprecates.

    The sibling is found by the URL's path (``acme/app2-console`` begins like
    ``acme/app2``); the label gave the path, where occurrences give the string as written.
    """
    memory.remember("Deploy acme/app2-console and acme/app2 on Fridays.", id="m")
    memory.remember("The console is acme/app2-console.", id="sib")
    memory.correct(
        f"{_GITHUB_URL} was renamed to https://github.com/acme/app3.", deprecates=[_GITHUB_URL]
    )
    hits = {h.id: h for h in memory.hits(["m", "sib"])}
    assert hits["m"].role == "historical" and hits["sib"].role == "current"
    recall = memory.recall("acme/app2-console", n_results=3)
    labels = [label for hit in recall.hits for label in hit.not_covered]
    assert [(lab.name, lab.deprecated) for lab in labels] == [("acme/app2-console", _GITHUB_URL)]


def test_a_url_correction_written_by_plain_chromadb_reaches_the_bare_name(
    memory: nowline.Collection,
) -> None:
    """A store written around nowline: a plain client adds the memories and the correction.

    ``repair()`` marks the correction and stores the links by the same rule: the bare name
    is historical (a ``where`` filter on the role finds it), another host's mirror current,
    and ``check()`` trips on the bare name.
    """
    url = "https://github.com/acme/app2"
    docs = [
        "CI runs in acme/app2.",
        "The mirror is gitlab.com/acme/app2.",
        f"{url} was renamed to https://github.com/acme/app3.",
    ]
    memory.raw.add(
        ids=["ci", "mirror", "fix"],
        documents=docs,
        metadatas=[{"kind": "note"}, {"kind": "note"}, {"deprecates": [url]}],
    )
    memory.repair()
    assert memory.get(where={"nowline_role": "historical"})["ids"] == ["ci"]
    assert [t.correction.id for t in memory.check("git clone acme/app2")] == ["fix"]
    assert memory.check("git clone https://gitlab.com/acme/app2") == []
    assert {h.id: h.role for h in memory.hits(["ci", "mirror"])} == {
        "ci": "historical",
        "mirror": "current",
    }


def test_a_change_back_to_another_host_relinks_the_bare_hits(memory: nowline.Collection) -> None:
    """The stored links follow a bare hit made current again, as the read-time verdict does.

    ``https://github.com/acme/app`` → ``acme/web`` marks "deploy acme/app" (a forge's path
    written bare). A later move of the same URL to ``gitlab.com/acme/app`` changes the first
    step back (its text names the URL) and holds the bare value current again, so the memory
    is current. The write looked for the corrections to relink by the new value's keys, which
    do not meet the GitHub URL's, so the stored link stayed while ``hits()`` said current
    (the model-based test found it: stored links differed from the reference).
    """
    memory.remember("deploy acme/app", id="m")
    url = "https://github.com/acme/app"
    memory.correct(f"Moved from {url} to acme/web. acme/app", deprecates=[url], observed_at=2000)
    assert memory.get(where={"nowline_role": "historical"})["ids"] == ["m"]
    memory.correct(f"Moved from {url} to gitlab.com/acme/app.", deprecates=[url], observed_at=3000)
    assert memory.hits(["m"])[0].role == "current"
    assert "m" not in memory.get(where={"nowline_role": "historical"})["ids"]

"""The wording (``nowline._rules.wording``): the old and new values a correction states.

Every documented pattern, the span rules, negatives (where reading nothing is right) and
properties against generated sentences.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from nowline._rules.generic import is_generic
from nowline._rules.wording import (
    Change,
    new_values,
    old_values,
    read_changes,
    says_back,
    says_new,
    says_old,
    stated_things,
    value_sort,
)


@pytest.fixture(scope="module", autouse=True)
def _wordfreq_read() -> None:
    """Read wordfreq's lists once before the module's tests (about half a second, lazily).

    Hypothesis times each example against its deadline; a property test that happened to run
    first in a worker timed that one-time read too, and failed as flaky ('f;$t→((' took 565
    ms, then 0.02 ms). What these tests check is the reading, not the read.
    """
    is_generic("table")


def pair(text: str, deprecates: tuple[str, ...] = ()) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The (old values, new values) read from ``text``."""
    return old_values(text, deprecates), new_values(text, deprecates)


# ------------------------------------------------------------------ documented patterns
PATTERNS = [
    # from X to Y, with its lists, continuations and languages
    ("The SDK moved from acme/sdk to acme-labs/sdk last week.", ["acme/sdk"], ["acme-labs/sdk"]),
    (
        "Mail moved from a@x.example and b@x.example to c@y.example.",
        ["a@x.example", "b@x.example"],
        ["c@y.example"],
    ),
    (
        "The fee rose from $5 to $7 and the cap from 10 GB to 20 GB.",
        ["$5", "10 GB"],
        ["$7", "20 GB"],
    ),
    ("Der Kanal wurde von #alt nach #neu verschoben.", ["#alt"], ["#neu"]),
    ("Le dépôt a migré de org/a à org/b.", ["org/a"], ["org/b"]),
    ("El canal cambió de #viejo a #nuevo.", ["#viejo"], ["#nuevo"]),
    ("The quota went up to 900 from 300.", ["300"], ["900"]),
    # moved off / out of / away from X (to Y)
    (
        "We moved off bitbucket.org/a/app to github.com/a/app.",
        ["bitbucket.org/a/app"],
        ["github.com/a/app"],
    ),
    ("It was transferred out of jnovak/web.", ["jnovak/web"], []),
    # X is switched off | disconnected; NAME left; NAME is the new <role>
    ("ci.acme.dev is switched off.", ["ci.acme.dev"], []),
    (
        "The line changed to 020 7946 0321; 020 7946 0999 is disconnected.",
        ["020 7946 0999"],
        ["020 7946 0321"],
    ),
    ("Kofi is the new head of sales; Elena left the company.", ["Elena"], ["Kofi"]),
    # arrows
    ("db1.acme.io -> db2.acme.io", ["db1.acme.io"], ["db2.acme.io"]),
    ("#a => #b", ["#a"], ["#b"]),
    ("v3.1 ⇒ v3.2", ["v3.1"], ["v3.2"]),
    ("OPS-1 ⟶ OPS-2", ["OPS-1"], ["OPS-2"]),
    ("x/one ➔ x/two", ["x/one"], ["x/two"]),
    ("x/one ➜ x/two", ["x/one"], ["x/two"]),
    # renamed / moved / changed
    ("We transferred zed/cli to zed-dev/cli.", ["zed/cli"], ["zed-dev/cli"]),
    ("We renamed #ops-chat last week.", ["#ops-chat"], []),
    ("zed/web has been renamed to zed/portal.", ["zed/web"], ["zed/portal"]),
    ("zed/web was renamed zed/portal.", ["zed/web"], ["zed/portal"]),
    ("Le canal #a a été renommé en #b.", ["#a"], ["#b"]),
    ("The status page moved to status.zed.io.", [], ["status.zed.io"]),
    ("zed/api moved again, to zed-org/api.", ["zed/api"], ["zed-org/api"]),
    ("We raised the rate limit to 900.", [], ["900"]),
    ("The docs, which moved to a.zed.io in May, now live at b.zed.io.", ["a.zed.io"], ["b.zed.io"]),
    # is now / become / again / now
    ("zed/cli is now zed/tool.", ["zed/cli"], ["zed/tool"]),
    ("DataPipe is now called Streamline.", [], ["Streamline"]),
    ("The CRM has become HubSpot.", [], ["HubSpot"]),
    ("Ines Moreau is now the release manager.", [], ["Ines Moreau"]),
    ("Team Kite owns the search service now.", [], ["Team Kite"]),
    ("The runbook is https://wiki.zed.io/rb now.", [], ["https://wiki.zed.io/rb"]),
    ("Invoices now go to ap@zed.example.", [], ["ap@zed.example"]),
    ("The API is now at api2.zed.io.", [], ["api2.zed.io"]),
    ("See zed/app (now zed/app2) for details.", ["zed/app"], ["zed/app2"]),
    ("Rename back: zed/app2 is zed/app again.", ["zed/app2"], ["zed/app"]),
    ("Der Kanal #a heißt jetzt #b.", ["#a"], ["#b"]),
    ("La responsable est désormais Claire Roy.", [], ["Claire Roy"]),
    ("El precio ahora es 40 €.", [], ["40 €"]),
    # replace
    ("We replaced Trello with Linear.", ["Trello"], ["Linear"]),
    ("zed-old.io was replaced by zed.io.", ["zed-old.io"], ["zed.io"]),
    ("OPS-3 was superseded by OPS-9.", ["OPS-3"], ["OPS-9"]),
    ("Kim replaced Lee as on-call lead.", ["Lee"], ["Kim"]),
    ("Notion replaces Confluence.", ["Confluence"], ["Notion"]),
    ("OPS-9 supersedes OPS-3.", ["OPS-3"], ["OPS-9"]),
    ("Builds run on Buildkite now, replacing Jenkins.", ["Jenkins"], ["Buildkite"]),
    ("zed/a is deprecated in favour of zed/b.", ["zed/a"], ["zed/b"]),
    # take over / hand over
    ("Amal took over the pager from Bruno.", ["Bruno"], ["Amal"]),
    ("Team Owl handed the queue over to Team Elk.", ["Team Owl"], ["Team Elk"]),
    # instead of / rather than
    ("Use zed/b instead of zed/a.", ["zed/a"], ["zed/b"]),
    ("Send logs to #logs rather than #general.", ["#general"], ["#logs"]),
    ("Deploy from zed/b in place of zed/a.", ["zed/a"], ["zed/b"]),
    ("Please use zed/b instead.", [], ["zed/b"]),
    ("Bitte #neu statt #alt nutzen.", ["#alt"], ["#neu"]),
    ("Utilisez #b au lieu de #a.", ["#a"], ["#b"]),
    ("Usa #b en lugar de #a.", ["#a"], ["#b"]),
    ("Usa #b en vez de #a.", ["#a"], ["#b"]),
    # formerly / previously / was
    ("zed/b (formerly zed/a) holds the code.", ["zed/a"], ["zed/b"]),
    ("zed/b, formerly zed/a, holds the code.", ["zed/a"], ["zed/b"]),
    ("Owner: Ana Lima (previously Rui Sousa).", ["Rui Sousa"], ["Ana Lima"]),
    ("The cap is now 50 GB (was 20 GB).", ["20 GB"], ["50 GB"]),
    ("The port is 9443 now (it was 9000).", ["9000"], ["9443"]),
    ("The tool formerly known as Blip is Blop now.", ["Blip"], ["Blop"]),
    ("Tools formerly known as Blip ship today.", ["Blip"], []),
    ("Fee: was 3 EUR, now 4 EUR.", ["3 EUR"], ["4 EUR"]),
    ("Previously zed/a, now zed/b.", ["zed/a"], ["zed/b"]),
    ("The price is now $30, up from $25.", ["$25"], ["$30"]),
    ("Die Adresse ist jetzt neu@zed.de (vorher alt@zed.de).", ["alt@zed.de"], ["neu@zed.de"]),
    # not / no longer
    ("The host is db-b.zed.io, not db-a.zed.io.", ["db-a.zed.io"], ["db-b.zed.io"]),
    ("Page #sre now (not #ops).", ["#ops"], ["#sre"]),
    ("No longer Sentry but Datadog.", ["Sentry"], ["Datadog"]),
    ("Ana Lima is no longer the owner; Rui Sousa is.", ["Ana Lima"], ["Rui Sousa"]),
    ("Support ist nicht mehr unter a@zed.de erreichbar.", ["a@zed.de"], []),
    # deprecated and friends
    ("zed/old is deprecated, use zed/new.", ["zed/old"], ["zed/new"]),
    ("#old-chat has been archived; go to #chat.", ["#old-chat"], ["#chat"]),
    ("wiki.zed.io was shut down.", ["wiki.zed.io"], []),
    ("OPS-4 was closed as a duplicate of OPS-8.", ["OPS-4"], ["OPS-8"]),
    ("Write to b@zed.io; a@zed.io is no longer read.", ["a@zed.io"], ["b@zed.io"]),
    # old one / new one / new role
    ("Use schedule PQ1 from now on; the old one, PZ9, is deleted.", ["PZ9"], ["PQ1"]),
    ("zed/a is the old name; zed/b is the new one.", ["zed/a"], ["zed/b"]),
    ("Acme has a new CTO: Lea Wong.", [], ["Lea Wong"]),
    ("The repo zed/a has moved. New location: zed/b.", [], ["zed/b"]),
    ("zed/a was archived; its successor is zed/b.", ["zed/a"], ["zed/b"]),
    # ends said plainly, and a redirect
    ("Front desk: dial 2255, 2240 no longer rings.", ["2240"], []),
    ("Staging is zed2.example; zed.example is down for good.", ["zed.example"], []),
    (
        "Grafana moved: g.zed.dev redirects to m.zed.dev, use the new one.",
        ["g.zed.dev"],
        ["m.zed.dev"],
    ),
    ("Pages no longer go to #pages -- use #pager.", ["#pages"], ["#pager"]),
    (
        "Our backups switched to gs://zed-b; nothing writes to s3://zed-b anymore.",
        ["s3://zed-b"],
        ["gs://zed-b"],
    ),
]


@pytest.mark.parametrize(("text", "old", "new"), PATTERNS)
def test_documented_pattern(text: str, old: list[str], new: list[str]) -> None:
    """Each documented pattern reads exactly the listed old and new values."""
    assert pair(text) == (tuple(old), tuple(new))


# ------------------------------------------------------------------ span rules
def test_sentence_final_period_is_not_part_of_a_host() -> None:
    """A sentence's final period does not belong to the host before it."""
    assert new_values("Our docs site moved to docs.northwind.io.") == ("docs.northwind.io",)


def test_trailing_instruction_after_semicolon() -> None:
    """A trailing instruction repeating the value reads it once, without the semicolon."""
    text = "Moved to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
    assert new_values(text) == ("ufo-ai/ufo",)


def test_clone_url_is_a_url() -> None:
    """A clone URL is read whole, ``.git`` included, as a URL."""
    text = "Clone https://github.com/acme/app.git instead of https://gitlab.com/acme/app.git."
    assert pair(text) == (
        ("https://gitlab.com/acme/app.git",),
        ("https://github.com/acme/app.git",),
    )


def test_git_suffix_is_not_part_of_a_repository_name() -> None:
    """A ``.git`` suffix outside a URL is not part of a repository's name."""
    assert pair("We moved from github.com/a/b.git to github.com/c/b.git.") == (
        ("github.com/a/b",),
        ("github.com/c/b",),
    )


def test_url_closing_parenthesis() -> None:
    """A URL in parentheses ends before the closing parenthesis."""
    assert new_values("Docs live at x.io now (see https://x.io/a).") == ("x.io",)
    assert pair("https://x.io/b (formerly https://x.io/a) works.") == (
        ("https://x.io/a",),
        ("https://x.io/b",),
    )


def test_quoted_values_are_read_inside_quotes() -> None:
    """A quoted or backticked value is read without its quotes."""
    assert pair('The key "old_mode" was renamed to "new_mode".') == (("old_mode",), ("new_mode",))
    assert pair("`make a` was replaced by `make b`.") == (("make a",), ("make b",))


def test_numbers_keep_their_unit_and_currency() -> None:
    """Numbers keep an attached currency and a known unit, not trailing words."""
    assert pair("The plan went from €12 to €15 per seat.") == (("€12",), ("€15",))
    assert pair("Disk raised from 2 TB to 4 TB.") == (("2 TB",), ("4 TB",))
    assert pair("Timeout bumped 30s -> 90s.") == (("30s",), ("90s",))
    # a unit per time is the number's unit, not a value of its own ("req/min" was read old)
    assert pair("Partner keys: 300 req/min → 900 req/min.") == (("300 req/min",), ("900 req/min",))


def test_a_change_word_before_a_colon_is_a_label() -> None:
    """A label such as "Carrier change:" is no verb for "from X": no old value is read."""
    text = (
        "Carrier change: courier parcels from the Rotterdam warehouse must now be UNDER 20 kg. "
        "The 30 kg limit no longer applies."
    )
    assert "Rotterdam" not in old_values(text)
    assert pair("Migration: we moved from acme/app to acme/web.") == (("acme/app",), ("acme/web",))


def test_a_hyphenated_given_name_is_part_of_the_name() -> None:
    """Jun-seo Park is one name, not the identifier "Jun-seo" beside the word "Park"."""
    text = "onboarding coordinator: Priyamvada Raghunathan (formerly Jun-seo Park)"
    assert pair(text) == (("Jun-seo Park",), ("Priyamvada Raghunathan",))
    assert pair("Kwabena Asante-Mensah handed the role to Mei-Ling Tsao.") == (
        ("Kwabena Asante-Mensah",),
        ("Mei-Ling Tsao",),
    )
    assert old_values("Round-up: acme/app moved to acme/web.") == ("acme/app",)


def test_phone_numbers_and_names_with_numbers() -> None:
    """A phone number and a product name with its version are one value each."""
    assert pair("Hotline changed from +1 212 555 0101 to +1 212 555 0199.") == (
        ("+1 212 555 0101",),
        ("+1 212 555 0199",),
    )
    assert pair("Node 18 is deprecated, use Node 22.") == (("Node 18",), ("Node 22",))
    # a national number (a leading 0, no country code) is one value too, not its first group
    assert new_values("The hotline changed to 020 7946 0321; 020 7946 0999 is gone.") == (
        "020 7946 0321",
    )


def test_renamed_back_reads_the_value_it_returns_to() -> None:
    """'renamed X back to Y' reads Y as new, as 'renamed X to Y' does (a change back)."""
    text = "We renamed fernhill/atlas-next back to fernhill/atlas."
    assert pair(text) == (("fernhill/atlas-next",), ("fernhill/atlas",))


def test_kind_nouns_before_a_value_are_skipped() -> None:
    """``the Slack channel #x`` reads ``#x``, not Slack."""
    assert old_values("We renamed the Slack channel #team-x; it is #x now.") == ("#team-x",)


def test_incidental_strings_are_not_values() -> None:
    """Dates, names and tickets mentioned in passing are not read."""
    text = "Per Ana Lima's note of 2024-03-12 (OPS-7), the host moved from a.zed.io to b.zed.io."
    assert pair(text) == (("a.zed.io",), ("b.zed.io",))


def test_a_calendar_date_is_no_value() -> None:
    """'from 1 July' says when a change starts: neither '1' nor 'July' is a value of it.

    Before, the price change below read '1' as an old value (and 'July' as the new one of
    'July, up from CHF 15'), and preview proposed '1'.
    """
    text = "Price change on the Starter tier: CHF 19 per month from 1 July, up from CHF 15."
    assert old_values(text) == ("CHF 15",) and "July" not in new_values(text)
    assert old_values("From March 3rd, 2026 the limit is 900, was 600.") == ("600",)
    assert pair("Node 18 is gone; use Node 20 from June 1.") == (("Node 18",), ("Node 20",))
    # a date the caller names is a value
    assert old_values("The launch moved from 1 May to 3 May.", ["1 May"]) == ("1 May",)


def test_taken_them_over_reads_both_people() -> None:
    """'Y has taken them over from X' reads as 'Y has taken over from X' (second blind set)."""
    text = "Saoirse Gallagher has taken them over from Casimir Volkonsky."
    assert pair(text) == (("Casimir Volkonsky",), ("Saoirse Gallagher",))
    assert pair("Nadia took it over from Tom Berg.") == (("Tom Berg",), ("Nadia",))


def test_a_request_to_stop_using_a_value_reads_it_old() -> None:
    """'please don't post in X' and 'don't use X anymore': X is old; 'Y from now on': Y new.

    The second blind set's act messages said "Growth chat lives in #team-growth from now on;
    please don't post in #growth-updates." and nothing was read, so a model that recalled
    with it got no line naming the string to deprecate (3 of 30 act cases).
    """
    text = "Growth chat lives in #team-growth from now on; please don't post in #growth-updates."
    assert pair(text) == (("#growth-updates",), ("#team-growth",))
    assert old_values("Don't use #old-chan anymore, we moved.") == ("#old-chan",)
    stop = "Please stop emailing billing@old.example, write to billing@new.example."
    assert pair(stop) == (("billing@old.example",), ("billing@new.example",))
    # a standing rule, or a plain negation, is no change
    assert pair("Please don't post secrets in #general.") == ((), ())
    assert pair("We don't post in #random.") == ((), ())


def test_goes_back_to_reads_a_change_back_not_history() -> None:
    """'... goes back to #x' reads #x new; 'it goes back to 2019' and plans read nothing."""
    text = "gtm-sync is retired, launch coordination goes back to #launch-room"
    assert new_values(text) == ("#launch-room",)
    for plain in (
        "It goes back to 2019.",
        "We want to go back to #old.",
        "If it goes back to #qa, say so.",
    ):
        assert new_values(plain) == ()


def test_every_value_is_its_span() -> None:
    """Every value is the text at its span."""
    text = "zed/b (formerly zed/a) and #x → #y; Kim took over from Lee."
    for c in read_changes(text):
        for value, span in ((c.old, c.old_span), (c.new, c.new_span)):
            assert (value is None) == (span is None)
            if value is not None and span is not None:
                assert text[span[0] : span[1]] == value


# ------------------------------------------------------------------ negatives
NEGATIVES = [
    "Should we move off zed/a to zed/b?",
    "Is Kofi the new head of sales?",
    "We left zed/a as it was.",
    "Should we move from zed/a to zed/b?",
    "If the repo moves to zed/b, update CI.",
    "We did not migrate from MySQL to Postgres.",
    "Don't move zed/a to zed/b yet.",
    "We discussed moving from AWS to GCP.",
    "The repo is still zed/a.",
    "zed/a → zed/b is wrong; it stays zed/a.",
    "The office is open from 9:00 to 17:00.",
    "Flights from Berlin to Lisbon take three hours.",
    "Prices range from $10 to $50.",
    "It changed from time to time.",
    "We went from zero to hero.",
    "Maria Garcia wrote the guide in 2021.",
    "The repo is read-only now.",
    "Security is now the top priority.",
    "Tom is now on vacation.",
    "Copy the file from a/b.yaml to c/d.yaml.",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_negative_reads_no_new_value(text: str) -> None:
    """Questions, conditions, negations, ranges and idioms name no new value."""
    assert new_values(text) == ()


# texts that state no change (the change line's negative arm, bench/_nochange*.py): nothing is
# read from them, neither old nor new
SAYS_NO_CHANGE = [
    # a question without its mark, or opening with "any chance"
    "was #deploys renamed to #deploys-prod",
    "has oncall@acme.io been replaced by sre@acme.io",
    "when was staging.acme.io decommissioned and staging2.acme.io set up",
    "any chance security@zed.dev was replaced by psirt@zed.dev",
    # a log line: its time stamp or level
    "2024-05-01 12:00:03 INFO deploy acme/web -> acme/web-canary done",
    "WARN oncall@acme.io mailbox closed; bounce from mailer-daemon@acme.io",
    # a flow, not a change: an arrow after a verb of flow
    "smtp: relay security@zed.dev => psirt-archive@zed.dev (bcc rule 7)",
    "slack-bot: forwarded 3 messages #pages → #pages-archive",
    # a condition, a plan, a draft, a doubt, a denial or a rumour
    "Once a PR in acme/web is closed, its preview at pr-123.preview.acme.io is gone.",
    "Next quarter we will migrate zed/api to zed-platform/api.",
    "Draft RFC: move the docs from https://zed.dev/h to https://zed.dev/docs. Feedback welcome.",
    "acme/web archived or moved to acme-inc/web",
    "It's false that acme/web moved to acme-inc/web.",
    "There's a rumour that zed/app moved to zed-inc/app.",
    # what was superseded is the pull request, not the repository it is on
    "Closed PR 311 on acme/web, superseded by PR 12 on acme/web-next.",
    # "gone down|up|live": a number that moved, a site that started; no end of a value
    "Lots has gone down since we last caught up.",
    "The Pro plan has gone up, it's pricier than $30 now I think?",
    "status.acme.io has gone live.",
    "The alarm on db-2 has gone off twice.",
    "The queue has gone from 10 to 14 jobs.",
    # a change for one day or one time, and a thought of a change
    "We moved standup from room 4 to room 6 just for today.",
    "Standup moved from room 4 to room 6 for tonight only.",
    "Just this once, we switched the alerts from #ops to #ops-2.",
    "We're thinking about moving from Slack to Teams.",
    "How about switching from Jira to Linear",
    "Dan is toying with the idea of migrating from acme/mono to acme/services.",
    "For the weekend, on-call moved from #oncall to #oncall-weekend.",
    "Just for the weekend, the demo moved from demo.acme.io to demo2.acme.io.",
    "The build moved from ci-1.acme.io to ci-2.acme.io for this week only.",
]


@pytest.mark.parametrize(
    ("text", "old"),
    [
        ("Standup notes for today: acme/web was renamed to acme/webapp.", "acme/web"),
        ("That's it for tonight: DNS moved from Route53 to Cloudflare.", "Route53"),
        ("Talking about logging, we moved from Papertrail to Datadog last week.", "Papertrail"),
        ("After thinking about switching for months, we moved from Jira to Linear.", "Jira"),
        ("We just today moved the wiki from Confluence to Notion.", "Confluence"),
        ("Only the demo environment moved from demo.acme.io to try.acme.io.", "demo.acme.io"),
        ("Moved for good, not just for today: standup moved from room 4 to room 6.", "room 4"),
        (
            "Repeating this once more for visibility: support moved from support@acme.io to "
            "help@acme.io.",
            "support@acme.io",
        ),
        (
            "The link for the weekend only rota moved from wiki.acme.io to docs.acme.io.",
            "wiki.acme.io",
        ),
        # the words negate only their own part of the clause, as a plain negation does
        (
            "I'm out just for today, but the docs moved from docs.acme.io to acme.dev for good.",
            "docs.acme.io",
        ),
        (
            "We were talking about moving offices, but the repo moved from acme/web to acme/site.",
            "acme/web",
        ),
        # a time of one day that opens the clause spans nothing where the change lasts
        (
            "Just for today I'm still on floor 3, and our room moved from room 1 to room 2 "
            "for good.",
            "room 1",
        ),
    ],
)
def test_one_off_and_thought_words_elsewhere_do_not_stop_a_change(text: str, old: str) -> None:
    """A label "for today", a noun in -ing, a thought that ended: the change is read."""
    assert old in old_values(text)


@pytest.mark.parametrize(
    ("text", "old"),
    [
        ("build-3 has gone down for good; use build-7.", "build-3"),
        ("mx1.acme.io has gone down permanently.", "mx1.acme.io"),
        ("#team-old has gone quiet for good.", "#team-old"),
        ("Jira has gone by the wayside; we track work in Linear now.", "Jira"),
    ],
)
def test_gone_for_good_is_an_end(text: str, old: str) -> None:
    """A value "gone down for good" or "gone by the wayside" ended; "gone down" alone did not."""
    assert old in old_values(text)


@pytest.mark.parametrize("text", SAYS_NO_CHANGE)
def test_a_text_that_states_no_change_reads_nothing(text: str) -> None:
    """Questions without their mark, logs, flows, conditions, plans and denials read nothing."""
    assert read_changes(text) == []


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("Was #deploys, now #deploys-prod.", ["#deploys"], ["#deploys-prod"]),
        ("Has moved to zed/b; zed/a is archived.", ["zed/a"], ["zed/b"]),
        (
            "Deploys will bounce off zed.example: zed.example will be shut down.",
            ["zed.example"],
            [],
        ),
        ("Alerts now go to #ops-alerts -> #ops-pager from today.", ["#ops-alerts"], ["#ops-pager"]),
        (
            "The docs at docs.zed.io were replaced by docs.zed.dev.",
            ["docs.zed.io"],
            ["docs.zed.dev"],
        ),
        ("Jenkins moved to GitHub Actions.", ["Jenkins"], ["GitHub Actions"]),
        # a product's name opening the sentence is the old value (the review of f6baf4b)
        ("Confluence → notion.so/acme", ["Confluence"], ["notion.so/acme"]),
        # the review's statements that the no-change rules had silenced (f6baf4b)
        (
            "The billing owner changed from Will Thompson to Dana Wu.",
            ["Will Thompson"],
            ["Dana Wu"],
        ),
        (
            "From Monday we will deploy to acme/core instead of acme/app.",
            ["acme/app"],
            ["acme/core"],
        ),
        ("Can confirm: the repo moved from acme/app to acme/core.", ["acme/app"], ["acme/core"]),
        ("Had to move the backups from s3://a-b to s3://a-b-eu.", ["s3://a-b"], ["s3://a-b-eu"]),
        (
            "Do send support mail to support@acme.io, not help@acme.io.",
            ["help@acme.io"],
            ["support@acme.io"],
        ),
        (
            "Once the cutover finished, we switched from db-1.acme.io to db-2.acme.io.",
            ["db-1.acme.io"],
            ["db-2.acme.io"],
        ),
        (
            "NOTICE: the support address changed from help@acme.io to support@acme.io.",
            ["help@acme.io"],
            ["support@acme.io"],
        ),
        ("Deploy target changed acme/app -> acme/core", ["acme/app"], ["acme/core"]),
        (
            "Uploads that failed or stalled now go to s3://r2 instead of s3://r1.",
            ["s3://r1"],
            ["s3://r2"],
        ),
        ("Draft PRs now deploy to acme/core instead of acme/app.", ["acme/app"], ["acme/core"]),
        # an instruction's time is no condition ("when you" read nothing at 4cfdc05: blind6 p05)
        (
            "When you next touch pip.conf, swap https://a.example/s out for https://b.example/s.",
            ["https://a.example/s"],
            [],
        ),
    ],
)
def test_terse_statements_still_read(text: str, old: list[str], new: list[str]) -> None:
    """What the no-change rules must leave alone.

    A terse statement that says "now" or opens with a verb, an end said in the future tense,
    an arrow after no verb of flow, a value after a preposition where a new value is read, and
    a product's name before another name.
    """
    assert pair(text) == (tuple(old), tuple(new))


def test_plain_words_need_deprecates() -> None:
    """Plain words are values only where the caller names one of them."""
    text = "Default branch changed from master to main."
    assert pair(text) == ((), ())
    assert pair(text, ("master",)) == (("master",), ("main",))
    assert pair("The team moved from building 4 to building 7.") == (
        ("building 4",),
        ("building 7",),
    )


@pytest.mark.parametrize(
    "text",
    [
        "No, not really. Just keep the plants out of the sun.",
        "I've known them for years, since I moved from my home town.",
        "Nope, not a new game, the one we always play.",
        "But instead of giving up, I kept going.",
        "we moved away from jenkins.",
    ],
)
def test_a_common_word_alone_is_no_value(text: str) -> None:
    """A common lower-case word with no value opposite is talk ("not really"), no old value."""
    assert read_changes(text) == []
    assert old_values(text) == ()


def test_a_rare_word_alone_is_a_value() -> None:
    """A tool's name written lower-case is no common word: it is read alone."""
    assert old_values("We moved away from heroku last month.") == ("heroku",)


def test_a_plain_word_the_caller_names_is_read_alone() -> None:
    """The caller's own string is a value wherever it stands ("moved away from jenkins")."""
    assert old_values("we moved away from jenkins.", ("jenkins",)) == ("jenkins",)


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("Backups switched to gs://acme-backups last week.", [], ["gs://acme-backups"]),
        ("Cinder was transferred to cinder-project/cinder.", [], ["cinder-project/cinder"]),
        ("Grafana moved to grafana.acme.io.", [], ["grafana.acme.io"]),
        # an identifier, a rename and two names still read the old value
        ("acme/app moved to acme-inc/app.", ["acme/app"], ["acme-inc/app"]),
        ("Billing was renamed to billing-v2.", ["Billing"], ["billing-v2"]),
        ("Ingrid Solberg moved to the data team.", ["Ingrid Solberg"], []),
    ],
)
def test_a_capitalised_subject_moved_to_a_thing_is_what_moved(
    text: str, old: list[str], new: list[str]
) -> None:
    """In "Backups switched to gs://b" backups are what moved, not an old value."""
    assert (list(old_values(text)), list(new_values(text))) == (old, new)


def test_replaced_with_does_not_read_the_subject() -> None:
    """In "the PR from Tom replaced X with Y" Tom is not a new value."""
    assert new_values("The PR from Tom replaced zed/a with zed/b.") == ("zed/b",)


# ------------------------------------------------------------------ chains and the guards
def test_chain_step_presents_the_old_new_value_as_old() -> None:
    """A chain step reads the earlier new value as old, and says so."""
    text = "UFO moved again: from ufo-ai/ufo to ufo-org/ufo."
    assert says_old(text, "ufo-ai/ufo")
    assert says_new(text, "ufo-ai/ufo") is None
    assert says_new(text, "ufo-org/ufo") == "to ufo-org/ufo"


def test_arrow_chain_only_the_last_is_new() -> None:
    """In ``A → B → C`` only C is new; A and B are old."""
    assert pair("zed/a → zed/b → zed/c") == (("zed/a", "zed/b"), ("zed/c",))


def test_value_both_new_and_old_is_old() -> None:
    """A value the text also presents as old is never read as new."""
    text = "The SDK went from x/sdk to y/sdk (it had moved to x/sdk in March)."
    assert pair(text) == (("x/sdk",), ("y/sdk",))


def test_says_new_quotes_the_words() -> None:
    """says_new returns the words that present the value as new."""
    text = "Heads up: UFO core moved from metalcraftai/ufo to ufo-ai/ufo."
    assert says_new(text, "ufo-ai/ufo") == "to ufo-ai/ufo"
    assert says_new(text, "metalcraftai/ufo") is None
    assert says_new("Use zed/b instead of zed/a.", "zed/b") == "zed/b instead of zed/a"
    assert says_new("It is #infra now.", "#infra") == "is #infra now"


def test_says_uses_the_matching_rules() -> None:
    """A value counts where it occurs token-bounded in a value read, case-insensitively."""
    text = "Moved from https://github.com/acme/app.git to https://github.com/acme/app2.git."
    assert says_old(text, "ACME/APP")
    assert not says_old(text, "acme/ap")
    assert says_new(text, "acme/app2") is not None
    assert not says_old(text, "")


def test_wording_wins_over_a_confused_deprecates() -> None:
    """Where the writer deprecates the new value, the wording still reads it as new."""
    text = "The repo moved from zed/a to zed/b."
    assert new_values(text, ("zed/b",)) == ("zed/b",)
    assert says_new(text, "zed/b", ("zed/b",)) == "to zed/b"


def test_deprecates_delimit_values() -> None:
    """A deprecated string delimits a value the lexer would split."""
    text = "The Orion team was renamed to Atlas."
    assert old_values(text, ("Orion team",)) == ("Orion team",)


def test_rejects_non_text() -> None:
    """A text that is not a str is a TypeError."""
    with pytest.raises(TypeError):
        read_changes(b"from a/b to c/d")  # type: ignore[arg-type]


def test_is_deterministic_and_frozen() -> None:
    """The same text reads the same changes, and a Change is immutable."""
    text = "zed/b (formerly zed/a); Kim took over from Lee."
    first = read_changes(text)
    assert first == read_changes(text)
    with pytest.raises(AttributeError):
        first[0].new = "x"  # type: ignore[misc]
    assert isinstance(first[0], Change)


# ------------------------------------------------------------------ properties
SLUG = st.from_regex(r"[a-z][a-z0-9]{0,8}(?:-[a-z0-9]{1,5})?/[a-z][a-z0-9]{0,8}", fullmatch=True)
TEMPLATES = [
    "The repo {v} from {x} to {y}.",
    "Heads up: we {v} the project from {x} to {y}; use {y} from now on.",
    "{x} → {y}",
    "{x} was renamed to {y}.",
    "Use {y} instead of {x}.",
    "{y} (formerly {x}) is where work happens.",
    "{x} is deprecated, use {y}.",
]


@given(
    x=SLUG,
    y=SLUG,
    template=st.sampled_from(TEMPLATES),
    verb=st.sampled_from(["moved", "migrated", "switched", "changed", "transferred"]),
)
def test_generated_changes_read_y_new_and_never_x(x: str, y: str, template: str, verb: str) -> None:
    """For generated changes, Y is the one new value, X the one old value."""
    assume(x.lower() != y.lower())
    text = template.format(x=x, y=y, v=verb)
    assert new_values(text) == (y,)
    assert old_values(text) == (x,)
    assert x not in new_values(text, (x,))


@given(st.text(alphabet=st.sampled_from(list("ab/.-@#:$€ 1→to from,;()'\"`Xnowis")), max_size=60))
@example("' 1'→")  # a quoted value read with the space inside its quotes (found by this test)
def test_values_are_substrings_at_their_spans(text: str) -> None:
    """On any text, every value read is the text at its span and no value is old and new."""
    changes = read_changes(text)
    for c in changes:
        for value, span in ((c.old, c.old_span), (c.new, c.new_span)):
            if value is not None and span is not None:
                assert text[span[0] : span[1]] == value
                assert value.strip() == value and value
    assert not set(new_values(text)) & set(old_values(text))


@pytest.mark.parametrize(
    ("text", "new"),
    [
        ("The repo moved from a/a to if/a.", ("if/a",)),
        ("The repo moved from a/a to if-x/a.", ("if-x/a",)),
        ("The repo moved from ab-if/c to x/y.", ("x/y",)),
        ("The repo moved from acme/app to acme/never-x.", ("acme/never-x",)),
        ("If the repo moved from a/a to b/b, use it.", ()),
        ("We never moved from a/a to b/b.", ()),
    ],
)
def test_a_cue_word_inside_an_identifier_is_no_cue(text: str, new: tuple[str, ...]) -> None:
    """A cue word ("if", "never") inside a repository's name makes no change hypothetical."""
    assert new_values(text) == new


@pytest.mark.parametrize(
    ("text", "deprecates"),
    [
        (
            'Update on "who came 1st 2nd 3rd? — Tiger Roll, Pleasant Company, Bless the Wings": '
            "the answer is now Tiger Roll, Magic of Light, Rathvinden (as of 2019).",
            ["Tiger Roll, Pleasant Company, Bless the Wings"],
        ),
        (
            "The final is no longer Clemson Tigers vs Alabama Crimson Tide; "
            "it is now Clemson Tigers vs Georgia Bulldogs.",
            ["Clemson Tigers vs Alabama Crimson Tide"],
        ),
    ],
)
def test_the_first_item_of_a_list_is_not_read_as_the_new_value(
    text: str, deprecates: list[str]
) -> None:
    """Where the old value is a list that begins with the same item, the new one's end is unsure.

    SituatedQA's list answers: reading ``Tiger Roll`` as new made the old list hold the new
    value, and the correction was refused. Where unsure, the reader reads nothing.
    """
    assert new_values(text, deprecates) == ()
    # without that old list, the reader is not unsure: it reads the item as before
    assert new_values(text) != () or "no longer" in text
    # and a list that goes on after a value unlike the old one's head is still read
    assert new_values("Changed from #a to #b and #c.", ["#a"]) == ("#b",)


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("acme/app2 is called acme/app again, we undid the rename.", ["acme/app2"], ["acme/app"]),
        ("The API is served from api.example.io again.", [], ["api.example.io"]),
        (
            "We went back to #triage for bugs, #bugs-in didn't work out.",
            ["#bugs-in"],
            ["#triage"],
        ),
        (
            "Claims: back to claims@example.com. The other address was dropped.",
            [],
            ["claims@example.com"],
        ),
        ("The limit is back to 100.", [], ["100"]),
        (
            "It is served from a.example.io again; we reverted the move to b.example.io.",
            ["b.example.io"],
            ["a.example.io"],
        ),
        (
            "The mirror is m1.example.cz again; the switch to m2.example.cz was rolled back.",
            ["m2.example.cz"],
            ["m1.example.cz"],
        ),
        (
            "Mail to pay@example.com now bounces; the team reads team@example.com instead.",
            ["pay@example.com"],
            ["team@example.com"],
        ),
    ],
)
def test_changes_back_and_undone_moves(text: str, old: list[str], new: list[str]) -> None:
    """A change back names its value as new, and the undone move's target as old.

    The blind writer cases' gold calls found these phrasings (a change back was refused: the
    reader read no new value, so the old name stayed "current" by the earlier correction).
    """
    assert list(new_values(text)) == new
    assert list(old_values(text)) == old


@pytest.mark.parametrize(
    "text",
    [
        "Mail to pay@example.com now bounces.",
        "Calls to api.example.io now fail; nobody told us where it went.",
        "We moved to #x, it didn't work out.",
        "He came back to #infra to ask about it.",
        "Things are back to normal.",
    ],
)
def test_no_new_value_where_the_text_says_none(text: str) -> None:
    """A "now" before a verb, a failed move and a plain "back to" read nothing new."""
    assert new_values(text) == ()


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("Cleanup: #newbie-q was merged into #player-support.", ["#newbie-q"], ["#player-support"]),
        ("We merged #a-team into #b-team today.", ["#a-team"], ["#b-team"]),
        ("Back to #qa-triage for triage, #bugs-in didn't work out.", ["#bugs-in"], ["#qa-triage"]),
    ],
)
def test_merges_and_what_did_not_work_out(text: str, old: list[str], new: list[str]) -> None:
    """A merge of things reads old and new; "X didn't work out" is X's end, no negation."""
    assert list(new_values(text)) == new
    assert list(old_values(text)) == old


@pytest.mark.parametrize(
    "text",
    ["The PR was merged into main.", "We merged the fix into main.", "The plan did not work out."],
)
def test_a_merge_of_plain_words_reads_nothing(text: str) -> None:
    """A merge reads values only where both are things: a PR merged into main is no change."""
    assert read_changes(text) == []


# What the recall and remember tools' change line missed on the writer and act cases (the user's
# own words, which a model that recalls instead of correcting sends): a value's end said
# without a change verb, a handover, and a kind noun between the value and its verb.
@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("We archived #data-chat; use #data for data posts.", ["#data-chat"], ["#data"]),
        ("Send it to a.desk@x.io from now on; a@x.io goes nowhere.", ["a@x.io"], ["a.desk@x.io"]),
        ("Exports go to gs://fx-v2 from now on; gs://fx is frozen.", ["gs://fx"], ["gs://fx-v2"]),
        ("Write to sec@h.com; psirt@h.com no longer exists.", ["psirt@h.com"], ["sec@h.com"]),
        (
            "https://f.io/B is the new form; https://f.io/A stopped accepting answers.",
            ["https://f.io/A"],
            ["https://f.io/B"],
        ),
        ("acme/app won't get new releases, use acme/app2.", ["acme/app"], ["acme/app2"]),
        (
            "Please stop using lumen/old-sdk; use lumen/sdk instead.",
            ["lumen/old-sdk"],
            ["lumen/sdk"],
        ),
        ("The lumen/tools repository has been archived.", ["lumen/tools"], []),
        ("The plan now costs $49 a month; it used to be $39.", ["$39"], ["$49"]),
        ("We folded #fe-help into #webdev.", ["#fe-help"], ["#webdev"]),
        ("The transfer of Marram to kc/marram was reverted.", ["kc/marram"], []),
        (
            "So gitlab.com/q/mods is gitlab.com/q/platform/mods now.",
            ["gitlab.com/q/mods"],
            ["gitlab.com/q/platform/mods"],
        ),
        (
            "In Teams, the Thornbury Dispatch channel was renamed to Thornbury Logistics.",
            ["Thornbury Dispatch"],
            ["Thornbury Logistics"],
        ),
        (
            "Keiko Tanaka handed the Zephyr vendor contract over to Rafael Souza.",
            ["Keiko Tanaka"],
            ["Rafael Souza"],
        ),
        (
            "Dmitri Valcourt handed the DPO role to Annika Solberg.",
            ["Dmitri Valcourt"],
            ["Annika Solberg"],
        ),
        (
            "Wen Li took over as CTO from Oskar Berg, who stays on as an adviser.",
            ["Oskar Berg"],
            ["Wen Li"],
        ),
        ("We've retired legal@b.com. Reach legal at legal-team@b.com.", ["legal@b.com"], []),
        ("Mail team@k.dev; nobody checks billing@k.dev anymore.", ["billing@k.dev"], []),
        ("Cinder lives at cl/cinder now. Please forget qw/cinder.", ["qw/cinder"], ["cl/cinder"]),
        ("We left tp/juniper behind last week.", ["tp/juniper"], []),
        ("mx2.c.net was unplugged on Friday.", ["mx2.c.net"], []),
        (
            "CI is on r.q.dev again, and arm.q.dev has been taken out of the pool.",
            ["arm.q.dev"],
            [],
        ),
        ("Rollback: we're back on python:3.12-slim.", [], ["python:3.12-slim"]),
        ("The claims@h.com address has been dropped.", ["claims@h.com"], []),
        ("The old room #kd:matrix.org is tombstoned.", ["#kd:matrix.org"], []),
        ("orders@k.com was a shared inbox and it's being closed.", [], []),
        ("orders@k.com is being closed.", ["orders@k.com"], []),
        ("docker.io/t/web stopped getting tags.", ["docker.io/t/web"], []),
        ("ok so #design-crit isn't a thing anymore", ["#design-crit"], []),
        ("We've moved the build cache off of cache1.w.net.", ["cache1.w.net"], []),
        (
            "Link changed:\n- old: https://m.io/a\n- new: https://m.io/b",
            ["https://m.io/a"],
            ["https://m.io/b"],
        ),
        (
            "fyi a/vireo-server is just a/vireo now, they dropped the suffix",
            ["a/vireo-server"],
            ["a/vireo"],
        ),
        (
            "The image moved to e.dev/p/s; nothing is pushed to gcr.io/p/s any more.",
            ["gcr.io/p/s"],
            ["e.dev/p/s"],
        ),
        (
            "no more #sre-pages, use #sre-incidents for paging chatter",
            ["#sre-pages"],
            ["#sre-incidents"],
        ),
        ("The old invite link t.me/ob was revoked.", ["t.me/ob"], []),
        (
            "Kaveh is taking over the interns from Ilse; she keeps the apprentices.",
            ["Ilse"],
            ["Kaveh"],
        ),
        (
            "The transfer of l/payouts to f/payouts has been reverted, so the repo is l/payouts "
            "again.",
            ["f/payouts"],
            ["l/payouts"],
        ),
        ("support escalations are back in #cs, #t2 is being archived", ["#t2"], []),
        ("v@o.com is in use once more, and s@o.com is being shut down.", ["s@o.com"], []),
        ("For payroll, ask Wanjiru from now on, Benedek no longer handles it.", ["Benedek"], []),
        ("Onyx repo update: g-oss/onyx. Nobody pushes to g/onyx any more.", ["g/onyx"], []),
        ("Mail goes to b.desk@n.io; b@n.io will bounce from now on.", ["b@n.io"], ["b.desk@n.io"]),
        # what still reads nothing: a plan, a negation, a word before its noun, a place
        ("Nobody pushes to acme/app.", [], []),
        ("Mail to x@y.com will bounce until Monday.", [], []),
        ("No more than 5 jobs run at once.", [], []),
        ("There are no more #ops posts.", [], []),
        ("Once acme/app is being archived, tell me.", [], []),
        ("Prices dropped to $5.", [], []),
        ("Is acme/app being closed?", [], []),
        ("If acme/app isn't supported anymore, use acme/app2.", [], []),
        ("The old: new ratio is 3.", [], []),
        ("Don't forget acme/app when you tag.", [], []),
        ("We left a comment on acme/app.", [], []),
        ("Nobody checks acme/app.", [], []),
        ("We will archive #ops next week.", [], []),
        ("We did not archive acme/app.", [], []),
        ("Nobody archived #ops, it is still in use.", [], []),
        ("Redis port changed to 6380.", [], ["6380"]),
        ("Merging #ops into #infra is on hold.", [], []),
        ("It used to be that deploys were slow.", [], []),
        ("x/y on Docker Hub won't get any new tags.", [], []),
    ],
)
def test_ends_handovers_and_kind_nouns(text: str, old: list[str], new: list[str]) -> None:
    """A value's end, a handover and "the X channel was renamed" read X old (and Y new)."""
    assert list(old_values(text)) == old
    assert list(new_values(text)) == new


# An adversarial review of the change-back, revert, merge and "didn't work" patterns: texts
# where a first version read an old value as new or a current value as old.
REVIEWED = [
    ("The default is v2 now. To switch back to v1, pass --legacy.", [], ["v2"]),
    ("We are on v2 now. Users may switch back to v1 until May.", [], ["v2"]),
    ("Moved to pg16. Rollback plan: back to pg14.", [], ["pg16"]),
    ("We moved to #infra, we're not going back to #ops.", [], ["#infra"]),
    ("The repo moved to acme/next. We can't go back to acme/legacy.", [], ["acme/next"]),
    ("Instead of going back to v1, we patched v2.", [], []),
    ("We moved to #infra; going back to #ops won't work.", [], ["#infra"]),
    ("Switched back to v1.2, v1.3 didn't work, but that is wrong: v1.3 is current.", [], []),
    ("It was back to v1 for a week before we moved to v2.", [], ["v2"]),
    ("#ops was merged with #infra into #platform.", [], []),
    ("Port is 9090 now. It goes back to 8080 when PORT is unset.", [], ["9090"]),
    ("The CPU is running at 100% again.", [], []),
    ("Mail to ops@acme.io now for archive only; use infra@acme.io.", [], []),
    ("The repo is acme/next now; acme/next doesn't work with the old token.", [], ["acme/next"]),
    ("We moved to pg16. pg16 didn't work with the old driver.", [], ["pg16"]),
    ("infra@acme.io bounced yesterday; mail goes to infra@acme.io now.", [], ["infra@acme.io"]),
    ("We rolled back the move to pg16 on Monday; the database is pg16 again.", [], ["pg16"]),
    ("Switched to v2 in May. The switch to v2 was rolled back in staging only.", [], ["v2"]),
    ("This PR reverts the switch to v2; do not merge.", [], []),
    ("Rolled back the database migration to 0042.", [], []),
    ("Merging #ops into #infra is on hold.", [], []),
    ("#ops was merged into #infra by mistake and has been restored.", [], []),
    ("Reverted the change to config.yaml.", [], []),
    ("Merged #123 into release/2.3.", [], []),
    ("Merged config.yaml with config.local.yaml.", [], []),
]


@pytest.mark.parametrize(("text", "old", "new"), REVIEWED)
def test_reviewed_texts_read_no_old_value_as_new(text: str, old: list[str], new: list[str]) -> None:
    """Plans, negations, histories, regressions and git merges read as they should."""
    assert list(new_values(text)) == new
    assert list(old_values(text)) == old


def test_a_text_with_one_huge_token_is_read_in_one_pass() -> None:
    """A correction text of one 400,000-character token still reads as it should.

    The first version of the "X didn't work out" clause rule backtracked into every token
    (about 9 s for a 32,000-character one, growing with its square: this text would take
    hours, so a regression shows as a run that never ends); it reads it whole now.
    """
    token = "1" * 400_000
    assert new_values(f"Moved from #a to #b; ref {token} here.") == ("#b",)
    repo = f"acme/{'x' * 400_000}"
    assert old_values(f"{repo} didn't work out, back to #c.") == (repo,)


def test_a_text_of_many_dates_is_read_in_one_pass() -> None:
    """50,000 dates in one correction text still read as they should: none is a value.

    The first version of the date rule tested every date for every candidate value, so a
    hostile text of many dates was quadratic (20,000 took 34 s; this one would take over
    three minutes where it now takes seconds).
    """
    dates = "from 1 July " * 50_000
    assert old_values(dates + "the price went up from CHF 15.") == ("CHF 15",)
    assert new_values(dates) == ()


def test_a_text_of_many_ends_is_read_in_one_pass() -> None:
    """13,000 "we archived" in one clause read in one pass: each is a value's end.

    The first version of the passing-state test searched the whole clause again at every
    cue, so such a text was quadratic (200 kB took four minutes; now about a second); so
    did a subject pattern of hyphenated words ("a-" repeated, 200 kB: over four minutes).
    """
    ends = "we archived a/b " * 13_000 + "we archived c/d."
    assert old_values(ends) == ("c/d",)
    assert old_values("a-" * 100_000 + " we archived e/f.") == ("e/f",)


# A second adversarial review, of the ends, handovers and kind nouns above: plans, passing
# states, accidents, histories and attributes, where a first version read a value wrong. Each
# reads as it did before those patterns (and "Someone" is no value).
REVIEWED_ENDS = [
    (
        "Keiko Tanaka handed Zephyr to Rafael Souza in 2019, and Maria Lopez owns it now.",
        [],
        ["Maria Lopez"],
    ),
    ("Keiko handed the pager to Rafael Souza for the weekend, she is back on call Monday.", [], []),
    ("Alerts get handed to #oncall-secondary after 10 minutes.", [], []),
    ("Support handed the ticket to Tier 2 this morning.", [], []),
    ("We handed the draft to Legal for review.", [], []),
    ("The fix was handed to the-platform-team@acme.io for review.", [], []),
    ("Keiko Tanaka handed the keys to Bob Lee for the weekend.", [], []),
    ("We're folding #frontend into #web next sprint.", [], []),
    ("We are folding acme/ui into acme/web in Q3.", [], []),
    ("We won't see new releases of acme/app until it has moved to acme/app2.", [], []),
    ("Customers on v2.9 won't get new updates until they're upgraded to v3.0.", [], []),
    ("acme/app won't get new releases until it is moved to acme/app2 next quarter.", [], []),
    ("Anyone who stays on acme/app is moved to acme/app2 automatically in June.", [], []),
    (
        "We moved everything to gitlab.acme.io except acme/legacy, which remains on "
        "github.com/acme/legacy now.",
        [],
        [],
    ),
    ("api.acme.io stopped responding, use api-backup.acme.io until it's fixed.", [], []),
    ("db-primary.internal stopped accepting writes; use db-replica.internal for now.", [], []),
    ("When acme/app is frozen next week, use acme/app2.", [], []),
    (
        "In 2022 acme/app was frozen and we moved to acme/app2; last month we moved back to "
        "acme/app.",
        [],
        ["acme/app2", "acme/app"],
    ),
    (
        "acme/app stopped working in 2022 so we moved to acme/app2; now we're back on acme/app.",
        [],
        ["acme/app2"],
    ),
    ("Prices used to be $59, then $69, and now it is $59 again.", [], ["$59"]),
    ("The support channel used to be #help, then #support, and now it's #help again.", [], []),
    ("It used to be #help, we moved to #support, and now we're back to #help.", [], ["#support"]),
    ("The on-call channel for api.acme.io is #oncall-api now.", [], ["#oncall-api"]),
    ("The deploy target for acme/app is k8s-prod now.", [], ["k8s-prod"]),
    ("Disk usage on db1.internal is 93% now.", [], ["93%"]),
    ("staging.acme.io is v2.4 now.", [], ["v2.4"]),
    ("The price for acme-pro is $59 now.", [], ["$59"]),
    ("The api.acme.io server port changed to 8443.", [], ["8443"]),
    ("The #ops channel topic was changed to 'deploy freeze'.", [], ["deploy freeze"]),
    ("Maria Garcia email changed to mgarcia@acme.io.", [], ["mgarcia@acme.io"]),
    ("The Northwind Traders domain moved to northwind.io.", [], ["northwind.io"]),
    ("The acme-cli version changed to 3.2.0.", [], ["3.2.0"]),
    ("The billing-svc database was migrated to pg16.internal.", [], ["pg16.internal"]),
    ("The acme/app release branch was deleted.", [], []),
    ("The Maria Garcia email no longer works.", [], []),
    ("The Zephyr Dispatch channel stopped receiving alerts after the outage.", [], []),
    ("api.acme.io stopped responding at 14:02, we restarted it.", [], []),
    ("acme/app no longer accepts PRs from forks.", [], []),
    ("acme-cli no longer works with Python 3.8.", [], []),
    ("Maria Garcia no longer works on Fridays.", [], []),
    ("acme/app is frozen until v2.0 ships.", [], []),
    ("acme/app was frozen during the audit; it's unfrozen now.", [], []),
    ("acme/app won't get new tags until we fix CI.", [], []),
    ("I think acme/app won't get new tags.", [], []),
    ("Until ci.acme.io no longer responds, keep using it.", [], []),
    ("acme/app goes nowhere near prod.", [], []),
    ("The discussion in #arch goes nowhere.", [], []),
    ("We deleted acme/app by accident and restored it from backup.", [], []),
    ("Someone removed api.acme.io from the DNS zone and we re-added it.", [], []),
    ("You disabled ci.acme.io by accident; please re-enable it.", [], []),
    ("We removed maria@acme.io from the billing alias; she's on the team.", [], []),
    ("Check that you removed db1.internal from the load balancer.", [], []),
    ("Make sure you archived acme/app-old before Friday.", [], []),
    ("We turned off db1.internal for maintenance, it comes back at 6pm.", [], []),
    ("We just shut down staging-2.acme.io for the weekend.", [], []),
    ("We froze acme/app for the 2.0 release.", [], []),
    ("We stopped using acme/app for a week while CI was broken.", [], []),
    ("Someone closed #1234 by accident.", [], []),
    ("We removed 40% of the stale branches.", [], []),
    ("Prices used to be $10 higher.", [], []),
    ("Please stop using @maria for infra questions, she's on leave until May.", [], []),
]


@pytest.mark.parametrize(("text", "old", "new"), REVIEWED_ENDS)
def test_reviewed_ends_read_no_current_value_as_old(
    text: str, old: list[str], new: list[str]
) -> None:
    """A plan, a passing state, an accident or an attribute's owner reads no old value."""
    assert list(old_values(text)) == old
    assert list(new_values(text)) == new


def test_a_person_is_our_role_now_reads_the_person_new() -> None:
    """'NAME is (now) our|the ROLE (now)': NAME is new; the role (in capitals) is no value.

    The fourth blind set's gold call for "Nomvula Dlamini is our DPO now. Henrik Sørlie moved
    to the security team ..." (anchored to "DPO") was refused: "DPO" was read as the new
    value and the anchor dropped as one; "X is now our DPO" read the person as old.
    """
    for text in (
        "Nomvula Dlamini is our DPO now.",
        "Nomvula Dlamini is the DPO now.",
        "Nomvula Dlamini is now our DPO.",
    ):
        assert pair(text) == ((), ("Nomvula Dlamini",)), text
    # a thing, or a value that is no role, reads as before
    assert pair("The wiki is Confluence now.") == ((), ("Confluence",))
    assert pair("acme/app is now our acme/app2 repo.") == (("acme/app",), ("acme/app2",))


def test_a_title_is_not_part_of_a_persons_name() -> None:
    """'Dr Aisha Nakato': the memories write the name without the title (fourth blind set)."""
    text = "The clinical lead is Dr Aisha Nakato; she took over from Dr Ruairí Ó Briain."
    assert old_values(text) == ("Ruairí Ó Briain",)
    assert pair("Dr. Maria Keller took over from Prof John Smith.") == (
        ("John Smith",),
        ("Maria Keller",),
    )
    assert pair("Ask Mr Smith.") == ((), ())


def test_a_price_keeps_its_currency_word() -> None:
    """'65 zł (was 55 zł)': the currency after the number is part of the value."""
    assert pair("The day pass is 65 zł (was 55 zł).") == (("55 zł",), ("65 zł",))
    assert pair("Lunch is 120 Kč now, was 95 Kč.") == (("95 Kč",), ("120 Kč",))


def test_a_project_moved_onto_a_platform_keeps_its_name() -> None:
    """'bank-feeds has been migrated to Azure DevOps' changes no value of bank-feeds.

    The fourth blind set's change line proposed deprecating "bank-feeds", which the new
    repository's path (".../_git/bank-feeds") names too. A rename, and a repository, channel or
    host moved, read as before.
    """
    assert pair("bank-feeds has been migrated to Azure DevOps.") == ((), ())
    assert pair("api-gateway was renamed to Gatekeeper.") == (("api-gateway",), ("Gatekeeper",))
    assert pair("acme/app moved to GitLab.") == (("acme/app",), ("GitLab",))
    assert pair("#ops moved to #deploys.") == (("#ops",), ("#deploys",))


def test_more_ends_read_the_old_value() -> None:
    """Ends the fourth blind set said in words the reader did not know (read after its runs).

    "we stopped publishing X", "X doesn't ring anymore", "X no longer receives events", "X is
    history", "X goes read-only", "X gets shut down", "X will be deleted"; a Mattermost
    channel (``~name``) and a sourcehut path (``git.sr.ht/~user/repo``) are values; a
    phone extension keeps its "ext."; an abbreviation ("ext.", "Dr.") ends no sentence.
    """
    assert old_values("we stopped publishing tassel-parse. from 0.8 it is tassel-syntax") == (
        "tassel-parse",
    )
    assert old_values("ext. 2255 doesn't ring anymore, dial ext. 3310") == ("ext. 2255",)
    assert old_values("https://api.x.shop/hooks no longer receives events.") == (
        "https://api.x.shop/hooks",
    )
    assert old_values("The wiki is x.getoutline.com; x.getoutline.com goes read-only.") == (
        "x.getoutline.com",
    )
    assert old_values("status.x.io is live and x.instatus.com gets shut down.") == (
        "x.instatus.com",
    )
    assert old_values("github.com/ok/lanyard will be deleted.") == ("github.com/ok/lanyard",)
    assert pair("On Mattermost, ~release-coord replaces ~ship-room.") == (
        ("~ship-room",),
        ("~release-coord",),
    )
    assert pair("Aisha Nakato replaces Dr. John Smith as lead.") == (
        ("John Smith",),
        ("Aisha Nakato",),
    )
    assert "git.sr.ht/~okonjo/lanyard" in new_values(
        "The repo is git.sr.ht/~okonjo/lanyard again, not github.com/okonjo/lanyard."
    )
    # "-wide" is no value ("switched off building-wide"), and a passing end reads nothing
    assert old_values("Tamarack-Guest is switched off building-wide.") == ("Tamarack-Guest",)
    assert old_values("x.instatus.com gets shut down until the audit is over.") == ()
    assert old_values("Cron jobs that fail will be deleted after a week.") == ()
    assert old_values("acme/app gets shut down every night at 2am for backups.") == ()


# A second adversarial review (of this pass's patterns): texts whose value is current, planned,
# habitual, partial, accidental or a role; none reads an old value (nor a role as new).
REVIEWED_AGAIN = [
    "staging.acme.io gets shut down on weekends",
    "staging.acme.io gets shut down each night",
    "acme/app will be archived next year. Keep using it until then.",
    "old-db.acme.io gets shut down next year; keep using it.",
    "acme/app will be archived in Q3, so keep pushing fixes there.",
    "pay.acme.io goes read-only next month",
    "pay.acme.io no longer accepts payments via PayPal",
    "hooks.acme.io no longer receives webhooks for acme/app",
    "ext. 2255 no longer takes calls on weekends",
    "We stopped supporting acme/app on Windows",
    "pager.acme.io doesn't answer anymore since the firmware update; IT is on it",
    "We stopped maintaining acme/legacy, then resumed.",
    "Check acme/app history.",
    "Peter Smith is the DPO who left",
    "Peter Smith is the DPO that retired last year",
    "Nomvula Dlamini is our DPO no more",
    "Nomvula Dlamini is our ex-DPO now",
    "Nomvula Dlamini is their DPO now, ours is elsewhere",
    "Peter Smith is now our former DPO.",
    "Peter Smith is now the old DPO",
    "Stripe is our PSP now",
]


@pytest.mark.parametrize("text", REVIEWED_AGAIN)
def test_the_second_review_reads_no_change(text: str) -> None:
    """Nothing is read from a text that states no end, or a role sentence with no change."""
    assert pair(text) == ((), ()), text


def test_a_role_is_not_read_as_old() -> None:
    """'X is no longer our DPO; Y is our DPO now': X old, Y new, the role no value."""
    text = "Nomvula Dlamini is no longer our DPO; Peter Smith is our DPO now."
    assert pair(text) == (("Nomvula Dlamini",), ("Peter Smith",))
    assert pair("Support moved from Ext. 2210 to Ext. 2255.") == (("Ext. 2210",), ("Ext. 2255",))


def test_a_role_sentence_reads_in_linear_time() -> None:
    """A name the given-name list lacks, repeated before a role, is read in linear time.

    The review's input took 29 s at 32 kB (a person test over the whole text at each
    occurrence); it is one bounded look back per occurrence now.
    """
    text = "Casimir Volkonsky is our DPO now. " * 2000  # 68 kB: minutes when quadratic
    assert {(c.old, c.new) for c in read_changes(text)} == {(None, "Casimir Volkonsky")}


@pytest.mark.parametrize(
    ("text", "back"),
    [
        ("community chat is back on discord", True),
        ("the build cache is cache.example again", True),
        ("We reverted the move to #b.", True),
        ("Docs are served as before from docs.example.", True),
        ("Die Doku liegt wieder auf docs.example.", True),
        ("The repository moved to zed/b.", False),
        ("Feedback is welcome.", False),  # "back" only as a word of its own
    ],
)
def test_says_back(text: str, back: bool) -> None:
    """A text that says something goes back: what a change back the words do not state needs."""
    assert says_back(text) is back


@pytest.mark.parametrize(
    ("text", "value", "back"),
    [
        (
            "courier notices go to deliveries@x.org again. The trial has ended.",
            "deliveries@x.org",
            True,
        ),
        ("community chat is back on discord (discord.gg/pin)", "discord.gg/pin", True),
        ("#catering has been reinstated for lunch orders.", "#catering", True),
        ("we went back to acme/app after the trial", "acme/app", True),
        ("The bot posts to #new again; #old stays archived.", "#old", False),
        ("Back from leave: is it #new now, or #old?", "#old", False),
        ("2024-05-01 12:00:03 INFO back to #old", "#old", False),
        ("We are not going back to #old; #new is the place.", "#old", False),
        ("If #new fails again, fall back to #old for a day.", "#old", False),
        ("replies sent back to #old bounce", "#old", False),
        ("#new was retired today, #old returns bounce as before.", "#old", False),
    ],
)
def test_says_back_to_a_value(text: str, value: str, back: bool) -> None:
    """A word of return that governs the value, in a clause that is not negated or doubtful."""
    assert says_back(text, value) is back


# ------------------------------------------------------- mail that bounces at a value
@pytest.mark.parametrize(
    "text",
    [
        "heads up legal emails bounce at legal@a.example now, use legal@b.example",
        "mail bounces at ops@a.example now",
    ],
)
def test_mail_that_bounces_at_a_value_reads_it_as_no_new_value(text: str) -> None:
    """Mail that bounces at X "now" reads no new X (blind7's act phrasing)."""
    assert not {"legal@a.example", "ops@a.example"} & set(new_values(text))


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        # withdrawn after a review: ", and" as a clause of its own, a quoted sentence read word
        # by word, and "bounce(d) from X" as X's end all read a change where none is stated
        ("acme/app is frozen, but only until v2 ships.", [], []),
        ('She asked "Is #ops renamed to #ops-core?" and I said no.', [], []),
        (
            "We switched support to help@new.example. Some mail bounced from help@new.example.",
            [],
            [],
        ),
        ("We're seeing bounces from billing@acme.example. Can you check the MX records?", [], []),
    ],
)
def test_the_reviews_texts_read_no_change_they_do_not_state(
    text: str, old: list[str], new: list[str]
) -> None:
    """The review's texts for the withdrawn rules read what they say, and no more."""
    assert pair(text) == (tuple(old), tuple(new))


@pytest.mark.parametrize("mark", ["\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"])
def test_an_invisible_character_inside_a_slug_is_part_of_it(mark: str) -> None:
    """A soft hyphen or zero-width character does not split a slug into a fragment ("/app").

    Split there, "acme<mark>/app moved to acme-inc/app" read "/app" as the old value, which
    lies inside the new one: a correction of it marked the new repository (a review's finding).
    """
    text = f"acme{mark}/app moved to acme-inc/app."
    assert pair(text) == ((f"acme{mark}/app",), ("acme-inc/app",))


# ------------------------------------------------------- undone changes, requests, tasks
@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        # an undo before or after the change it states: the change is no change from X to Y
        ("The move from acme/app to acme-inc/app was rolled back.", ["acme-inc/app"], []),
        ("The migration of acme/app to acme-inc/app was reverted.", ["acme-inc/app"], []),
        ("Reverted: acme/app -> acme-inc/app", [], []),
        ("We reverted the acme/app -> acme-inc/app move.", [], []),
        ("Undo the move from acme/app to acme-inc/app.", [], []),
        # a change back that mentions the undo still reads the change back
        (
            "Reverting last week's rename, we switched acme/web back to acme/ui.",
            ["acme/web"],
            ["acme/ui"],
        ),
        (
            "We reverted the channel rename, so #ai-lab is now called #ml again.",
            ["#ai-lab"],
            ["#ml"],
        ),
        (
            "Asset CDN: b.example.net → a.example.net (reverting last week's switch).",
            ["b.example.net"],
            ["a.example.net"],
        ),
        ("Rollback: v1.3 -> v1.2", ["v1.3"], ["v1.2"]),
    ],
)
def test_an_undone_change_is_no_change_from_x_to_y(
    text: str, old: list[str], new: list[str]
) -> None:
    """A review found "was rolled back" and "Reverted: X -> Y" read X old and Y new.

    With the note on the user's message, that told a model to deprecate the value that is
    current again. The undone move's target is old where the sentence says so; the change back
    itself, where stated, is read as before.
    """
    assert pair(text) == (tuple(old), tuple(new))


@pytest.mark.parametrize(
    "text",
    [
        "Please move acme/app to acme-inc/app.",
        "Let's rename #ops to #ops-core tomorrow.",
        "TODO: migrate acme/app to acme-inc/app",
        "- [ ] rename #ops to #ops-core",
        "* [ ] acme/app -> acme-inc/app",
        "Plan: move acme/app to acme-inc/app next sprint.",
        "Migration plan: acme/app -> acme-inc/app",
        "We need to rename #ops to #ops-core.",
        "I'll move acme/app to acme-inc/app later.",
        "We will migrate s3://old-dumps to gs://new-dumps after launch.",
        "Going to rename #ops to #ops-core.",
        "Move acme/app to acme-inc/app.",
        "Who moved acme/app to acme-inc/app",
        "Who renamed #ops to #ops-core",
        "Once p4-2.example.internal:1666 is racked we'll cut over from p4.example.internal:1666.",
        # the review's second round: other openings, plans and undos
        "Please, move acme/app to acme-inc/app.",
        "Hey, can you move acme/app to acme-inc/app",
        "@bot please move acme/app to acme-inc/app",
        "Will move acme/app to acme-inc/app.",
        "Dana will move acme/app to acme-inc/app.",
        "I'd like to rename #eng to #engineering.",
        "Step 1: move acme/app to acme-inc/app",
        "Who here moved acme/app to acme-inc/app",
        "Let's switch from acme/app to acme-inc/app.",
        "Please move acme/app to acme-inc/app, and rename #ops to #ops-core.",
        "Reverted: repo acme/app -> acme-inc/app",
        "Undone: acme/app -> acme-inc/app",
        "acme/app -> acme-inc/app (reverted)",
        "We moved acme/app to acme-inc/app, but it was rolled back.",
        "We moved acme/app to acme-inc/app and then reverted it.",
        "We reverted the commit that renamed #eng to #engineering.",
    ],
)
def test_a_request_a_plan_or_a_task_item_reads_no_change(text: str) -> None:
    """A change asked for, planned or listed as a task has not happened (a review's finding)."""
    assert pair(text) == ((), ())


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("- [x] rename #ops to #ops-core", ["#ops"], ["#ops-core"]),
        ("Move complete: acme/app -> acme-inc/app", ["acme/app"], ["acme-inc/app"]),
        ("Rename: #ops -> #ops-core", ["#ops"], ["#ops-core"]),
        (
            "Please update your bookmarks: the wiki moved from wiki.a.example to wiki.b.example.",
            ["wiki.a.example"],
            ["wiki.b.example"],
        ),
        ("Moved acme/app to acme-inc/app.", ["acme/app"], ["acme-inc/app"]),
        # the review's second round: a request's later clause, a done item, a commit subject,
        # a bullet under a changelog, hard-wrapped lines
        ("Please move over to #engineering, #eng is retired.", ["#eng"], []),
        (
            "Please migrate your bookmarks: acme/app moved to acme-inc/app.",
            ["acme/app"],
            ["acme-inc/app"],
        ),
        (
            "Please move your clones over, acme/app is now acme-inc/app.",
            ["acme/app"],
            ["acme-inc/app"],
        ),
        (
            "Let's move on, acme/app was replaced by acme-inc/app.",
            ["acme/app"],
            ["acme-inc/app"],
        ),
        ("I'll transfer you to Dana Cruz, who took over from Lee Park.", ["Lee Park"], []),
        (
            "We'll move the docs next; acme/app already moved to acme-inc/app.",
            ["acme/app"],
            ["acme-inc/app"],
        ),
        ("- rename #eng to #engineering (done)", ["#eng"], ["#engineering"]),
        ("Move acme/app to acme-inc/app: done.", ["acme/app"], ["acme-inc/app"]),
        ("Rename acme/app to acme-inc/app is complete.", ["acme/app"], ["acme-inc/app"]),
        ("Rename acme/app to acme-inc/app (#123)", ["acme/app"], ["acme-inc/app"]),
        ("Changelog v2.0:\n- Move acme/app to acme-inc/app", ["acme/app"], ["acme-inc/app"]),
        (
            "...we finally got to\nmove acme/app to acme-inc/app, it's live.",
            ["acme/app"],
            ["acme-inc/app"],
        ),
        (
            "Thanks to Dana Cruz\nwho migrated acme/app to acme-inc/app last night.",
            ["acme/app"],
            ["acme-inc/app"],
        ),
        ("Who signed off: Dana Cruz took over from Lee Park.", ["Lee Park"], ["Dana Cruz"]),
        ("Will Thompson moved acme/app to acme-inc/app.", ["acme/app"], ["acme-inc/app"]),
    ],
)
def test_a_label_a_done_item_or_a_request_about_references_still_reads(
    text: str, old: list[str], new: list[str]
) -> None:
    """A change verb as a label, a ticked item, or a request to update references reads."""
    assert pair(text) == (tuple(old), tuple(new))


def test_says_back_skips_only_the_request_clause() -> None:
    """A request's own clause says nothing back; the clause after it still can."""
    assert says_back("Please move over, #old is back.", "#old")
    assert not says_back("Please move #old back to #x.", "#x")


def test_a_long_list_between_undone_values_is_read_in_one_pass() -> None:
    """The undo test looks at a bounded window: a list of 16,000 values reads in one pass.

    Its first version searched the whole span between each read's values for "back" or
    "again": the review measured 2.8 s at 35 kB, and this text (150 kB) took 37 s (now 1 s).
    """
    text = "We moved from " + ", ".join(f"o{i}/r" for i in range(16_000)) + " to new/r."
    assert new_values(text) == ("new/r",)


# ------------------------------------------------------- the other one of the new value's sort
@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        (
            "We went back to cache.a.example for the build cache; the hosted one at "
            "b.example.dev kept timing out.",
            ["b.example.dev"],
            ["cache.a.example"],
        ),
        (
            "The uploader takes files up to 3.5 GB now; the 640 MB limit is gone.",
            ["640 MB"],
            ["3.5 GB"],
        ),
        (
            "Deliveries come at 06:15 now; the 05:40 drop is no more.",
            ["05:40"],
            ["06:15"],
        ),
        (
            "The image lives at ghcr.io/acme/worker now, and quay.io/acme/worker stops getting "
            "new tags on the 30th.",
            ["quay.io/acme/worker"],
            ["ghcr.io/acme/worker"],
        ),
        (
            "build cache is cache.a.internal again, drop cache.b.dev from your configs",
            ["cache.b.dev"],
            ["cache.a.internal"],
        ),
    ],
)
def test_the_other_value_of_the_new_ones_sort_that_ended_is_old(
    text: str, old: list[str], new: list[str]
) -> None:
    """Where only a new Y is read, the one other value of Y's sort said to end is Y's old one.

    Six earlier splits' messages read Y new and named the old value in a clause of its own
    with an end the patterns lack ("kept timing out", "is gone", "stops getting new tags").
    Only in Y's own sentence, with X the subject of its clause (or dropped at its opening).
    """
    assert pair(text) == (tuple(old), tuple(new))


@pytest.mark.parametrize(
    "text",
    [
        # another value that stays, is fine, or is not said to end
        "Deploys go to #deploys now; #alerts stays noisy and was archived once.",
        "Builds run on ci.a.example now; ci.b.example is unchanged and still failed once.",
        "The wiki is at wiki.a.example now; docs.a.example hosts the API reference.",
        "The API is api.a.example now. Is api.b.example broken?",
        # two other values of the sort: which one ended is unsure
        "The cache is c1.a.example now; c2.a.example and c3.a.example kept timing out.",
        # another sort, or a bare number
        "The channel is #builds now; ops@a.example stopped answering.",
        "The limit is 13 now; 19 kept failing.",
        # the other value in the new value's own clause
        "We moved to cache.a.example now that cache.b.example kept timing out.",
        # an adversarial review's incident notes, where a first version read a current X old
        "Incident update: primary is db-a.internal now; db-b.internal failed its health check "
        "and is being rebuilt, it rejoins the pool tonight.",
        "The CI host is ci.a.example now, ci.b.example kept working fine during the outage.",
        "The CI host is ci.a.example now; ci.b.example is not deprecated.",
        "The CI host is ci.a.example now; the bug that broke ci.b.example is fixed.",
        "The primary DB is db-a.internal now; traffic fails over to db-b.internal automatically.",
        "Alerts go to #alerts-prod now; stop by #help if you have questions.",
        "Builds run on ci.a.example now; please drop a note in #ci if ci.b.example misbehaves.",
        "Invoices go to billing@acme.example now; support@acme.example stopped bouncing.",
        "The upload limit is 3.5 GB now; disk usage dropped to 640 MB.",
        "Standup is at 9.30 now; release 2.10 failed to build.",
        "The API is v3.1 now; the v2.9 client SDK dropped support for Windows 7.",
        "Pro is $12 now; last year's price for Team was $30.",
        "The CI host is ci.a.example now. Yesterday ci.b.example failed twice.",
        "Deliveries come at 06:15 now, the same slot as the milk; the 05:40 drop is no more.",
    ],
)
def test_the_other_value_is_not_read_where_unsure(text: str) -> None:
    """No old value is read from a value that stays, an unsure pick, or another sort."""
    assert old_values(text) == ()


@pytest.mark.parametrize(
    ("text", "things"),
    [
        ("The limit is 30 kg now, was 18.5 kg.", ("30 kg", "18.5 kg")),
        ("The ferry carries 74 cars now, up from 62 cars.", ("74 cars", "62 cars")),
        ("The quota is 7,500 calls (previously 2,500 calls).", ("7,500 calls", "2,500 calls")),
        ("The room takes 13 people now.", ("13 people",)),
        ("The limit is 500 requests per minute.", ("500",)),
        ("Standup is at 09:30 this morning.", ("09:30",)),
        ("PR 311 on acme/web moved 3 class tests.", ("311", "acme/web", "3")),
        # a review of an open list of nouns (any plural): verbs, "plus", "weekdays" and a
        # sign-off on the next line were read as a count's noun
        ("The price is $45 plus VAT.", ("$45",)),
        ("Standup moved from 9:30 to 10:00 weekdays.", ("9:30", "10:00")),
        ("Port changed to 8443 from 8080\nthanks!", ("8443", "8080")),
        ("The cap of 50 replaces the old cap of 40.", ("50", "40")),
        ("We moved from 3 replicas to 5 replicas.", ("3 replicas", "5 replicas")),
    ],
)
def test_a_measure_or_a_counts_noun_is_part_of_the_number(
    text: str, things: tuple[str, ...]
) -> None:
    """A number keeps its measure ("18.5 kg") and its count's plural noun ("62 cars").

    The eighth blind set's line proposed "62" and "18.5", which memory c names for something
    else ("62 seats"). The nouns are a closed list; a rate ("500 requests per minute") keeps
    the bare number, and a unit never comes from the next line.
    """
    assert stated_things(text) == things


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("The fee moved from CHF 15 to CHF 19 plus VAT.", ["CHF 15"], ["CHF 19"]),
        ("Java 21 replaces Java 17 as the runtime.", ["Java 17"], ["Java 21"]),
        ("Port changed to 8443 from 8080\nthanks!", ["8080"], ["8443"]),
    ],
)
def test_a_word_after_a_number_that_is_no_count_keeps_the_read(
    text: str, old: list[str], new: list[str]
) -> None:
    """A name with its number ("CHF 19", "Java 17") and a value before a line break read whole."""
    assert pair(text) == (tuple(old), tuple(new))


def test_thousands_of_mentions_of_the_other_one_are_read_in_one_pass() -> None:
    """4,000 mentions of X, each ending, read in one pass (136 kB, about a second).

    The rule's first version found each mention's sentence and clauses again from the start:
    a quarter of this text took 9 s there (a review measured 34 s on 50 kB).
    """
    text = "The CI host is ci.a.example now; " + "and ci.b.example kept timing out, " * 4000
    assert pair(text + "the end.") == (("ci.b.example",), ("ci.a.example",))


# ------------------------------------------------ the twelfth pass: ends said in other words
TWELFTH_PASS = [
    # the old <noun>, X / (X) / : X beside a new value of X's sort; X was the old rate
    (
        "Checkpoints go to gs://ckpt-b instead. The old bucket, gs://ckpt-a, is read-only.",
        ["gs://ckpt-a"],
        ["gs://ckpt-b"],
    ),
    (
        "The plan is at https://hb.zed.io/ir now. The old Confluence page (https://w.zed.io/p/1) "
        "just points there.",
        ["https://w.zed.io/p/1"],
        ["https://hb.zed.io/ir"],
    ),
    ("Hire is £36.50 an hour now; £27.50 was the old rate.", ["£27.50"], []),
    # swapped (back) for
    ("FYI: a@zed.io was swapped for b@zed.io as the inbox.", ["a@zed.io"], ["b@zed.io"]),
    (
        "The image zed.io/a/api was swapped back for hub.io/a/api.",
        ["zed.io/a/api"],
        ["hub.io/a/api"],
    ),
    # ends said of a state or an act
    ("zed-ocr had its final release with 3.9.2; swap it for inkwell.", ["zed-ocr"], []),
    ("RIP #zed-flaky 🪦 reports go to #zed-ci now.", ["#zed-flaky"], ["#zed-ci"]),
    ("heads up emails bounce at a@zed.io now, use b@zed.io", ["a@zed.io"], ["b@zed.io"]),
    (
        "no, Sable isn't at zed/sable anymore, it's zed-labs/sable now",
        ["zed/sable"],
        ["zed-labs/sable"],
    ),
    ("We deprecated #pay-old in favour of #pay-news.", ["#pay-old"], ["#pay-news"]),
    ("Just so nobody's surprised: zed/tundra is frozen.", ["zed/tundra"], []),
    ("Stop posting in #deploys; we moved to #releases.", ["#deploys"], ["#releases"]),
    # a status code is no value: the endpoint is what is gone
    ("GET /v1/orders → 410 Gone.", ["/v1/orders"], []),
    # a clause's parts are negated apart
    (
        "Laptops are still ordered through the form, and the checklist lives at "
        "https://hb.zed.com/new now instead of https://wiki.zed.local/new.",
        ["https://wiki.zed.local/new"],
        ["https://hb.zed.com/new"],
    ),
]


@pytest.mark.parametrize(("text", "old", "new"), TWELFTH_PASS)
def test_ends_said_in_other_words_are_read(text: str, old: list[str], new: list[str]) -> None:
    """The old values the held-out sets' messages stated in words no pattern read."""
    assert pair(text) == (tuple(old), tuple(new))


@pytest.mark.parametrize(
    "text",
    [
        "OPS-4471 → Done.",
        "Jira: MRW-1182 → In Progress → Code Review; epic MRW-1400 opened.",
        "calls to https://api.zed.io/v2 return 410 Gone",
        "the API rate limit no longer applies.",
        "We might archive zed/app, and move zed/web to zed/new.",
        "Switched back to v1.2, v1.3 didn't work, but that is wrong: v1.3 is current.",
        "Sable isn't in Berlin anymore.",
        # "the old <noun>, X" with no new value of X's sort (an adversarial review's texts)
        "Both the old endpoint (/v1/users) and the new one (/v2/users) are supported.",
        "In the old days, acme/app was the only repo we had.",
        "The old version, 1.4.2, gets security fixes until June 2026.",
        "The old kernel (5.15) is the LTS one, so that's what we run.",
        "We went back to the old config, config/prod.yaml, and it works.",
        # one pattern alone reads too much: an adversarial review's texts
        "RIP api.acme.io, 500s again. Should be back in 10 minutes.",
        "The mail bounced at mx.partner.com (mailbox full, will retry).",
        "@ana isn't in #design anymore, she's in #brand.",
        "She isn't at acme.io anymore; she works at globex.com now.",
        "What time is it? It's 10:30 now.",
        "@ana was swapped for @ben on the Saturday rota only.",
        "The SSD in build-07 was swapped out for a 2 TB drive.",
        "We archived 3 tickets in favour of OPS-9.",
        "The migration was postponed, so nobody switched from acme/app to acme/core.",
        "acme/app got its last update three days ago, so it's pretty fresh.",
        "£27.50 was the old rate, and it still applies to existing customers.",
        "Bonn was the old capital.",
        "Stop posting in #general about outages.",
        "Stop using 10.0.0.0/8 in examples; use 192.0.2.0/24.",
        "Stop pushing to acme/app directly, open a PR.",
        "The fix is in v2.3 but not v2.2.",
        "Alice still owns billing, and Bob took over support from Alice.",
        "#ops remains open, and announcements moved from #ops to #announce.",
        "Someone said #ops moved to #infra, but that's wrong.",
        "We didn't get approval, so the move from acme/app to acme/web is on hold.",
    ],
)
def test_statuses_codes_and_scoped_doubts_read_no_old_value(text: str) -> None:
    """A ticket's status, an HTTP status, a doubt over a clause, and the reviews' harm."""
    assert old_values(text) == ()


def test_a_read_is_kept_and_handed_out_as_a_new_list() -> None:
    """The same text read again gives equal changes, in a list its caller may change."""
    text = "The SDK moved from acme/sdk to acme-labs/sdk."
    first = read_changes(text)
    first.clear()
    assert [c.old for c in read_changes(text)] == ["acme/sdk"]


def test_a_long_run_of_spaces_is_read_in_one_pass() -> None:
    """100,000 spaces before a change read in linear time (about a second).

    A cue that begins with spaces was tried at every space of a run, and "Y, instead of X"
    backtracked over its two runs of spaces: 2,000 spaces took about a minute, 20,000 hours.
    """
    text = "hello" + " " * 100_000 + "use #b instead of #a."
    assert pair(text) == (("#a",), ("#b",))
    assert pair("#ops has been renamed" + " " * 90_000) == ((), ())


@pytest.mark.parametrize(
    ("value", "sort"),
    [
        ("https://git.example.com/acme/app", "url"),
        ("press@acme.example", "email"),
        ("#deploys", "channel"),
        ("@acme/sdk", "handle"),
        ("acme/app", "path"),
        ("$7", "number"),
        ("v2.14", "number"),
        ("docs.acme.example", "host"),
        ("~town-square", "other"),
        ("Dana Wu", "other"),
    ],
)
def test_a_value_has_the_sort_the_reader_pairs_it_by(value: str, sort: str) -> None:
    """An old value pairs with a new one of its sort; a Mattermost channel is read as no sort."""
    assert value_sort(value) == sort
    assert value_sort(value.upper()) == sort

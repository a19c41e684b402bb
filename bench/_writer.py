"""The writer benchmark's cases: stated changes, the memories they make stale, and act cases.

Imported by ``bench/reader.py`` (the ``writer`` and ``act`` tasks). Splits of stated
changes (dev, test, fresh, blind, blind2, ..., blind9), kept apart so that a
held-out set stays a fair check:

* :data:`WRITER_CASES`: the 30 changes of the first writer benchmark. They were looked at when
  the prompt and schemas were studied, so they are **dev** cases now, with
  :data:`WRITER_DEV_EXTRA` (the kinds the first 30 lack: a change back, a new value already in
  the store, numbers with a subject, a role of a person).
* :data:`WRITER_TEST_CASES`: 30 fresh **test** cases of other names and phrasings, written
  before any measurement on them and never used to choose: renames and moves, channels and
  URLs, owner and role changes of people, numbers with a subject, changes back, and changes
  whose new value the store already names. They have been looked at since, so they are no
  longer blind.
* :data:`WRITER_FRESH_CASES`: 30 **fresh** cases (``f01`` to ``f30``), written after the test
  cases had been looked at, blind to how any model did on the others, before any measurement
  on them and never used to choose: the same six kinds, about five each (renames and moves of
  repositories, packages, images and buckets; Slack, Discord and Teams channels and wiki and
  form URLs; owner and role changes of people, by full and first name, whose memory c names the
  same person in another role; numbers with a subject, whose memory c uses the same number for
  something else; changes back; new values the store already names), with new organisations,
  people, hosts and values and phrasings of their own (``X is now Y``, ``X → Y``, ``Y replaces
  X``, ``from X to Y``, the passive, a short chat note, a long sentence with an extra clause).
* :data:`WRITER_BLIND_CASES`: 30 **blind** cases (``g01`` to ``g30``), written by another
  engineer who read only the case definitions, the writing guide and the README: blind to
  every result, report and study of the benchmark, before any measurement on them, and never
  used to choose a prompt, schema or rule. The same six kinds, five each (renames and moves of
  repositories, crates, images, buckets and domains; Slack and Discord channels, page and
  meeting URLs and a mailbox; owner and role changes of people by full and first name; numbers
  with a subject, a time, a price, a version, a quota and a response time, whose memory c uses
  the same number for something else; changes back; new values the store already names),
  with new organisations, people, hosts and values and phrasings of their own (lowercase chat
  notes, ``deprecated in favour of``, ``we switched to``, ``no longer``, a list, the passive, a
  long sentence with an extra clause). Their act cases have new phrasings too
  (``_SAY_BLIND``). A gold call nowline does not yet get right is kept, not rewritten: the
  tests list it in ``_BLIND_GOLD_NOT_YET_RIGHT``.
* :data:`WRITER_BLIND2_CASES`: 30 more **blind** cases (``h01`` to ``h30``), written by a
  helper engineer who read only the case module, the writing guide and the README: blind to
  every result, report, changelog and study of the benchmark and to the history of the
  repository, before any measurement on them, and never used to choose a prompt, schema or
  rule. The same six kinds, five each (renames and moves of a repository, an npm package, a
  container image, a cache host and a PyPI package; a Slack channel, a Matrix room, a
  dashboard URL whose new value extends the old one, a mailbox and two intranet links in one
  list; owner and role changes of people by full and first name and of an owning team, with
  two anchors in one; numbers with a subject, parallel jobs of a tier, an opening time, a Go
  version, an hourly rate and a project cap, whose memory c uses the same number for
  something else, three times under the same name; changes back of a repository, a channel,
  a CI host, a base image and a sign-in host; new values the store already names), with new
  organisations, people, hosts and values and phrasings of their own (a lowercase chat note,
  ``handed over to``, ``(it was ...)``, ``is back under``, ``we're folding X into Y``, a list,
  the passive, a long sentence with an extra clause). Their gold calls also give
  ``replaced_by`` (the new values), as the shipped system prompt asks, and their act cases
  have phrasings of their own (``_SAY_BLIND2``). A gold call nowline does not yet get right
  is kept, not rewritten: the tests list it in ``_BLIND2_GOLD_NOT_YET_RIGHT``.
* :data:`WRITER_BLIND3_CASES`: 30 more **blind** cases (``k01`` to ``k30``), in a module of
  their own (``bench/_writer_blind3.py``), written by another helper engineer who read only
  the case module, the writing guide, the README and the tests of the splits: blind to every
  result, report, changelog and study of the benchmark and to the history of the repository,
  before any measurement on them, and never used to choose a prompt, schema or rule. The same
  six kinds, five each (renames and moves of a repository whose old name holds the new one, a
  firmware repository moved to another forge, a Maven artifact, a container image and an
  upload host; a Slack channel, a Telegram group, a booking link, a notice mailbox and a
  runbook link in a list; owner and role changes of people by full and first name, some of
  them names that are not English, and of an owning team; numbers with a subject, a time, a
  price, a runtime version, a booking limit and a retention period, whose memory c uses the
  same number for something else; changes back of a repository, a channel, a booking host, a
  database host and a mailbox; new values the store already names, among them a person by
  first name and a version), with new organisations, people, hosts and values and phrasings
  of their own (lowercase chat notes, ``no more X, use Y``, ``X replaces Y as``, ``rather
  than``, ``used to be``, ``once more``, a question, a list, the passive, a long sentence with
  an extra clause; none of them uses the word "changed"). Their gold calls also give
  ``replaced_by``, and their act cases have phrasings of their own (``_SAY_BLIND3``). A gold
  call nowline does not yet get right is kept, not rewritten: the tests list it in
  ``_BLIND3_GOLD_NOT_YET_RIGHT``.
* :data:`WRITER_BLIND4_CASES`: 30 more **blind** cases (``m01`` to ``m30``), in a module of
  their own (``bench/_writer_blind4.py``), written by another helper engineer under the same
  rules as blind3's (and who also read no code of the library), the same six kinds, five each,
  with forges, registries, chat systems, values and phrasings of its own. Its gold calls give
  ``replaced_by``, its act cases have phrasings of their own (``_SAY_BLIND4``), and a gold
  call nowline does not yet get right is listed in ``_BLIND4_GOLD_NOT_YET_RIGHT``.
* :data:`WRITER_BLIND5_CASES`: 30 more **blind** cases (``n01`` to ``n30``), in a module of
  their own (``bench/_writer_blind5.py``), written by another helper engineer under the same
  rules as blind4's, the same six kinds, five each, with values and phrasings of its own
  (``_SAY_BLIND5`` for its act cases); a gold call nowline does not yet get right is listed
  in ``_BLIND5_GOLD_NOT_YET_RIGHT``.
* :data:`WRITER_BLIND6_CASES`: 30 more **blind** cases (``p01`` to ``p30``), in a module of
  their own (``bench/_writer_blind6.py``), written by another helper engineer under the same
  rules as blind5's, the same six kinds, five each, with values and phrasings of its own
  (``_SAY_BLIND6`` for its act cases); a gold call nowline does not yet get right is listed
  in ``_BLIND6_GOLD_NOT_YET_RIGHT``.
* :data:`WRITER_BLIND7_CASES`: 30 more **blind** cases (``q01`` to ``q30``), in a module of
  their own (``bench/_writer_blind7.py``), written by another helper engineer under the same
  rules as blind6's, the same six kinds, five each, with values and phrasings of its own
  (``_SAY_BLIND7`` for its act cases); a gold call nowline does not yet get right is listed
  in ``_BLIND7_GOLD_NOT_YET_RIGHT``.
* :data:`WRITER_BLIND8_CASES`: 30 more **blind** cases (``r01`` to ``r30``), in a module of
  their own (``bench/_writer_blind8.py``), written by another helper engineer under the same
  rules as blind7's, the same six kinds, five each, with values and phrasings of its own
  (``_SAY_BLIND8`` for its act cases); registered before any measurement on it. A gold call
  nowline does not yet get right is listed in ``_BLIND8_GOLD_NOT_YET_RIGHT``.
* :data:`WRITER_BLIND9_CASES`: 30 more **blind** cases (``s01`` to ``s30``), in a module of
  their own (``bench/_writer_blind9.py``), written by another helper engineer under the same
  rules as blind8's, the same six kinds, five each, with values and phrasings of its own
  (``_SAY_BLIND9`` for its act cases); registered before any measurement on it. A gold call
  nowline does not yet get right is listed in ``_BLIND9_GOLD_NOT_YET_RIGHT``.

Each case may carry ``prior`` corrections (stored before the model's call: what a change back
undoes) and a ``gold`` call, the arguments a careful writer would send; a test checks that
every gold call is right (save the blind ones it lists as not yet right), so every case can be
solved from the user's message alone.

:func:`act_cases` makes the end-to-end cases: the user states a change, the model stores it
through the tools, and a later session asks it to act (clone a repository, post to a channel,
email someone) from what it recalls; each split draws them from seeds of its own (and the
blind splits from phrasings of their own).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from _writer_case import Prior, WriterCase
from _writer_case import writer_case as _case

__all__ = [
    "WRITER_BLIND2_CASES",
    "WRITER_BLIND3_CASES",
    "WRITER_BLIND4_CASES",
    "WRITER_BLIND_CASES",
    "WRITER_CASES",
    "WRITER_DEV_EXTRA",
    "WRITER_FRESH_CASES",
    "WRITER_TEST_CASES",
    "ActCase",
    "Prior",
    "WriterCase",
    "act_cases",
    "writer_cases",
]


WRITER_CASES = (
    WriterCase(
        "repository",
        "Heads up: the UFO core repository moved from metalcraftai/ufo to ufo-ai/ufo.",
        (
            ("a", "UFO core lives in metalcraftai/ufo; PRs go there."),
            ("b", "Clone UFO core with git clone https://github.com/metalcraftai/ufo.git"),
            ("c", "The hosted UFO service lives in metalcraftai/ufo-hosted."),
        ),
        frozenset("ab"),
        ("ufo-ai/ufo",),
    ),
    WriterCase(
        "channel",
        "We renamed the Slack channel #team-infra; it is #infra now.",
        (
            ("a", "Infra questions go to #team-infra on Slack."),
            ("b", "Post outage updates in #team-infra."),
            ("c", "The infra team meets on Tuesdays."),
        ),
        frozenset("ab"),
        ("#infra",),
    ),
    WriterCase(
        "email",
        "Invoices should now be sent to accounts@newco.example instead of billing@oldco.example.",
        (
            ("a", "Send invoices to billing@oldco.example."),
            ("b", "billing@oldco.example answers VAT questions."),
            ("c", "Invoices are due within 30 days."),
        ),
        frozenset("ab"),
        ("accounts@newco.example",),
    ),
    WriterCase(
        "host",
        "Our wiki moved from wiki.northwind.dev to docs.northwind.io.",
        (
            ("a", "The onboarding guide is at https://wiki.northwind.dev/start."),
            ("b", "Runbooks live on wiki.northwind.dev under Ops."),
            ("c", "Northwind's status page is status.northwind.dev."),
        ),
        frozenset("ab"),
        ("docs.northwind.io",),
    ),
    WriterCase(
        "owner, full name",
        "Tomasz Kowalczyk took over the Acme deal from Maria Garcia last week.",
        (
            ("a", "Maria Garcia owns the Acme deal."),
            ("b", "For the Acme renewal, ask Maria Garcia."),
            ("c", "Maria Garcia leads the design guild."),
        ),
        frozenset("ab"),
        ("Tomasz Kowalczyk",),
    ),
    WriterCase(
        "role, first name",
        "Globex has a new CFO: Ahmed replaced Priya.",
        (
            ("a", "Globex's CFO is Priya."),
            ("b", "Priya at Globex signs off budgets over $50k."),
            ("c", "Priya from our QA team reviews test plans."),
        ),
        frozenset("ab"),
        ("Ahmed",),
    ),
    WriterCase(
        "database host",
        "We migrated the staging database from db-stage-01.internal to pg-stage.internal.",
        (
            ("a", "The staging database runs on db-stage-01.internal."),
            ("b", "Connect to db-stage-01.internal with the staging VPN."),
            ("c", "Production runs on db-prod-01.internal."),
        ),
        frozenset("ab"),
        ("pg-stage.internal",),
    ),
    WriterCase(
        "ticket",
        "The billing epic is PAY-2040 now; PAY-1182 was closed as a duplicate.",
        (
            ("a", "Billing work is tracked in JIRA epic PAY-1182."),
            ("b", "Link billing PRs to PAY-1182."),
            ("c", "PAY-1183 tracks the refund bug."),
        ),
        frozenset("ab"),
        ("PAY-2040",),
    ),
    WriterCase(
        "new value first",
        "Use PagerDuty schedule PQ9ZRT for on-call from now on; the old one, P7Q2XK, is deleted.",
        (
            ("a", "The on-call rotation is PagerDuty schedule P7Q2XK."),
            ("b", "Escalations page P7Q2XK first."),
            ("c", "On-call hand-over is on Mondays."),
        ),
        frozenset("ab"),
        ("PQ9ZRT",),
    ),
    WriterCase(
        "versioned URL",
        "The API base URL is https://api.acme.io/v2 now; v1 was shut down.",
        (
            ("a", "The API base URL is https://api.acme.io/v1."),
            ("b", "Fetch users from https://api.acme.io/v1/users."),
            ("c", "The v1 of the mobile app is still in the store."),
        ),
        frozenset("ab"),
        ("https://api.acme.io/v2",),
    ),
    WriterCase(
        "package",
        "The SDK's PyPI package was renamed from acme-sdk-legacy to acme-sdk.",
        (
            ("a", "Install the SDK with pip install acme-sdk-legacy."),
            ("b", "acme-sdk-legacy pins requests<3."),
            ("c", "The SDK supports Python 3.10 and newer."),
        ),
        frozenset("ab"),
        ("acme-sdk",),
    ),
    WriterCase(
        "a person's email",
        "Dara's email address changed to dara.k@newcorp.example.",
        (
            ("a", "Dara's email is dara@corp.example."),
            ("b", "Send the weekly report to dara@corp.example."),
            ("c", "Dara prefers Slack for quick questions."),
        ),
        frozenset("ab"),
        ("dara.k@newcorp.example",),
    ),
    WriterCase(
        "docs URL",
        "The developer docs moved from https://docs.acme.io to https://acme.dev/docs.",
        (
            ("a", "API reference: https://docs.acme.io/api."),
            ("b", "Link new users to https://docs.acme.io for setup."),
            ("c", "The status page is https://status.acme.io."),
        ),
        frozenset("ab"),
        ("https://acme.dev/docs",),
    ),
    WriterCase(
        "channel, second",
        "#eng-alerts is gone; alerts go to #alerts-eng from today.",
        (
            ("a", "Pager alerts are mirrored to #eng-alerts."),
            ("b", "Post incident summaries in #eng-alerts."),
            ("c", "#eng-chat is for casual talk."),
        ),
        frozenset("ab"),
        ("#alerts-eng",),
    ),
    WriterCase(
        "GitHub org",
        "Our GitHub organisation was renamed from brightforge to brightforge-labs.",
        (
            ("a", "Clone the API with git clone https://github.com/brightforge/api.git."),
            ("b", "The web app lives in brightforge/web."),
            ("c", "The design files are in the Brightforge-Design Figma team."),
        ),
        frozenset("ab"),
        ("brightforge-labs",),
    ),
    WriterCase(
        "phone number",
        "Acme's support hotline changed from +1 415 555 0100 to +1 415 555 0199.",
        (
            ("a", "Customers call the Acme support hotline at +1 415 555 0100."),
            ("b", "After hours, Acme's hotline +1 415 555 0100 goes to voicemail."),
            ("c", "The sales line is +1 415 555 0142."),
        ),
        frozenset("ab"),
        ("+1 415 555 0199",),
    ),
    WriterCase(
        "container image",
        "We switched the base image from ghcr.io/acme/base-py310 to ghcr.io/acme/base-py312.",
        (
            ("a", "Every service builds FROM ghcr.io/acme/base-py310."),
            ("b", "Security scans run nightly on ghcr.io/acme/base-py310."),
            ("c", "ghcr.io/acme/base-node20 is the Node base image."),
        ),
        frozenset("ab"),
        ("ghcr.io/acme/base-py312",),
    ),
    WriterCase(
        "bucket",
        "Backups now go to s3://acme-backups-eu; s3://acme-backups is read-only.",
        (
            ("a", "Nightly backups are written to s3://acme-backups."),
            ("b", "Restore drills read from s3://acme-backups."),
            ("c", "Logs are archived in s3://acme-logs."),
        ),
        frozenset("ab"),
        ("s3://acme-backups-eu",),
    ),
    WriterCase(
        "team owner",
        "Team Falcon owns the payments service now; Team Osprey handed it over.",
        (
            ("a", "Team Osprey owns the payments service."),
            ("b", "Page Team Osprey for payments incidents."),
            ("c", "Team Osprey runs the Friday demo."),
        ),
        frozenset("ab"),
        ("Team Falcon",),
    ),
    WriterCase(
        "CEO, full name",
        "Initech has a new CEO, Samir Nagheenanajar; Bill Lumbergh stepped down.",
        (
            ("a", "Bill Lumbergh is Initech's CEO."),
            ("b", "Initech partnerships need sign-off from Bill Lumbergh as CEO."),
            ("c", "Bill Lumbergh likes TPS reports."),
        ),
        frozenset("ab"),
        ("Samir Nagheenanajar",),
    ),
    WriterCase(
        "meeting link",
        "The standup link is https://zoom.us/j/555000222 now; https://zoom.us/j/111222333 is dead.",
        (
            ("a", "Daily standup: https://zoom.us/j/111222333."),
            ("b", "Guests join the standup via https://zoom.us/j/111222333."),
            ("c", "The retro link is https://zoom.us/j/999888777."),
        ),
        frozenset("ab"),
        ("https://zoom.us/j/555000222",),
    ),
    WriterCase(
        "environment variable",
        "The env var ACME_TOKEN was renamed to ACME_API_KEY in all services.",
        (
            ("a", "Set ACME_TOKEN before running the CLI."),
            ("b", "CI reads ACME_TOKEN from the vault."),
            ("c", "ACME_REGION defaults to eu-west-1."),
        ),
        frozenset("ab"),
        ("ACME_API_KEY",),
    ),
    WriterCase(
        "default branch",
        "acme/web's default branch is main now, not master. acme/api still uses master.",
        (
            ("a", "Open PRs against master in acme/web."),
            ("b", "acme/web deploys from master."),
            ("c", "acme/api deploys from master."),
        ),
        frozenset("ab"),
        ("main",),
    ),
    WriterCase(
        "office address",
        "The Berlin office moved from Torstraße 12 to Invalidenstraße 90.",
        (
            ("a", "The Berlin office is at Torstraße 12."),
            ("b", "Send hardware for Berlin to Torstraße 12, 10119 Berlin."),
            ("c", "The Munich office is at Sendlinger Straße 7."),
        ),
        frozenset("ab"),
        ("Invalidenstraße 90",),
    ),
    WriterCase(
        "database name",
        "The analytics database was renamed from analytics_prod to warehouse_prod.",
        (
            ("a", "Dashboards query analytics_prod."),
            ("b", "Grant read access on analytics_prod via the data team."),
            ("c", "analytics_staging is refreshed weekly."),
        ),
        frozenset("ab"),
        ("warehouse_prod",),
    ),
    WriterCase(
        "port",
        "The staging API (api-staging.acme.internal) listens on port 8443 now instead of 8080.",
        (
            ("a", "The staging API runs on api-staging.acme.internal, port 8080."),
            ("b", "Health check: curl http://api-staging.acme.internal:8080/health."),
            ("c", "The local dev server uses port 8080."),
        ),
        frozenset("ab"),
        ("8443",),
    ),
    WriterCase(
        "social handle",
        "Our X account changed its handle from @acme_hq to @acme.",
        (
            ("a", "Product news is posted by @acme_hq on X."),
            ("b", "Tag @acme_hq in launch posts."),
            ("c", "@acme_support answers customer questions."),
        ),
        frozenset("ab"),
        ("@acme",),
    ),
    WriterCase(
        "monitoring project",
        "The Sentry project acme-backend was renamed to acme-api.",
        (
            ("a", "Backend errors go to the Sentry project acme-backend."),
            ("b", "acme-backend alerts page the on-call engineer."),
            ("c", "acme-backend-legacy was archived in 2023."),
        ),
        frozenset("ab"),
        ("acme-api",),
    ),
    WriterCase(
        "manager, first name",
        "Lena reports to Oscar now; Priyanka moved to another team.",
        (
            ("a", "Lena's manager is Priyanka."),
            ("b", "Lena's time off is approved by Priyanka."),
            ("c", "Priyanka runs the accessibility guild."),
        ),
        frozenset("ab"),
        ("Oscar",),
    ),
    WriterCase(
        "SSH host",
        "The bastion is bastion-2.acme.net now; bastion.acme.net was shut down.",
        (
            ("a", "SSH to production through bastion.acme.net."),
            ("b", "Add your key to bastion.acme.net before on-call."),
            ("c", "The VPN gateway is vpn.acme.net."),
        ),
        frozenset("ab"),
        ("bastion-2.acme.net",),
    ),
)


# --------------------------------------------------- dev: the kinds the first 30 lack

WRITER_DEV_EXTRA = (
    _case(
        "dev: change back, repository",
        "change back",
        "loom/core2 has been renamed back to loom/core.",
        "loom/core2 holds the Loom engine.",
        "Loom engine PRs go to loom/core2.",
        "The first Loom release was tagged in loom/core.",
        ("loom/core",),
        ("loom/core2",),
        prior=(Prior("Renamed loom/core to loom/core2.", ("loom/core",), ("loom/core2",)),),
    ),
    _case(
        "dev: new value already stored",
        "new value in the store",
        "The Wren dashboards moved from dash.wren.local to wren.grafana.net.",
        "Wren dashboards: http://dash.wren.local/home.",
        "dash.wren.local shows the queue depth.",
        "wren.grafana.net already has the billing dashboard.",
        ("wren.grafana.net",),
        ("dash.wren.local",),
    ),
    _case(
        "dev: number with a subject",
        "number",
        "The Osprey job timeout was raised from 45 minutes to 90 minutes.",
        "Osprey jobs time out after 45 minutes.",
        "Keep Osprey runs under 45 minutes or they are killed.",
        "The weekly sync takes 45 minutes.",
        ("90 minutes",),
        ("45 minutes",),
        ("Osprey",),
    ),
    _case(
        "dev: role, full name",
        "person",
        "Nadia Petrova is no longer the release manager; Tom Eriksen is.",
        "Nadia Petrova is the release manager.",
        "Ask the release manager, Nadia Petrova, before tagging.",
        "Nadia Petrova maintains the Helm charts.",
        ("Tom Eriksen",),
        ("Nadia Petrova",),
        ("release manager",),
    ),
)


# ------------------------------------------------- test: 30 fresh cases, never used to choose

WRITER_TEST_CASES = (
    # renames and moves
    _case(
        "t01 repository transfer",
        "rename or move",
        "FYI the Kestrel frontend repo now lives at tidewater-labs/kestrel-web; it was "
        "transferred out of jnovak/kestrel-web.",
        "Kestrel frontend code is in jnovak/kestrel-web.",
        "git clone git@github.com:jnovak/kestrel-web.git to hack on the Kestrel UI.",
        "jnovak/dotfiles holds Jan's shell setup.",
        ("tidewater-labs/kestrel-web",),
        ("jnovak/kestrel-web",),
    ),
    _case(
        "t02 GitLab group move",
        "rename or move",
        "Heads-up: gitlab.com/orchard-team/pipeline was moved to gitlab.com/orchard/pipeline.",
        "The build pipeline config is at gitlab.com/orchard-team/pipeline.",
        "Merge requests for the pipeline go to gitlab.com/orchard-team/pipeline.",
        "gitlab.com/orchard-team/pipeline-docs explains the stages.",
        ("gitlab.com/orchard/pipeline",),
        ("gitlab.com/orchard-team/pipeline",),
    ),
    _case(
        "t03 npm package renamed",
        "rename or move",
        "We published the date helpers under a new npm name: @quill/dates replaces "
        "quill-date-utils.",
        "npm install quill-date-utils for date formatting.",
        "quill-date-utils is pinned to 2.x in the dashboard.",
        "quill-ui ships the button components.",
        ("@quill/dates",),
        ("quill-date-utils",),
    ),
    _case(
        "t04 dashboard host",
        "rename or move",
        "The metrics dashboard is served from grafana.lumen.systems now, not metrics.lumen.local.",
        "Dashboards: http://metrics.lumen.local/d/overview.",
        "Bookmark metrics.lumen.local for latency graphs.",
        "Logs are in kibana.lumen.local.",
        ("grafana.lumen.systems",),
        ("metrics.lumen.local",),
    ),
    _case(
        "t05 container image",
        "rename or move",
        "The worker image is now registry.ember.dev/ember/worker; docker.io/emberhq/worker is "
        "no longer updated.",
        "Deploy docker.io/emberhq/worker:latest to staging.",
        "docker.io/emberhq/worker is built by the nightly job.",
        "docker.io/emberhq/scheduler runs the cron jobs.",
        ("registry.ember.dev/ember/worker",),
        ("docker.io/emberhq/worker",),
    ),
    _case(
        "t06 storage bucket",
        "rename or move",
        "Exports are written to gs://finch-exports-v2 from now on; gs://finch-exports is frozen.",
        "The nightly export lands in gs://finch-exports.",
        "Analysts read CSVs from gs://finch-exports.",
        "gs://finch-models holds the trained models.",
        ("gs://finch-exports-v2",),
        ("gs://finch-exports",),
    ),
    # channels and URLs
    _case(
        "t07 release channel",
        "channel",
        "Release announcements now go to #ship-it instead of #announce-releases.",
        "Post release announcements in #announce-releases.",
        "#announce-releases gets the changelog link after each deploy.",
        "#announce-hiring is for job posts.",
        ("#ship-it",),
        ("#announce-releases",),
    ),
    _case(
        "t08 Discord channel",
        "channel",
        "The support Discord channel #help-desk was renamed #support.",
        "Users ask for help in #help-desk on Discord.",
        "Moderators watch #help-desk on weekends.",
        "#help-wanted lists open issues for contributors.",
        ("#support",),
        ("#help-desk",),
    ),
    _case(
        "t09 form URL",
        "URL",
        "New link for the expense form: https://forms.cobalt.io/expenses-2025 (the old "
        "https://forms.cobalt.io/expenses is dead).",
        "Submit expenses at https://forms.cobalt.io/expenses.",
        "Receipts over $25 go through https://forms.cobalt.io/expenses with a photo.",
        "Travel requests use https://forms.cobalt.io/travel.",
        ("https://forms.cobalt.io/expenses-2025",),
        ("https://forms.cobalt.io/expenses",),
    ),
    _case(
        "t10 status page",
        "URL",
        "Our status page is https://status.verdant.app now; verdant.statuspage.io was cancelled.",
        "Customers check https://verdant.statuspage.io during outages.",
        "Incident updates are posted to verdant.statuspage.io.",
        "The Verdant changelog is at https://verdant.app/changelog.",
        ("https://status.verdant.app",),
        ("verdant.statuspage.io",),
    ),
    _case(
        "t11 CI server retired",
        "URL",
        "The Jenkins server was replaced by GitHub Actions; ci.saltire.dev is switched off.",
        "Builds run on https://ci.saltire.dev/job/main.",
        "Retry flaky builds on ci.saltire.dev.",
        "Artifacts are stored at artifacts.saltire.dev.",
        ("GitHub Actions",),
        ("ci.saltire.dev",),
    ),
    _case(
        "t12 roadmap page",
        "URL",
        "The mobile roadmap moved to Confluence: https://wiki.ridgeway.io/mobile-roadmap "
        "replaces https://notion.so/ridgeway/mobile-roadmap.",
        "The mobile roadmap is at https://notion.so/ridgeway/mobile-roadmap.",
        "Add feature ideas to https://notion.so/ridgeway/mobile-roadmap before planning.",
        "The web roadmap is at https://notion.so/ridgeway/web-roadmap.",
        ("https://wiki.ridgeway.io/mobile-roadmap",),
        ("https://notion.so/ridgeway/mobile-roadmap",),
    ),
    _case(
        "t13 security mailbox",
        "email",
        "Security reports should go to security@harborline.com; psirt@harborline.com no "
        "longer exists.",
        "Report vulnerabilities to psirt@harborline.com.",
        "psirt@harborline.com triages CVE requests.",
        "Press inquiries go to press@harborline.com.",
        ("security@harborline.com",),
        ("psirt@harborline.com",),
    ),
    # owner and role changes of people
    _case(
        "t14 contract owner, full name",
        "person",
        "Keiko Tanaka handed the Zephyr vendor contract over to Rafael Souza.",
        "Keiko Tanaka owns the Zephyr vendor contract.",
        "Questions about the Zephyr contract renewal go to Keiko Tanaka.",
        "Keiko Tanaka organises the Thursday book club.",
        ("Rafael Souza",),
        ("Keiko Tanaka",),
        ("Zephyr",),
    ),
    _case(
        "t15 on-call lead, full name",
        "person",
        "Ingrid Olsen is no longer our on-call lead; Marcus Bell took over the role.",
        "The on-call lead is Ingrid Olsen.",
        "Escalate paging problems to Ingrid Olsen, the on-call lead.",
        "Ingrid Olsen wrote the Terraform style guide.",
        ("Marcus Bell",),
        ("Ingrid Olsen",),
        ("on-call lead",),
    ),
    _case(
        "t16 head of sales, first name",
        "person",
        "At Brightwater, Kofi is the new head of sales; Elena left the company.",
        "Brightwater's head of sales is Elena.",
        "Elena at Brightwater approves discounts.",
        "Elena from our design team drew the new logo.",
        ("Kofi",),
        ("Elena",),
        ("Brightwater",),
    ),
    _case(
        "t17 owning team",
        "person",
        "The search indexer is owned by the Discovery squad now, not Platform Core.",
        "Platform Core owns the search indexer.",
        "Search indexer bugs are triaged by Platform Core.",
        "Platform Core maintains the Kubernetes clusters.",
        ("Discovery squad",),
        ("Platform Core",),
        ("search indexer",),
    ),
    _case(
        "t18 manager, first name",
        "person",
        "Since Monday, Yusuf's manager is Hana; Greta manages the mobile team instead.",
        "Yusuf reports to Greta.",
        "Greta approves Yusuf's expense reports.",
        "Greta runs the mobile team's planning.",
        ("Hana",),
        ("Greta",),
        ("Yusuf",),
    ),
    _case(
        "t19 CTO, full name",
        "person",
        "Wen Li took over as CTO of Parallax from Oskar Berg, who stays on as an adviser.",
        "Oskar Berg is the CTO of Parallax.",
        "Parallax architecture decisions need sign-off from Oskar Berg as CTO.",
        "Oskar Berg advises Parallax on hiring.",
        ("Wen Li",),
        ("Oskar Berg",),
        ("CTO",),
    ),
    # numbers with a subject
    _case(
        "t20 rate limit",
        "number",
        "The Harbor API rate limit went up from 600 to 1200 requests per minute.",
        "The Harbor API allows 600 requests per minute per key.",
        "Harbor API clients should back off above 600 requests per minute.",
        "The Lantern API allows 600 requests per minute.",
        ("1200",),
        ("600",),
        ("Harbor",),
    ),
    _case(
        "t21 plan price",
        "number",
        "The Pro plan now costs $49 a month; it was $39.",
        "The Pro plan is $39 a month.",
        "Quote $39 per month for the Pro plan to new customers.",
        "The Team plan is $39 per seat.",
        ("$49",),
        ("$39",),
        ("Pro plan",),
    ),
    _case(
        "t22 log retention",
        "number",
        "We cut log retention on the Falcon cluster from 30 days to 14 days.",
        "Falcon cluster logs are kept for 30 days.",
        "Falcon cluster retention is 30 days, so export older logs.",
        "Invoices are due within 30 days.",
        ("14 days",),
        ("30 days",),
        ("Falcon",),
    ),
    _case(
        "t23 runtime version",
        "number",
        "The Quarry service now requires Node 22; Node 18 is no longer supported there.",
        "Quarry runs on Node 18.",
        "Build Quarry with Node 18 and npm 9.",
        "The marketing site still runs on Node 18.",
        ("Node 22",),
        ("Node 18",),
        ("Quarry",),
    ),
    _case(
        "t24 hotline number",
        "number",
        "The facilities hotline changed to 020 7946 0321; 020 7946 0999 is disconnected.",
        "Call facilities on 020 7946 0999.",
        "After 6pm the facilities number 020 7946 0999 forwards to security.",
        "Reception is on 020 7946 0100.",
        ("020 7946 0321",),
        ("020 7946 0999",),
        ("facilities",),
    ),
    # a change back
    _case(
        "t25 change back, repository",
        "change back",
        "We renamed fernhill/atlas-next back to fernhill/atlas.",
        "Atlas CI runs in fernhill/atlas-next.",
        "Open Atlas PRs against fernhill/atlas-next.",
        "The Atlas design doc links to fernhill/atlas/issues/12.",
        ("fernhill/atlas",),
        ("fernhill/atlas-next",),
        prior=(
            Prior(
                "Renamed fernhill/atlas to fernhill/atlas-next.",
                ("fernhill/atlas",),
                ("fernhill/atlas-next",),
            ),
        ),
    ),
    _case(
        "t26 change back, channel",
        "change back",
        "Undo the channel rename please: #pager is #eng-oncall again.",
        "Page hand-offs are posted in #pager.",
        "#pager gets every PagerDuty alert.",
        "Old runbooks say to ask in #eng-oncall.",
        ("#eng-oncall",),
        ("#pager",),
        prior=(Prior("#eng-oncall was renamed to #pager.", ("#eng-oncall",), ("#pager",)),),
    ),
    _case(
        "t27 change back, docs host",
        "change back",
        "We moved the docs back from pinecrest.dev/docs to docs.pinecrest.io.",
        "API docs: https://pinecrest.dev/docs/api.",
        "Link customers to pinecrest.dev/docs for setup.",
        "The SDK README points to docs.pinecrest.io.",
        ("docs.pinecrest.io",),
        ("pinecrest.dev/docs",),
        prior=(
            Prior(
                "The docs moved from docs.pinecrest.io to pinecrest.dev/docs.",
                ("docs.pinecrest.io",),
                ("pinecrest.dev/docs",),
            ),
        ),
    ),
    # a change whose new value the store already names
    _case(
        "t28 new value stored, repository",
        "new value in the store",
        "The Heron API repo moved from cedar-io/heron-api to cedar-cloud/heron-api.",
        "Heron's API lives in cedar-io/heron-api.",
        "Heron API release tags are cut in cedar-io/heron-api.",
        "cedar-cloud/heron-api already holds the Heron API's new CI config.",
        ("cedar-cloud/heron-api",),
        ("cedar-io/heron-api",),
    ),
    _case(
        "t29 new value stored, channel",
        "new value in the store",
        "Use #data-eng for pipeline questions; #data-pipelines was archived.",
        "Pipeline questions go to #data-pipelines.",
        "Airflow failures are reported in #data-pipelines.",
        "#data-eng hosts the weekly data sync.",
        ("#data-eng",),
        ("#data-pipelines",),
    ),
    _case(
        "t30 new value stored, email",
        "new value in the store",
        "Payroll questions go to people-ops@tallgrass.co now instead of hr@tallgrass.co.",
        "Email hr@tallgrass.co about payroll.",
        "hr@tallgrass.co sends the payslips.",
        "people-ops@tallgrass.co runs the onboarding buddy programme.",
        ("people-ops@tallgrass.co",),
        ("hr@tallgrass.co",),
    ),
)


# ------------------------------------ fresh: 30 more cases, written blind, never used to choose

WRITER_FRESH_CASES = (
    # renames and moves
    _case(
        "f01 GitHub repository renamed",
        "rename or move",
        "saltmarsh/ledger-sync is now saltmarsh/ledgerd.",
        "Ledger Sync's code lives in saltmarsh/ledger-sync.",
        "Run the Ledger Sync tests after gh repo clone saltmarsh/ledger-sync.",
        "saltmarsh/ledger-sync-docs builds the Ledger Sync handbook.",
        ("saltmarsh/ledgerd",),
        ("saltmarsh/ledger-sync",),
    ),
    _case(
        "f02 GitLab subgroup move",
        "rename or move",
        "The Terraform modules project was moved into the platform subgroup, so "
        "gitlab.com/quarrylane/infra-modules is gitlab.com/quarrylane/platform/infra-modules now.",
        "Terraform modules: gitlab.com/quarrylane/infra-modules.",
        "Bump module versions with a merge request on gitlab.com/quarrylane/infra-modules.",
        "The infra-modules naming rules are in the Quarrylane style guide.",
        ("gitlab.com/quarrylane/platform/infra-modules",),
        ("gitlab.com/quarrylane/infra-modules",),
    ),
    _case(
        "f03 PyPI package replaced",
        "rename or move",
        "corvid-tools is dead on PyPI, pip install corvidkit instead.",
        "pip install corvid-tools for the Corvid CLI.",
        "corvid-tools is pinned below 4.0 in the data jobs.",
        "corvid-toolsmith scaffolds new Corvid plugins.",
        ("corvidkit",),
        ("corvid-tools",),
    ),
    _case(
        "f04 container registry move",
        "rename or move",
        "ghcr.io/lindenfold/ingest replaces quay.io/lindenfold/ingest; the Quay repository was "
        "deleted.",
        "Deploy quay.io/lindenfold/ingest:stable to production.",
        "Vulnerability scans cover quay.io/lindenfold/ingest every night.",
        "quay.io/lindenfold/ingestor is the old prototype, kept for reference.",
        ("ghcr.io/lindenfold/ingest",),
        ("quay.io/lindenfold/ingest",),
    ),
    _case(
        "f05 bucket, long sentence",
        "rename or move",
        "Since the data-lake migration, which also moved the table schemas, raw clickstream files "
        "land in s3://wickerbay-lake/raw instead of s3://wickerbay-raw.",
        "Raw clickstream files are dropped into s3://wickerbay-raw.",
        "The Spark jobs read events from s3://wickerbay-raw/events/.",
        "s3://wickerbay-raw-archive holds the 2022 files.",
        ("s3://wickerbay-lake/raw",),
        ("s3://wickerbay-raw",),
    ),
    # channels and URLs
    _case(
        "f06 Slack channel, arrow note",
        "channel",
        "#frontend-guild → #web-platform (Slack rename, same people)",
        "Frontend questions go to #frontend-guild on Slack.",
        "Post the Storybook preview links in #frontend-guild.",
        "The frontend guild meets on the first Thursday of the month.",
        ("#web-platform",),
        ("#frontend-guild",),
    ),
    _case(
        "f07 Discord channel retired",
        "channel",
        "The #ask-here channel on our Discord was retired, use #q-and-a.",
        "Community members ask questions in #ask-here on Discord.",
        "Pin the install FAQ in #ask-here.",
        "#ask-here-es is the Spanish-language help channel.",
        ("#q-and-a",),
        ("#ask-here",),
    ),
    _case(
        "f08 Teams channel renamed",
        "channel",
        "In Teams, the Thornbury Dispatch channel was renamed to Thornbury Logistics.",
        "Driver issues go to the Thornbury Dispatch channel in Teams.",
        "Shift swaps are posted in Thornbury Dispatch on Teams.",
        "Thornbury's dispatch desk opens at 7am.",
        ("Thornbury Logistics",),
        ("Thornbury Dispatch",),
    ),
    _case(
        "f09 wiki page, long sentence",
        "URL",
        "Since we left self-hosted Confluence for the cloud, which also means new logins for "
        "everyone, the ops playbooks live at "
        "https://brackenridge.atlassian.net/wiki/spaces/OPS/pages/playbooks and "
        "https://confluence.brackenridge.org/display/OPS/Playbooks is read-only.",
        "Ops playbooks: https://confluence.brackenridge.org/display/OPS/Playbooks.",
        "Link https://confluence.brackenridge.org/display/OPS/Playbooks in every incident ticket.",
        "The HR handbook is at https://brackenridge.atlassian.net/wiki/spaces/HR.",
        ("https://brackenridge.atlassian.net/wiki/spaces/OPS/pages/playbooks",),
        ("https://confluence.brackenridge.org/display/OPS/Playbooks",),
    ),
    _case(
        "f10 form URL, new value first",
        "URL",
        "https://forms.gle/Pm3XcY8bDa is the new bug bash sign-up form; "
        "https://forms.gle/Hq7ZtR2kVn stopped accepting answers.",
        "Sign up for the bug bash at https://forms.gle/Hq7ZtR2kVn.",
        "Share https://forms.gle/Hq7ZtR2kVn in the bug bash invite.",
        "The offsite RSVP form is https://forms.gle/Hq7ZtR2kVm.",
        ("https://forms.gle/Pm3XcY8bDa",),
        ("https://forms.gle/Hq7ZtR2kVn",),
    ),
    # owner and role changes of people
    _case(
        "f11 data protection officer, full name",
        "person",
        "Dmitri Valcourt handed the data protection officer role to Annika Solberg.",
        "Dmitri Valcourt is our data protection officer.",
        "GDPR requests need sign-off from the data protection officer, Dmitri Valcourt.",
        "Dmitri Valcourt runs the lunchtime chess club.",
        ("Annika Solberg",),
        ("Dmitri Valcourt",),
        ("data protection officer",),
    ),
    _case(
        "f12 customer contact, first name",
        "person",
        "Our contact at Vantorra is Ruairi now; Tove moved over to their legal team.",
        "Tove is our contact at Vantorra.",
        "Vantorra's contact for renewals is Tove.",
        "Tove joined Vantorra's legal team this month.",
        ("Ruairi",),
        ("Tove",),
        ("contact",),
    ),
    _case(
        "f13 owning team",
        "person",
        "Revenue Engineering has taken over the invoice generator from Billing Ops.",
        "Billing Ops owns the invoice generator.",
        "Invoice generator alerts page Billing Ops.",
        "Billing Ops runs the month-end close.",
        ("Revenue Engineering",),
        ("Billing Ops",),
        ("invoice generator",),
    ),
    _case(
        "f14 manager, full name",
        "person",
        "As of this sprint, Callum Reyes reports to Leticia Amaral instead of Gideon Fairweather.",
        "Callum Reyes's manager is Gideon Fairweather.",
        "Gideon Fairweather approves leave for Callum Reyes.",
        "Gideon Fairweather leads the platform org's hiring.",
        ("Leticia Amaral",),
        ("Gideon Fairweather",),
        ("Callum Reyes",),
    ),
    _case(
        "f15 on-call coordinator, first name",
        "person",
        "fyi the Sundial on-call coordinator is Mireille now (was Bartek)",
        "Bartek is the Sundial on-call coordinator.",
        "Swap Sundial shifts through the on-call coordinator, Bartek.",
        "Bartek maintains the Sundial build scripts.",
        ("Mireille",),
        ("Bartek",),
        ("on-call coordinator",),
    ),
    # numbers with a subject
    _case(
        "f16 gateway port",
        "number",
        "Heads-up for firewall rules: the Pellucid gateway now listens on 9443; 9440 is closed.",
        "The Pellucid gateway listens on port 9440.",
        "Open 9440 in the firewall for the Pellucid gateway.",
        "The Nimbrel metrics agent uses port 9440.",
        ("9443",),
        ("9440",),
        ("Pellucid gateway",),
    ),
    _case(
        "f17 seat price",
        "number",
        "An Enterprise seat is €135 a month now instead of €120.",
        "An Enterprise seat costs €120 a month.",
        "Quote €120 per Enterprise seat to resellers.",
        "The onboarding workshop costs €120 per attendee.",
        ("€135",),
        ("€120",),
        ("Enterprise seat",),
    ),
    _case(
        "f18 database version",
        "number",
        "Ravelin was upgraded and runs Postgres 16; Postgres 14 is gone from that cluster.",
        "Ravelin runs on Postgres 14.",
        "Ravelin migrations must stay compatible with Postgres 14.",
        "The reporting replica still runs Postgres 14.",
        ("Postgres 16",),
        ("Postgres 14",),
        ("Ravelin",),
    ),
    _case(
        "f19 session timeout",
        "number",
        "Idle sessions in the Brindle admin console now last 60 minutes, up from 15 minutes.",
        "The Brindle admin console logs you out after 15 minutes idle.",
        "Brindle admin sessions expire after 15 minutes.",
        "Keep the standup under 15 minutes.",
        ("60 minutes",),
        ("15 minutes",),
        ("Brindle",),
    ),
    _case(
        "f20 attachment limit, passive",
        "number",
        "The attachment limit in Mossgiel has been lowered from 25 MB to 10 MB.",
        "Mossgiel accepts attachments up to 25 MB.",
        "Mossgiel rejects files over 25 MB.",
        "Gmail caps attachments at 25 MB.",
        ("10 MB",),
        ("25 MB",),
        ("Mossgiel",),
    ),
    # a change back
    _case(
        "f21 change back, repository",
        "change back",
        "Reverting last week's rename, we switched driftwood-co/sandpiper-web back to "
        "driftwood-co/sandpiper-ui.",
        "The Sandpiper UI code is in driftwood-co/sandpiper-web.",
        "Tag Sandpiper releases in driftwood-co/sandpiper-web.",
        "driftwood-co/sandpiper-ui's old issues are still searchable.",
        ("driftwood-co/sandpiper-ui",),
        ("driftwood-co/sandpiper-web",),
        prior=(
            Prior(
                "Renamed driftwood-co/sandpiper-ui to driftwood-co/sandpiper-web.",
                ("driftwood-co/sandpiper-ui",),
                ("driftwood-co/sandpiper-web",),
            ),
        ),
    ),
    _case(
        "f22 change back, email",
        "change back",
        "Customer support mail goes to care@lunewick.com again; support@lunewick.zendesk.com "
        "is retired.",
        "Forward customer complaints to support@lunewick.zendesk.com.",
        "support@lunewick.zendesk.com opens a ticket for every message.",
        "care@lunewick.com is printed on the packaging inserts.",
        ("care@lunewick.com",),
        ("support@lunewick.zendesk.com",),
        prior=(
            Prior(
                "Customer support moved from care@lunewick.com to support@lunewick.zendesk.com.",
                ("care@lunewick.com",),
                ("support@lunewick.zendesk.com",),
            ),
        ),
    ),
    _case(
        "f23 change back, channel",
        "change back",
        "We reverted the channel rename, so #ai-lab is now called #ml-research again.",
        "Paper discussions happen in #ai-lab.",
        "#ai-lab hosts the reading group schedule.",
        "The 2023 reading list is pinned in #ml-research.",
        ("#ml-research",),
        ("#ai-lab",),
        prior=(Prior("#ml-research was renamed #ai-lab.", ("#ml-research",), ("#ai-lab",)),),
    ),
    _case(
        "f24 change back, gateway host",
        "change back",
        "We rolled back the gateway move: edge.pemberton.cloud was switched off and the API "
        "gateway moved back to gw.pemberton.cloud.",
        "Point the mobile app at edge.pemberton.cloud.",
        "edge.pemberton.cloud terminates TLS for the public API.",
        "gw.pemberton.cloud still answers the legacy SOAP calls.",
        ("gw.pemberton.cloud",),
        ("edge.pemberton.cloud",),
        prior=(
            Prior(
                "The API gateway moved from gw.pemberton.cloud to edge.pemberton.cloud.",
                ("gw.pemberton.cloud",),
                ("edge.pemberton.cloud",),
            ),
        ),
    ),
    _case(
        "f25 change back, environment variable",
        "change back",
        "The old Helm charts broke, so we changed GRISTMILL_DATABASE_URL back to GRISTMILL_DB_DSN.",
        "Set GRISTMILL_DATABASE_URL in the worker's .env file.",
        "The Gristmill migrations read GRISTMILL_DATABASE_URL.",
        "The 2023 Helm charts still set GRISTMILL_DB_DSN.",
        ("GRISTMILL_DB_DSN",),
        ("GRISTMILL_DATABASE_URL",),
        prior=(
            Prior(
                "GRISTMILL_DB_DSN was renamed to GRISTMILL_DATABASE_URL.",
                ("GRISTMILL_DB_DSN",),
                ("GRISTMILL_DATABASE_URL",),
            ),
        ),
    ),
    # a change whose new value the store already names
    _case(
        "f26 new value stored, repository",
        "new value in the store",
        "We moved off bitbucket.org/copperline/field-app to github.com/copperline/field-app "
        "for the Android code.",
        "The Android field app is in bitbucket.org/copperline/field-app.",
        "git clone https://bitbucket.org/copperline/field-app.git to build the field app.",
        "github.com/copperline/field-app already runs the Dependabot checks.",
        ("github.com/copperline/field-app",),
        ("bitbucket.org/copperline/field-app",),
    ),
    _case(
        "f27 new value stored, channel",
        "new value in the store",
        "#copydesk has been archived in favour of #editorial.",
        "Send headline drafts to #copydesk for a second read.",
        "#copydesk signs off the style of every press release.",
        "#editorial gets the weekly newsletter draft.",
        ("#editorial",),
        ("#copydesk",),
    ),
    _case(
        "f28 new value stored, search host",
        "new value in the store",
        "Log queries: use search.birchmoor.internal, es01.birchmoor.internal was decommissioned.",
        "Query the logs on es01.birchmoor.internal:9200.",
        "Kibana reads from es01.birchmoor.internal.",
        "search.birchmoor.internal also serves the product catalogue index.",
        ("search.birchmoor.internal",),
        ("es01.birchmoor.internal",),
    ),
    _case(
        "f29 new value stored, email",
        "new value in the store",
        "Vendor invoices go to ap@kilnworth.com; finance@kilnworth.com no longer takes them.",
        "Vendors email their invoices to finance@kilnworth.com.",
        "finance@kilnworth.com confirms when an invoice is paid.",
        "ap@kilnworth.com also handles expense reimbursements.",
        ("ap@kilnworth.com",),
        ("finance@kilnworth.com",),
    ),
    _case(
        "f30 new value stored, image",
        "new value in the store",
        "From docker.io/library/nginx to cr.brightmoss.net/ops/nginx-hardened: the ingress "
        "deployment switched its image today.",
        "The ingress proxy runs docker.io/library/nginx:1.25.",
        "Pin docker.io/library/nginx in the ingress Helm values.",
        "cr.brightmoss.net/ops/nginx-hardened already fronts the status site.",
        ("cr.brightmoss.net/ops/nginx-hardened",),
        ("docker.io/library/nginx",),
    ),
)

# ------------------------------ blind: 30 cases by another engineer, never used to choose

WRITER_BLIND_CASES = (
    # renames and moves
    _case(
        "g01 repository transferred, chat note",
        "rename or move",
        "heads up, halyard-dev/tidepool got transferred to the new org, it's "
        "bluefin-systems/tidepool now",
        "Tidepool's source code is in halyard-dev/tidepool.",
        "To work on Tidepool, run git clone https://github.com/halyard-dev/tidepool.git",
        "halyard-dev/tidepool-charts has the Helm charts for Tidepool.",
        ("bluefin-systems/tidepool",),
        ("halyard-dev/tidepool",),
    ),
    _case(
        "g02 crate deprecated in favour of another",
        "rename or move",
        "The marrow-core crate is deprecated in favour of marrowlib, so new code should depend "
        "on marrowlib.",
        'Add marrow-core = "0.9" to Cargo.toml to parse Marrow files.',
        "The Marrow importer depends on marrow-core.",
        "marrow-core-macros provides the derive macros for Marrow types.",
        ("marrowlib",),
        ("marrow-core",),
    ),
    _case(
        "g03 image, we switched to",
        "rename or move",
        "We switched the billing worker to registry.gitlab.com/oxbow/billing-worker; "
        "oxbowhq/billing-worker on Docker Hub won't get any new tags.",
        "docker pull oxbowhq/billing-worker:2.3 to run the billing worker locally.",
        "The staging cluster runs oxbowhq/billing-worker.",
        "oxbowhq/billing-worker-cron runs the nightly invoice job.",
        ("registry.gitlab.com/oxbow/billing-worker",),
        ("oxbowhq/billing-worker",),
    ),
    _case(
        "g04 bucket, no longer",
        "rename or move",
        "Training checkpoints are no longer stored in gs://glenmore-ckpt: everything was copied "
        "to gs://glenmore-ml/checkpoints last night and the old bucket will be deleted.",
        "Training jobs save their checkpoints to gs://glenmore-ckpt.",
        "Resume a run with --resume-from gs://glenmore-ckpt/run-417.",
        "gs://glenmore-ckpt-eval keeps the evaluation snapshots.",
        ("gs://glenmore-ml/checkpoints",),
        ("gs://glenmore-ckpt",),
    ),
    _case(
        "g05 domain, long sentence",
        "rename or move",
        "We changed domains, and since the certificates were renewed at the same time you may "
        "see a browser warning once: the site is served from fennick.com now, and fennick.app "
        "only redirects there until March.",
        "The marketing site is https://fennick.app.",
        "Password reset emails link to fennick.app/reset.",
        "The legacy admin still runs on fennick.appspot.com (Google App Engine).",
        ("fennick.com",),
        ("fennick.app",),
    ),
    # channels and URLs
    _case(
        "g06 Slack channel, X is now Y",
        "channel",
        "#mobile-release-train is now #mobile-ship",
        "Release coordination for the apps happens in #mobile-release-train.",
        "Post the TestFlight build number in #mobile-release-train.",
        "#mobile-release-notes collects the public changelog text.",
        ("#mobile-ship",),
        ("#mobile-release-train",),
    ),
    _case(
        "g07 Discord channel merged",
        "channel",
        "Brackwater Discord cleanup: #newbie-questions was merged into #player-support, so send "
        "new players there.",
        "Point new Brackwater players to #newbie-questions on Discord.",
        "The Brackwater mods answer #newbie-questions every evening.",
        "#newbie-showcase is where players post their first builds.",
        ("#player-support",),
        ("#newbie-questions",),
    ),
    _case(
        "g08 checklist page moved",
        "URL",
        "Please update your bookmarks: the onboarding checklist moved from "
        "notion.so/marlowe/onboarding-checklist to https://handbook.marlowe.team/onboarding.",
        "New hires work through https://www.notion.so/marlowe/onboarding-checklist in week one.",
        "Managers tick off laptop setup in notion.so/marlowe/onboarding-checklist.",
        "Contractors follow notion.so/marlowe/onboarding-checklist-contractors instead.",
        ("https://handbook.marlowe.team/onboarding",),
        ("notion.so/marlowe/onboarding-checklist",),
    ),
    _case(
        "g09 press mailbox, passive",
        "email",
        "Please note that the press office can now be reached at media@orrinford.org; the "
        "address press-office@orrinford.org has been shut down.",
        "Journalists write to press-office@orrinford.org.",
        "Forward interview requests to press-office@orrinford.org.",
        "press-office-eu@orrinford.org handles the Brussels press.",
        ("media@orrinford.org",),
        ("press-office@orrinford.org",),
    ),
    _case(
        "g10 meeting link, list",
        "URL",
        "All-hands link changed:\n- old: https://meet.google.com/qxr-bnvt-kpa\n"
        "- new: https://meet.google.com/wmd-ytcs-hjo",
        "Monthly all-hands: https://meet.google.com/qxr-bnvt-kpa.",
        "Paste https://meet.google.com/qxr-bnvt-kpa into the all-hands calendar invite.",
        "The design crit uses https://meet.google.com/qxr-bnvt-kpz.",
        ("https://meet.google.com/wmd-ytcs-hjo",),
        ("https://meet.google.com/qxr-bnvt-kpa",),
    ),
    # owner and role changes of people
    _case(
        "g11 reviewer, full name",
        "person",
        "Vendor security reviews are Thandiwe Mokoena's job now; Ricardo Albuquerque has moved "
        "over to procurement.",
        "Vendor security reviews are done by Ricardo Albuquerque.",
        "Send the vendor security questionnaire to Ricardo Albuquerque for review.",
        "Ricardo Albuquerque approves purchase orders for procurement.",
        ("Thandiwe Mokoena",),
        ("Ricardo Albuquerque",),
        ("vendor security",),
    ),
    _case(
        "g12 customer's IT manager, first name",
        "person",
        "Just got off a call with Halvorsen Freight. Their IT manager is Søren now, Beatriz "
        "retired last month.",
        "Beatriz is the IT manager at Halvorsen Freight.",
        "VPN access requests for Halvorsen Freight go through Beatriz.",
        "Beatriz from our finance team books the team travel.",
        ("Søren",),
        ("Beatriz",),
        ("Halvorsen",),
    ),
    _case(
        "g13 security contact, full name",
        "person",
        "Quillfeather's security contact is no longer Oluwaseun Adeyemi; vulnerability reports "
        "should go to Margarethe Lindqvist.",
        "Oluwaseun Adeyemi is the security contact for Quillfeather.",
        "Report Quillfeather vulnerabilities privately to the security contact, Oluwaseun Adeyemi.",
        "Oluwaseun Adeyemi maintains Quillfeather's documentation site.",
        ("Margarethe Lindqvist",),
        ("Oluwaseun Adeyemi",),
        ("security contact",),
    ),
    _case(
        "g14 squad lead, first name",
        "person",
        "Ingest squad lead: Teodora from Monday (Anselm is stepping back to IC work).",
        "Anselm leads the Ingest squad.",
        "Ingest squad sprint plans need Anselm's sign-off.",
        "Anselm mentors this year's graduate hires.",
        ("Teodora",),
        ("Anselm",),
        ("Ingest",),
    ),
    _case(
        "g15 account owner, full name",
        "person",
        "We reshuffled accounts: Idris Fairbanks takes over Korrigan Bikes from Lucia "
        "Montenegro, who keeps the rest of her portfolio.",
        "Lucia Montenegro is the account owner for Korrigan Bikes.",
        "Escalate Korrigan Bikes billing disputes to Lucia Montenegro.",
        "Lucia Montenegro owns the Ostrander Tools account.",
        ("Idris Fairbanks",),
        ("Lucia Montenegro",),
        ("Korrigan",),
    ),
    # numbers with a subject
    _case(
        "g16 backup time, terse",
        "number",
        "tamberlane nightly backup runs at 01:15 UTC now instead of 03:45 UTC",
        "The Tamberlane nightly backup starts at 03:45 UTC.",
        "Don't deploy Tamberlane around 03:45 UTC, the backup locks the tables.",
        "The weekly usage report email goes out at 03:45 UTC.",
        ("01:15 UTC",),
        ("03:45 UTC",),
        ("Tamberlane",),
    ),
    _case(
        "g17 tier price",
        "number",
        "Price change on the Starter tier: CHF 19 per month from 1 July, up from CHF 15.",
        "The Starter tier costs CHF 15 per month.",
        "Sales quote CHF 15 a month for Starter.",
        "Parking at the Zurich office is CHF 15 a day.",
        ("CHF 19",),
        ("CHF 15",),
        ("Starter",),
    ),
    _case(
        "g18 Python version",
        "number",
        "We bumped Lindwurm to Python 3.13; Python 3.11 isn't supported there anymore.",
        "Lindwurm's CI runs the tests on Python 3.11.",
        "Lindwurm wheels are built for Python 3.11 only.",
        "The Orrery notebooks still pin Python 3.11.",
        ("Python 3.13",),
        ("Python 3.11",),
        ("Lindwurm",),
    ),
    _case(
        "g19 disk quota, passive",
        "number",
        "The disk quota on the Cormorant build agents has been increased from 80 GB to 200 GB.",
        "Cormorant build agents have an 80 GB disk quota.",
        "Clean the Docker cache before a Cormorant agent hits 80 GB.",
        "The shared drive gives each team 80 GB.",
        ("200 GB",),
        ("80 GB",),
        ("Cormorant",),
    ),
    _case(
        "g20 response time",
        "number",
        "New SLA for Pelagic support tickets: first response within 4 hours instead of 24 hours.",
        "Pelagic support promises a first response within 24 hours.",
        "Escalate a Pelagic ticket if it has had no reply after 24 hours.",
        "Deleted files can be restored within 24 hours.",
        ("4 hours",),
        ("24 hours",),
        ("Pelagic",),
    ),
    # a change back
    _case(
        "g21 change back, repository",
        "change back",
        "corvina/platform-monorepo is called corvina/platform again, we undid last sprint's "
        "rename.",
        "All platform services live in corvina/platform-monorepo.",
        "CODEOWNERS for corvina/platform-monorepo lists the platform leads.",
        "Old wiki pages still link to corvina/platform.",
        ("corvina/platform",),
        ("corvina/platform-monorepo",),
        prior=(
            Prior(
                "corvina/platform was renamed to corvina/platform-monorepo.",
                ("corvina/platform",),
                ("corvina/platform-monorepo",),
            ),
        ),
    ),
    _case(
        "g22 change back, channel, chat note",
        "change back",
        "we're going back to #qa-triage for bug triage, #bugs-incoming didn't work out",
        "New bug reports land in #bugs-incoming.",
        "The triage rota checks #bugs-incoming twice a day.",
        "#qa-triage has the pinned severity guide.",
        ("#qa-triage",),
        ("#bugs-incoming",),
        prior=(
            Prior(
                "Bug triage moved from #qa-triage to #bugs-incoming.",
                ("#qa-triage",),
                ("#bugs-incoming",),
            ),
        ),
    ),
    _case(
        "g23 change back, package mirror",
        "change back",
        "The package mirror is pypi.ostrava-lab.cz again; the switch to mirror.ostrava-lab.cz "
        "was rolled back because of TLS errors.",
        "pip.conf points index-url at https://mirror.ostrava-lab.cz/simple.",
        "mirror.ostrava-lab.cz caches wheels for the CI runners.",
        "pypi.ostrava-lab.cz still hosts the internal-only packages.",
        ("pypi.ostrava-lab.cz",),
        ("mirror.ostrava-lab.cz",),
        prior=(
            Prior(
                "The package mirror moved from pypi.ostrava-lab.cz to mirror.ostrava-lab.cz.",
                ("pypi.ostrava-lab.cz",),
                ("mirror.ostrava-lab.cz",),
            ),
        ),
    ),
    _case(
        "g24 change back, email",
        "change back",
        "Expense claims: back to expenses@hollowmere.co.uk. The "
        "claims@hollowmere.expensify.com address has been dropped.",
        "Email receipts to claims@hollowmere.expensify.com.",
        "claims@hollowmere.expensify.com auto-replies with a claim number.",
        "expenses@hollowmere.co.uk is listed on the old finance FAQ page.",
        ("expenses@hollowmere.co.uk",),
        ("claims@hollowmere.expensify.com",),
        prior=(
            Prior(
                "Expense claims moved from expenses@hollowmere.co.uk to "
                "claims@hollowmere.expensify.com.",
                ("expenses@hollowmere.co.uk",),
                ("claims@hollowmere.expensify.com",),
            ),
        ),
    ),
    _case(
        "g25 change back, API host",
        "change back",
        "The v3 API is served from api.tarnwell.io again; we reverted the move to "
        "gateway.tarnwell.io.",
        "Call https://gateway.tarnwell.io/v3/orders to list orders.",
        "The SDK's base URL is gateway.tarnwell.io.",
        "Webhooks are still signed by api.tarnwell.io.",
        ("api.tarnwell.io",),
        ("gateway.tarnwell.io",),
        prior=(
            Prior(
                "The v3 API moved from api.tarnwell.io to gateway.tarnwell.io.",
                ("api.tarnwell.io",),
                ("gateway.tarnwell.io",),
            ),
        ),
    ),
    # a change whose new value the store already names
    _case(
        "g26 new value stored, repository",
        "new value in the store",
        "Stop using nimbus-ops/deploy-scripts, we've consolidated everything into "
        "nimbus-ops/shipyard.",
        "Deploy scripts live in nimbus-ops/deploy-scripts.",
        "Run ./release.sh from a checkout of nimbus-ops/deploy-scripts.",
        "nimbus-ops/shipyard already builds the preview environments.",
        ("nimbus-ops/shipyard",),
        ("nimbus-ops/deploy-scripts",),
    ),
    _case(
        "g27 new value stored, channel, chat note",
        "new value in the store",
        "ok so #design-crit isn't a thing anymore, feedback on mocks goes in #design-review",
        "Share Figma mocks in #design-crit for feedback.",
        "#design-crit runs a review thread every Wednesday.",
        "#design-review gets the final sign-off on UI changes.",
        ("#design-review",),
        ("#design-crit",),
    ),
    _case(
        "g28 new value stored, Kafka host",
        "new value in the store",
        "Producers should bootstrap from kafka-prod.ashcombe.net; kafka01.ashcombe.net was "
        "retired last night.",
        "Kafka bootstrap server: kafka01.ashcombe.net:9092.",
        "The order events topic lives on kafka01.ashcombe.net.",
        "kafka-prod.ashcombe.net already serves the audit log topics.",
        ("kafka-prod.ashcombe.net",),
        ("kafka01.ashcombe.net",),
    ),
    _case(
        "g29 new value stored, contact, first name",
        "new value in the store",
        "Our account manager at Brackenbury Press is Ximena now, she took over from Wolfgang.",
        "Wolfgang is our account manager at Brackenbury Press.",
        "Ask Wolfgang at Brackenbury Press for reprint quotes.",
        "Ximena at Brackenbury Press handles the translation rights.",
        ("Ximena",),
        ("Wolfgang",),
        ("Brackenbury",),
    ),
    _case(
        "g30 new value stored, shipping price",
        "new value in the store",
        "Standard shipping on Fairlop orders is €6.90 now, was €4.90.",
        "Standard shipping on Fairlop orders costs €4.90.",
        "Tell Fairlop customers that standard delivery is €4.90.",
        "Express shipping on Fairlop orders costs €6.90.",
        ("€6.90",),
        ("€4.90",),
        ("Fairlop",),
    ),
)

# ------------------------- blind2: 30 more cases by a helper engineer, never used to choose


# A blind2 case: its gold call also names the new values (replaced_by), as the shipped system
# prompt asks, so a careful writer sends them; the other splits' gold calls leave them out
# and let nowline read the text.
_case2 = partial(_case, gold_names_new=True)


WRITER_BLIND2_CASES = (
    # renames and moves
    _case2(
        "h01 repository handed to a foundation, long sentence",
        "rename or move",
        "Just so everyone knows, the Sextant mapping toolkit was handed over to the foundation "
        "last Thursday and now sits at openchart-foundation/sextant; the old location, "
        "marisol-geo/sextant, is read-only.",
        "Sextant bugs are filed at https://github.com/marisol-geo/sextant/issues.",
        "pip install git+https://github.com/marisol-geo/sextant installs the Sextant dev build.",
        "marisol-geo/sextant-tiles serves the prebuilt map tiles.",
        ("openchart-foundation/sextant",),
        ("marisol-geo/sextant",),
    ),
    _case2(
        "h02 npm package renamed, chat note",
        "rename or move",
        "fyi the @quorra/ui-kit package got renamed, install and import @quorra/design-system "
        "from now on",
        "Install the component library with npm i @quorra/ui-kit.",
        "The checkout app imports its Button from @quorra/ui-kit.",
        "@quorra/ui-kit-icons ships the SVG icon set.",
        ("@quorra/design-system",),
        ("@quorra/ui-kit",),
    ),
    _case2(
        "h03 image renamed on the same registry",
        "rename or move",
        "We renamed the frontend image: it's published as docker.io/tarnhollow/storefront now, "
        "and docker.io/tarnhollow/web-frontend stopped getting tags.",
        "The storefront deployment runs docker.io/tarnhollow/web-frontend:4.2.",
        "Pull docker.io/tarnhollow/web-frontend to reproduce storefront bugs locally.",
        "docker.io/tarnhollow/web-frontend-e2e runs the Playwright suite.",
        ("docker.io/tarnhollow/storefront",),
        ("docker.io/tarnhollow/web-frontend",),
    ),
    _case2(
        "h04 cache host moved off a machine",
        "rename or move",
        "We've moved the build cache off of cache1.wexford-ci.net. It lives on "
        "bazel-cache.wexford-ci.net, which is bigger and in the same region.",
        "Bazel uses --remote_cache=grpcs://cache1.wexford-ci.net for remote caching.",
        "If builds are slow, check the disk usage on cache1.wexford-ci.net.",
        "cache12.wexford-ci.net mirrors the Maven artifacts.",
        ("bazel-cache.wexford-ci.net",),
        ("cache1.wexford-ci.net",),
    ),
    _case2(
        "h05 PyPI package renamed, heads-up",
        "rename or move",
        "Heads-up for anyone with old requirements files: tallowpy was renamed on PyPI to "
        "tallow-client, and tallowpy itself won't get any more releases.",
        "The reporting service pins tallowpy==2.4.1 in requirements.txt.",
        "The Tallow API client is installed with pip install tallowpy.",
        "tallowpy-stubs provides the type hints for the Tallow client.",
        ("tallow-client",),
        ("tallowpy",),
    ),
    # channels and URLs
    _case2(
        "h06 Slack channel replaced by a dedicated one",
        "channel",
        "Could you remember that A/B testing discussions left #growth-experiments? We made a "
        "dedicated channel, #exp-platform, and the old one is archived.",
        "Ask about A/B test setup in #growth-experiments.",
        "Experiment readouts are posted to #growth-experiments every Monday.",
        "#growth-experiments-alerts gets the automated guardrail alerts.",
        ("#exp-platform",),
        ("#growth-experiments",),
    ),
    _case2(
        "h07 Matrix room moved",
        "channel",
        "The Kittiwake dev chat on Matrix moved: join #kittiwake:kittiwake.chat, the old room "
        "#kittiwake-dev:matrix.org is tombstoned.",
        "Kittiwake contributors chat in #kittiwake-dev:matrix.org.",
        "Kittiwake release candidates are announced in the Matrix room #kittiwake-dev:matrix.org.",
        "#kittiwake-users:matrix.org is the support room for Kittiwake users.",
        ("#kittiwake:kittiwake.chat",),
        ("#kittiwake-dev:matrix.org",),
    ),
    _case2(
        "h08 dashboard URL gets a -v2 suffix, lowercase",
        "URL",
        "the grafana board for checkout latency is at https://grafana.quenby.io/d/chk-lat-v2 "
        "now, the old https://grafana.quenby.io/d/chk-lat link 404s",
        "Checkout latency dashboard: https://grafana.quenby.io/d/chk-lat.",
        "During checkout incidents, open https://grafana.quenby.io/d/chk-lat and watch p99.",
        "Checkout error rates are on https://grafana.quenby.io/d/chk-err.",
        ("https://grafana.quenby.io/d/chk-lat-v2",),
        ("https://grafana.quenby.io/d/chk-lat",),
    ),
    _case2(
        "h09 purchase-order mailbox, from now on",
        "email",
        "From now on purchase orders go to po@kilbride-foods.com; orders@kilbride-foods.com was "
        "a shared inbox and it's being closed.",
        "Send purchase orders to orders@kilbride-foods.com.",
        "orders@kilbride-foods.com confirms purchase orders within two working days.",
        "uk-orders@kilbride-foods.com takes the orders from the UK web shop.",
        ("po@kilbride-foods.com",),
        ("orders@kilbride-foods.com",),
    ),
    _case2(
        "h10 two intranet links, list",
        "URL",
        "Two link changes from the Ashdown intranet clean-up:\n"
        "* travel policy: intranet.ashdown.org/travel is now handbook.ashdown.org/travel\n"
        "* expenses: intranet.ashdown.org/expenses is now handbook.ashdown.org/expenses",
        "The travel policy is at https://intranet.ashdown.org/travel.",
        "Claim expenses with the form at intranet.ashdown.org/expenses.",
        "intranet.ashdown.org/holidays lists the days the office is closed.",
        ("handbook.ashdown.org/travel", "handbook.ashdown.org/expenses"),
        ("intranet.ashdown.org/travel", "intranet.ashdown.org/expenses"),
    ),
    # owner and role changes of people
    _case2(
        "h11 works council chair, full name, two anchors",
        "person",
        "Benedikt Auerbach stepped down as chair of the works council (Betriebsrat); Yetunde "
        "Okonkwo-Reyes was elected in his place.",
        "Benedikt Auerbach chairs the works council.",
        "Restructuring plans must be shown to the Betriebsrat chair, Benedikt Auerbach.",
        "Benedikt Auerbach wrote the retention section of the security handbook.",
        ("Yetunde Okonkwo-Reyes",),
        ("Benedikt Auerbach",),
        ("works council", "Betriebsrat"),
    ),
    _case2(
        "h12 property manager, first name",
        "person",
        "Building stuff: the property manager for our Larkhall Street lease is Giulia now, not "
        "Kwame.",
        "Kwame is the property manager for the Larkhall Street office.",
        "Report heating problems at Larkhall Street to Kwame.",
        "Kwame from our warehouse team signs for deliveries.",
        ("Giulia",),
        ("Kwame",),
        ("Larkhall Street",),
    ),
    _case2(
        "h13 owning team",
        "person",
        "Heads up: ownership of the Kinsale invoice renderer passed to the Ledger Guild; Bedrock "
        "Infra no longer owns it.",
        "Bedrock Infra owns the Kinsale invoice renderer.",
        "Kinsale invoice renderer outages are escalated to Bedrock Infra.",
        "Bedrock Infra runs the shared Terraform modules.",
        ("Ledger Guild",),
        ("Bedrock Infra",),
        ("Kinsale",),
    ),
    _case2(
        "h14 board chair, full name, passive",
        "person",
        "The chair of the EMEA change advisory board has been handed from Aurelio Bianchini to "
        "Hyun-woo Park.",
        "Aurelio Bianchini chairs the EMEA change advisory board.",
        "Risky EMEA changes need a yes from the change advisory board chair, Aurelio Bianchini.",
        "Aurelio Bianchini runs the APAC capacity review.",
        ("Hyun-woo Park",),
        ("Aurelio Bianchini",),
        ("change advisory board",),
    ),
    _case2(
        "h15 team lead, first name, with an unchanged one beside it",
        "person",
        "Team lead changes this quarter: Frontend stays with Matteo; Checkout goes from Rafferty "
        "to Oona.",
        "Rafferty leads the Checkout team.",
        "The Checkout release go/no-go is Rafferty's call.",
        "Rafferty organises the Friday demo for all teams.",
        ("Oona",),
        ("Rafferty",),
        ("Checkout",),
    ),
    # numbers with a subject
    _case2(
        "h16 parallel jobs of one tier, the other tier keeps it",
        "number",
        "Saltcote cut the free tier to 2 parallel jobs; it was 4 parallel jobs. Paid tiers are "
        "unchanged.",
        "Saltcote's free tier runs 4 parallel jobs.",
        "On the free tier, Saltcote queues anything beyond 4 parallel jobs.",
        "Saltcote's paid tier runs 4 parallel jobs per seat.",
        ("2 parallel jobs",),
        ("4 parallel jobs",),
        ("free tier",),
    ),
    _case2(
        "h17 office opening time, heads up",
        "number",
        "Heads up, the Glenrock office opens at 8:30 now; it used to be 9:00.",
        "The Glenrock office opens at 9:00.",
        "Glenrock reception is staffed from 9:00 on weekdays.",
        "The Monday stand-up starts at 9:00.",
        ("8:30",),
        ("9:00",),
        ("Glenrock",),
    ),
    _case2(
        "h18 Go toolchain version",
        "number",
        "Building the Wrexley CLI takes Go 1.23 or newer these days, Go 1.21 won't compile it "
        "anymore.",
        "The Wrexley CLI builds with Go 1.21.",
        "The Wrexley CLI's CI installs Go 1.21 before running make.",
        "The Dunlin exporter's Dockerfile pins Go 1.21.",
        ("Go 1.23",),
        ("Go 1.21",),
        ("Wrexley",),
    ),
    _case2(
        "h19 hourly rate of one job",
        "number",
        "Labour on the Osgood retrofit is billed at $95/hour from now on, was $80/hour.",
        "Osgood retrofit contractors bill $80/hour.",
        "Budget the Osgood retrofit labour at $80/hour.",
        "The Osgood van rental is $80/hour.",
        ("$95/hour",),
        ("$80/hour",),
        ("retrofit",),
    ),
    _case2(
        "h20 project cap per workspace, passive",
        "number",
        "Ferrymead workspaces were bumped from a limit of 5 projects to 12 projects each.",
        "Ferrymead workspaces are limited to 5 projects.",
        "Archive an old project before one of your Ferrymead workspaces reaches 5 projects.",
        "Ferrymead's starter course walks you through 5 projects.",
        ("12 projects",),
        ("5 projects",),
        ("workspaces",),
    ),
    # a change back
    _case2(
        "h21 change back, repository transfer reverted",
        "change back",
        "Marram is back under marram-oss/marram. Legal reverted the transfer to "
        "kelpie-corp/marram after the licence review.",
        "Marram's code is in kelpie-corp/marram.",
        "Open Marram issues at github.com/kelpie-corp/marram/issues.",
        "The Marram 1.0 release notes are in marram-oss/marram.",
        ("marram-oss/marram",),
        ("kelpie-corp/marram",),
        prior=(
            Prior(
                "Marram was transferred from marram-oss/marram to kelpie-corp/marram.",
                ("marram-oss/marram",),
                ("kelpie-corp/marram",),
            ),
        ),
    ),
    _case2(
        "h22 change back, channel, terse",
        "change back",
        "#gtm-sync is retired, launch coordination goes back to #launch-room",
        "Launch checklists are posted in #gtm-sync.",
        "The marketing and product leads plan launches in #gtm-sync.",
        "#launch-room has the launch calendar pinned.",
        ("#launch-room",),
        ("#gtm-sync",),
        prior=(
            Prior(
                "Launch coordination moved from #launch-room to #gtm-sync.",
                ("#launch-room",),
                ("#gtm-sync",),
            ),
        ),
    ),
    _case2(
        "h23 change back, CI runners, long sentence",
        "change back",
        "After two weeks of flaky builds on the new runners we've reverted: CI jobs run on "
        "runners.quillon.dev again, and ci-arm.quillon.dev has been taken out of the pool.",
        "CI jobs are scheduled on ci-arm.quillon.dev.",
        "SSH into ci-arm.quillon.dev to debug a stuck CI job.",
        "runners.quillon.dev also hosts the nightly fuzzing jobs.",
        ("runners.quillon.dev",),
        ("ci-arm.quillon.dev",),
        prior=(
            Prior(
                "CI jobs moved from runners.quillon.dev to ci-arm.quillon.dev.",
                ("runners.quillon.dev",),
                ("ci-arm.quillon.dev",),
            ),
        ),
    ),
    _case2(
        "h24 change back, base image rolled back",
        "change back",
        "Base image rollback for Reedmoor: we're back on python:3.12-slim, python:3.13-slim "
        "broke the C extensions.",
        "The Reedmoor Dockerfile starts FROM python:3.13-slim.",
        "Rebuild Reedmoor with docker build --build-arg BASE=python:3.13-slim .",
        "Reedmoor's docs container uses python:3.12-slim.",
        ("python:3.12-slim",),
        ("python:3.13-slim",),
        prior=(
            Prior(
                "Reedmoor's base image moved from python:3.12-slim to python:3.13-slim.",
                ("python:3.12-slim",),
                ("python:3.13-slim",),
            ),
        ),
    ),
    _case2(
        "h25 change back, sign-in host undone",
        "change back",
        "Staff sign in at login.velmora.io again; the move to velmora.okta.com has been undone.",
        "Staff sign in at https://velmora.okta.com.",
        "Reset your staff password from velmora.okta.com.",
        "login.velmora.io/partners is the sign-in page of the partner portal.",
        ("login.velmora.io",),
        ("velmora.okta.com",),
        prior=(
            Prior(
                "Staff sign-in moved from login.velmora.io to velmora.okta.com.",
                ("login.velmora.io",),
                ("velmora.okta.com",),
            ),
        ),
    ),
    # a change whose new value the store already names
    _case2(
        "h26 new value stored, Helm chart repository",
        "new value in the store",
        "Publish and pull Helm charts from oci://registry.lockhart.dev/charts. "
        "https://charts.lockhart.dev stays up for a month but gets no new versions.",
        "Add the chart repo with helm repo add lockhart https://charts.lockhart.dev",
        "CI uploads packaged charts to https://charts.lockhart.dev/api/charts.",
        "oci://registry.lockhart.dev/charts already hosts the ingress chart.",
        ("oci://registry.lockhart.dev/charts",),
        ("https://charts.lockhart.dev",),
    ),
    _case2(
        "h27 new value stored, channel folded into a bigger one",
        "new value in the store",
        "We're folding #frontend-help into #webdev. It's already the bigger channel, so just use "
        "that.",
        "Ask CSS and React questions in #frontend-help.",
        "#frontend-help has a weekly office-hours thread.",
        "#webdev announces changes to the shared build tooling.",
        ("#webdev",),
        ("#frontend-help",),
    ),
    _case2(
        "h28 new value stored, approver, full name",
        "new value in the store",
        "Procurement approvals: Saoirse Gallagher has taken them over from Casimir Volkonsky.",
        "Casimir Volkonsky approves procurement requests over €5,000.",
        "Procurement approvals wait for Casimir Volkonsky.",
        "Saoirse Gallagher approves software licence renewals.",
        ("Saoirse Gallagher",),
        ("Casimir Volkonsky",),
        ("procurement",),
    ),
    _case2(
        "h29 new value stored, trial length",
        "new value in the store",
        "The Tollgate free trial is 45 days long now, up from 21 days.",
        "Tollgate's free trial lasts 21 days.",
        "Remind Tollgate trial users to upgrade before their 21 days run out.",
        "Tollgate's refund window is 45 days.",
        ("45 days",),
        ("21 days",),
        ("Tollgate",),
    ),
    _case2(
        "h30 new value stored, mail relay, new value first",
        "new value in the store",
        "smtp-relay.corbeau.net is the only mail relay from now on; mx-out2.corbeau.net was "
        "unplugged on Friday.",
        "Apps send mail through mx-out2.corbeau.net on port 587.",
        "Allow outbound traffic to mx-out2.corbeau.net in the firewall.",
        "smtp-relay.corbeau.net relays the marketing newsletters.",
        ("smtp-relay.corbeau.net",),
        ("mx-out2.corbeau.net",),
    ),
)


# ------------------ blind3: 30 more cases by another helper engineer, in a module of their own

# imported here, after Prior and _case, which that module imports from this one to build its
# cases (so this import must stay below them)
from _writer_blind3 import _SAY_BLIND3, WRITER_BLIND3_CASES  # noqa: E402

# ------------------ blind4: 30 more cases by another helper engineer, in a module of their own
from _writer_blind4 import _SAY_BLIND4, WRITER_BLIND4_CASES  # noqa: E402

# ------------------ blind5: 30 more cases by another helper engineer, in a module of their own
from _writer_blind5 import _SAY_BLIND5, WRITER_BLIND5_CASES  # noqa: E402

# ------------------ blind6: 30 more cases by another helper engineer, in a module of their own
from _writer_blind6 import _SAY_BLIND6, WRITER_BLIND6_CASES  # noqa: E402

# ------------------ blind7: 30 more cases by another helper engineer, in a module of their own
from _writer_blind7 import _SAY_BLIND7, WRITER_BLIND7_CASES  # noqa: E402

# ------------------ blind8: 30 more cases by another helper engineer, in a module of their own
from _writer_blind8 import _SAY_BLIND8, WRITER_BLIND8_CASES  # noqa: E402

# ------------------ blind9: 30 more cases by another helper engineer, in a module of their own
from _writer_blind9 import _SAY_BLIND9, WRITER_BLIND9_CASES  # noqa: E402

_SPLITS = (
    "dev",
    "test",
    "fresh",
    "blind",
    "blind2",
    "blind3",
    "blind4",
    "blind5",
    "blind6",
    "blind7",
    "blind8",
    "blind9",
)


def _check_split(split: str) -> None:
    """Exit with a message naming the splits when ``split`` is none of them."""
    if split not in _SPLITS:
        raise SystemExit(f"unknown split {split!r}: choose one of {', '.join(_SPLITS)}")


def writer_cases(split: str) -> tuple[WriterCase, ...]:
    """Return the writer cases of ``split``: dev (first 30, extras), test, fresh, blind*."""
    _check_split(split)
    if split == "dev":
        return WRITER_CASES + WRITER_DEV_EXTRA
    return {
        "test": WRITER_TEST_CASES,
        "fresh": WRITER_FRESH_CASES,
        "blind": WRITER_BLIND_CASES,
        "blind2": WRITER_BLIND2_CASES,
        "blind3": WRITER_BLIND3_CASES,
        "blind4": WRITER_BLIND4_CASES,
        "blind5": WRITER_BLIND5_CASES,
        "blind6": WRITER_BLIND6_CASES,
        "blind7": WRITER_BLIND7_CASES,
        "blind8": WRITER_BLIND8_CASES,
        "blind9": WRITER_BLIND9_CASES,
    }[split]


# --------------------------------------------------------------- the end-to-end act cases


@dataclass(frozen=True)
class ActCase:
    """A stated change (a writer case), then a later session's request to act on it."""

    writer: WriterCase
    question: str
    right: tuple[str, ...]
    wrong: tuple[str, ...]
    query: str
    action: str


_ACT_PROJECTS = ["Kestrel", "Marlin", "Juniper", "Tundra", "Basalt", "Cinder", "Harrier",
                 "Willow", "Sable", "Onyx", "Fjord", "Larch"]  # fmt: skip
_ACT_ORGS = ["riverstone", "pixelmint", "oakhollow", "greyhaven", "sunforge", "tallpine",
             "ashgrove", "quillwork"]  # fmt: skip
_ACT_NEW_ORGS = ["{p}-labs", "{p}hq", "{o}-oss", "{o}-inc", "{p}-project"]
_ACT_TEAMS = ["design", "payments", "growth", "mobile", "security", "data", "support", "infra"]
_ACT_DEPTS = ["billing", "legal", "recruiting", "facilities", "procurement", "payroll"]
_ACT_DOMAINS = ["northpeak.io", "brambleco.com", "lumacorp.net", "ferroworks.org", "kitewell.dev"]

_SAY = {
    "clone": [
        "Heads up: the {P} repository moved from {old} to {new}.",
        "{P} now lives in {new}; {old} is archived.",
        "We transferred {old} to {new} yesterday.",
        "FYI {old} was renamed to {new}.",
        "Please use {new} for {P} from now on instead of {old}.",
    ],
    "post": [
        "The {t} channel {old} was renamed to {new}.",
        "{T} updates go to {new} now, not {old}.",
        "We archived {old}; use {new} for {t} posts.",
        "Quick note: {old} is now {new}.",
        "Moving the {t} chat from {old} to {new} today.",
    ],
    "email": [
        "The {t} team changed its address from {old} to {new}.",
        "Write to {new} for {t} matters; {old} is no longer read.",
        "The {t} mailbox is {new} now instead of {old}.",
        "{old} was replaced by {new}.",
        "Please send {t} mail to {new} from now on; {old} goes nowhere.",
    ],
}

# the blind split's own phrasings (same keys and fills), so its act messages are new as well
_SAY_BLIND = {
    "clone": [
        "{P} got transferred, it's {new} now (was {old}).",
        "Stop cloning {old}: the {P} code moved to {new}.",
        "We switched {P} over to {new}; nothing new lands in {old} anymore.",
        "{old} has been renamed {new}, in case you had it bookmarked.",
        "Repo for {P}: was {old}, is now {new}.",
    ],
    "post": [
        "{T} folks moved channels, {old} is dead, it's {new} now.",
        "From today the {t} team talks in {new}; {old} has been archived.",
        "{old} was deprecated in favour of {new}.",
        "Just so you know, we post {t} stuff in {new} these days instead of {old}.",
        "Channel rename: {old} is called {new} now.",
    ],
    "email": [
        "{T} has a new inbox: {new}. {old} is no longer monitored.",
        "Mail to {old} now bounces; the {t} team reads {new} instead.",
        "We switched the {t} address to {new}, so please stop using {old}.",
        "For anything {t}-related, write to {new} (not {old} any more).",
        "{old} has been retired in favour of {new}.",
    ],
}


# the blind2 split's own phrasings (same keys and fills), by the helper who wrote its cases
_SAY_BLIND2 = {
    "clone": [
        "{P} has a new home on GitHub: {new}. Please forget {old}.",
        "Note: {old} is archived and read-only, the {P} team works in {new} now.",
        "The {P} repo was moved to {new} (formerly {old}).",
        "Can you remember that {P} is developed in {new}? We left {old} behind last week.",
        "Moved: for all {P} work it's {new} from today, not {old}.",
    ],
    "post": [
        "{T} chat lives in {new} from now on; please don't post in {old}.",
        "Heads up, {old} got renamed to {new}.",
        "The {t} team closed {old} and opened {new} for its updates.",
        "Anything for {t} goes to {new} now. {old} is read-only.",
        "{new} took over from {old} as the {t} channel.",
    ],
    "email": [
        "New address for {t}: {new}. The old one, {old}, is closed.",
        "{T} questions should be emailed to {new}; nobody checks {old} anymore.",
        "Heads up, the {t} inbox moved from {old} to {new}.",
        "We've retired {old}. Reach {t} at {new}.",
        "Please update your contacts: {t} is {new} now, formerly {old}.",
    ],
}


def _act_case(seed: int, action: str, say: dict[str, list[str]] = _SAY) -> ActCase:
    """Return act case ``seed`` of one action (clone, post or email), phrased from ``say``."""
    rng = random.Random(seed)
    if action == "clone":
        P = rng.choice(_ACT_PROJECTS)
        p, o = P.lower(), rng.choice(_ACT_ORGS)
        old, new = f"{o}/{p}", f"{rng.choice(_ACT_NEW_ORGS).format(p=p, o=o)}/{p}"
        fill = {"P": P, "old": old, "new": new}
        a = rng.choice([f"{P} lives in {old}; PRs go there.", f"The {P} repository is {old}."])
        b = rng.choice(
            [
                f"Clone {P} with git clone https://github.com/{old}.git",
                f"CI for {P} runs on every PR to {old}.",
            ]
        )
        c = f"The {P} docs site is built from {old}-docs."
        question = (
            f"Clone the {P} repository so I can fix a bug. Reply with the exact git clone "
            "command only."
        )
        query = f"{P} repository"
    elif action == "post":
        t = rng.choice(_ACT_TEAMS)
        old = f"#{t}-{rng.choice(['team', 'chat', 'updates', 'general'])}"
        new = rng.choice([f"#{t}", f"#{t}-hub", f"#team-{t}", f"#{t}-news"])
        fill = {"t": t, "T": t.capitalize(), "old": old, "new": new}
        a = f"Post {t} updates in {old}."
        b = rng.choice(
            [f"The {t} weekly summary goes to {old} on Fridays.", f"Ask {t} questions in {old}."]
        )
        c = "#random is for chatter that fits nowhere else."
        question = (
            f"Post 'The {t} review moves to 3pm' to the {t} team's Slack channel. Reply with "
            "the channel name only."
        )
        query = f"{t} channel"
    else:
        t, dom = rng.choice(_ACT_DEPTS), rng.choice(_ACT_DOMAINS)
        old = f"{t}@{dom}"
        new = rng.choice([f"{t}-team@{dom}", f"{t}@mail.{dom}", f"{t}.desk@{dom}"])
        fill = {"t": t, "T": t.capitalize(), "old": old, "new": new}
        a = f"Email {old} for {t} questions."
        b = rng.choice([f"{old} answers {t} requests within a day.", f"CC {old} on {t} tickets."])
        c = f"Send press requests to press@{dom}."
        question = (
            f"Email the {t} team to ask about my open request. Reply with the recipient's email "
            "address only."
        )
        query = f"{t} email address"
    message = rng.choice(say[action]).format(**fill)
    writer = _case(f"act-{seed} {action}", action, message, a, b, c, (new,), (old,))
    return ActCase(writer, question, (new,), (old,), query, action)


def act_cases(split: str, n: int) -> list[ActCase]:
    """Return ``n`` act cases of ``split`` (dev, test, fresh, blind*: disjoint seeds).

    The actions take turns: clone a repository, post to a channel, email someone. The seeds
    start at 1000 (dev), 2000 (test), 3000 (fresh), 4000 (blind), 5000 (blind2), 6000
    (blind3), 7000 (blind4), 8000 (blind5), 9000 (blind6), 10000 (blind7), 11000 (blind8)
    and 12000 (blind9), so up to 1000 cases a split stay apart. The blind splits' messages come
    from phrasings of their own (``_SAY_BLIND`` to ``_SAY_BLIND9``), each written by the
    engineer who wrote its writer cases.
    """
    _check_split(split)
    base = {
        "dev": 1000,
        "test": 2000,
        "fresh": 3000,
        "blind": 4000,
        "blind2": 5000,
        "blind3": 6000,
        "blind4": 7000,
        "blind5": 8000,
        "blind6": 9000,
        "blind7": 10000,
        "blind8": 11000,
        "blind9": 12000,
    }[split]
    say = {
        "blind": _SAY_BLIND,
        "blind2": _SAY_BLIND2,
        "blind3": _SAY_BLIND3,
        "blind4": _SAY_BLIND4,
        "blind5": _SAY_BLIND5,
        "blind6": _SAY_BLIND6,
        "blind7": _SAY_BLIND7,
        "blind8": _SAY_BLIND8,
        "blind9": _SAY_BLIND9,
    }.get(split, _SAY)
    actions = ("clone", "post", "email")
    return [_act_case(base + i, actions[i % 3], say) for i in range(n)]

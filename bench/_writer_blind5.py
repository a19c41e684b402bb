"""The writer benchmark's fifth blind split (blind5): 30 stated changes and act phrasings.

Written by a helper engineer who read only the case module's docstring and the definitions of
``WriterCase``, ``Prior`` and ``_case`` (``bench/_writer.py``), the fourth blind split
(``bench/_writer_blind4.py``, for its shape), the writing guide, the README and the tests of
the splits: blind to the other splits' cases, to every result, report, changelog and study of
the benchmark, to the wording reader and the rest of the library's code and rules, and to the
history of the repository. Written before any measurement on it, and never used to choose a
prompt, schema or rule. Its strings were kept apart from the earlier splits by a throwaway
script that printed only the strings they share (two given names, since replaced).

The same six kinds as the earlier blind splits, five each: renames and moves (a container image
moved from Quay to GitHub's registry, an npm package under a new scope, an S3 bucket of raw
events, a PyPI package, a Terraform module moved to another registry organisation); channels,
URLs and mailboxes (a Discord channel, an API base URL whose sandbox stays, a press mailbox, a
Slack incident channel, a ticket portal link in a bullet list); owner and role changes of
people by full and first name, with names of many cultures (a fire warden with a hyphenated
family name, an invoice clerk, a schema change approver with Icelandic and Portuguese names, a
tastings host) and of an owning team; numbers with a subject (a support SLA in hours, a parking
price in Swiss francs, a meeting room number, an API rate limit, a parcel weight limit), whose
memory c uses the same number for something else; changes back of a Helm chart repository, a
build cache host, a Jira project, a container registry and an npm scope; changes whose new
value the store already names (a database replica host, a person by full name, a desk price in
yen, a Jira project key, a booking calendar). Phrasings of its own: ``heads up:``, a release
note with ``Y (formerly X)``, a long message where the change is one clause among unrelated
news, chat shorthand with an arrow, ``X was swapped for Y``, a correction of the agent (``no,
it's Y now, not X``), a date-stamped note (``As of March 3``, an ISO date), a forwarded
announcement, an instruction with one word in capitals (``NOT``), a bullet list with ``Y,
previously X``, the reason first, ``Old:``/``New:`` lines, typos of common words, ``stop using
X; Y from now on``, ``deprecated X in favour of Y``, a request to note the change; the new
value comes before the old in 21 of them. Like blind2's to blind4's, the gold calls also give
``replaced_by`` (the new values).
"""

from __future__ import annotations

from functools import partial

from _writer_case import Prior
from _writer_case import writer_case as _case

__all__ = ["WRITER_BLIND5_CASES"]

# as for blind2 to blind4, the gold call also names the new values (replaced_by)
_case2 = partial(_case, gold_names_new=True)


WRITER_BLIND5_CASES = (
    # renames and moves
    _case2(
        "n01 container image moved from Quay to GHCR, heads up, new value first",
        "rename or move",
        "heads up: we're off Quay. The ingest worker image lives at "
        "ghcr.io/brackenfold/ingest-worker now, and quay.io/brackenfold/ingest-worker stops "
        "getting new tags on the 30th.",
        "The ingest worker runs the image quay.io/brackenfold/ingest-worker:2.4.",
        "docker pull quay.io/brackenfold/ingest-worker before running the replay script.",
        "quay.io/brackenfold/ingest-worker-gpu is the CUDA build of the ingest worker.",
        ("ghcr.io/brackenfold/ingest-worker",),
        ("quay.io/brackenfold/ingest-worker",),
    ),
    _case2(
        "n02 npm package under a new scope, release note, Y (formerly X)",
        "rename or move",
        "Release notes, editor 5.0: the package is now published as @inkwell-labs/editor-core "
        "(formerly @quillmate/editor-core). The API is unchanged.",
        "npm install @quillmate/editor-core to embed the rich-text editor.",
        "The docs site imports the toolbar component from @quillmate/editor-core.",
        "@quillmate/editor-core-themes ships the dark and sepia editor themes.",
        ("@inkwell-labs/editor-core",),
        ("@quillmate/editor-core",),
    ),
    _case2(
        "n03 S3 bucket, one clause of a long round-up, instead of",
        "rename or move",
        "Round-up from today's infra sync: the staging cluster upgrade slips to next week, the "
        "VPN certificates were renewed, the raw event export now writes to "
        "s3://hollin-lake-bronze/events instead of s3://hollin-raw-events, and please fill in "
        "the on-call survey by Friday.",
        "Athena tables read the raw click events from s3://hollin-raw-events.",
        "The nightly export job writes Parquet files to s3://hollin-raw-events/yyyy/mm/dd.",
        "s3://hollin-raw-events-archive keeps the events from before 2022 in Glacier.",
        ("s3://hollin-lake-bronze/events",),
        ("s3://hollin-raw-events",),
    ),
    _case2(
        "n04 PyPI package renamed, chat shorthand with an arrow",
        "rename or move",
        "fyi ferrule-client is dead on pypi -> ferrule-sdk now. same import name, just change "
        "ur requirements",
        "pip install ferrule-client to talk to the Ferrule API from Python.",
        "The reporting service's requirements.txt pins ferrule-client==3.2.1.",
        "ferrule-client-mock provides a fake Ferrule server for tests.",
        ("ferrule-sdk",),
        ("ferrule-client",),
    ),
    _case2(
        "n05 Terraform module to another registry org, X was swapped for Y, a typo",
        "rename or move",
        "The VPC module app.terraform.io/cobbleway/network-vpc/aws was swapped for "
        "app.terraform.io/cobbleway-platform/network-vpc/aws when the platform team took over "
        "the registry. pls updte your source lines.",
        'Set source = "app.terraform.io/cobbleway/network-vpc/aws" in the VPC stack.',
        "The staging VPC is built from the app.terraform.io/cobbleway/network-vpc/aws module.",
        "app.terraform.io/cobbleway/network-vpc-endpoints/aws adds the PrivateLink endpoints.",
        ("app.terraform.io/cobbleway-platform/network-vpc/aws",),
        ("app.terraform.io/cobbleway/network-vpc/aws",),
    ),
    # channels, URLs and mailboxes
    _case2(
        "n06 Discord channel, a correction of the agent, no, it's Y now, not X",
        "channel",
        "no, it's #creator-support now, not #modding-help. they merged the two last week",
        "Players with mod loader crashes are sent to #modding-help on the Driftmoor Discord.",
        "Community moderators triage mod bug reports in #modding-help.",
        "#modding-help-fr answers the French-speaking modders.",
        ("#creator-support",),
        ("#modding-help",),
    ),
    _case2(
        "n07 API base URL, date-stamped, the sandbox stays, new value first",
        "URL",
        "As of March 3 the Glimmerpay base URL is https://api.glimmerpay.com/v3; calls to "
        "https://api.glimmerpay.io/v2 return 410 Gone. The sandbox keeps its URL.",
        "The checkout service calls the Glimmerpay API at https://api.glimmerpay.io/v2.",
        "Set GLIMMERPAY_BASE_URL=https://api.glimmerpay.io/v2 in the payments .env file.",
        "Test payments go to https://sandbox.api.glimmerpay.io/v2.",
        ("https://api.glimmerpay.com/v3",),
        ("https://api.glimmerpay.io/v2",),
    ),
    _case2(
        "n08 press mailbox, a forwarded announcement",
        "email",
        "---------- Forwarded message ----------\n"
        "From: Ardentwave Comms\n"
        "Subject: New press inbox\n\n"
        "Hi all, journalists should now write to media-relations@ardentwave.fm. The old "
        "press@ardentwave.fm inbox closes at the end of the month.",
        "Journalists' interview requests arrive at press@ardentwave.fm.",
        "Put press@ardentwave.fm in the footer of every press release.",
        "press-photos@ardentwave.fm sends out the high-resolution photo packs.",
        ("media-relations@ardentwave.fm",),
        ("press@ardentwave.fm",),
    ),
    _case2(
        "n09 Slack incident channel, an instruction with NOT in capitals",
        "channel",
        "Incidents: open the thread in #inc-bridge from now on, NOT #warroom-ops. We want one "
        "place for the status bot and the humans.",
        "Open a thread in #warroom-ops when a SEV2 is declared.",
        "The incident commander posts status updates in #warroom-ops every 30 minutes.",
        "#warroom-ops-drills is used for the quarterly game days.",
        ("#inc-bridge",),
        ("#warroom-ops",),
    ),
    _case2(
        "n10 ticket portal link, bullet list with unchanged items, Y, previously X",
        "URL",
        "Links for new starters, updated:\n"
        "• handbook: unchanged\n"
        "• IT tickets: https://desk.pellucid.team/portal/3, previously "
        "https://pellucid.zendesk.com/hc/requests/new\n"
        "• expenses: unchanged",
        "New starters open IT tickets at https://pellucid.zendesk.com/hc/requests/new.",
        "Laptop replacements are requested through https://pellucid.zendesk.com/hc/requests/new.",
        "https://pellucid.zendesk.com/hc/articles lists the IT how-to guides.",
        ("https://desk.pellucid.team/portal/3",),
        ("https://pellucid.zendesk.com/hc/requests/new",),
    ),
    # owner and role changes of people
    _case2(
        "n11 fire warden, hyphenated full name, the reason after, the other role stays",
        "person",
        "Mei-Ling Tsao is the new fire warden for the Leeds office, because Kwabena "
        "Asante-Mensah is relocating to Accra. Kwabena keeps running the Friday demos remotely.",
        "Kwabena Asante-Mensah is the fire warden for the Leeds office.",
        "Report blocked fire exits in Leeds to the fire warden, Kwabena Asante-Mensah.",
        "Kwabena Asante-Mensah runs the Friday demos.",
        ("Mei-Ling Tsao",),
        ("Kwabena Asante-Mensah",),
        ("fire warden",),
    ),
    _case2(
        "n12 invoice clerk, first name, chat note, new value first",
        "person",
        "Yerlan's doing the vendor invoices at corvid print now, Lwazi went full time on design",
        "Lwazi codes the vendor invoices at Corvid Print.",
        "Vendor invoices wait in Lwazi's tray until she codes them.",
        "Lwazi lays out the Corvid Print catalogue.",
        ("Yerlan",),
        ("Lwazi",),
        ("invoices",),
    ),
    _case2(
        "n13 owning team, stop paging X, Y owns it",
        "person",
        "Stop paging Ledger Foundations about the reconciliation cron; Money Movement owns it "
        "from this sprint.",
        "Ledger Foundations owns the reconciliation cron.",
        "Failures of the reconciliation cron page Ledger Foundations.",
        "Ledger Foundations maintains the chart of accounts service.",
        ("Money Movement",),
        ("Ledger Foundations",),
        ("reconciliation",),
    ),
    _case2(
        "n14 schema change approver, Old:/New: lines, Icelandic and Portuguese names",
        "person",
        "Schema change approver\n"
        "Old: Sigríður Þórsdóttir\n"
        "New: Rafael Guimarães Pinto\n"
        "(Sigríður is on sabbatical until autumn.)",
        "Sigríður Þórsdóttir approves production schema changes.",
        "Schema change tickets are assigned to Sigríður Þórsdóttir for sign-off.",
        "Sigríður Þórsdóttir wrote the backup and restore runbook.",
        ("Rafael Guimarães Pinto",),
        ("Sigríður Þórsdóttir",),
        ("schema",),
    ),
    _case2(
        "n15 tastings host, first name, a typo, the other role stays",
        "person",
        "Fyi Solveig runs the menu tastings for our wedding clients from now on. Radhika is "
        "consentrating on the florals.",
        "Radhika runs the menu tastings for wedding clients.",
        "Book tastings in Radhika's calendar.",
        "Radhika orders the florals for every event.",
        ("Solveig",),
        ("Radhika",),
        ("tastings",),
    ),
    # numbers with a subject
    _case2(
        "n16 support SLA in hours, the reason first, instead of",
        "number",
        "Customers kept complaining that P2s sat for half a day, so from now on the SLA for a "
        "first reply on P2 tickets is 6 hours instead of 12 hours.",
        "Support's SLA for a first response to P2 tickets is 12 hours.",
        "Under the SLA, a P2 ticket gets a first reply within 12 hours.",
        "The helpdesk database is snapshotted every 12 hours.",
        ("6 hours",),
        ("12 hours",),
        ("SLA",),
    ),
    _case2(
        "n17 garage parking price in Swiss francs, claims at the old rate returned",
        "number",
        "From 1 April the Zug office garage charges CHF 21.00 per day; expense claims at "
        "CHF 18.50 will be sent back.",
        "A day in the Zug office garage costs CHF 18.50.",
        "Claim CHF 18.50 per day for garage parking at the Zug office.",
        "The team lunch allowance in Zug is CHF 18.50 per person.",
        ("CHF 21.00",),
        ("CHF 18.50",),
        ("garage",),
    ),
    _case2(
        "n18 meeting room number, lowercase with typos",
        "number",
        "desing crit on tuesdays is in room 118 now, room 214 was to small for everyone",
        "The Tuesday design crit is held in room 214.",
        "Book room 214 for the design crit if nobody has reserved it yet.",
        "The first-aid kit on the second floor is kept in room 214.",
        ("room 118",),
        ("room 214",),
        ("crit",),
    ),
    _case2(
        "n19 API rate limit, ISO date and an arrow, old value first",
        "number",
        "2025-03-03: Pollen search API rate limit for partner keys 300 req/min → 900 req/min.",
        "Partner keys on the Pollen search API are limited to 300 req/min.",
        "Throttle the Pollen search sync to stay under 300 req/min.",
        "The Pollen geocoding API allows 300 req/min per key.",
        ("900 req/min",),
        ("300 req/min",),
        ("search",),
    ),
    _case2(
        "n20 parcel weight limit, one word in capitals, no longer applies",
        "number",
        "Carrier change: courier parcels from the Rotterdam warehouse must now be UNDER 20 kg. "
        "The 30 kg limit no longer applies.",
        "Rotterdam warehouse courier parcels can weigh up to 30 kg.",
        "Split Rotterdam courier shipments heavier than 30 kg into two parcels.",
        "Rotterdam warehouse staff may lift at most 30 kg without a second person.",
        ("20 kg",),
        ("30 kg",),
        ("courier",),
    ),
    # a change back
    _case2(
        "n21 change back, Helm chart repository, the reason after",
        "change back",
        "We're going back to https://charts.sallowmere.io for the gateway chart: pulling from "
        "oci://ghcr.io/sallowmere/charts broke the Argo CD sync. Revert your helm repo lines.",
        "Install the gateway with helm install gw oci://ghcr.io/sallowmere/charts/gateway.",
        "Argo CD pulls the gateway chart from oci://ghcr.io/sallowmere/charts.",
        "https://charts.sallowmere.io/index.yaml still lists the 1.x gateway releases.",
        ("https://charts.sallowmere.io",),
        ("oci://ghcr.io/sallowmere/charts",),
        prior=(
            Prior(
                "The gateway Helm chart moved from https://charts.sallowmere.io to "
                "oci://ghcr.io/sallowmere/charts.",
                ("https://charts.sallowmere.io",),
                ("oci://ghcr.io/sallowmere/charts",),
            ),
        ),
    ),
    _case2(
        "n22 change back, build cache host, lowercase chat",
        "change back",
        "ugh, fly was flaky. build cache is cache.bramblefield.internal again as of this "
        "morning, drop bramble-cache.fly.dev from your configs",
        "Bazel's remote cache is bramble-cache.fly.dev.",
        "Export BAZEL_REMOTE=grpcs://bramble-cache.fly.dev:443 before building.",
        "cache.bramblefield.internal also hosts the Go module proxy.",
        ("cache.bramblefield.internal",),
        ("bramble-cache.fly.dev",),
        prior=(
            Prior(
                "The build cache moved from cache.bramblefield.internal to bramble-cache.fly.dev.",
                ("cache.bramblefield.internal",),
                ("bramble-cache.fly.dev",),
            ),
        ),
    ),
    _case2(
        "n23 change back, Jira project after a Linear trial, the store names the restored one",
        "change back",
        "Bug reports: back to quillon.atlassian.net/browse/QBUG, as before the trial. "
        "linear.app/quillon/team/BUGS is being archived.",
        "File bugs in Linear at https://linear.app/quillon/team/BUGS.",
        "The triage rota works through linear.app/quillon/team/BUGS/triage every morning.",
        "quillon.atlassian.net/browse/QBUG-1432 tracks the old login bug.",
        ("quillon.atlassian.net/browse/QBUG",),
        ("linear.app/quillon/team/BUGS",),
        prior=(
            Prior(
                "Bug tracking moved from quillon.atlassian.net/browse/QBUG to "
                "linear.app/quillon/team/BUGS for a trial.",
                ("quillon.atlassian.net/browse/QBUG",),
                ("linear.app/quillon/team/BUGS",),
            ),
        ),
    ),
    _case2(
        "n24 change back, container registry, X was swapped back for Y",
        "change back",
        "After the storage bill, the API image registry.gitlab.com/saffronloop/api was swapped "
        "back for docker.io/saffronloop/api.",
        "CI pushes the API image to registry.gitlab.com/saffronloop/api.",
        "Kubernetes pulls registry.gitlab.com/saffronloop/api:latest for the API pods.",
        "docker.io/saffronloop/api-docs serves the API reference site.",
        ("docker.io/saffronloop/api",),
        ("registry.gitlab.com/saffronloop/api",),
        prior=(
            Prior(
                "The API image moved from docker.io/saffronloop/api to "
                "registry.gitlab.com/saffronloop/api.",
                ("docker.io/saffronloop/api",),
                ("registry.gitlab.com/saffronloop/api",),
            ),
        ),
    ),
    _case2(
        "n25 change back, npm scope, the reason first, again",
        "change back",
        "Publishing the design system under @fernhaven-design/ui caused too much churn, so as of "
        "today it is @fernhaven/ui again. Please update package.json.",
        'Add "@fernhaven-design/ui": "^7.0.0" to package.json for the shared components.',
        "Storybook documents the components of @fernhaven-design/ui.",
        "@fernhaven/ui-icons ships the SVG icon set.",
        ("@fernhaven/ui",),
        ("@fernhaven-design/ui",),
        prior=(
            Prior(
                "The design system package moved from @fernhaven/ui to @fernhaven-design/ui.",
                ("@fernhaven/ui",),
                ("@fernhaven-design/ui",),
            ),
        ),
    ),
    # a change whose new value the store already names
    _case2(
        "n26 new value stored, database replica host, stop using X; Y from now on",
        "new value in the store",
        "Stop using pg-ro.kestrelmoor.net for read-only queries; pg-replica.kestrelmoor.net "
        "from now on. The old host is decommissioned next week.",
        "Read-only queries use pg-ro.kestrelmoor.net.",
        "psql -h pg-ro.kestrelmoor.net -U analyst opens a read-only session.",
        "pg-replica.kestrelmoor.net serves the BI dashboards.",
        ("pg-replica.kestrelmoor.net",),
        ("pg-ro.kestrelmoor.net",),
    ),
    _case2(
        "n27 new value stored, onboarding coordinator, full names, Y (formerly X) in a list",
        "new value in the store",
        "People updates:\n"
        "- payroll questions: unchanged\n"
        "- onboarding buddy coordinator: Priyamvada Raghunathan (formerly Jun-seo Park)",
        "Jun-seo Park coordinates the onboarding buddies.",
        "New hires are matched with an onboarding buddy by Jun-seo Park.",
        "Priyamvada Raghunathan runs the accessibility guild.",
        ("Priyamvada Raghunathan",),
        ("Jun-seo Park",),
        ("onboarding",),
    ),
    _case2(
        "n28 new value stored, desk price in yen, the same as another city",
        "new value in the store",
        "A monthly desk at the Sendai co-working space is ¥32,000 now, same as in Osaka; "
        "¥28,000 was last year's rate.",
        "A monthly desk at the Sendai co-working space costs ¥28,000.",
        "Budget ¥28,000 a month for each Sendai desk.",
        "A monthly desk at the Osaka co-working space costs ¥32,000.",
        ("¥32,000",),
        ("¥28,000",),
        ("Sendai",),
    ),
    _case2(
        "n29 new value stored, Jira project key, deprecated X in favour of Y",
        "new value in the store",
        "We deprecated the INFRASEC Jira project in favour of SECOPS, which already holds the "
        "pentest findings. File new security findings there.",
        "File security findings in the INFRASEC Jira project.",
        "Dependabot alerts are copied into INFRASEC as tickets.",
        "Pentest findings are tracked in the SECOPS Jira project.",
        ("SECOPS",),
        ("INFRASEC",),
    ),
    _case2(
        "n30 new value stored, booking calendar, a request to note it",
        "new value in the store",
        "Can you note that the delivery van is booked in the fleet@groundsel.coop calendar now, "
        "same one as the cargo bike? van@groundsel.coop is going away.",
        "Reserve the delivery van in the van@groundsel.coop calendar.",
        "Drivers check van@groundsel.coop for the next day's van bookings.",
        "The cargo bike is booked in the fleet@groundsel.coop calendar.",
        ("fleet@groundsel.coop",),
        ("van@groundsel.coop",),
    ),
)


# the blind5 split's own phrasings (same keys and fills as _SAY_BLIND4), by the helper who
# wrote its cases
_SAY_BLIND5 = {
    "clone": [
        "no, {P} isn't at {old} anymore, it's {new} now",
        "Heads up: {P} moved. Clone {new}; {old} is read-only.",
        "{P}: {old} → {new} (the old one stops syncing on Friday)",
        "Stop cloning {old} for {P}, use {new} from now on.",
        "As of this week {P} lives in {new} (formerly {old}).",
    ],
    "post": [
        "heads up: {t} chatter moved to {new}, {old} is read-only now",
        "{T} updates go to {new} from now on, NOT {old}.",
        "As of today: {old} → {new} for anything {t}.",
        "We deprecated {old} in favour of {new}; that's where {t} questions go.",
        "no, it's {new} for {t} now, not {old}",
    ],
    "email": [
        "{T} mail goes to {new} now (formerly {old}).",
        "stop emailing {old} for {t} stuff, use {new} from now on",
        "FYI: {old} was swapped for {new} as the {t} inbox.",
        "As of Monday, {t} requests are read at {new}; {old} bounces.",
        "Heads up, {T} contact: {new}, previously {old}.",
    ],
}

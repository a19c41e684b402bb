"""The writer benchmark's sixth blind split (blind6): 30 stated changes and act phrasings.

Written by a helper engineer who read only the case module's docstring, the definitions of
``WriterCase``, ``Prior`` and ``_case`` and the use of the act phrasings (``_SAY`` and
``_act_case``) in ``bench/_writer.py``, the fifth blind split (``bench/_writer_blind5.py``, for
its shape only), the writing guide, the README and the tests of the splits: blind to the other
splits' cases, to every result, report, changelog and study of the benchmark, to the wording
reader and the rest of the library's code and rules, and to the history of the repository.
Written before any measurement on it, and never used to choose a prompt, schema or rule; no
library function was run on its cases while it was written. Its strings were kept apart from
the earlier splits by a throwaway script that printed only the strings they share.

The same six kinds as the earlier blind splits, five each: renames and moves (a GitHub
repository transferred to another organisation, a Go module path moved to a vanity domain, a
Docker Hub image, a Cloud Storage bucket of training checkpoints, a private Python package
index); channels, URLs and mailboxes (a Slack channel of release sign-offs, an accounts
payable mailbox, a status page URL, a Discord channel of plugin reviews, an expenses portal
URL whose policy page stays); owner and role changes of people by full and first name, with
names of many cultures (an offsite organiser with Irish and Zimbabwean names, the holder of a
server room's keys with Kazakh and Italian first names, a payroll approver with Vietnamese and
Yoruba names, a greenhouse rota by first name in the possessive) and of an owning team;
numbers with a subject (a sample cut-off time, a room hire price in pounds, a disk quota, a
delivery radius, a tour's group size), whose memory c uses the same number for something
else; changes back of a handbook repository, a catering channel, a courier mailbox, a
dashboard host and an asset CDN host; changes whose new value the store already names (a
repository merged into a monorepo, a grant contact by full name, a database port, a
vulnerability mailbox, a lab ordering duty by first name). Phrasings of its own: a message
that corrects what the agent said earlier, a pasted changelog entry and an IT notice, a
question answered in the same message, messages that open with thanks or small talk, a
semicolon list of two facts of which only one is a change, the passive with ``has been``, a
message in British spelling, ``X is being replaced by Y from today``, ``swap X out for Y``,
``X → Y`` inside a longer sentence, an all-lowercase note without punctuation, ``please update
your notes``, the new value first, a colleague quoted in a short dialogue, a rota note with
first names in the possessive, ``reinstated``, ``once again``, ``the same ... who``. Like
blind2's to blind5's, the gold calls also give ``replaced_by`` (the new values).
"""

from __future__ import annotations

from functools import partial

from _writer_case import Prior
from _writer_case import writer_case as _case

__all__ = ["WRITER_BLIND6_CASES"]

# as for blind2 to blind5, the gold call also names the new values (replaced_by)
_case2 = partial(_case, gold_names_new=True)


WRITER_BLIND6_CASES = (
    # renames and moves
    _case2(
        "p01 repository transferred, a correction of what the agent said earlier",
        "rename or move",
        "You told me earlier the Beacon firmware lives in pelhamvale-labs/beacon-fw. That was "
        "true until Tuesday; the repo has been transferred to pelhamvale-iot/beacon-fw.",
        "The Beacon firmware source is in pelhamvale-labs/beacon-fw.",
        "Open firmware pull requests against pelhamvale-labs/beacon-fw.",
        "pelhamvale-labs/beacon-app is the Beacon companion phone app.",
        ("pelhamvale-iot/beacon-fw",),
        ("pelhamvale-labs/beacon-fw",),
    ),
    _case2(
        "p02 Go module path to a vanity domain, a pasted changelog entry",
        "rename or move",
        "## [4.0.0] - 2025-06-12\n"
        "### Changed\n"
        "- The module path is go.tallowmere.dev/brazier now. The github.com/tallowmere/brazier "
        "import path receives no further releases.",
        "Go services import the Brazier client as github.com/tallowmere/brazier.",
        "go get github.com/tallowmere/brazier@latest pulls the newest Brazier client.",
        "github.com/tallowmere/brazier-proto holds the Brazier protobuf definitions.",
        ("go.tallowmere.dev/brazier",),
        ("github.com/tallowmere/brazier",),
    ),
    _case2(
        "p03 Docker Hub image renamed, the passive with has been",
        "rename or move",
        "Note that docker.io/vellichor/pg-snapshotter has been renamed. Pull "
        "docker.io/vellichor/pgvault for the nightly backups.",
        "The nightly Postgres backups run the docker.io/vellichor/pg-snapshotter:16 image.",
        "docker pull docker.io/vellichor/pg-snapshotter before a manual restore drill.",
        "docker.io/vellichor/pg-exporter exposes the Postgres metrics to Prometheus.",
        ("docker.io/vellichor/pgvault",),
        ("docker.io/vellichor/pg-snapshotter",),
    ),
    _case2(
        "p04 Cloud Storage bucket, X is being replaced by Y from today",
        "rename or move",
        "gs://marrowfen-ml-checkpoints is being replaced by gs://marrowfen-training-artifacts "
        "from today; the trainer already writes there.",
        "Training jobs save their checkpoints to gs://marrowfen-ml-checkpoints.",
        "gsutil ls gs://marrowfen-ml-checkpoints/resnet lists the saved ResNet runs.",
        "gs://marrowfen-ml-datasets holds the labelled image sets.",
        ("gs://marrowfen-training-artifacts",),
        ("gs://marrowfen-ml-checkpoints",),
    ),
    _case2(
        "p05 private package index, swap X out for Y",
        "rename or move",
        "When you next touch pip.conf, swap https://pypi.thornacre.internal/simple out for "
        "https://artifacts.thornacre.io/api/pypi/simple. The old index is read-only now.",
        "pip.conf sets index-url = https://pypi.thornacre.internal/simple.",
        "CI installs the internal wheels from https://pypi.thornacre.internal/simple.",
        "https://pypi.thornacre.internal/stats shows the download counts per package.",
        ("https://artifacts.thornacre.io/api/pypi/simple",),
        ("https://pypi.thornacre.internal/simple",),
    ),
    # channels, URLs and mailboxes
    _case2(
        "p06 Slack channel, an all-lowercase note without punctuation",
        "channel",
        "release signoffs moved to #launch-desk from #relmgmt-approvals thanks",
        "Release sign-offs are collected in #relmgmt-approvals.",
        "Ping #relmgmt-approvals before tagging a release candidate.",
        "The release calendar is pinned in #relmgmt-calendar.",
        ("#launch-desk",),
        ("#relmgmt-approvals",),
    ),
    _case2(
        "p07 accounts payable mailbox, the new value first",
        "email",
        "ap-inbox@wendlebury.co.uk is where supplier invoices go from this week. Nobody reads "
        "invoices@wendlebury.co.uk any more.",
        "Suppliers email their invoices to invoices@wendlebury.co.uk.",
        "Forward any PDF invoice you receive to invoices@wendlebury.co.uk.",
        "Purchase orders are raised from purchasing@wendlebury.co.uk.",
        ("ap-inbox@wendlebury.co.uk",),
        ("invoices@wendlebury.co.uk",),
    ),
    _case2(
        "p08 status page URL, a question answered in the same message",
        "URL",
        "Where's the status page these days? It's https://status.corvane.app. "
        "https://corvane.statuspage.io was shut down when we moved to self-hosting.",
        "Customers check https://corvane.statuspage.io for outages.",
        "Link https://corvane.statuspage.io in every incident email.",
        "https://docs.corvane.app/maintenance lists the planned maintenance windows.",
        ("https://status.corvane.app",),
        ("https://corvane.statuspage.io",),
    ),
    _case2(
        "p09 Discord channel, a semicolon list of two facts, only one a change",
        "channel",
        "Quick notes: the Thursday standup is still at 10; plugin reviews happen in "
        "#addon-review-queue now, #plugin-submissions is closed.",
        "Plugin authors submit their plugins for review in #plugin-submissions on the "
        "Glowmark Discord.",
        "Reviewers pick up new plugins from #plugin-submissions each morning.",
        "#plugin-showcase is where finished Glowmark plugins are announced.",
        ("#addon-review-queue",),
        ("#plugin-submissions",),
    ),
    _case2(
        "p10 expenses portal URL, X → Y inside a longer sentence, the policy page stays",
        "URL",
        "After the SSO migration finished last night (thanks to everyone who tested it) the "
        "expenses portal went https://expenses.cressbrook.net/login → "
        "https://cressbrook.expensify.com so please fix your bookmarks before the month-end "
        "close.",
        "Submit expense claims at https://expenses.cressbrook.net/login.",
        "Receipts are uploaded through https://expenses.cressbrook.net/login within a month.",
        "https://expenses.cressbrook.net/policy explains what can be claimed.",
        ("https://cressbrook.expensify.com",),
        ("https://expenses.cressbrook.net/login",),
    ),
    # owner and role changes of people
    _case2(
        "p11 offsite organiser, full names, British spelling, the other role stays",
        "person",
        "Just so you're aware, the quarterly offsite is being organised by Aoife Ní Bhriain "
        "from now on. Tendai Moyo has moved to our Harare programme and won't be travelling.",
        "Tendai Moyo organises the quarterly offsite.",
        "Send catering requests for the offsite to Tendai Moyo.",
        "Tendai Moyo chairs the colour accessibility review.",
        ("Aoife Ní Bhriain",),
        ("Tendai Moyo",),
        ("offsite",),
    ),
    _case2(
        "p12 server room keys, first names, a colleague quoted",
        "person",
        'From Perpetua in ops: "Bolat looks after the server room keys now. Ottavio gave them up '
        'when he moved floors."',
        "Ottavio holds the server room keys.",
        "Ask Ottavio for the keys if the server room is locked.",
        "Ottavio runs the Friday lunch-and-learn.",
        ("Bolat",),
        ("Ottavio",),
        ("keys",),
    ),
    _case2(
        "p13 owning team, a message that opens with thanks",
        "person",
        "Thanks for the help with the migration yesterday! For your memory: Data Contracts "
        "owns the event schema registry now, Platform Plumbing handed it over on Friday.",
        "Platform Plumbing owns the event schema registry.",
        "Outages of the schema registry are escalated to Platform Plumbing.",
        "Platform Plumbing runs the internal package mirror.",
        ("Data Contracts",),
        ("Platform Plumbing",),
        ("registry",),
    ),
    _case2(
        "p14 payroll approver, full names, Vietnamese and Yoruba, the new value first",
        "person",
        "Nguyễn Thị Lan: that's who signs off the payroll run from this month. Olumide Bakare "
        "moved over to treasury.",
        "Olumide Bakare signs off the monthly payroll run.",
        "Exceptions in the payroll run need Olumide Bakare's approval.",
        "Olumide Bakare manages the treasury relationship with the bank.",
        ("Nguyễn Thị Lan",),
        ("Olumide Bakare",),
        ("payroll",),
    ),
    _case2(
        "p15 greenhouse watering, first names in the possessive, a rota note",
        "person",
        "Rota update: from week 32 the greenhouse watering is Ahanu's job, not Marguerite's.",
        "Marguerite does the greenhouse watering.",
        "If the greenhouse watering is missed, remind Marguerite.",
        "Marguerite keeps the seed library in order.",
        ("Ahanu",),
        ("Marguerite",),
        ("watering",),
    ),
    # numbers with a subject
    _case2(
        "p16 sample cut-off time, opens with small talk, moved up to Y from X",
        "number",
        "Morning! Hope the weekend was restful. FYI the Ravensholm clinic's cut-off for "
        "same-day lab samples moved up to 08:35 from 11:05.",
        "Same-day lab samples at the Ravensholm clinic must arrive by 11:05.",
        "Couriers collect the lab samples at 11:05.",
        "The Ravensholm clinic's staff meeting starts at 11:05.",
        ("08:35",),
        ("11:05",),
        ("samples",),
    ),
    _case2(
        "p17 rehearsal room price in pounds, a correction of the agent's quote",
        "number",
        "That quote you gave the band was off: rehearsal room hire at Kingsmere is £36.50 an "
        "hour now, £27.50 was the old rate.",
        "Hiring a rehearsal room at Kingsmere studio costs £27.50 an hour.",
        "Bands pay £27.50 per hour for the rehearsal room.",
        "A Kingsmere studio membership card costs £27.50 a year.",
        ("£36.50",),
        ("£27.50",),
        ("rehearsal",),
    ),
    _case2(
        "p18 disk quota, X is being replaced by Y from today",
        "number",
        "The 45 GB home directory quota on the Ulverstone cluster is being replaced by a 110 GB "
        "one from today.",
        "Home directories on the Ulverstone cluster have a 45 GB quota.",
        "Clean up your home directory before it hits the 45 GB quota.",
        "Nightly snapshots of the Ulverstone cluster are capped at 45 GB.",
        ("110 GB",),
        ("45 GB",),
        ("quota",),
    ),
    _case2(
        "p19 delivery radius, the passive with has been, the reason after",
        "number",
        "The free delivery radius for Pellworth Bakery orders has been cut from 13 km to "
        "8.5 km because of fuel costs.",
        "Pellworth Bakery's free delivery radius is 13 km.",
        "Orders more than 13 km away pay a delivery fee.",
        "Pellworth Bakery's second shop is 13 km from the first.",
        ("8.5 km",),
        ("13 km",),
        ("delivery",),
    ),
    _case2(
        "p20 tour group size, lowercase chat, Y now instead of X",
        "number",
        "heads up the larkspur walking tours are capped at 17 guests now instead of 23 guests, "
        "insurance thing",
        "Larkspur walking tours take at most 23 guests.",
        "Close bookings for a Larkspur walking tour once it has 23 guests.",
        "The Larkspur minibus seats 23 guests.",
        ("17 guests",),
        ("23 guests",),
        ("walking",),
    ),
    # a change back
    _case2(
        "p21 change back, handbook repository, a changelog line, once again",
        "change back",
        "Changelog, docs infra: reverted the handbook migration. The source is "
        "github.com/quorrel/handbook once again; gitlab.com/quorrel/handbook goes read-only.",
        "The company handbook source is at gitlab.com/quorrel/handbook.",
        "Edit handbook pages with a merge request to gitlab.com/quorrel/handbook.",
        "github.com/quorrel/handbook-theme holds the handbook's Hugo theme.",
        ("github.com/quorrel/handbook",),
        ("gitlab.com/quorrel/handbook",),
        prior=(
            Prior(
                "The handbook repository moved from github.com/quorrel/handbook to "
                "gitlab.com/quorrel/handbook.",
                ("github.com/quorrel/handbook",),
                ("gitlab.com/quorrel/handbook",),
            ),
        ),
    ),
    _case2(
        "p22 change back, catering channel, has been reinstated",
        "change back",
        "#tansyford-catering has been reinstated for catering requests. The trial of "
        "#tansyford-facilities didn't work out, so post your lunch orders there again.",
        "Catering requests are posted in #tansyford-facilities.",
        "The kitchen team watches #tansyford-facilities for lunch orders.",
        "#tansyford-social organises the summer party.",
        ("#tansyford-catering",),
        ("#tansyford-facilities",),
        prior=(
            Prior(
                "Catering requests moved from #tansyford-catering to #tansyford-facilities for a "
                "trial.",
                ("#tansyford-catering",),
                ("#tansyford-facilities",),
            ),
        ),
    ),
    _case2(
        "p23 change back, courier mailbox, an IT notice, again",
        "change back",
        "IT notice, 14 May: courier notices go to deliveries@ottermere.org again. The trial "
        "of post-room@ottermere.org has ended.",
        "Couriers send their delivery notices to post-room@ottermere.org.",
        "Check post-room@ottermere.org for missed-parcel cards.",
        "deliveries@ottermere.org also receives the stationery supplier's invoices.",
        ("deliveries@ottermere.org",),
        ("post-room@ottermere.org",),
        prior=(
            Prior(
                "Courier notices moved from deliveries@ottermere.org to post-room@ottermere.org.",
                ("deliveries@ottermere.org",),
                ("post-room@ottermere.org",),
            ),
        ),
    ),
    _case2(
        "p24 change back, dashboard host, an all-lowercase note, rolled back",
        "change back",
        "we rolled back the dns cutover so grafana is at metrics.sorrelbank.net again and not "
        "obs.sorrelbank.cloud",
        "Grafana dashboards are served from obs.sorrelbank.cloud.",
        "Bookmark https://obs.sorrelbank.cloud/d/latency for the latency graphs.",
        "metrics.sorrelbank.net also serves the Prometheus API on port 9090.",
        ("metrics.sorrelbank.net",),
        ("obs.sorrelbank.cloud",),
        prior=(
            Prior(
                "The dashboards moved from metrics.sorrelbank.net to obs.sorrelbank.cloud.",
                ("metrics.sorrelbank.net",),
                ("obs.sorrelbank.cloud",),
            ),
        ),
    ),
    _case2(
        "p25 change back, asset CDN host, an arrow with the reason in brackets",
        "change back",
        "Asset CDN: wrenfold.b-cdn.net → cdn.wrenfold.media (reverting last week's switch, "
        "the cache hit rate dropped).",
        "Images and fonts are served from wrenfold.b-cdn.net.",
        "The CSP header allows wrenfold.b-cdn.net for img-src.",
        "cdn.wrenfold.media/legal/ hosts the signed PDF contracts.",
        ("cdn.wrenfold.media",),
        ("wrenfold.b-cdn.net",),
        prior=(
            Prior(
                "Static assets moved from cdn.wrenfold.media to wrenfold.b-cdn.net.",
                ("cdn.wrenfold.media",),
                ("wrenfold.b-cdn.net",),
            ),
        ),
    ),
    # a change whose new value the store already names
    _case2(
        "p26 new value stored, repository merged into a monorepo, has been merged into",
        "new value in the store",
        "Since the SDK consolidation, moorcastle/skerry-sdk has been merged into "
        "moorcastle/platform, which already holds the mobile SDKs.",
        "The Skerry SDK is developed in moorcastle/skerry-sdk.",
        "Tag Skerry SDK releases in moorcastle/skerry-sdk.",
        "moorcastle/platform holds the Android and iOS SDKs.",
        ("moorcastle/platform",),
        ("moorcastle/skerry-sdk",),
    ),
    _case2(
        "p27 new value stored, grant contact, full names, the same ... who",
        "new value in the store",
        "Our grant reporting contact at the Ashwell Foundation is Ifeoma Ezeani now, the "
        "same Ifeoma who reviews our budgets. Torbjørn Haugland has moved to their Oslo office.",
        "Torbjørn Haugland is our grant reporting contact at the Ashwell Foundation.",
        "Quarterly grant reports are sent to Torbjørn Haugland.",
        "Ifeoma Ezeani reviews our budgets at the Ashwell Foundation.",
        ("Ifeoma Ezeani",),
        ("Torbjørn Haugland",),
        ("grant",),
    ),
    _case2(
        "p28 new value stored, database port, the new value first",
        "new value in the store",
        "Port 6439, the pgbouncer port production already uses, is what the staging Postgres "
        "listens on now; port 5437 is closed.",
        "The staging Postgres listens on port 5437.",
        "Open an SSH tunnel to port 5437 to reach the staging database.",
        "Production Postgres is reached through pgbouncer on port 6439.",
        ("port 6439",),
        ("port 5437",),
        ("staging",),
    ),
    _case2(
        "p29 new value stored, vulnerability mailbox, a colleague quoted",
        "new value in the store",
        'As Rangi put it in standup: "vulnerability reports go to psirt@glenmorrow.dev, the '
        'bug bounty inbox, not security@glenmorrow.dev any more."',
        "Report vulnerabilities to security@glenmorrow.dev.",
        "The security.txt file lists security@glenmorrow.dev as the contact.",
        "Bug bounty submissions arrive at psirt@glenmorrow.dev.",
        ("psirt@glenmorrow.dev",),
        ("security@glenmorrow.dev",),
    ),
    _case2(
        "p30 new value stored, lab ordering, first names, please update your notes",
        "new value in the store",
        "Please update your notes: Dagny orders the lab reagents now (she already orders the "
        "glassware), and Selorm has stopped.",
        "Selorm orders the lab reagents.",
        "Tell Selorm when the reagents run low.",
        "Dagny orders the lab glassware.",
        ("Dagny",),
        ("Selorm",),
        ("reagents",),
    ),
)


# the blind6 split's own phrasings (same keys and fills as _SAY_BLIND5), by the helper who
# wrote its cases
_SAY_BLIND6 = {
    "clone": [
        "You had {P} at {old}, but that's stale: it has been transferred to {new}.",
        "Changelog entry: moved the {P} repository to {new}; {old} is archived.",
        "Thanks for the fix earlier! Small thing: {P} is in {new} these days, {old} is frozen.",
        "Where do we clone {P} from now? {new}. {old} has been retired.",
        "please update your notes {P} has been transferred from {old} to {new}",
    ],
    "post": [
        "the {t} crew swapped {old} out for {new} today",
        "{old} is being replaced by {new} from today for all {t} talk.",
        "Anything {t}-related: {new} now. {old} has been archived.",
        'As the {t} lead said in standup: "posts go in {new}, we closed {old}."',
        "Two things: the {t} retro is still on Thursday; and {t} updates have moved from {old} "
        "to {new}.",
    ],
    "email": [
        "{new} has taken over from {old} as the {t} address.",
        "Please update your notes: {T} can be reached at {new}; {old} has been closed.",
        "Where should {t} mail go? To {new}. {old} is no longer read.",
        "The {t} inbox has been renamed, {old} is now {new}; please amend your address book.",
        "thanks for sending that btw {t} moved off {old} onto {new} last week",
    ],
}

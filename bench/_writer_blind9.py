"""The writer benchmark's ninth blind split (blind9): 30 stated changes and act phrasings.

Written by a helper engineer who read only the case module's docstring, the definitions of
``Prior``, ``WriterCase`` and ``_case`` and the act phrasings (``ActCase``, ``_SAY``,
``_SAY_BLIND``, ``_SAY_BLIND2``, ``_act_case`` and ``act_cases``) in ``bench/_writer.py``
(lines 1-160, 495-522 and 2109-2300; none of their strings reused), the eighth blind split
(``bench/_writer_blind8.py``, for its shape only), the writing guide
(``docs/writing-corrections.md``), the README and the tests of the splits
(``tests/project/test_bench_reader.py``): blind to the other splits' cases, to every result,
report, changelog and study of the benchmark, to the library's code and rules, and to the
history of the repository. Written before any measurement on it, and never used to choose a
prompt, schema or rule; no library function was run on its cases while it was written. Its
strings were checked against the eighth blind split only (the one split its writer read) by a
throwaway script that printed the strings they share; the other splits' texts were not read,
so the tests of the splits are the check against them. When it was registered, its keys took
the next letter (``s``; it wrote ``r`` as blind8 does) and one full name another split already
used was changed (to Zanele Ngcobo): the test of the splits found it.

The same six kinds as the earlier blind splits, five each: renames and moves (an npm package
republished under an org scope, told in a Slack thread with replies; a Go module path swapped
in a ``go.mod`` diff; an S3 bucket of database dumps moved to R2, a row of a migration table;
a Homebrew tap moved into an org, an FAQ entry; a Docker Hub image moved to GHCR, a commit
message); channels, URLs and mailboxes (a Slack channel in an updated calendar invitation, a
status page URL in a support auto-reply, an insurer's claims mailbox in a voicemail
transcript, a wiki runbook moved to Backstage in a checklist with ticks, a Mattermost channel
in a forwarded message); owner and role changes of people by full and first name, with names
of many cultures (an export control officer with Icelandic and Bangladeshi names, ``effective
immediately``; lab keys with Polish and German first names, a lowercase ``heads-up`` with a
typo; an owning team, ``not X anymore — Y``; conference talk sign-off with Zulu and Mexican
names, a question its author answers; a fire drill sign-off with Tongan and Igbo first names,
``going forward`` with emoji); numbers with a subject (a database pool size shown by a pasted
log line, a canteen price in a German speaker's English, an upload limit in a code review
comment on a quoted line, an API rate limit on an incident status page, a club's membership
fee in committee minutes), whose memory c uses the same number for something else; changes
back of a Python package index in a ``Revert`` commit message, a deploy channel in a reply
under a quoted question, a takedown mailbox in a runbook's numbered steps, a build cache host
in a post-mortem timeline and a meeting link in a Spanish speaker's English; changes whose new
value the store already names (a metrics host, ``X is dead, long live Y``; a demo scheduler by
first name, told only by the old owner's farewell e-mail and signature; a staff discount equal
to the teachers' one, an announcement with ``(was ...)``; a phishing channel merged into the
service desk's, an IT ticket reply; a press mailbox merged into the general one, a formal
notice in the passive). Its act cases have phrasings of their own (``_SAY_BLIND9``): an
``old | new`` row, a diff of a remote URL, a question and its answer, ``is dead, long live``,
``going forward``, ``effective immediately``, ``not ... anymore``, a forwarded quote, a
voicemail, an auto-reply, a table row of contacts and a German speaker's English. Like blind2's
to blind8's, the gold calls also give ``replaced_by`` (the new values).
"""

from __future__ import annotations

from functools import partial

from _writer_case import Prior
from _writer_case import writer_case as _case

__all__ = ["WRITER_BLIND9_CASES"]

# as for blind2 to blind8, the gold call also names the new values (replaced_by)
_case2 = partial(_case, gold_names_new=True)


WRITER_BLIND9_CASES = (
    # renames and moves
    _case2(
        "s01 npm package republished under an org scope, a Slack thread with replies",
        "rename or move",
        "Dagny Holm  10:02\n"
        "is @plovmark/sparkline-kit still the package for the mini charts?\n"
        "    ↳ Ilse Varga  10:04\n"
        "    nope, we republished it as @tindra-ui/sparkline-kit last sprint, the plovmark "
        "one is deprecated on npm\n"
        "    ↳ Dagny Holm  10:05\n"
        "    ah ok, switching 👍",
        "The dashboard's mini charts come from the npm package @plovmark/sparkline-kit.",
        "npm install @plovmark/sparkline-kit adds the mini chart components.",
        "@plovmark/gauge-kit renders the dial widgets.",
        ("@tindra-ui/sparkline-kit",),
        ("@plovmark/sparkline-kit",),
    ),
    _case2(
        "s02 Go module path swapped, a go.mod diff",
        "rename or move",
        "bumped the raft store in go.mod:\n\n"
        "    -require git.vandremark.dev/libs/quorumkv v1.8.3\n"
        "    +require go.quorumkv.io/kv v1.9.0\n\n"
        "upstream left the vandremark forge, v1.8.3 was the last tag there. new code imports "
        "go.quorumkv.io/kv.",
        "The raft store is imported as git.vandremark.dev/libs/quorumkv.",
        "go get git.vandremark.dev/libs/quorumkv@latest pulls the newest raft store.",
        "git.vandremark.dev/libs/quorumtest has the fake cluster helpers.",
        ("go.quorumkv.io/kv",),
        ("git.vandremark.dev/libs/quorumkv",),
    ),
    _case2(
        "s03 database dump bucket moved from S3 to R2, a row of a migration table",
        "rename or move",
        "Storage migration, where we stand:\n\n"
        "| data | old location | new location | status |\n"
        "|---|---|---|---|\n"
        "| nightly DB dumps | s3://grauwacke-db-dumps | r2://grauwacke-backups/db | ✅ cut "
        "over, old bucket read-only |\n"
        "| user media | s3://grauwacke-media | | not started |",
        "The nightly database dumps land in s3://grauwacke-db-dumps.",
        "aws s3 cp s3://grauwacke-db-dumps/latest.sql.gz . fetches the newest dump for a restore.",
        "User media uploads are stored in s3://grauwacke-media.",
        ("r2://grauwacke-backups/db",),
        ("s3://grauwacke-db-dumps",),
    ),
    _case2(
        "s04 Homebrew tap moved into an org, an FAQ entry",
        "rename or move",
        "FAQ: How do I install zel on a Mac?\n"
        "Run `brew install zeltrovo/tap/zel`. Older guides say mikkelsand/tap/zel: that was "
        "Mikkel's personal tap, and it stopped getting updates when the formula moved to the "
        "zeltrovo org in 3.2.",
        "Install the zel CLI with brew install mikkelsand/tap/zel.",
        "The macOS CI image preinstalls mikkelsand/tap/zel.",
        "mikkelsand/tap/yarrowfmt formats the zel config files.",
        ("zeltrovo/tap/zel",),
        ("mikkelsand/tap/zel",),
    ),
    _case2(
        "s05 Docker Hub image moved to GHCR, a commit message",
        "rename or move",
        "commit 7f3a9e1c\n"
        "Author: Inês Albuquerque\n\n"
        "    ci: publish relaybox images to ghcr.io/ostranda-io/relaybox\n\n"
        "    docker.io/ostrandaio/relaybox stays at 0.31 for good, the Docker Hub team plan\n"
        "    lapsed. Update your compose files.",
        "docker-compose.yml runs docker.io/ostrandaio/relaybox:0.31.",
        "The edge nodes pull docker.io/ostrandaio/relaybox at boot.",
        "docker.io/ostrandaio/tracepipe collects the relay metrics.",
        ("ghcr.io/ostranda-io/relaybox",),
        ("docker.io/ostrandaio/relaybox",),
    ),
    # channels, URLs and mailboxes
    _case2(
        "s06 Slack channel in an updated calendar invitation",
        "channel",
        "📅 Updated invitation: Kiln Line Weekly Review\n"
        "When: Wednesdays 08:30 to 09:00 (unchanged)\n"
        "Where: room Feldspar (unchanged)\n"
        "Minutes: post them in #kilnline-review. This changed, it used to be #glazeworks-ops.",
        "Post the kiln line review minutes in #glazeworks-ops.",
        "The kiln temperature charts are shared in #glazeworks-ops after each review.",
        "#glazeworks-social plans the team lunches.",
        ("#kilnline-review",),
        ("#glazeworks-ops",),
    ),
    _case2(
        "s07 status page URL, a support auto-reply",
        "URL",
        "Auto-reply: Thank you for contacting Pellucid Rail support. Please note that our status "
        "page has moved to https://status.pellucid-rail.net and "
        "https://pellucidrail.statuspage.io is no longer updated. A member of the team will "
        "reply within one working day.",
        "Check https://pellucidrail.statuspage.io before paging anyone about the ticketing API.",
        "Pellucid Rail customers subscribe to outage e-mails at "
        "https://pellucidrail.statuspage.io.",
        "https://docs.pellucid-rail.net/api lists the ticketing API endpoints.",
        ("https://status.pellucid-rail.net",),
        ("https://pellucidrail.statuspage.io",),
    ),
    _case2(
        "s08 insurer's claims mailbox, a voicemail transcript",
        "email",
        "Voicemail transcript (Tue 16:47):\n"
        "\"Hiya, it's Rosalind from Harthorne Mutual. Quick one: "
        "claims.intake@harthornemutual.co.uk is being shut down at the end of the month, so "
        'please send any new claims to fnol@harthornemutual.co.uk instead. Ta, bye."',
        "Open Harthorne Mutual insurance claims by writing to claims.intake@harthornemutual.co.uk.",
        "Attach the police report when you e-mail claims.intake@harthornemutual.co.uk.",
        "Harthorne Mutual policy renewals go through renewals@harthornemutual.co.uk.",
        ("fnol@harthornemutual.co.uk",),
        ("claims.intake@harthornemutual.co.uk",),
    ),
    _case2(
        "s09 wiki runbook moved to Backstage, a checklist with ticks",
        "URL",
        "Backstage migration, payments:\n"
        "- [x] runbook moved to "
        "https://backstage.tarnwell.dev/docs/default/component/payments/runbook\n"
        "- [x] old wiki page https://github.com/tarnwell/payments/wiki/Runbook emptied, only a "
        "pointer left\n"
        "- [ ] refunds runbook (next sprint)",
        "The payments on-call runbook is https://github.com/tarnwell/payments/wiki/Runbook.",
        "PagerDuty alerts for payments link to https://github.com/tarnwell/payments/wiki/Runbook.",
        "https://github.com/tarnwell/payments/wiki/Refunds-Runbook covers failed refunds.",
        ("https://backstage.tarnwell.dev/docs/default/component/payments/runbook",),
        ("https://github.com/tarnwell/payments/wiki/Runbook",),
    ),
    _case2(
        "s10 Mattermost channel, a forwarded message",
        "channel",
        "---------- Forwarded message ---------\n"
        "From: Ottavia Brenn\n"
        "Subject: translators' chat\n\n"
        "From this release on the translators meet in ~lq-l10n on Mattermost. ~lq-translators "
        "is kept as a read-only archive.\n\n"
        "---\n"
        "fwd'ing in case you missed it",
        "Translators coordinate the Lindqvarn release strings in ~lq-translators.",
        "New translators are invited to ~lq-translators on Mattermost.",
        "~lq-design-review is where the mock-ups get critiqued.",
        ("~lq-l10n",),
        ("~lq-translators",),
    ),
    # owner and role changes of people
    _case2(
        "s11 export control officer, full names, Icelandic and Bangladeshi, effective immediately",
        "person",
        "Effective immediately, export control questions go to Sigrún Hallgrímsdóttir. Tanvir "
        "Chowdhury has moved to the Singapore office and is no longer our export control "
        "officer; he remains the contact for the university liaison programme.",
        "Tanvir Chowdhury is the export control officer.",
        "Classify new products with Tanvir Chowdhury before shipping: he handles export control.",
        "Tanvir Chowdhury is the contact for the university liaison programme.",
        ("Sigrún Hallgrímsdóttir",),
        ("Tanvir Chowdhury",),
        ("export",),
    ),
    _case2(
        "s12 lab keys, first names, Polish and German, a lowercase heads-up with a typo",
        "person",
        "heads-up: from this week the lab keys are with Małgorzata (room 2.14), ekkehard dosn't "
        "hand them out anymore. he still does the fleet cars tho",
        "Ekkehard hands out the lab keys.",
        "Report lost lab keys to Ekkehard the same day.",
        "Ekkehard books the fleet cars.",
        ("Małgorzata",),
        ("Ekkehard",),
        ("keys",),
    ),
    _case2(
        "s13 owning team of the search indexer, not X anymore — Y",
        "person",
        "search indexer on-call: not Team Kelpie anymore — Team Marabou has owned it since the "
        "reorg. Kelpie keeps the web crawler.",
        "Team Kelpie is on call for the search indexer.",
        "Page Team Kelpie when the search indexer falls behind.",
        "Team Kelpie runs the web crawler.",
        ("Team Marabou",),
        ("Team Kelpie",),
        ("indexer",),
    ),
    _case2(
        "s14 conference talk sign-off, full names, Zulu and Mexican, a question its author answers",
        "person",
        "Who signs off conference talks these days? Answering my own question after asking "
        "around: Zanele Ngcobo, since the comms restructure. Arturo Villaseñor Paz doesn't "
        "review external talks any more; he kept the internal newsletter.",
        "Arturo Villaseñor Paz approves conference talks before they are submitted.",
        "Send the slides of conference talks to Arturo Villaseñor Paz for review.",
        "Arturo Villaseñor Paz edits the internal newsletter.",
        ("Zanele Ngcobo",),
        ("Arturo Villaseñor Paz",),
        ("talks",),
    ),
    _case2(
        "s15 fire drill sign-off, first names, Tongan and Igbo, going forward with emoji",
        "person",
        "🔥🧯 going forward Siosaia does the sign-off for the monthly fire drill, Obiageli handed "
        "it over last week. (Obiageli is still our first aider!)",
        "Obiageli signs off the monthly fire drill.",
        "Send the fire drill headcount to Obiageli for sign-off.",
        "Obiageli is the floor's trained first aider.",
        ("Siosaia",),
        ("Obiageli",),
        ("drill",),
    ),
    # numbers with a subject
    _case2(
        "s16 database pool size, a pasted log line",
        "number",
        "this line from last night is the fix:\n"
        "`2024-05-14T02:31:07Z INFO lumenhaus-api config reloaded: "
        "db.pool.max_connections 38 -> 112`\n"
        "so the Lumenhaus API's pool is 112 connections, no longer 38 connections.",
        "The Lumenhaus API's database pool is capped at 38 connections.",
        "Size pgbouncer for 38 connections per Lumenhaus API pod.",
        "The staging Postgres accepts 38 connections in total.",
        ("112 connections",),
        ("38 connections",),
        ("Lumenhaus",),
    ),
    _case2(
        "s17 canteen price, a German speaker's English",
        "number",
        "Small info: the menu of the day in the Kantine Ysolde costs since February 15,85 €, "
        "not more 13,40 €. Also the coffee is not anymore included, sadly.",
        "The menu of the day at Kantine Ysolde costs 13,40 €.",
        "A lunch voucher of 13,40 € covers the daily menu at Kantine Ysolde.",
        "A day ticket for the multi-storey car park costs 13,40 €.",
        ("15,85 €",),
        ("13,40 €",),
        ("Ysolde",),
    ),
    _case2(
        "s18 upload limit, a code review comment on a quoted line",
        "number",
        "Review comment on docs/upload.md, line 12:\n"
        "> Files larger than 320 MB are rejected.\n"
        "nit: outdated, the Brisewood portal accepts up to 960 MB per file since the storage "
        "upgrade last week. Please fix before merging.",
        "The Brisewood portal rejects uploads larger than 320 MB.",
        "Split videos over 320 MB before uploading them to Brisewood.",
        "The mail gateway strips attachments over 320 MB.",
        ("960 MB",),
        ("320 MB",),
        ("Brisewood",),
    ),
    _case2(
        "s19 API rate limit lowered, an incident status page update",
        "number",
        "Vossberg Geocoding: Degraded performance\n"
        "Update, 11:20 UTC: to protect the cluster while it is scaled out, the per-key rate "
        "limit has been lowered to 90 requests per second (from 150 requests per second). We "
        "will post here when the higher limit returns.",
        "Each Vossberg API key may send 150 requests per second.",
        "The Vossberg client library throttles itself at 150 requests per second.",
        "The ingress load balancer sheds traffic above 150 requests per second per pod.",
        ("90 requests per second",),
        ("150 requests per second",),
        ("Vossberg",),
    ),
    _case2(
        "s20 club membership fee, committee minutes",
        "number",
        "Minutes, Loughcarra Rowing Club committee, 3 March\n"
        "4. Fees: annual membership raised to €185 from €140 for the new season. Proposed by "
        "Deirdre, seconded by Colm, carried 6–1.\n"
        "5. AOB: none.",
        "Annual membership of Loughcarra Rowing Club costs €140.",
        "New rowers pay €140 for their first year's membership.",
        "The boathouse key deposit is €140.",
        ("€185",),
        ("€140",),
        ("membership",),
    ),
    # a change back
    _case2(
        "s21 change back, Python package index, a Revert commit message",
        "change back",
        'Revert "pip: use Artifactory as the package index"\n\n'
        "This reverts commit 9c1e2d4a. pip installs from "
        "https://devpi.tessaly.net/root/prod/+simple/ again; the Artifactory index "
        "https://tessaly.jfrog.io/artifactory/api/pypi/pypi-local/simple is switched off on "
        "Friday.",
        "pip.conf sets index-url to "
        "https://tessaly.jfrog.io/artifactory/api/pypi/pypi-local/simple.",
        "CI uploads the Tessaly wheels to "
        "https://tessaly.jfrog.io/artifactory/api/pypi/pypi-local/simple with twine.",
        "https://tessaly.jfrog.io/artifactory/api/npm/npm-local hosts the frontend packages.",
        ("https://devpi.tessaly.net/root/prod/+simple/",),
        ("https://tessaly.jfrog.io/artifactory/api/pypi/pypi-local/simple",),
        prior=(
            Prior(
                "The Python package index moved from https://devpi.tessaly.net/root/prod/+simple/ "
                "to https://tessaly.jfrog.io/artifactory/api/pypi/pypi-local/simple.",
                ("https://devpi.tessaly.net/root/prod/+simple/",),
                ("https://tessaly.jfrog.io/artifactory/api/pypi/pypi-local/simple",),
            ),
        ),
    ),
    _case2(
        "s22 change back, deploy channel, a reply under a quoted question",
        "change back",
        "> @Haruto did the #vantor-deploy-bot experiment end?\n\n"
        "yep! deploy notifications go to #vantor-release-train again, like before March. i "
        "archived #vantor-deploy-bot this morning",
        "Deploy notifications are posted in #vantor-deploy-bot.",
        "The release manager watches #vantor-deploy-bot during a rollout.",
        "#vantor-release-notes collects the customer-facing notes.",
        ("#vantor-release-train",),
        ("#vantor-deploy-bot",),
        prior=(
            Prior(
                "Deploy notifications moved from #vantor-release-train to #vantor-deploy-bot.",
                ("#vantor-release-train",),
                ("#vantor-deploy-bot",),
            ),
        ),
    ),
    _case2(
        "s23 change back, takedown mailbox, a runbook's numbered steps",
        "change back",
        "Runbook 4.2, Takedown requests (updated 2 June)\n"
        "1. Forward every DMCA or takedown notice to abuse@mirrenhost.eu. We handle them "
        "in-house again, as before the outsourcing.\n"
        "2. Do not use notices@mirrenhost.takedownly.com any more; that contract has ended.\n"
        "3. Log the notice in the abuse tracker.",
        "Forward DMCA takedown notices to notices@mirrenhost.takedownly.com.",
        "The outsourced takedown desk answers at notices@mirrenhost.takedownly.com within four "
        "hours.",
        "Takedownly's invoices come from billing@takedownly.com.",
        ("abuse@mirrenhost.eu",),
        ("notices@mirrenhost.takedownly.com",),
        prior=(
            Prior(
                "Takedown notices moved from abuse@mirrenhost.eu to "
                "notices@mirrenhost.takedownly.com.",
                ("abuse@mirrenhost.eu",),
                ("notices@mirrenhost.takedownly.com",),
            ),
        ),
    ),
    _case2(
        "s24 change back, build cache host, a post-mortem timeline",
        "change back",
        "Post-mortem, build outage of 12 May, timeline (CEST):\n"
        "08:02 builds start failing with cache timeouts against cache.eu.tollbeck.build\n"
        "08:40 decision: point Bazel back at bazel-cache.tollbeck.internal, the cache we used "
        "before the move\n"
        "09:15 all green; cache.eu.tollbeck.build stays out of rotation until further notice",
        ".bazelrc sets --remote_cache=grpcs://cache.eu.tollbeck.build.",
        "Cache hit rates of cache.eu.tollbeck.build are on the build dashboard.",
        "cache.us.tollbeck.build serves the Ohio runners.",
        ("bazel-cache.tollbeck.internal",),
        ("cache.eu.tollbeck.build",),
        prior=(
            Prior(
                "The Bazel remote cache moved from bazel-cache.tollbeck.internal to "
                "cache.eu.tollbeck.build.",
                ("bazel-cache.tollbeck.internal",),
                ("cache.eu.tollbeck.build",),
            ),
        ),
    ),
    _case2(
        "s25 change back, retro meeting link, a Spanish speaker's English",
        "change back",
        "Hola team! For the retro we return to use the Jitsi room "
        "https://meet.ruskwood.org/retro, like before. The Google Meet "
        "https://meet.google.com/xqe-mtbv-kop we don't use more, I have deleted it. Nos vemos "
        "el jueves 🙂",
        "The sprint retro takes place in https://meet.google.com/xqe-mtbv-kop.",
        "The retro calendar invite links https://meet.google.com/xqe-mtbv-kop.",
        "https://meet.google.com/hdw-pazr-quy is the all-hands link.",
        ("https://meet.ruskwood.org/retro",),
        ("https://meet.google.com/xqe-mtbv-kop",),
        prior=(
            Prior(
                "The sprint retro moved from https://meet.ruskwood.org/retro to "
                "https://meet.google.com/xqe-mtbv-kop.",
                ("https://meet.ruskwood.org/retro",),
                ("https://meet.google.com/xqe-mtbv-kop",),
            ),
        ),
    ),
    # a change whose new value the store already names
    _case2(
        "s26 new value stored, metrics host, X is dead, long live Y",
        "new value in the store",
        "prom-prod.hallerby.io is dead, long live thanos.hallerby.io 🫡 prod dashboards and "
        "alert rules query thanos from today, same as staging always has.",
        "Prod Grafana dashboards query prom-prod.hallerby.io.",
        "Alert rules are evaluated on prom-prod.hallerby.io.",
        "Staging dashboards read from thanos.hallerby.io.",
        ("thanos.hallerby.io",),
        ("prom-prod.hallerby.io",),
    ),
    _case2(
        "s27 new value stored, demo scheduler, first names, the old owner's farewell e-mail",
        "new value in the store",
        "Subject: handing over\n\n"
        "Hi all, last week in this role for me: from Monday Farzaneh schedules the sprint demos "
        "(she keeps the release calendar already, so it's a natural fit). Thanks for putting up "
        "with my calendar invites!\n\n"
        "Lorcan",
        "Lorcan schedules the sprint demos.",
        "Ask Lorcan for a slot in the sprint demos.",
        "Farzaneh keeps the release calendar.",
        ("Farzaneh",),
        ("Lorcan",),
        ("demos",),
    ),
    _case2(
        "s28 new value stored, staff discount equal to the teachers', an announcement",
        "new value in the store",
        "📣 New this term at Gullrock Books: the staff discount goes up to 22.5%, the same as our "
        "teachers' discount (was 12.5%).",
        "Gullrock Books gives staff a 12.5% discount.",
        "Ring up staff purchases at Gullrock Books with the 12.5% discount.",
        "Teachers get 22.5% off at Gullrock Books.",
        ("22.5%",),
        ("12.5%",),
        ("staff",),
    ),
    _case2(
        "s29 new value stored, phishing channel merged into the service desk's, a ticket reply",
        "new value in the store",
        "Hi Tomasz, thanks for flagging the e-mail. #ymir-phish-reports was retired last month, "
        "so please forward suspicious e-mails to #ymir-security-desk (yes, the same channel as "
        "laptop requests). Closing this ticket. — IT Service Desk",
        "Report phishing e-mails in #ymir-phish-reports.",
        "The SOC triages #ymir-phish-reports twice a day.",
        "Laptop requests go to #ymir-security-desk.",
        ("#ymir-security-desk",),
        ("#ymir-phish-reports",),
    ),
    _case2(
        "s30 new value stored, press mailbox merged into the general one, a formal notice",
        "new value in the store",
        "Please be advised that press@kestova.studio has been retired. Mail sent to it is "
        "delivered to hello@kestova.studio, the address already used for general enquiries, "
        "and press requests are answered from there.",
        "Journalists contact press@kestova.studio.",
        "Press kit requests are answered from press@kestova.studio.",
        "General enquiries go to hello@kestova.studio.",
        ("hello@kestova.studio",),
        ("press@kestova.studio",),
    ),
)


# the blind9 split's own phrasings (same keys and fills as _SAY_BLIND8), by the helper who
# wrote its cases
_SAY_BLIND9 = {
    "clone": [
        "{P} repo | old: {old} | new: {new} | status: transferred ✅",
        "```diff\n- url = git@github.com:{old}.git\n+ url = git@github.com:{new}.git\n```\n"
        "{P}'s remote after the transfer, fix your checkouts.",
        "Q: where does {P} live these days? A: {new}. We stopped using {old} after the org "
        "cleanup.",
        "{old} is dead, long live {new}: that's where {P} is developed from today.",
        "Going forward, open {P} pull requests on {new}; {old} was handed over and is read-only.",
    ],
    "post": [
        "Effective immediately, {t} updates are posted in {new}. The admins archived {old}.",
        "Is {old} still the {t} channel? Answering my own question: no, the team moved to {new} "
        "last Friday.",
        "Not {old} anymore: the {t} crew hangs out in {new}.",
        'Forwarded from the {t} lead: "We have a new channel, {new}. Nobody reads {old} '
        'after today."',
        "{T} channel cleanup 🧹 {old}: archived. {new}: the one to use.",
    ],
    "email": [
        "Voicemail from the {t} desk: their address is {new} since the mail server move, and "
        "{old} is being closed.",
        "Auto-reply from {old}: This mailbox is no longer in use. For {t} questions please "
        "write to {new}.",
        "| team | address | note |\n| {t} | {new} | replaces {old}, which was shut down |",
        "{T} has a new address since monday: {new}. The address {old} exists not more.",
        "Going forward, {t} requests are answered from {new} only; {old} was switched off "
        "along with the old helpdesk.",
    ],
}

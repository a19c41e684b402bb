"""The writer benchmark's third blind split (blind3): 30 stated changes and act phrasings.

Written by a helper engineer who read only the case module (``bench/_writer.py``), the writing
guide, the README and the tests of the splits: blind to every result, report, changelog and
study of the benchmark and to the history of the repository, before any measurement on them,
and never used to choose a prompt, schema or rule. ``bench/_writer.py`` imports this module
after its ``_case`` helper is defined, and registers the split (``writer_cases("blind3")``,
``act_cases("blind3", n)``).

The same six kinds as the earlier blind splits, five each: renames and moves (a repository
whose old name holds the new one, a firmware repository moved to another forge, a Maven
artifact, a container image, an upload host); channels, URLs and mailboxes (a Slack channel, a
Telegram group, a booking link, a notice mailbox, a runbook link in a list); owner and role
changes of people by full and first name and of an owning team; numbers with a subject (a
time, a price, a runtime version, a booking limit, a retention period), whose memory c uses the
same number for something else; changes back of a repository, a channel, a booking host, a
database host and a mailbox; changes whose new value the store already names (a repository, a
channel, a person by first name, a version and a time server). Like blind2's, the gold calls
also give ``replaced_by`` (the new values).
"""

from __future__ import annotations

from functools import partial

from _writer_case import Prior
from _writer_case import writer_case as _case

__all__ = ["WRITER_BLIND3_CASES"]

# as for blind2, the gold call also names the new values (replaced_by)
_case2 = partial(_case, gold_names_new=True)


WRITER_BLIND3_CASES = (
    # renames and moves
    _case2(
        "k01 repository renamed, the old name holds the new one, lowercase",
        "rename or move",
        "fyi tessellate-io/vireo-server is just tessellate-io/vireo now, they dropped the "
        "-server suffix",
        "The Vireo API server code is in tessellate-io/vireo-server.",
        "Vireo releases are tagged with gh release create in tessellate-io/vireo-server.",
        "tessellate-io/vireo-server-loadtest has the k6 load test scripts.",
        ("tessellate-io/vireo",),
        ("tessellate-io/vireo-server",),
    ),
    _case2(
        "k02 firmware repository moved to another forge, X replaces Y",
        "rename or move",
        "git.pipitlabs.eu/firmware/pipit replaces codeberg.org/ondrasek/pipit-fw as the home of "
        "the Pipit firmware; the Codeberg repo stays up but is archived.",
        "Pipit firmware sources: https://codeberg.org/ondrasek/pipit-fw.",
        "Flash the Pipit board from a build of codeberg.org/ondrasek/pipit-fw.",
        "codeberg.org/ondrasek/pipit-case has the 3D-printable Pipit enclosure.",
        ("git.pipitlabs.eu/firmware/pipit",),
        ("codeberg.org/ondrasek/pipit-fw",),
    ),
    _case2(
        "k03 Maven artifact coordinates, no more",
        "rename or move",
        "No more com.brantwood:ledger-core in our poms: from 3.0 on the artifact is published "
        "as com.brantwood.ledger:ledger-core, so update the dependency.",
        "Add com.brantwood:ledger-core to pom.xml to use the Brantwood ledger API.",
        "The settlement service depends on com.brantwood:ledger-core 2.8.",
        "com.brantwood:ledger-core-testkit provides in-memory fakes for tests.",
        ("com.brantwood.ledger:ledger-core",),
        ("com.brantwood:ledger-core",),
    ),
    _case2(
        "k04 image moved to another registry, passive",
        "rename or move",
        "The Sorrel scheduler image has been moved to "
        "europe-docker.pkg.dev/sorrel-prod/images/scheduler; nothing is pushed to "
        "gcr.io/sorrel-prod/scheduler any more.",
        "Kubernetes pulls gcr.io/sorrel-prod/scheduler:1.14 for the Sorrel scheduler.",
        "Scan gcr.io/sorrel-prod/scheduler with Trivy before each release.",
        "gcr.io/sorrel-prod/scheduler-migrations runs the database migrations.",
        ("europe-docker.pkg.dev/sorrel-prod/images/scheduler",),
        ("gcr.io/sorrel-prod/scheduler",),
    ),
    _case2(
        "k05 upload host decommissioned, question-like chat note",
        "rename or move",
        "did I tell you? carrier manifests get uploaded to transfer.hartwell-freight.net these "
        "days, ftp.hartwell-freight.net was decommissioned",
        "Upload the daily carrier manifests to ftp.hartwell-freight.net.",
        "The manifest cron job logs in to ftp.hartwell-freight.net with the svc-manifest key.",
        "ftp-archive.hartwell-freight.net keeps manifests older than a year.",
        ("transfer.hartwell-freight.net",),
        ("ftp.hartwell-freight.net",),
    ),
    # channels, URLs and mailboxes
    _case2(
        "k06 Slack channel, no more X use Y, lowercase",
        "channel",
        "no more #sre-pages, use #sre-incidents for paging chatter",
        "Page acknowledgements are posted in #sre-pages.",
        "#sre-pages is where the on-call SRE hands over at shift change.",
        "#sre-pages-test receives the synthetic test pages.",
        ("#sre-incidents",),
        ("#sre-pages",),
    ),
    _case2(
        "k07 Telegram group link revoked",
        "channel",
        "The Oriel beta testers' Telegram group is now t.me/oriel_beta_testers; the invite link "
        "t.me/orielbeta was revoked.",
        "Beta testers of Oriel join the Telegram group t.me/orielbeta.",
        "Share new Oriel beta builds in t.me/orielbeta.",
        "t.me/orielnews is Oriel's public announcement channel.",
        ("t.me/oriel_beta_testers",),
        ("t.me/orielbeta",),
    ),
    _case2(
        "k08 booking link, long sentence, rather than",
        "URL",
        "Because the demo team wanted round-robin scheduling, which our Calendly plan can't do, "
        "customer demos are booked through https://cal.com/ravenscar/demo from now on rather "
        "than https://calendly.com/ravenscar-sales/demo.",
        "Send prospects https://calendly.com/ravenscar-sales/demo to book a product demo.",
        "The website's 'Book a demo' button links to https://calendly.com/ravenscar-sales/demo.",
        "Customer onboarding calls are booked at https://calendly.com/ravenscar-sales/onboarding.",
        ("https://cal.com/ravenscar/demo",),
        ("https://calendly.com/ravenscar-sales/demo",),
    ),
    _case2(
        "k09 notice mailbox, are to be addressed",
        "email",
        "Contract notices for Pemberly AG are to be addressed to notices@pemberly.ch going "
        "forward; the legal@pemberly-ag.ch mailbox is no longer read.",
        "Formal contract notices to Pemberly AG go to legal@pemberly-ag.ch.",
        "Send the Pemberly termination notice by email to legal@pemberly-ag.ch.",
        "legal-billing@pemberly-ag.ch receives Pemberly's legal invoices.",
        ("notices@pemberly.ch",),
        ("legal@pemberly-ag.ch",),
    ),
    _case2(
        "k10 runbook link, numbered list, used to be",
        "URL",
        "Bookmarks to update after the Hexmoor wiki split:\n"
        "1. ops runbooks: https://runbooks.hexmoor.net (used to be "
        "https://wiki.hexmoor.net/ops/runbooks)",
        "Incident runbooks are at https://wiki.hexmoor.net/ops/runbooks.",
        "Link the matching page of https://wiki.hexmoor.net/ops/runbooks in every alert.",
        "https://wiki.hexmoor.net/ops/oncall-rota lists who is on call this week.",
        ("https://runbooks.hexmoor.net",),
        ("https://wiki.hexmoor.net/ops/runbooks",),
    ),
    # owner and role changes of people
    _case2(
        "k11 product owner, full name, X replaces Y as",
        "person",
        "Effective today, Takumi Hayashida replaces Zofia Wiśniewska as product owner of the "
        "mobile wallet.",
        "Zofia Wiśniewska is the product owner of the mobile wallet.",
        "Mobile wallet backlog priorities are set by the product owner, Zofia Wiśniewska.",
        "Zofia Wiśniewska translates the release notes into Polish.",
        ("Takumi Hayashida",),
        ("Zofia Wiśniewska",),
        ("product owner",),
    ),
    _case2(
        "k12 night-shift supervisor, first name, terse",
        "person",
        "ferncliffe depot: night shift supervisor is Aigerim now, not Dragoș",
        "Dragoș supervises the night shift at the Ferncliffe depot.",
        "Night-shift overtime at Ferncliffe is approved by Dragoș.",
        "Dragoș runs the forklift safety course.",
        ("Aigerim",),
        ("Dragoș",),
        ("Ferncliffe",),
    ),
    _case2(
        "k13 owning team, belongs to ... rather than",
        "person",
        "Since the reorg, the Pollard exporter belongs to Insights Platform rather than Data "
        "Foundations.",
        "Data Foundations owns the Pollard exporter.",
        "Pollard exporter alerts page Data Foundations.",
        "Data Foundations runs the quarterly warehouse cost review.",
        ("Insights Platform",),
        ("Data Foundations",),
        ("Pollard exporter",),
    ),
    _case2(
        "k14 escrow agent, full name, a question",
        "person",
        "Could you note that Chukwuemeka Eze is the escrow agent for the Harrowgate acquisition "
        "now? Mattias Höglund handed it over on Friday.",
        "Mattias Höglund is the escrow agent for the Harrowgate acquisition.",
        "Harrowgate escrow releases need Mattias Höglund's signature.",
        "Mattias Höglund chairs the Harrowgate integration steering group.",
        ("Chukwuemeka Eze",),
        ("Mattias Höglund",),
        ("escrow",),
    ),
    _case2(
        "k15 intern mentor, first name, the other role stays",
        "person",
        "Kaveh is taking over the interns from Ilse; she keeps mentoring the apprentices.",
        "Ilse mentors the interns.",
        "The interns send their weekly notes to Ilse.",
        "Ilse mentors the apprentices.",
        ("Kaveh",),
        ("Ilse",),
        ("interns",),
    ),
    # numbers with a subject
    _case2(
        "k16 deploy freeze time, lowercase",
        "number",
        "quayside deploy freeze starts at 16:00 on fridays now, not 14:00",
        "The Quayside deploy freeze starts at 14:00 on Fridays.",
        "Don't merge Quayside changes after 14:00 on a Friday.",
        "The all-hands lunch is at 14:00 on Fridays.",
        ("16:00",),
        ("14:00",),
        ("Quayside",),
    ),
    _case2(
        "k17 licence price, no longer",
        "number",
        "Heads-up from finance: Ombra Analytics licences renew at £1,450 a year, no longer £1,200.",
        "An Ombra Analytics licence costs £1,200 a year.",
        "Budget £1,200 per year for each Ombra Analytics seat.",
        "The trade-show booth costs £1,200.",
        ("£1,450",),
        ("£1,200",),
        ("Ombra",),
    ),
    _case2(
        "k18 Java runtime, X replaces Y as",
        "number",
        "Java 21 replaces Java 17 as the runtime for the Skua batch jobs.",
        "Skua batch jobs run on Java 17.",
        "Build the Skua jar with Java 17 or the scheduler rejects it.",
        "The Jenkins controller runs on Java 17.",
        ("Java 21",),
        ("Java 17",),
        ("Skua",),
    ),
    _case2(
        "k19 room booking limit, down from",
        "number",
        "Ardtornish meeting rooms can only be booked for 2 hours at a time now, down from 3 hours.",
        "Ardtornish meeting rooms can be booked for up to 3 hours.",
        "An Ardtornish room booking longer than 3 hours is cancelled automatically.",
        "Visitor parking passes expire after 3 hours.",
        ("2 hours",),
        ("3 hours",),
        ("Ardtornish",),
    ),
    _case2(
        "k20 audit log retention, instead of, with a reason",
        "number",
        "Audit logs in Heronsgate are retained for 400 days since the SOC 2 audit, instead of "
        "180 days.",
        "Heronsgate keeps audit logs for 180 days.",
        "Export Heronsgate audit logs before they reach 180 days.",
        "Unused vacation days expire after 180 days.",
        ("400 days",),
        ("180 days",),
        ("audit logs",),
    ),
    # a change back
    _case2(
        "k21 change back, repository transfer reverted, passive",
        "change back",
        "The transfer of ledgerline/payouts to finops-eng/payouts has been reverted, so the repo "
        "is ledgerline/payouts again.",
        "The payouts service code lives in finops-eng/payouts.",
        "gh repo clone finops-eng/payouts to debug failed payouts.",
        "Payout schedules are documented in ledgerline/payouts/docs/schedule.md.",
        ("ledgerline/payouts",),
        ("finops-eng/payouts",),
        prior=(
            Prior(
                "ledgerline/payouts was transferred to finops-eng/payouts.",
                ("ledgerline/payouts",),
                ("finops-eng/payouts",),
            ),
        ),
    ),
    _case2(
        "k22 change back, channel, lowercase",
        "change back",
        "support escalations are back in #cs-escalations, #tier2-support is being archived",
        "Escalate stuck support tickets in #tier2-support.",
        "#tier2-support has the escalation rota pinned.",
        "#cs-escalations still has the 2024 escalation threads.",
        ("#cs-escalations",),
        ("#tier2-support",),
        prior=(
            Prior(
                "Support escalations moved from #cs-escalations to #tier2-support.",
                ("#cs-escalations",),
                ("#tier2-support",),
            ),
        ),
    ),
    _case2(
        "k23 change back, booking host, replaces again",
        "change back",
        "We're restoring our own booking page: book.vantaggio.it replaces vantaggio.setmore.com "
        "again, and the Setmore account gets cancelled.",
        "Customers book appointments at https://vantaggio.setmore.com.",
        "The booking link in the Instagram bio is vantaggio.setmore.com.",
        "Gift cards are sold at https://book.vantaggio.it/gift-cards.",
        ("book.vantaggio.it",),
        ("vantaggio.setmore.com",),
        prior=(
            Prior(
                "Appointment bookings moved from book.vantaggio.it to vantaggio.setmore.com.",
                ("book.vantaggio.it",),
                ("vantaggio.setmore.com",),
            ),
        ),
    ),
    _case2(
        "k24 change back, database host, long sentence",
        "change back",
        "Since the Frankfurt region kept timing out and the provider couldn't give us an ETA, "
        "the Marisco Postgres primary is db-ams.marisco.internal again instead of "
        "db-fra.marisco.internal.",
        "The Marisco Postgres primary is db-fra.marisco.internal.",
        "Run Marisco schema migrations against db-fra.marisco.internal.",
        "db-ams.marisco.internal also hosts the nightly pg_dump job.",
        ("db-ams.marisco.internal",),
        ("db-fra.marisco.internal",),
        prior=(
            Prior(
                "The Marisco Postgres primary moved from db-ams.marisco.internal to "
                "db-fra.marisco.internal.",
                ("db-ams.marisco.internal",),
                ("db-fra.marisco.internal",),
            ),
        ),
    ),
    _case2(
        "k25 change back, mailbox, once more",
        "change back",
        "Vendor mail: vendors@orchidmere.com is in use once more, and "
        "supplier-desk@orchidmere.com is being shut down.",
        "Vendors send their questions to supplier-desk@orchidmere.com.",
        "supplier-desk@orchidmere.com forwards delivery complaints to logistics.",
        "vendors@orchidmere.com is printed on the 2023 supplier handbook.",
        ("vendors@orchidmere.com",),
        ("supplier-desk@orchidmere.com",),
        prior=(
            Prior(
                "Vendor mail moved from vendors@orchidmere.com to supplier-desk@orchidmere.com.",
                ("vendors@orchidmere.com",),
                ("supplier-desk@orchidmere.com",),
            ),
        ),
    ),
    # a change whose new value the store already names
    _case2(
        "k26 new value stored, repository folded into a monorepo",
        "new value in the store",
        "We're consolidating the Alder apps: brackish-labs/ios-alder is archived, and the iOS "
        "code now sits in the monorepo brackish-labs/alder.",
        "The Alder iOS app is developed in brackish-labs/ios-alder.",
        "Fastlane lanes for Alder iOS live in brackish-labs/ios-alder/fastlane.",
        "brackish-labs/alder already holds the Alder Android app.",
        ("brackish-labs/alder",),
        ("brackish-labs/ios-alder",),
    ),
    _case2(
        "k27 new value stored, channel, list",
        "new value in the store",
        "Channel clean-up for the Ladoga launch:\n"
        "- #ladoga-war-room: archived\n"
        "- #launch-ladoga: use this for everything",
        "Ladoga launch blockers are raised in #ladoga-war-room.",
        "The Ladoga go/no-go call is announced in #ladoga-war-room.",
        "#launch-ladoga has the Ladoga press kit pinned.",
        ("#launch-ladoga",),
        ("#ladoga-war-room",),
    ),
    _case2(
        "k28 new value stored, payroll contact, first name",
        "new value in the store",
        "For payroll at Tolhurst, ask Wanjiru from now on, Benedek no longer handles it.",
        "Benedek handles payroll queries at Tolhurst.",
        "Tolhurst payslip corrections go through Benedek.",
        "Wanjiru at Tolhurst runs the pension scheme.",
        ("Wanjiru",),
        ("Benedek",),
        ("Tolhurst",),
    ),
    _case2(
        "k29 new value stored, iOS version",
        "new value in the store",
        "Pelham's iPhone app needs iOS 17 or later now; iOS 15 support was dropped.",
        "The Pelham iPhone app supports iOS 15 and later.",
        "Pelham QA still tests on an iOS 15 device.",
        "The Pelham watch app already needs iOS 17.",
        ("iOS 17",),
        ("iOS 15",),
        ("Pelham",),
    ),
    _case2(
        "k30 new value stored, time server",
        "new value in the store",
        "Point the office clocks at time.corrib.net; ntp1.corrib-lab.org is being switched off.",
        "Office servers sync their clocks from ntp1.corrib-lab.org.",
        "Allow UDP 123 to ntp1.corrib-lab.org in the firewall.",
        "time.corrib.net already serves the Wi-Fi access points.",
        ("time.corrib.net",),
        ("ntp1.corrib-lab.org",),
    ),
)


# the blind3 split's own phrasings (same keys and fills as _SAY_BLIND2), by the helper who
# wrote its cases
_SAY_BLIND3 = {
    "clone": [
        "no more {old}, the {P} code is in {new}",
        "For {P}, swap {old} for {new} in your git remotes.",
        "{new} is where {P} lives these days; {old} only keeps the old history.",
        "The {P} maintainers moved the project out of {old} and into {new}.",
        "{P} repo update: {new}. Nobody pushes to {old} any more.",
    ],
    "post": [
        "{T} chatter has moved: {new} replaces {old}.",
        "please post {t} things in {new}, {old} got archived this morning",
        "Could you note that the {t} channel is {new}? {old} is gone.",
        "Heads-up from the {t} team: {old} was retired and {new} is the place now.",
        "We consolidated {t} discussion into {new}; {old} is read-only from today.",
    ],
    "email": [
        "{T} has moved its mail to {new}; {old} will bounce from now on.",
        "no more {old} for {t}, write to {new}",
        "Could you remember that the {t} address is {new} now? {old} was shut down.",
        "The {t} desk answers at {new} these days, not at {old}.",
        "{new} replaces {old} as the {t} contact.",
    ],
}

"""The writer benchmark's fourth blind split (blind4): 30 stated changes and act phrasings.

Written by a helper engineer who read only the case module (``bench/_writer.py``), the third
blind split (``bench/_writer_blind3.py``, for its shape), the writing guide, the README and the
tests of the splits: blind to every result, report, changelog and study of the benchmark, to
the wording reader and the rest of the library's rules, and to the history of the repository,
before any measurement on them, and never used to choose a prompt, schema or rule.

The same six kinds as the earlier blind splits, five each: renames and moves (a GitLab project
moved into a subgroup, a Rust crate, a Go import path, a Bitbucket repository migrated to Azure
DevOps, a dataset transferred on the Hugging Face hub); channels, URLs and mailboxes (a
Mattermost channel, a Slack channel in a lowercase note without punctuation, a help-centre URL
of one language, a jobs mailbox, a mailing list in a list); owner and role changes of people by
full and first name, with names of many cultures (a data protection officer, a refunds
approver, a clinical lead whose name has a particle, a release captain) and of an owning team;
numbers with a subject (a phone extension, a price in złoty, a cutoff time, an upload
limit, a PostgreSQL version), whose memory c uses the same number for something else; changes
back of a repository on sourcehut, a community chat invite, a DNS resolver's IP address, a
webhook URL and a wiki; changes whose new value the store already names (a package, a Wi-Fi
network, a person by full name, a print quota, a status page). Phrasings of its own: a
lowercase chat note, a terse note with an arrow, a question answered in the same line, ``X
replaces Y``, ``X is now Y``, ``we stopped ...``, ``X is retired, use Y``, ``took ... off Y's
hands``, ``rolled back``, ``once again``, a list, the passive, two sentences, the new value
before the old. Like blind2's and blind3's, the gold calls also give ``replaced_by`` (the new
values).
"""

from __future__ import annotations

from functools import partial

from _writer_case import Prior
from _writer_case import writer_case as _case

__all__ = ["WRITER_BLIND4_CASES"]

# as for blind2 and blind3, the gold call also names the new values (replaced_by)
_case2 = partial(_case, gold_names_new=True)


WRITER_BLIND4_CASES = (
    # renames and moves
    _case2(
        "m01 GitLab project moved into a subgroup, new value first",
        "rename or move",
        "The Okapi arm driver now lives at gitlab.com/tamsin-robotics/drivers/okapi-arm; it was "
        "moved out of gitlab.com/tamsin-robotics/okapi-arm when we set up the drivers subgroup.",
        "Okapi arm driver merge requests go to gitlab.com/tamsin-robotics/okapi-arm.",
        "The Okapi arm driver's pipeline is defined in "
        "gitlab.com/tamsin-robotics/okapi-arm/.gitlab-ci.yml.",
        "gitlab.com/tamsin-robotics/okapi-arm-sim holds the Gazebo simulation of the arm.",
        ("gitlab.com/tamsin-robotics/drivers/okapi-arm",),
        ("gitlab.com/tamsin-robotics/okapi-arm",),
    ),
    _case2(
        "m02 Rust crate renamed, we stopped publishing, lowercase",
        "rename or move",
        "we stopped publishing tassel-parse. from 0.8 on the crate is tassel-syntax, same API",
        'Add tassel-parse = "0.7" to Cargo.toml to read Tassel files.',
        "The Tassel language server depends on tassel-parse.",
        "tassel-parse-derive generates the AST visitor impls for Tassel.",
        ("tassel-syntax",),
        ("tassel-parse",),
    ),
    _case2(
        "m03 Go import path, X is retired, use Y",
        "rename or move",
        "The github.com/gorseway-io/smelt import path is retired, use go.gorseway.dev/smelt in "
        "go.mod and in your imports.",
        "The build tools import Smelt as github.com/gorseway-io/smelt.",
        "go get github.com/gorseway-io/smelt@latest updates Smelt.",
        "github.com/gorseway-io/smeltctl is the Smelt admin CLI.",
        ("go.gorseway.dev/smelt",),
        ("github.com/gorseway-io/smelt",),
    ),
    _case2(
        "m04 Bitbucket repository migrated to Azure DevOps, passive, two sentences",
        "rename or move",
        "bank-feeds has been migrated to Azure DevOps. The repo is "
        "dev.azure.com/tolvanen/payments/_git/bank-feeds, and bitbucket.org/tolvanen/bank-feeds "
        "was made read-only.",
        "Clone bitbucket.org/tolvanen/bank-feeds to work on the bank feeds job.",
        "Bank feeds pull requests are reviewed in bitbucket.org/tolvanen/bank-feeds.",
        "bitbucket.org/tolvanen/bank-feeds-config keeps the per-bank settings.",
        ("dev.azure.com/tolvanen/payments/_git/bank-feeds",),
        ("bitbucket.org/tolvanen/bank-feeds",),
    ),
    _case2(
        "m05 Hugging Face dataset transferred, X is now Y, lowercase",
        "rename or move",
        "heads up nyala-nlp/swahili-news is now nyala-research/swahili-news on the hugging face "
        "hub, it was transferred to the research org",
        'Load the Swahili news corpus with load_dataset("nyala-nlp/swahili-news").',
        "The topic classifier was fine-tuned on huggingface.co/datasets/nyala-nlp/swahili-news.",
        "nyala-nlp/swahili-news-dedup is the deduplicated copy used for evaluation.",
        ("nyala-research/swahili-news",),
        ("nyala-nlp/swahili-news",),
    ),
    # channels, URLs and mailboxes
    _case2(
        "m06 Mattermost channel, X replaces Y",
        "channel",
        "On Mattermost, ~release-coordination replaces ~ship-room; please post the go/no-go "
        "checklist there.",
        "The release go/no-go checklist is posted in ~ship-room.",
        "Ask in ~ship-room before you tag a release.",
        "~ship-room-bots gets the automated build notifications.",
        ("~release-coordination",),
        ("~ship-room",),
    ),
    _case2(
        "m07 Slack channel, lowercase note without punctuation",
        "channel",
        "pls use #dp-oncall for handovers not #dp-handoff anymore thx",
        "On-call handovers for the data platform happen in #dp-handoff.",
        "Write the shift summary in #dp-handoff before you sign off.",
        "#dp-handoff-bots collects the PagerDuty shift reminders.",
        ("#dp-oncall",),
        ("#dp-handoff",),
    ),
    _case2(
        "m08 help-centre URL of one language, the other stays",
        "URL",
        "The English help articles moved to our own site: they're at https://help.halden.no/en "
        "now, and https://halden.freshdesk.com/en/support only redirects until June. The "
        "Norwegian ones stay where they are.",
        "Customer help articles in English are at https://halden.freshdesk.com/en/support.",
        "The app's Help menu links to https://halden.freshdesk.com/en/support.",
        "Norwegian help articles are at https://halden.freshdesk.com/nb-NO/support.",
        ("https://help.halden.no/en",),
        ("https://halden.freshdesk.com/en/support",),
    ),
    _case2(
        "m09 jobs mailbox, terse with an arrow and parentheses",
        "email",
        "Job applications -> jobs@ostwaldbio.de (careers@ostwaldbio.de is dead)",
        "Applicants send their CVs to careers@ostwaldbio.de.",
        "Recruiters forward candidate profiles to careers@ostwaldbio.de.",
        "careers-internships@ostwaldbio.de takes the internship applications.",
        ("jobs@ostwaldbio.de",),
        ("careers@ostwaldbio.de",),
    ),
    _case2(
        "m10 mailing list, list with an unchanged item, takes over from",
        "email",
        "Mailing list housekeeping for Verrall:\n"
        "- announce list: no change\n"
        "- dev list: dev@verrall.groups.io takes over from verrall-dev@lists.verrall.org, which "
        "stops accepting posts on the 1st",
        "Verrall design proposals are sent to verrall-dev@lists.verrall.org.",
        "Subscribe to verrall-dev@lists.verrall.org to follow Verrall development.",
        "verrall-devops@lists.verrall.org is the infrastructure team's list.",
        ("dev@verrall.groups.io",),
        ("verrall-dev@lists.verrall.org",),
    ),
    # owner and role changes of people
    _case2(
        "m11 data protection officer, full name, two sentences, the other role stays",
        "person",
        "Nomvula Dlamini is our DPO now. Henrik Sørlie moved to the security team but stays on "
        "the privacy board.",
        "Henrik Sørlie is the company's DPO.",
        "Subject access requests are answered by the DPO, Henrik Sørlie.",
        "Henrik Sørlie sits on the privacy board.",
        ("Nomvula Dlamini",),
        ("Henrik Sørlie",),
        ("DPO",),
    ),
    _case2(
        "m12 refunds approver, first name, a question answered, lowercase",
        "person",
        "who signs off refunds at gullwing books? it's Joaquín since monday, not Tariq",
        "Tariq approves refunds at Gullwing Books.",
        "Refunds over £40 wait for Tariq's OK.",
        "Tariq dresses the Gullwing Books shop window.",
        ("Joaquín",),
        ("Tariq",),
        ("refunds",),
    ),
    _case2(
        "m13 owning team, took it off Y's hands",
        "person",
        "Discovery Core took the Wayfarer search index off Relevance Squad's hands this sprint.",
        "Relevance Squad looks after the Wayfarer search index.",
        "Reindex failures of the Wayfarer search index page Relevance Squad.",
        "Relevance Squad reviews the ranking A/B tests.",
        ("Discovery Core",),
        ("Relevance Squad",),
        ("search index",),
    ),
    _case2(
        "m14 clinical lead, full name with a particle, took over from",
        "person",
        "Since 1 July the clinical lead at the Mbarara trial site is Dr Aisha Nakato; she took "
        "over from Dr Ruairí Ó Briain.",
        "Ruairí Ó Briain is the clinical lead at the Mbarara site.",
        "Protocol deviations at Mbarara are reported to Dr Ruairí Ó Briain.",
        "Ruairí Ó Briain co-wrote the trial's statistical analysis plan.",
        ("Aisha Nakato",),
        ("Ruairí Ó Briain",),
        ("Mbarara",),
    ),
    _case2(
        "m15 release captain, first name, the other role stays",
        "person",
        "Heads-up: Haruto takes over as Linnet's release captain from Thảo, who keeps doing QA.",
        "Thảo is the Linnet release captain.",
        "The release captain, Thảo, cuts the Linnet tags.",
        "Thảo does QA for Linnet.",
        ("Haruto",),
        ("Thảo",),
        ("release captain",),
    ),
    # numbers with a subject
    _case2(
        "m16 helpdesk phone extension, lowercase, old value first",
        "number",
        "helpdesk moved desks so ext. 2255 doesn't ring anymore -- dial ext. 3310 for IT help in "
        "Aarhus",
        "Call the IT helpdesk on ext. 2255.",
        "The Aarhus helpdesk answers ext. 2255 from 8 to 17.",
        "Night security in Aarhus answers on ext. 2255.",
        ("ext. 3310",),
        ("ext. 2255",),
        ("helpdesk",),
    ),
    _case2(
        "m17 day pass price in złoty, (was ...)",
        "number",
        "Wisła Hub raised the coworking day pass to 65 zł (was 55 zł).",
        "A Wisła Hub coworking day pass costs 55 zł.",
        "Expense up to 55 zł for a Wisła Hub day pass.",
        "Garage parking next to Wisła Hub is 55 zł a day.",
        ("65 zł",),
        ("55 zł",),
        ("day pass",),
    ),
    _case2(
        "m18 payroll cutoff time, lowercase, the reason as a second sentence",
        "number",
        "new payroll cutoff is 10:30 on thursdays. 11:45 was too late for the bank run",
        "The payroll cutoff is 11:45 on Thursdays.",
        "Submit overtime before the 11:45 payroll cutoff.",
        "The Thursday team lunch starts at 11:45.",
        ("10:30",),
        ("11:45",),
        ("payroll cutoff",),
    ),
    _case2(
        "m19 upload limit, passive, no longer applies",
        "number",
        "The upload cap on the Tanager portal has been raised to 250 MB; the old 100 MB cap no "
        "longer applies.",
        "The Tanager portal rejects uploads over 100 MB.",
        "Split portal uploads into files under 100 MB.",
        "E-mail attachments at Tanager are capped at 100 MB.",
        ("250 MB",),
        ("100 MB",),
        ("portal",),
    ),
    _case2(
        "m20 PostgreSQL version, two sentences",
        "number",
        "Upgraded the Bittern database to PostgreSQL 16 over the weekend. Its PostgreSQL 13 "
        "cluster is gone.",
        "The Bittern database runs PostgreSQL 13.",
        "Bittern migrations must stay compatible with PostgreSQL 13.",
        "The CRM's reporting replica runs PostgreSQL 13.",
        ("PostgreSQL 16",),
        ("PostgreSQL 13",),
        ("Bittern",),
    ),
    # a change back
    _case2(
        "m21 change back, repository back on sourcehut, two sentences",
        "change back",
        "Lanyard's canonical repo is git.sr.ht/~okonjo/lanyard again. We undid the GitHub move, "
        "and github.com/okonjo/lanyard will be deleted.",
        "Lanyard patches go to github.com/okonjo/lanyard as pull requests.",
        "git clone https://github.com/okonjo/lanyard to build Lanyard.",
        "Lanyard's mailing list archive links to git.sr.ht/~okonjo/lanyard/log.",
        ("git.sr.ht/~okonjo/lanyard",),
        ("github.com/okonjo/lanyard",),
        prior=(
            Prior(
                "Lanyard moved from git.sr.ht/~okonjo/lanyard to github.com/okonjo/lanyard.",
                ("git.sr.ht/~okonjo/lanyard",),
                ("github.com/okonjo/lanyard",),
            ),
        ),
    ),
    _case2(
        "m22 change back, community chat invite, lowercase, parentheses",
        "change back",
        "community chat is back on discord (discord.gg/pintail), the slack invite "
        "slack.pintail.dev is closed",
        "Invite community members to the Pintail Slack via slack.pintail.dev.",
        "The README's chat badge links to slack.pintail.dev.",
        "discord.gg/pintail still has the 2023 community threads.",
        ("discord.gg/pintail",),
        ("slack.pintail.dev",),
        prior=(
            Prior(
                "Pintail's community chat moved from discord.gg/pintail to slack.pintail.dev.",
                ("discord.gg/pintail",),
                ("slack.pintail.dev",),
            ),
        ),
    ),
    _case2(
        "m23 change back, DNS resolver IP address, rolled back",
        "change back",
        "Rolled back: the office DNS resolver is 10.20.0.53 again, 10.20.8.8 kept dropping "
        "queries.",
        "Point office machines at the DNS resolver 10.20.8.8.",
        "The office DHCP scope hands out 10.20.8.8 as the DNS server.",
        "10.20.0.53 also serves DHCP for the guest Wi-Fi.",
        ("10.20.0.53",),
        ("10.20.8.8",),
        prior=(
            Prior(
                "The office DNS resolver moved from 10.20.0.53 to 10.20.8.8.",
                ("10.20.0.53",),
                ("10.20.8.8",),
            ),
        ),
    ),
    _case2(
        "m24 change back, webhook URL, passive",
        "change back",
        "The Stripe webhook endpoint has been reverted to https://hooks.tirrell.shop/stripe; "
        "https://api.tirrell.shop/webhooks/stripe no longer receives events.",
        "Stripe sends webhook events to https://api.tirrell.shop/webhooks/stripe.",
        "Replay failed Stripe events against https://api.tirrell.shop/webhooks/stripe.",
        "https://hooks.tirrell.shop/stripe is listed in the 2023 PCI scope document.",
        ("https://hooks.tirrell.shop/stripe",),
        ("https://api.tirrell.shop/webhooks/stripe",),
        prior=(
            Prior(
                "The Stripe webhook endpoint moved from https://hooks.tirrell.shop/stripe to "
                "https://api.tirrell.shop/webhooks/stripe.",
                ("https://hooks.tirrell.shop/stripe",),
                ("https://api.tirrell.shop/webhooks/stripe",),
            ),
        ),
    ),
    _case2(
        "m25 change back, wiki, once again, lowercase",
        "change back",
        "we gave up on outline, team docs live at hallam.atlassian.net/wiki once again and "
        "hallam.getoutline.com goes read-only on friday",
        "Team docs are written in hallam.getoutline.com.",
        "The onboarding checklist is a page in hallam.getoutline.com.",
        "hallam.atlassian.net/wiki/spaces/HR still has the leave policy.",
        ("hallam.atlassian.net/wiki",),
        ("hallam.getoutline.com",),
        prior=(
            Prior(
                "Team docs moved from hallam.atlassian.net/wiki to hallam.getoutline.com.",
                ("hallam.atlassian.net/wiki",),
                ("hallam.getoutline.com",),
            ),
        ),
    ),
    # a change whose new value the store already names
    _case2(
        "m26 new value stored, metrics package, we stopped using",
        "new value in the store",
        "We stopped using garnet-statsd; garnet-otel, which the services already load for "
        "traces, sends the metrics too.",
        "Garnet services report metrics through garnet-statsd.",
        "pip install garnet-statsd in the worker image.",
        "garnet-otel already exports the Garnet traces.",
        ("garnet-otel",),
        ("garnet-statsd",),
    ),
    _case2(
        "m27 new value stored, guest Wi-Fi network, new value first",
        "new value in the store",
        "Guests should join Tamarack-Visitors (it's already on in the conference wing); "
        "Tamarack-Guest is switched off building-wide.",
        "Visitors connect to the Tamarack-Guest Wi-Fi.",
        "The Tamarack-Guest password is on the reception desk card.",
        "Tamarack-Visitors is the Wi-Fi in the conference wing.",
        ("Tamarack-Visitors",),
        ("Tamarack-Guest",),
    ),
    _case2(
        "m28 new value stored, security reviewer, full name, the subject first",
        "new value in the store",
        "Vendor security reviews: Leilani Kealoha does them as of this week, Radomir Vuković "
        "has stopped.",
        "Radomir Vuković does the vendor security reviews.",
        "Send vendor questionnaires to Radomir Vuković for review.",
        "Leilani Kealoha runs the pen-test programme.",
        ("Leilani Kealoha",),
        ("Radomir Vuković",),
        ("vendor",),
    ),
    _case2(
        "m29 new value stored, print quota, the same as another team",
        "new value in the store",
        "Brisa staff get 500 pages a month of printing now, same as the design team; the 300 "
        "pages limit is history.",
        "Brisa staff can print 300 pages a month.",
        "Print jobs beyond 300 pages a month are blocked at Brisa.",
        "The Brisa design team's print quota is 500 pages a month.",
        ("500 pages",),
        ("300 pages",),
        ("Brisa",),
    ),
    _case2(
        "m30 new value stored, status page, terse, new value first",
        "new value in the store",
        "Status page is status.kanoa.health. The one on kanoa.instatus.com gets shut down this "
        "week.",
        "Kanoa outages are announced on kanoa.instatus.com.",
        "Subscribe to incident e-mails at https://kanoa.instatus.com/subscribe.",
        "status.kanoa.health already shows the API uptime.",
        ("status.kanoa.health",),
        ("kanoa.instatus.com",),
    ),
)


# the blind4 split's own phrasings (same keys and fills as _SAY_BLIND3), by the helper who
# wrote its cases
_SAY_BLIND4 = {
    "clone": [
        "{P}'s code isn't in {old} anymore. Clone {new} instead.",
        "fyi {P} repo = {new} now ({old} is frozen)",
        "{new} is the upstream for {P} from today; {old} is retired.",
        "We stopped pushing {P} to {old} this week and use {new}.",
        "After the org clean-up, {old} became {new}.",
    ],
    "post": [
        "{T} team note: we stopped using {old}, everything goes to {new}.",
        "{old} is retired, use {new} for {t} questions",
        "new {t} channel is {new}. {old} is archived",
        "Small thing: {new} is where the {t} people talk now, not {old}.",
        "{old} has been shut; post {t} stuff to {new} going forward.",
    ],
    "email": [
        "{T} mail: {new} from today. {old} is retired.",
        "please don't use {old} anymore, {t} reads {new} now",
        "{new} is the {t} team's address now; we stopped checking {old}.",
        "The old {t} inbox, {old}, has been closed and {new} opened in its place.",
        "For {t}, write to {new}. {old} was switched off last night.",
    ],
}

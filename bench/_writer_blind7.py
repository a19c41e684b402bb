"""The writer benchmark's seventh blind split (blind7): 30 stated changes and act phrasings.

Written by a helper engineer who read only the case module's docstring, the definitions of
``WriterCase``, ``Prior`` and ``_case`` and the use of the act phrasings (``_SAY`` and
``_act_case``) in ``bench/_writer.py``, the sixth blind split (``bench/_writer_blind6.py``, for
its shape only), the writing guide, the README and the tests of the splits: blind to the other
splits' cases, to every result, report, changelog and study of the benchmark, to the wording
reader and the rest of the library's code and rules, and to the history of the repository.
Written before any measurement on it, and never used to choose a prompt, schema or rule; no
library function was run on its cases while it was written. Its strings were kept apart from
the earlier splits by a throwaway script that printed only the strings they share.

The same six kinds as the earlier blind splits, five each: renames and moves (a GitHub
repository renamed, a scoped npm package retired for another, an Ollama model moved to another
namespace, an S3 log bucket moved for data residency, an APT repository host replaced by a
package URL); channels, URLs and mailboxes (a ``~channel`` of warehouse alerts, an order
mailbox named in a pasted auto-reply, an onboarding checklist URL moved from a wiki to a
handbook site, a Slack channel of firmware build failures, a press mailbox); owner and role
changes of people by full and first name, with names of many cultures (an evacuation marshal
with Chilean and Korean names, pool car bookings with Polish and Māori first names, an approver
of ergonomic equipment with Georgian and Finnish names, an architecture review chair with
Pakistani and Omani names) and of an owning team; numbers with a subject (a bike locker fee in
euros, a reading room's last entry time, an upload limit, a meeting room's capacity, an
invoice's late-payment interest), whose memory c uses the same number for something else;
changes back of an editor repository, a deploy channel, a recruiting mailbox, a Nix binary
cache host and an API reference URL; changes whose new value the store already names (a
container image dropped for the one the Go jobs use, an insurance broker contact by full name
with Icelandic and Argentine names, a delivery time, an incident channel, a fridge rota by
first name with Zulu and Japanese names). Phrasings of its own: small talk before the change,
``X is now Y``, ``X retired, use Y``, ``we moved off X``, an ASCII arrow in a lowercase note, a
heads-up pasted from another channel, a question asked and answered in the same message, a
pasted auto-reply, two facts of which only one is a change, a colleague quoted, the passive
with ``has been`` and ``was``, a correction of the agent's summary and of a figure it quoted,
an arrow between two full names, a long sentence that opens with thanks, ``went back to``, a
release note that reverts an earlier one, ``is gone``, ``is no more``, ``is off that rota``.
Like blind2's to blind6's, the gold calls also give ``replaced_by`` (the new values).
"""

from __future__ import annotations

from functools import partial

from _writer_case import Prior
from _writer_case import writer_case as _case

__all__ = ["WRITER_BLIND7_CASES"]

# as for blind2 to blind6, the gold call also names the new values (replaced_by)
_case2 = partial(_case, gold_names_new=True)


WRITER_BLIND7_CASES = (
    # renames and moves
    _case2(
        "q01 repository renamed, small talk first, X is now Y",
        "rename or move",
        "Good morning! The coffee machine on the third floor works again, finally. Also: "
        "kelpwright/tide-sched is now kelpwright/tidewatch, same code, new name.",
        "The tide scheduling service is developed in kelpwright/tide-sched.",
        "git clone git@github.com:kelpwright/tide-sched.git to build the scheduler locally.",
        "kelpwright/tide-charts renders the tide tables for the website.",
        ("kelpwright/tidewatch",),
        ("kelpwright/tide-sched",),
    ),
    _case2(
        "q02 scoped npm package, X retired, use Y",
        "rename or move",
        "@orrisfield/forms-core retired, use @orrisfield/formkit. Same API, the validators were "
        "rewritten.",
        "The checkout page imports its form widgets from @orrisfield/forms-core.",
        "npm install @orrisfield/forms-core adds the form widgets to a new app.",
        "@orrisfield/icons ships the SVG icon set.",
        ("@orrisfield/formkit",),
        ("@orrisfield/forms-core",),
    ),
    _case2(
        "q03 Ollama model moved to another namespace, we moved off X",
        "rename or move",
        "We moved off stavewood/reranker-small in the Ollama registry; since the licence review "
        "the model is published as stavewood-research/reranker-small.",
        "The search service pulls its reranker, stavewood/reranker-small, from Ollama.",
        "ollama pull stavewood/reranker-small fetches the reranker weights.",
        "stavewood/embedder-base is the embedding model the search service uses.",
        ("stavewood-research/reranker-small",),
        ("stavewood/reranker-small",),
    ),
    _case2(
        "q04 S3 log bucket, a lowercase note with an ASCII arrow and a reason",
        "rename or move",
        "logs bucket: s3://rookhallow-app-logs -> s3://rookhallow-logs-eu (eu data residency)",
        "Application logs are shipped to s3://rookhallow-app-logs.",
        "Trino queries read from s3://rookhallow-app-logs/year=2024/.",
        "s3://rookhallow-app-assets holds the uploaded user images.",
        ("s3://rookhallow-logs-eu",),
        ("s3://rookhallow-app-logs",),
    ),
    _case2(
        "q05 APT repository host replaced, a heads-up pasted from another channel",
        "rename or move",
        "Heads-up from the platform channel, pasted as is: 'The agent packages are published to "
        "https://pkg.nettlecombe.dev/deb as of release 3.2. apt.nettlecombe.io was switched off "
        "last night.'",
        "The sources.list.d/nettlecombe.list entry points at https://apt.nettlecombe.io.",
        "Hosts install the nettlecombe-agent package from https://apt.nettlecombe.io.",
        "https://docs.nettlecombe.io/agent documents the agent's config options.",
        ("https://pkg.nettlecombe.dev/deb",),
        ("apt.nettlecombe.io",),
    ),
    # channels, URLs and mailboxes
    _case2(
        "q06 a ~channel of warehouse alerts, a question asked and answered in the same message",
        "channel",
        "Is ~shipping-alerts still the place for failed label prints? Nope, since the "
        "warehouse reorg they're posted to ~dispatch-desk.",
        "Failed label prints are reported in ~shipping-alerts on the ops chat.",
        "Warehouse leads watch ~shipping-alerts during the morning pick.",
        "~shipping-rates is where carrier price changes are discussed.",
        ("~dispatch-desk",),
        ("~shipping-alerts",),
    ),
    _case2(
        "q07 order mailbox, a pasted auto-reply",
        "email",
        "Pasted from the auto-reply I just got: 'This mailbox (orders@yarrowdene.shop) is no "
        "longer monitored. For questions about an order, please write to "
        "hello@yarrowdene.shop.'",
        "Customers with order questions write to orders@yarrowdene.shop.",
        "Refund requests are answered from orders@yarrowdene.shop.",
        "Wholesale enquiries go to trade@yarrowdene.shop.",
        ("hello@yarrowdene.shop",),
        ("orders@yarrowdene.shop",),
    ),
    _case2(
        "q08 onboarding checklist URL, two facts of which only one is a change",
        "URL",
        "Two things for the onboarding doc: laptops are still ordered through the IT form, and "
        "the new-starter checklist lives at https://handbook.copperlode.com/new-starters now "
        "instead of https://wiki.copperlode.local/Onboarding/Checklist.",
        "New starters follow the checklist at https://wiki.copperlode.local/Onboarding/Checklist.",
        "Managers tick off https://wiki.copperlode.local/Onboarding/Checklist in the first week.",
        "https://wiki.copperlode.local/Onboarding/Buddies lists the onboarding buddies.",
        ("https://handbook.copperlode.com/new-starters",),
        ("https://wiki.copperlode.local/Onboarding/Checklist",),
    ),
    _case2(
        "q09 Slack channel of build failures, a colleague quoted",
        "channel",
        'Kazimierz said in the huddle: "nobody reads #fw-build-failures, the bot posts to '
        '#firmware-ci now."',
        "The build bot posts firmware build failures to #fw-build-failures.",
        "Check #fw-build-failures before merging to the firmware main branch.",
        "#fw-releases announces each firmware release.",
        ("#firmware-ci",),
        ("#fw-build-failures",),
    ),
    _case2(
        "q10 press mailbox, the passive with has been and was",
        "email",
        "The press mailbox has been consolidated: media@hollowmarsh.org.uk should be used for "
        "all press enquiries, and pressoffice@hollowmarsh.org.uk was closed on Friday.",
        "Journalists contact pressoffice@hollowmarsh.org.uk for interviews.",
        "Embargoed releases are sent from pressoffice@hollowmarsh.org.uk.",
        "Photo requests go to archive@hollowmarsh.org.uk.",
        ("media@hollowmarsh.org.uk",),
        ("pressoffice@hollowmarsh.org.uk",),
    ),
    # owner and role changes of people
    _case2(
        "q11 evacuation marshal, full names, Chilean and Korean, the passive, the other role stays",
        "person",
        "The third-floor evacuation marshal role has been taken over by Baek Seo-yeon; Ignacio "
        "Araya stays on as a first-aider.",
        "Ignacio Araya is the evacuation marshal for the third floor.",
        "During drills, Ignacio Araya sweeps the third floor as evacuation marshal.",
        "Ignacio Araya is a trained first-aider.",
        ("Baek Seo-yeon",),
        ("Ignacio Araya",),
        ("marshal",),
    ),
    _case2(
        "q12 pool car bookings, first names, a correction of the agent's summary",
        "person",
        "Small correction to your summary: the pool car bookings aren't Wojtek's any more, "
        "Mereana handles them.",
        "Wojtek handles the pool car bookings.",
        "Ask Wojtek to reserve the pool car for site visits.",
        "Wojtek leads the Thursday safety walk.",
        ("Mereana",),
        ("Wojtek",),
        ("pool car",),
    ),
    _case2(
        "q13 owning team, the passive, no longer",
        "person",
        "Ownership of the push notification service was passed to Growth Engineering last "
        "sprint; Core Messaging no longer owns it.",
        "Core Messaging owns the push notification service.",
        "Page Core Messaging when push notifications stop sending.",
        "Core Messaging maintains the email templating library.",
        ("Growth Engineering",),
        ("Core Messaging",),
        ("push",),
    ),
    _case2(
        "q14 ergonomic equipment approver, full names, Georgian and Finnish, an arrow between them",
        "person",
        "Ergonomic equipment requests: Nino Beridze → Aarni Lehtinen (Nino is away on a "
        "secondment until spring).",
        "Nino Beridze approves ergonomic equipment requests.",
        "Standing desk and chair orders need an ergonomic sign-off from Nino Beridze.",
        "Nino Beridze runs the Georgian language club.",
        ("Aarni Lehtinen",),
        ("Nino Beridze",),
        ("ergonomic",),
    ),
    _case2(
        "q15 review board chair, full names, a long sentence that opens with thanks",
        "person",
        "Thanks for drafting the agenda! Since Rukhsana Qureshi went on parental leave, Yousef "
        "Al-Habsi has been chairing the architecture review board, so send it to him instead.",
        "Rukhsana Qureshi chairs the architecture review board.",
        "Send architecture review agendas to Rukhsana Qureshi.",
        "Rukhsana Qureshi mentors the graduate engineers.",
        ("Yousef Al-Habsi",),
        ("Rukhsana Qureshi",),
        ("architecture",),
    ),
    # numbers with a subject
    _case2(
        "q16 depot bike locker fee in euros, an all-lowercase note, was X",
        "number",
        "fyi a bike locker at the brennholm depot is €5.80 a month now, was €4.20",
        "A bike locker at the Brennholm depot costs €4.20 a month.",
        "Claim the €4.20 locker fee at the Brennholm depot on your expenses.",
        "The Brennholm depot canteen's lunch deal is €4.20.",
        ("€5.80",),
        ("€4.20",),
        ("locker",),
    ),
    _case2(
        "q17 reading room last entry, an earlier question answered, Y instead of X",
        "number",
        "Answering your question from this morning: yes, the Saltmarrow reading room stays open "
        "later now, last entry is 19:10 instead of 16:25.",
        "The Saltmarrow reading room's last entry is at 16:25.",
        "Plan archive visits so you're in the reading room before 16:25.",
        "The Saltmarrow library's book returns van leaves at 16:25.",
        ("19:10",),
        ("16:25",),
        ("reading room",),
    ),
    _case2(
        "q18 upload limit, good news first, the X limit is gone",
        "number",
        "Good news for the field team: the Fernbrake uploader takes files up to 3.5 GB now; the "
        "640 MB limit is gone.",
        "The Fernbrake uploader rejects files over 640 MB.",
        "Split survey videos into parts under 640 MB before putting them on the Fernbrake "
        "uploader.",
        "The nightly backup of the survey database is about 640 MB.",
        ("3.5 GB",),
        ("640 MB",),
        ("uploader",),
    ),
    _case2(
        "q19 meeting room capacity, the passive with has been, please stop",
        "number",
        "The Lynchet room's capacity has been lowered to 13 people by the fire officer, so "
        "please stop booking it for groups of 19 people.",
        "The Lynchet meeting room holds 19 people.",
        "Book the Lynchet room for all-hands of up to 19 people.",
        "The design team is 19 people.",
        ("13 people",),
        ("19 people",),
        ("Lynchet",),
    ),
    _case2(
        "q20 late-payment interest, a correction of a figure the agent quoted",
        "number",
        "You quoted 3.25% as the late-payment interest on Pennyrigg invoices; that was last "
        "year's rate. Since the contract renewal it's 2.15%.",
        "Overdue Pennyrigg invoices accrue 3.25% interest a month.",
        "Add 3.25% interest when chasing late Pennyrigg payments.",
        "Pennyrigg's yearly price rise is capped at 3.25%.",
        ("2.15%",),
        ("3.25%",),
        ("interest",),
    ),
    # a change back
    _case2(
        "q21 change back, editor repository, the reason first, back at",
        "change back",
        "Turns out the rename confused every downstream packager, so the Quire editor is back "
        "at mistlebay/quire. mistlebay/folio has been archived.",
        "The Quire editor's source is in mistlebay/folio.",
        "Send Quire patches as pull requests to mistlebay/folio.",
        "mistlebay/quire-themes holds the community editor themes.",
        ("mistlebay/quire",),
        ("mistlebay/folio",),
        prior=(
            Prior(
                "The Quire editor repository was renamed from mistlebay/quire to mistlebay/folio.",
                ("mistlebay/quire",),
                ("mistlebay/folio",),
            ),
        ),
    ),
    _case2(
        "q22 change back, deploy channel, a lowercase note with an arrow, again",
        "change back",
        "deploy notices: #deploy-firehose -> #wyvernmoss-deploys again, the firehose was too noisy",
        "Deploy notices for Wyvernmoss are posted in #deploy-firehose.",
        "Watch #deploy-firehose after merging to main.",
        "#wyvernmoss-incidents is for production incidents.",
        ("#wyvernmoss-deploys",),
        ("#deploy-firehose",),
        prior=(
            Prior(
                "Deploy notices moved from #wyvernmoss-deploys to #deploy-firehose.",
                ("#wyvernmoss-deploys",),
                ("#deploy-firehose",),
            ),
        ),
    ),
    _case2(
        "q23 change back, recruiting mailbox, a colleague quoted, again",
        "change back",
        'Forwarding what Ilsabet said: "applications go to recruiting@bramblecote.ac.uk again, '
        'and jobs@bramblecote.ac.uk is being shut down."',
        "Applicants send their CVs to jobs@bramblecote.ac.uk.",
        "Shortlisting starts from the jobs@bramblecote.ac.uk inbox every Monday.",
        "recruiting@bramblecote.ac.uk also books the interview rooms.",
        ("recruiting@bramblecote.ac.uk",),
        ("jobs@bramblecote.ac.uk",),
        prior=(
            Prior(
                "Job applications moved from recruiting@bramblecote.ac.uk to "
                "jobs@bramblecote.ac.uk.",
                ("recruiting@bramblecote.ac.uk",),
                ("jobs@bramblecote.ac.uk",),
            ),
        ),
    ),
    _case2(
        "q24 change back, Nix binary cache host, went back to",
        "change back",
        "We went back to nixcache.tidewick.net for the Nix binary cache; the hosted one at "
        "tidewick.cachix.org kept timing out.",
        "Nix builds pull from the tidewick.cachix.org binary cache.",
        "CI pushes the nightly build outputs to tidewick.cachix.org.",
        "nixcache.tidewick.net also stores the toolchain tarballs.",
        ("nixcache.tidewick.net",),
        ("tidewick.cachix.org",),
        prior=(
            Prior(
                "The Nix binary cache moved from nixcache.tidewick.net to tidewick.cachix.org.",
                ("nixcache.tidewick.net",),
                ("tidewick.cachix.org",),
            ),
        ),
    ),
    _case2(
        "q25 change back, API reference URL, a release note that reverts an earlier one",
        "change back",
        "Release note 2.8.1: reverted the docs host change of 2.8.0. API reference links point "
        "to https://docs.glimmerock.com/api again instead of "
        "https://glimmerock.readme.io/reference.",
        "The API reference is at https://glimmerock.readme.io/reference.",
        "SDK error messages link to https://glimmerock.readme.io/reference.",
        "https://docs.glimmerock.com/guides has the integration tutorials.",
        ("https://docs.glimmerock.com/api",),
        ("https://glimmerock.readme.io/reference",),
        prior=(
            Prior(
                "The API reference moved from https://docs.glimmerock.com/api to "
                "https://glimmerock.readme.io/reference.",
                ("https://docs.glimmerock.com/api",),
                ("https://glimmerock.readme.io/reference",),
            ),
        ),
    ),
    # a change whose new value the store already names
    _case2(
        "q26 new value stored, container image dropped for the one the Go jobs use, is gone",
        "new value in the store",
        "FYI ghcr.io/lyndgrain/pyrunner is gone; the Python jobs run in "
        "ghcr.io/lyndgrain/jobrunner now, the same image as the Go jobs.",
        "Python batch jobs run in the ghcr.io/lyndgrain/pyrunner image.",
        "Rebuild ghcr.io/lyndgrain/pyrunner when uv.lock changes.",
        "The Go batch jobs run in ghcr.io/lyndgrain/jobrunner.",
        ("ghcr.io/lyndgrain/jobrunner",),
        ("ghcr.io/lyndgrain/pyrunner",),
    ),
    _case2(
        "q27 new value stored, insurance broker contact, full names, a Q and A in one message",
        "new value in the store",
        "Q: who deals with the insurance broker on renewals now? A: Sigrún Halldórsdóttir, "
        "who already manages the building's service charge, since Matías Ferreyra left "
        "facilities.",
        "Matías Ferreyra handles the policy renewals with our insurance broker.",
        "The broker's renewal quotes go to Matías Ferreyra.",
        "Sigrún Halldórsdóttir manages the building's service charge.",
        ("Sigrún Halldórsdóttir",),
        ("Matías Ferreyra",),
        ("broker",),
    ),
    _case2(
        "q28 new value stored, flour delivery time, the same slot as, is no more",
        "new value in the store",
        "The Kittering bakery's flour delivery comes at 06:15 now, the same slot as the milk; "
        "the 05:40 drop is no more.",
        "Kittering's flour delivery arrives at 05:40.",
        "Someone must unlock the Kittering back door at 05:40 for the flour.",
        "The milk delivery at Kittering arrives at 06:15.",
        ("06:15",),
        ("05:40",),
        ("flour",),
    ),
    _case2(
        "q29 new value stored, incident channel, the channel another team already uses",
        "new value in the store",
        "Incidents for the Spindrift app are handled in #sev-bridge from now on, the channel "
        "the web team already uses; #spindrift-incidents is archived.",
        "Spindrift app incidents are coordinated in #spindrift-incidents.",
        "The on-call opens a thread in #spindrift-incidents for each Spindrift outage.",
        "The web team coordinates its incidents in #sev-bridge.",
        ("#sev-bridge",),
        ("#spindrift-incidents",),
    ),
    _case2(
        "q30 new value stored, fridge rota, first names, is off that rota",
        "new value in the store",
        "Fridge clean-out on Fridays: Nokuthula takes it over (she already does the Tuesday "
        "one), and Tsubasa is off that rota.",
        "Tsubasa does the Friday fridge clean-out.",
        "Remind Tsubasa on Friday mornings about the fridge clean-out.",
        "Nokuthula does the Tuesday fridge clean-out.",
        ("Nokuthula",),
        ("Tsubasa",),
        ("fridge",),
    ),
)


# the blind7 split's own phrasings (same keys and fills as _SAY_BLIND6), by the helper who
# wrote its cases
_SAY_BLIND7 = {
    "clone": [
        "Point your remotes at {new}; {P} left {old} over the weekend.",
        "{old} retired, use {new} for {P}.",
        "Morning! Before standup: {P} has a new home, {new}. Don't push to {old} any more.",
        '"{P} sits under {new} since Monday," says the release manager; "{old} is read-only."',
        "ok so we moved off {old}, {P} is {new} now",
    ],
    "post": [
        "{old} has been retired, and {t} chatter happens in {new}.",
        "small thing, {t} folks hang out in {new} now, {old} went quiet and got archived",
        "Correcting myself from earlier: {t} posts belong in {new}. {old} was closed last month.",
        "{T} channel: {old} -> {new}, effective today.",
        "Two facts for your notes: the {t} sync stays on Mondays, and {t} questions now belong "
        "in {new} instead of {old}.",
    ],
    "email": [
        'Pasted from the {t} auto-reply: "{old} is no longer monitored, please write to {new}."',
        "{T} mail: {old} -> {new}. Update the templates please.",
        "heads up {t} emails bounce at {old} now, use {new}",
        'As our {t} lead put it: "{new} is the only {t} address that matters now, {old} is dead."',
        "Thanks for the draft! One fix before you send it: the {t} address is {new}, not {old} "
        "any more.",
    ],
}

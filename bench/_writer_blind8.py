"""The writer benchmark's eighth blind split (blind8): 30 stated changes and act phrasings.

Written by a helper engineer who read only the case module's docstring, the definitions of
``WriterCase``, ``Prior`` and ``_case`` and the act phrasings (``_SAY``, ``_act_case`` and
``act_cases``) in ``bench/_writer.py`` (whose line ranges also showed it the first few dev cases and
the first two blind splits' act phrasings, none of them reused), the seventh blind split
(``bench/_writer_blind7.py``, for its shape only), the writing guide, the README and the tests of
the splits: blind to the other splits' cases, to every result, report, changelog and study of the
benchmark, to the library's code and rules, and to the history of the repository. Written before any
measurement on it, and never used to choose a prompt, schema or rule; no library function was run on
its cases while it was written. Its strings were checked against the seventh blind split only (the
one split its writer read) by a throwaway script that printed the strings they share; the other
splits' texts were not read, so the tests of the splits are the check against them.

The same six kinds as the earlier blind splits, five each: renames and moves (a Codeberg
repository moved to a self-hosted forge, a PyPI distribution renamed in a release note, an OCI
image moved from Quay to an own registry when a ticket closed, a GCS checkpoint bucket moved
for egress costs, a GitLab host switched off for another forge); channels, URLs and mailboxes
(a Matrix room tombstoned, a Discord channel merged into a forum channel in a server notice, a
Confluence page migrated to a handbook site, a supplier's accounts-payable mailbox, a leave
request form moved from Google Forms to Microsoft Forms); owner and role changes of people by
full and first name, with names of many cultures (a radiation safety officer with Ghanaian and
Vietnamese names, a 3D printer queue with Scottish Gaelic and Mongolian first names, a travel
approver with Yoruba and Kazakh names, visitor badges with Nahuatl and Samoan first names) and
of an owning team (a CODEOWNERS diff); numbers with a subject (a mountain hut's price in
Norwegian kroner, a same-day dispatch cut-off, an API sandbox quota, a parcel locker's weight
limit, a ferry's car capacity), whose memory c uses the same number for something else;
changes back of an Ansible repository to a Gitea host, an engineering help channel after a
poll, a support mailbox after a help-desk trial, a NuGet feed told as a numbered history and a
Helm chart repository after an OCI registry; changes whose new value the store already names
(a repository folded into a monorepo, a cloud budget approver by full name with Indonesian and
Ethiopian names, a stand-up time that equals another meeting's, a flaky-test channel merged
into a CI channel, a billing mailbox merged into the suppliers' one). Phrasings of its own: a
stand-up note with yesterday/today lines, a release note of a rename, a ticket closed with
``→ Done``, a short e-mail with greeting and signature, a shell command pasted as proof of a
move, a lowercase note with typos and an emoji, a server notice with bullets, a ticket resolved
with the canonical link, a finding after a phone call, the new value first with ``←``, a formal
announcement with ``has stepped down``, a correction that opens with ``nope``, a note to the
team with an aside on what stays, a receipt read aloud, ``pulled forward``, a changelog with
``(previously ...)``, a newsletter quoted, a post-mortem action item, a poll result, a customer
notice with ``as you did before``, ``we reverted to``, a merge celebrated with an emoji,
``RIP`` with a tombstone, a bounce and its explanation. Like blind2's to blind7's, the gold
calls also give ``replaced_by`` (the new values).
"""

from __future__ import annotations

from functools import partial

from _writer_case import Prior
from _writer_case import writer_case as _case

__all__ = ["WRITER_BLIND8_CASES"]

# as for blind2 to blind7, the gold call also names the new values (replaced_by)
_case2 = partial(_case, gold_names_new=True)


WRITER_BLIND8_CASES = (
    # renames and moves
    _case2(
        "r01 Codeberg repository moved to a self-hosted forge, a stand-up note",
        "rename or move",
        "standup (thu)\n"
        "- y: moved tallowmere/quaystitch off codeberg, it lives at "
        "git.tallowmere.coop/infra/quaystitch now and the codeberg repo is archived\n"
        "- t: fix the deploy docs\n"
        "- blockers: none",
        "The quaystitch deploy scripts are hosted at codeberg.org/tallowmere/quaystitch.",
        "git clone https://codeberg.org/tallowmere/quaystitch.git fetches the deploy scripts.",
        "codeberg.org/tallowmere/harbourlog holds the ship log parser.",
        ("git.tallowmere.coop/infra/quaystitch",),
        ("tallowmere/quaystitch",),
    ),
    _case2(
        "r02 PyPI distribution renamed, a release note",
        "rename or move",
        "Release notes, 4.0.0 (out today): the OCR engine ships on PyPI under the name "
        "inkwarden. dapplewick-ocr had its last release with 3.9.2 and won't get any more; swap "
        "it for inkwarden in your requirements, the import path is unchanged.",
        "The invoice scanner depends on dapplewick-ocr from PyPI.",
        "pip install dapplewick-ocr pulls in the OCR engine.",
        "dapplewick-layout splits scanned pages into columns.",
        ("inkwarden",),
        ("dapplewick-ocr",),
    ),
    _case2(
        "r03 OCI image moved from Quay to an own registry, a ticket closed",
        "rename or move",
        "OPS-4471 → Done. ledger-api images are pushed to registry.halcyrn.net/ledger/api now. "
        "quay.io/halcyrn/ledger-api stopped getting tags after 2.14.0 and its robot account "
        "was deleted.",
        "The ledger-api Helm values pin the image quay.io/halcyrn/ledger-api.",
        "docker pull quay.io/halcyrn/ledger-api:2.14.0 reproduces the production build.",
        "quay.io/halcyrn/ledger-worker runs the settlement jobs.",
        ("registry.halcyrn.net/ledger/api",),
        ("quay.io/halcyrn/ledger-api",),
    ),
    _case2(
        "r04 GCS checkpoint bucket moved for egress costs, a short e-mail with a signature",
        "rename or move",
        "Hi all,\n\nShort one. Since this morning the training jobs write their checkpoints to "
        "gs://mossbarrow-ckpt-euw4 instead. The old bucket, gs://mossbarrow-checkpoints, sat in "
        "a multi-region and the egress bill was silly; it's read-only now and gets deleted at "
        "quarter end.\n\nCheers,\nOyelaran",
        "Training jobs save checkpoints to gs://mossbarrow-checkpoints every 500 steps.",
        "gsutil ls gs://mossbarrow-checkpoints/run-17/ lists a run's saved models.",
        "gs://mossbarrow-datasets holds the tokenised corpora.",
        ("gs://mossbarrow-ckpt-euw4",),
        ("gs://mossbarrow-checkpoints",),
    ),
    _case2(
        "r05 GitLab host switched off for another forge, a pasted shell command as proof",
        "rename or move",
        "Our GitLab at gitlab.brindlemast.io is gone, everything was migrated to "
        "forge.brindlemast.com over the weekend. I ran `git remote set-url origin "
        "git@forge.brindlemast.com:platform/terraform-live.git` in my clones and it just works, "
        "so do the same.",
        "The Terraform code is on gitlab.brindlemast.io under platform/terraform-live.",
        "CI runners register with https://gitlab.brindlemast.io using the shared token.",
        "registry.brindlemast.io serves the internal container images.",
        ("forge.brindlemast.com",),
        ("gitlab.brindlemast.io",),
    ),
    # channels, URLs and mailboxes
    _case2(
        "r06 Matrix room tombstoned, a lowercase note with typos and an emoji",
        "channel",
        "pager bot now posts to #sre-pager:skerrylot.chat 🙃 teh old room "
        "#ops-alarms:skerrylot.chat got tombstoned this morning so dont bother joining it",
        "The pager bot posts alerts to #ops-alarms:skerrylot.chat.",
        "Join #ops-alarms:skerrylot.chat before your first on-call shift.",
        "#ops-social:skerrylot.chat is for off-topic chat.",
        ("#sre-pager:skerrylot.chat",),
        ("#ops-alarms:skerrylot.chat",),
    ),
    _case2(
        "r07 Discord channel merged into a forum channel, a server notice with bullets",
        "channel",
        "📣 Server housekeeping (done today):\n"
        "• #gv-modding-help has been merged into the new forum channel #gorsevane-modders, so "
        "ask modding questions there\n"
        "• role colours stay as they are\n"
        "Old threads stay readable but are locked.",
        "Players ask modding questions in #gv-modding-help on the Gorsevane Discord.",
        "Moderators pin the modding FAQ in #gv-modding-help.",
        "#gv-patch-notes announces each game patch.",
        ("#gorsevane-modders",),
        ("#gv-modding-help",),
    ),
    _case2(
        "r08 Confluence page migrated to a handbook site, a ticket resolved with the link",
        "URL",
        "Resolved. The incident response plan was migrated; the canonical copy is "
        "https://handbook.emberlath.io/security/incident-response . The old Confluence page "
        "(https://emberlath.atlassian.net/wiki/spaces/SEC/pages/88213) is just a banner "
        "pointing there.",
        "The incident response plan is at "
        "https://emberlath.atlassian.net/wiki/spaces/SEC/pages/88213.",
        "New security hires read https://emberlath.atlassian.net/wiki/spaces/SEC/pages/88213 "
        "in their first week.",
        "https://emberlath.atlassian.net/wiki/spaces/SEC/pages/90457 lists the approved "
        "password managers.",
        ("https://handbook.emberlath.io/security/incident-response",),
        ("https://emberlath.atlassian.net/wiki/spaces/SEC/pages/88213",),
    ),
    _case2(
        "r09 supplier's accounts-payable mailbox, checked by phone",
        "email",
        "Update for the supplier list: Larkspindle Foods' AP team moved to a shared inbox, "
        "payables@larkspindle-foods.com.au. I rang them to check, and "
        "ap.invoices@larkspindle-foods.com.au was closed when they went live on the new ERP.",
        "Send Larkspindle Foods invoices to ap.invoices@larkspindle-foods.com.au.",
        "Remittance advice for Larkspindle goes to ap.invoices@larkspindle-foods.com.au.",
        "Larkspindle's sales rep answers at sales@larkspindle-foods.com.au.",
        ("payables@larkspindle-foods.com.au",),
        ("ap.invoices@larkspindle-foods.com.au",),
    ),
    _case2(
        "r10 leave request form moved to another forms service, the new link first with an arrow",
        "URL",
        "https://forms.office.com/r/Dx4pLm82Kq ← that's the leave request form since we dropped "
        "Google Workspace last week. The old link (https://forms.gle/Wq7ZtPe3hNvKs2aB9) just "
        "says the form is no longer accepting responses.",
        "Leave requests are filed through https://forms.gle/Wq7ZtPe3hNvKs2aB9.",
        "The HR bot answers 'holiday' with the link https://forms.gle/Wq7ZtPe3hNvKs2aB9.",
        "https://forms.gle/Rt5nXc0bVy8uMj1E4 is the expense claim form.",
        ("https://forms.office.com/r/Dx4pLm82Kq",),
        ("https://forms.gle/Wq7ZtPe3hNvKs2aB9",),
    ),
    # owner and role changes of people
    _case2(
        "r11 radiation safety officer, full names, Ghanaian and Vietnamese, a formal announcement",
        "person",
        "Dear colleagues,\n\nAs of this week, the radiation safety officer for the Brackwell "
        "lab is Trần Thị Mai. Kwabena Owusu-Ansah has stepped down from that post after six "
        "years; he continues to coordinate our seminar series.\n\nWith thanks to both,\n"
        "Prof. Halvardsen",
        "Kwabena Owusu-Ansah is the Brackwell lab's radiation safety officer.",
        "Report dosimeter readings above the action level to Kwabena Owusu-Ansah (radiation "
        "safety).",
        "Kwabena Owusu-Ansah coordinates the Brackwell seminar series.",
        ("Trần Thị Mai",),
        ("Kwabena Owusu-Ansah",),
        ("radiation",),
    ),
    _case2(
        "r12 3D printer queue, first names, Scottish Gaelic and Mongolian, stand-up lines",
        "person",
        "Standup notes, Tue:\n"
        "- Ruaridh: handed the 3D printer queue over to Bolormaa yesterday; he's full time on "
        "the grant report now\n"
        "- Bolormaa: printer queue from now on + CAD reviews as usual",
        "Ruaridh manages the 3D printer queue.",
        "Ask Ruaridh to slot urgent prototype jobs into the printer queue.",
        "Ruaridh runs the Friday board-game night.",
        ("Bolormaa",),
        ("Ruaridh",),
        ("printer",),
    ),
    _case2(
        "r13 owning team, a CODEOWNERS diff pasted, what the old team keeps",
        "person",
        "Merged #2291 a few minutes ago:\n\n"
        "    -/services/geocoder/   @ostrevane/cartography-core\n"
        "    +/services/geocoder/   @ostrevane/wayfinding-platform\n\n"
        "So the geocoder belongs to Wayfinding Platform now. Cartography Core keeps the tile "
        "renderer.",
        "Cartography Core owns the geocoder service.",
        "Page Cartography Core when the geocoder returns 5xx errors.",
        "Cartography Core maintains the tile renderer.",
        ("Wayfinding Platform",),
        ("Cartography Core",),
        ("geocoder",),
    ),
    _case2(
        "r14 travel approver, full names, Yoruba and Kazakh, a correction that opens with nope",
        "person",
        "nope, that's out of date: travel requests are signed off by Aigerim Sadykova since the "
        "restructure, not Ifeoluwa Adebayo-Cole. (Ifeoluwa still runs the mentoring programme, "
        "that hasn't changed.)",
        "Travel requests are approved by Ifeoluwa Adebayo-Cole.",
        "Attach the itinerary when you send a travel request to Ifeoluwa Adebayo-Cole.",
        "Ifeoluwa Adebayo-Cole runs the mentoring programme.",
        ("Aigerim Sadykova",),
        ("Ifeoluwa Adebayo-Cole",),
        ("travel",),
    ),
    _case2(
        "r15 visitor badges, first names, Nahuatl and Samoan, an aside on what stays",
        "person",
        "Hi team, since Monday the visitor badges are printed by Tavita at the front desk "
        "(ground floor). Xóchitl moved over to events, so please stop sending her badge "
        "requests; she's still the person for parking permits though.",
        "Xóchitl prints the visitor badges at reception.",
        "Email Xóchitl a day ahead so the visitor badges are ready.",
        "Xóchitl hands out the parking permits.",
        ("Tavita",),
        ("Xóchitl",),
        ("visitor badges",),
    ),
    # numbers with a subject
    _case2(
        "r16 mountain hut price in Norwegian kroner, a receipt read aloud",
        "number",
        "Just booked the club trip and the receipt says NOK 415 a night for the Skerrow hut. "
        "The trekking association put it up from NOK 340 at new year, so the budget sheet is "
        "off.",
        "A bunk at the Skerrow hut costs NOK 340 a night.",
        "Budget NOK 340 per night for the Skerrow hut on the club trip.",
        "A return ferry ticket to Varholm costs NOK 340.",
        ("NOK 415",),
        ("NOK 340",),
        ("Skerrow",),
    ),
    _case2(
        "r17 same-day dispatch cut-off, pulled forward, the old window named last",
        "number",
        "Courier pickups got pulled forward, so as of Monday the Wintergrist same-day dispatch "
        "cut-off is 12:35. Anything that comes in after that, including the old 13:50 window, "
        "ships the next day.",
        "Wintergrist orders placed before 13:50 qualify for same-day dispatch.",
        "The same-day dispatch cut-off at the warehouse is 13:50.",
        "The Wintergrist staff canteen closes at 13:50.",
        ("12:35",),
        ("13:50",),
        ("dispatch",),
    ),
    _case2(
        "r18 API sandbox quota, a changelog with previously",
        "number",
        "Changelog: Orloquay API, 9 April\n"
        "* Sandbox keys: the daily quota was raised to 7,500 calls (previously 2,500 calls).\n"
        "* Fixed: pagination on /v2/shipments skipped the last page.",
        "Orloquay sandbox keys are capped at 2,500 calls a day.",
        "Integration tests must stay under 2,500 calls per day on the Orloquay sandbox.",
        "The Orloquay support line took 2,500 calls during the March outage.",
        ("7,500 calls",),
        ("2,500 calls",),
        ("sandbox",),
    ),
    _case2(
        "r19 parcel locker weight limit, a lowercase note with the reason in the middle",
        "number",
        "parcel lockers at halloway station only take parcels up to 11.5 kg now, the operator "
        "lowered it from 18.5 kg after a door broke. anything heavier has to go over the counter",
        "The parcel locker at Halloway station takes parcels up to 18.5 kg.",
        "Anything under 18.5 kg can be sent from the Halloway parcel locker.",
        "A box of A4 printer paper weighs 18.5 kg.",
        ("11.5 kg",),
        ("18.5 kg",),
        ("Halloway",),
    ),
    _case2(
        "r20 ferry car capacity, a newsletter quoted, up from",
        "number",
        'From the harbour newsletter, October issue: "Back from her winter refit, MV Tarrowind, '
        'the Cullendrey ferry, now carries 74 cars, up from 62 cars." Worth updating the '
        "booking notes.",
        "The Cullendrey ferry carries 62 cars per crossing.",
        "Once 62 cars are booked, the Cullendrey ferry shows as full.",
        "The harbour car park at Cullendrey fits 62 cars.",
        ("74 cars",),
        ("62 cars",),
        ("ferry",),
    ),
    # a change back
    _case2(
        "r21 change back, Ansible repository to a Gitea host, a post-mortem action item",
        "change back",
        "Post-mortem action item closed: ansible-site is hosted on our own Gitea again, "
        "gitea.ketterfold.net/ops/ansible-site, since we ran out of GitHub Actions minutes twice "
        "in one month. github.com/ketterfold/ansible-site has been archived.",
        "The site's Ansible playbooks live in github.com/ketterfold/ansible-site.",
        "git clone https://github.com/ketterfold/ansible-site to run the playbooks.",
        "github.com/ketterfold/ansible-roles hosts the shared Ansible roles.",
        ("gitea.ketterfold.net/ops/ansible-site",),
        ("github.com/ketterfold/ansible-site",),
        prior=(
            Prior(
                "The ansible-site repository moved from gitea.ketterfold.net/ops/ansible-site "
                "to github.com/ketterfold/ansible-site.",
                ("gitea.ketterfold.net/ops/ansible-site",),
                ("github.com/ketterfold/ansible-site",),
            ),
        ),
    ),
    _case2(
        "r22 change back, engineering help channel, a poll result, are back in",
        "change back",
        "Poll closed, 31 votes to 9: engineering questions are back in #ask-quernhaus-eng. "
        "#help-engineering-qh was archived an hour ago.",
        "Engineering questions go to #help-engineering-qh.",
        "The support rotation watches #help-engineering-qh during office hours.",
        "#help-design-qh is where design questions go.",
        ("#ask-quernhaus-eng",),
        ("#help-engineering-qh",),
        prior=(
            Prior(
                "Engineering questions moved from #ask-quernhaus-eng to #help-engineering-qh.",
                ("#ask-quernhaus-eng",),
                ("#help-engineering-qh",),
            ),
        ),
    ),
    _case2(
        "r23 change back, support mailbox after a help-desk trial, a customer notice",
        "change back",
        "Dear customers, we have ended our trial of the hosted help desk. Please write to "
        "support@pebblesmoot.ie again, as you did before; messages sent to "
        "help@pebblesmoot.zendesk.com are no longer read. Kind regards, the Pebblesmoot team",
        "Customers email help@pebblesmoot.zendesk.com for support.",
        "Warranty claims are handled through help@pebblesmoot.zendesk.com.",
        "support@pebblesmoot.ie also receives the supplier newsletters.",
        ("support@pebblesmoot.ie",),
        ("help@pebblesmoot.zendesk.com",),
        prior=(
            Prior(
                "Customer support moved from support@pebblesmoot.ie to "
                "help@pebblesmoot.zendesk.com.",
                ("support@pebblesmoot.ie",),
                ("help@pebblesmoot.zendesk.com",),
            ),
        ),
    ),
    _case2(
        "r24 change back, NuGet feed, a numbered history, moved back to",
        "change back",
        "For the record, the NuGet feed history:\n"
        "1. January: moved to Azure Artifacts "
        "(https://pkgs.dev.azure.com/sunnetide/_packaging/main/nuget/v3/index.json)\n"
        "2. Last week: moved back to our own server, "
        "https://nuget.sunnetide.local/v3/index.json, because the Artifacts storage bill got "
        "out of hand.\n"
        "So the self-hosted feed is the live package feed again.",
        "nuget.config restores Sunnetide packages from "
        "https://pkgs.dev.azure.com/sunnetide/_packaging/main/nuget/v3/index.json.",
        "CI publishes Sunnetide packages to "
        "https://pkgs.dev.azure.com/sunnetide/_packaging/main/nuget/v3/index.json.",
        "https://nuget.sunnetide.local/v3/index.json also mirrors the public nuget.org packages.",
        ("https://nuget.sunnetide.local/v3/index.json",),
        ("https://pkgs.dev.azure.com/sunnetide/_packaging/main/nuget/v3/index.json",),
        prior=(
            Prior(
                "The NuGet feed moved from https://nuget.sunnetide.local/v3/index.json to "
                "https://pkgs.dev.azure.com/sunnetide/_packaging/main/nuget/v3/index.json.",
                ("https://nuget.sunnetide.local/v3/index.json",),
                ("https://pkgs.dev.azure.com/sunnetide/_packaging/main/nuget/v3/index.json",),
            ),
        ),
    ),
    _case2(
        "r25 change back, Helm chart repository after an OCI registry, we reverted to",
        "change back",
        "helm charts: we reverted to the classic repo. `helm repo add drovenhall "
        "https://charts.drovenhall.io` works again, and we stopped pushing to "
        "oci://registry.drovenhall.io/helm because it broke Argo's chart caching.",
        "Argo CD pulls the Drovenhall charts from oci://registry.drovenhall.io/helm.",
        "Argo's repository credentials are set up for oci://registry.drovenhall.io/helm.",
        "registry.drovenhall.io/apps holds the application images.",
        ("https://charts.drovenhall.io",),
        ("oci://registry.drovenhall.io/helm",),
        prior=(
            Prior(
                "Helm charts moved from https://charts.drovenhall.io to "
                "oci://registry.drovenhall.io/helm.",
                ("https://charts.drovenhall.io",),
                ("oci://registry.drovenhall.io/helm",),
            ),
        ),
    ),
    # a change whose new value the store already names
    _case2(
        "r26 new value stored, repository folded into a monorepo, a merge celebrated",
        "new value in the store",
        "🎉 billing-ui has landed in the monorepo! corvaline/billing-ui is archived as of today; "
        "all billing UI work happens in corvaline/webapps (under packages/billing), next to the "
        "marketing site.",
        "The billing UI is developed in corvaline/billing-ui.",
        "Open billing UI pull requests against corvaline/billing-ui.",
        "corvaline/webapps holds the marketing site.",
        ("corvaline/webapps",),
        ("corvaline/billing-ui",),
    ),
    _case2(
        "r27 new value stored, cloud budget approver, full names, Indonesian and Ethiopian",
        "new value in the store",
        "Re: FIN-208: cloud budget overruns are signed off by Mekdes Haile from this sprint on "
        "(yes, hackathon Mekdes). Wahyu Prasetyo handed it over to her before he moved to the "
        "Jakarta office.",
        "Wahyu Prasetyo signs off cloud budget overruns.",
        "Tag Wahyu Prasetyo on the FIN ticket when a team goes over its cloud budget.",
        "Mekdes Haile organises the quarterly hackathon.",
        ("Mekdes Haile",),
        ("Wahyu Prasetyo",),
        ("budget",),
    ),
    _case2(
        "r28 new value stored, stand-up time equal to another meeting's, a lowercase note",
        "new value in the store",
        "standup is at 09:55 now, same time the ops sync starts, the ops folks don't come to "
        "ours anyway. 10:35 was way too late for the Auckland people.",
        "The Ferrowyn team's standup is at 10:35.",
        "Join the standup call at 10:35 on weekdays.",
        "The ops sync starts at 09:55.",
        ("09:55",),
        ("10:35",),
        ("standup",),
    ),
    _case2(
        "r29 new value stored, flaky-test channel merged into a CI channel, RIP",
        "new value in the store",
        "RIP #fennimoor-flaky-tests 🪦 flaky test reports go to #fennimoor-ci-health now, same "
        "room as the runner alerts. fewer channels, fewer excuses",
        "Flaky test reports are posted in #fennimoor-flaky-tests.",
        "The test-retry bot links its failures in #fennimoor-flaky-tests.",
        "Runner capacity alerts go to #fennimoor-ci-health.",
        ("#fennimoor-ci-health",),
        ("#fennimoor-flaky-tests",),
    ),
    _case2(
        "r30 new value stored, billing mailbox merged into the suppliers' one, a bounce",
        "new value in the store",
        "Got a bounce from billing-questions@quillowen.games (550 5.1.1 user unknown). Pinged "
        "Feodora: they merged it into accounts@quillowen.games last month, the address the "
        "suppliers already use. Players' billing questions go there too.",
        "Players with billing questions write to billing-questions@quillowen.games.",
        "Chargeback disputes are answered from billing-questions@quillowen.games.",
        "Suppliers send their invoices to accounts@quillowen.games.",
        ("accounts@quillowen.games",),
        ("billing-questions@quillowen.games",),
    ),
)


# the blind8 split's own phrasings (same keys and fills as _SAY_BLIND7), by the helper who
# wrote its cases
_SAY_BLIND8 = {
    "clone": [
        "Repo housekeeping done: {P} was transferred to {new}; update anything on {old}.",
        "{new} is the {P} repository now. {old} got archived right after the move.",
        "re {P}: moved it out of {old} yesterday, new location is {new}",
        "- {P}: source relocated ({old} ⟶ {new}), the old repo is read-only",
        "Just so nobody's surprised: {old} is frozen. {P} development carries on in {new}.",
    ],
    "post": [
        "{T} announcements: we left {old} behind, everyone is in {new} since this morning.",
        "reminder that {old} got archived!! {t} stuff goes in {new}",
        "Per the vote in the {t} retro, {new} replaced {old} as our channel; {old} is read-only.",
        "If you're looking for {old}: it was archived, and {t} conversations carry on in {new}.",
        "Done: renamed {old} to {new} for the {t} team.",
    ],
    "email": [
        "{T} mailbox switched over: {new} is live, and {old} was decommissioned yesterday.",
        "Got a bounce from {old} this morning. Turns out {t} moved to {new} last week.",
        "FYI: {t} no longer reads {old}. Their address is {new} as of Monday.",
        "The {t} team's address is {new}; it replaced {old}, which only sends an auto-reply.",
        "Updated my signature and the wiki: {t} contact = {new} (previously {old}).",
    ],
}

"""Texts that state no change, and texts that do, for the change line's two arms.

A second, held-out set, written by an engineer who read no library code (neither the reading
of changes nor the change line): the store of :data:`MEMORIES` is a fictional org's, Larkspur,
naming identifiers of many kinds (repositories, URLs, hosts, channels, e-mail addresses,
paths, images, people in roles, tickets, versions, prices, rooms and extensions).

- :data:`NO_CHANGE` is the negative arm: status notes, logs and commands, how-tos, questions,
  lists and comparisons, history and aliases, negations, plans and proposals, reported speech,
  other languages and chatter. Each names an identifier that a memory names, most beside
  another of its kind that no memory names; none states a change a correction should store
  now, so a change line after any of them is a false one.
- :data:`CHANGES` is the positive arm: texts that state a change that happened (or holds from
  now on), each with the old strings, as :data:`MEMORIES` write them and as the text names
  them, that a correction should deprecate.
"""

from __future__ import annotations

__all__ = ["CHANGES", "MEMORIES", "NO_CHANGE"]

MEMORIES: dict[str, str] = {
    "shop": "The storefront app lives in larkspur/storefront; deploy it with make ship.",
    "shop2": "larkspur/storefront is built with Vite on Node 20.",
    "api": "The orders API is larkspur/orders-api, written in Rust.",
    "fork": "My fork of the storefront is mkaur/storefront.",
    "docs": "Developer docs are at https://docs.larkspur.dev/handbook.",
    "wiki": "Runbooks are at https://wiki.larkspur.dev/runbooks.",
    "graf": "Metrics dashboards are on grafana.larkspur.dev.",
    "stg": "The staging host is stage.larkspur.dev.",
    "db": "The primary database is pg-main.larkspur.internal (port 5432).",
    "chan": "Release notes go to #releases; pages go to #oncall-pages.",
    "help": "Ask platform questions in #plat-help.",
    "sec": "Security reports go to security@larkspur.dev.",
    "exp": "Send expense reports to expenses@larkspur.dev.",
    "cfg": "Service config lives at /opt/larkspur/etc/app.toml.",
    "img": "The base image is registry.larkspur.dev/base/python:3.12-slim.",
    "bak": "Nightly backups go to s3://larkspur-backups.",
    "lead": "The platform team lead is Ingrid Solberg.",
    "pm": "The product manager for Checkout is Tomasz Wójcik.",
    "rm": "The release manager is Priya Raghunathan.",
    "sso": "The SSO migration is tracked in PLAT-4821.",
    "ios": "The iOS app's minimum supported version is 17.2.",
    "price": "The Pro plan costs $49 per month.",
    "room": "The weekly platform sync is in room 4.12.",
    "ext": "The front desk phone extension is 2240.",
}
"""The store the texts are recalled against (id: memory)."""

NO_CHANGE: dict[str, tuple[str, ...]] = {
    "status": (
        "Merged PR 118 in larkspur/storefront; the flaky checkout test passes since pinning "
        "larkspur/test-fixtures to v2.",
        "Cut release 5.3 of the iOS app; the minimum supported version stays 17.2, and the "
        "TestFlight notes went to #releases.",
        "Restarted pg-main.larkspur.internal after the kernel patch; "
        "pg-replica-02.larkspur.internal caught up in 40s.",
        "Rotated the API keys of larkspur/orders-api and revoked the ones still in "
        "larkspur/orders-api-legacy.",
        "Closed PLAT-4822 and PLAT-4830, the subtasks of PLAT-4821; the parent stays open.",
        "Replaced the broken HDMI adapter in room 4.12 with the spare from room 2.07.",
        "Renamed the CI job build-web to build-storefront in larkspur/storefront; nothing else "
        "changed.",
        "Upgraded Grafana on grafana.larkspur.dev to 11.1; the old panels were migrated "
        "automatically.",
        "Switched the test runner of larkspur/storefront from Jest to Vitest; CI time halved.",
        "Archived the 2023 tickets; PLAT-4821 was moved to the Q3 board with the same id.",
        "Reset the voicemail PIN on extension 2240 and recorded a new greeting.",
        "Cleared 2 TB of old snapshots from s3://larkspur-backups; lifecycle rules now expire "
        "them after 90 days.",
    ),
    "logs_commands": (
        "2024-09-12T08:14:55Z INFO promote larkspur/storefront@a1b2c3 -> "
        "larkspur/storefront-canary ok",
        "[replication] pg-main.larkspur.internal -> pg-replica-02.larkspur.internal lag=0.4s",
        "smtp: relay security@larkspur.dev => psirt-archive@larkspur.dev (bcc rule 7)",
        "$ docker pull registry.larkspur.dev/base/python:3.12-slim && docker tag "
        "registry.larkspur.dev/base/python:3.12-slim localhost:5000/python:dev",
        "--- a/deploy/values.yaml\n"
        "+++ b/deploy/values.yaml\n"
        "@@ -3,4 +3,4 @@\n"
        "   image: registry.larkspur.dev/base/python:3.12-slim\n"
        "-  replicas: 2\n"
        "+  replicas: 4\n",
        "aws s3 sync s3://larkspur-backups s3://larkspur-restore-drill --dryrun",
        "WARN delivery to expenses@larkspur.dev deferred: mailbox full (retry in 15m)",
        "HTTP 502 from stage.larkspur.dev/api/health, failing over to stage-b.larkspur.dev",
        "slack-bot: forwarded 3 messages #oncall-pages → #oncall-pages-archive",
        "mv /opt/larkspur/etc/app.toml /opt/larkspur/etc/app.toml.bak  # restore after testing "
        "the new loader",
        "git log --oneline larkspur/orders-api..larkspur/orders-api-next | wc -l  # 37 commits "
        "behind",
        "301 Moved Permanently: https://docs.larkspur.dev/handbook → "
        "https://docs.larkspur.dev/handbook/",
    ),
    "howto": (
        "How do I point my clone at larkspur-commerce/storefront instead of "
        "larkspur/storefront, is it `git remote set-url origin "
        "git@github.com:larkspur-commerce/storefront.git`?",
        "To rename a Slack channel such as #releases, an admin opens Channel settings → Rename; "
        "members don't have to rejoin.",
        "Failover steps: promote pg-replica-02.larkspur.internal, then point the app at it in "
        "place of pg-main.larkspur.internal. Practise this on staging only.",
        "If you need the old format, copy /opt/larkspur/etc/app.toml to "
        "~/.config/larkspur/app.toml and edit the copy.",
        "Run `docker build --build-arg BASE=registry.larkspur.dev/base/python:3.12-slim .` and "
        "swap in python:3.13-slim only on the experiment branch.",
        "When 2240 is busy, calls roll over to extension 2241 automatically.",
        "To book room 4.12 for the sync use the Rooms app; room 4.14 is the overflow.",
        "Renaming a repo on GitHub: Settings → Repository name. larkspur/orders-api would "
        "become whatever you type there, and old URLs redirect.",
        "Replace https://docs.larkspur.dev/handbook with http://localhost:8000/handbook in your "
        ".env when you preview the docs locally.",
        "To transfer a repo like mkaur/storefront to another owner, use Settings → Transfer "
        "ownership.",
    ),
    "questions": (
        "did larkspur/orders-api move to larkspur-platform/orders-api",
        "is the handbook still at https://docs.larkspur.dev/handbook or was it moved to "
        "https://handbook.larkspur.dev?",
        "should we move #releases to #release-notes",
        "Is Ingrid Solberg still the platform lead or did Kwame Mensah take over",
        "has the Pro plan gone up from $49 to $59",
        "what's the front desk extension, 2240 or 2255?",
        "Why is stage.larkspur.dev redirecting to stage-new.larkspur.dev?",
        "any chance security@larkspur.dev was replaced by psirt@larkspur.dev",
        "can someone confirm Tomasz Wójcik is still the Checkout PM and not Lucía Fernández",
        "is the sync in room 4.12 this week or in 3.01",
        "did we ever rename larkspur/storefront to larkspur/web, I keep seeing both names",
    ),
    "lists_comparisons": (
        "larkspur/orders-api vs larkspur/orders-worker: the API serves HTTP, the worker drains "
        "the queue.",
        "| host | role |\n"
        "| --- | --- |\n"
        "| stage.larkspur.dev | staging |\n"
        "| preview.larkspur.dev | PR previews |\n"
        "| pg-main.larkspur.internal | primary DB |",
        "Channels: #releases (release notes), #oncall-pages (pages), #plat-help (questions), "
        "#larkspur-random (the rest).",
        "pg-main.larkspur.internal is faster than pg-analytics.larkspur.internal for point "
        "reads, slower for scans.",
        "Plans: Starter $19, Pro $49, Team $129, all per month.",
        "Contacts: security@larkspur.dev for vulns, expenses@larkspur.dev for receipts, "
        "legal@larkspur.dev for contracts.",
        "Ingrid Solberg (platform lead), Tomasz Wójcik (Checkout PM), Priya Raghunathan "
        "(release manager), Omar Haddad (SRE).",
        "registry.larkspur.dev/base/python:3.12-slim is about 50 MB smaller than "
        "registry.larkspur.dev/base/python:3.12.",
        "Rooms: 4.12 seats 10, 2.07 seats 6, the atrium seats 40.",
        "mkaur/storefront is 14 commits ahead of larkspur/storefront and 3 behind.",
    ),
    "history_aliases": (
        "larkspur/storefront (formerly larkspur/shop) is the storefront app.",
        "Back in 2021 the orders API was split out of larkspur/monolith into larkspur/orders-api.",
        "pg-main.larkspur.internal, also known as db1.larkspur.internal, is the primary.",
        "#oncall-pages replaced #pagerduty-spam in 2022, long before I joined.",
        "Ingrid Solberg took over as platform lead from Jonas Berg in 2020.",
        "The handbook moved from Confluence to https://docs.larkspur.dev/handbook three years ago.",
        "stage.larkspur.dev aka staging.larkspur.dev (a CNAME); either name works.",
        "Tomasz Wójcik, whom everyone calls Tomek, is the Checkout PM.",
        "Until 2022 the Pro plan was $39; it has been $49 since then.",
        "Before PLAT-4821 existed, the SSO work was tracked in PLAT-3107.",
        "Our config has lived at /opt/larkspur/etc/app.toml ever since /etc/larkspur.conf was "
        "dropped in 2019.",
    ),
    "negations": (
        "larkspur/storefront did not move to larkspur-commerce/storefront; that org is only for "
        "the Shopify experiments.",
        "stage.larkspur.dev is still our staging host, not staging.larkspur.cloud.",
        "No, #releases was never renamed to #release-notes.",
        "Ingrid Solberg is not stepping down; the rumour about Kwame Mensah taking over is wrong.",
        "The Pro plan did not go up to $59, it is still $49.",
        "The sync isn't leaving room 4.12 after all, so ignore the invite for room 2.07.",
        "security@larkspur.dev was not replaced by psirt@larkspur.dev; psirt is just an alias "
        "that forwards to it.",
        "Nothing changed with the backups: s3://larkspur-backups as before, no "
        "gs://larkspur-backups.",
        "PLAT-4821 wasn't closed as a duplicate of PLAT-5003; they are separate tickets.",
        "We didn't switch to registry.larkspur.dev/base/python:3.13-slim; "
        "registry.larkspur.dev/base/python:3.12-slim stays.",
        "To report a phishing mail, forward it to security@larkspur.dev, not to "
        "helpdesk@larkspur.dev.",
    ),
    "plans_proposals": (
        "Next quarter we will migrate larkspur/orders-api to larkspur-platform/orders-api.",
        "Proposal: rename #plat-help to #ask-platform. Vote with an emoji by Friday.",
        "If we moved staging from stage.larkspur.dev to staging.larkspur.cloud, every OAuth "
        "callback would need updating.",
        "We're considering raising Pro from $49 to $59 in January; nothing is decided.",
        "Failover drill plan: pg-main.larkspur.internal → pg-replica-02.larkspur.internal at "
        "14:00 Thursday, then back.",
        "Once PLAT-4821 is done we could open PLAT-5003 for the SCIM part.",
        "Ingrid Solberg will hand over to Kwame Mensah when she starts her sabbatical in March.",
        "Draft RFC: move the docs from https://docs.larkspur.dev/handbook to "
        "https://larkspur.dev/docs. Feedback welcome.",
        "Should the front desk get extension 2255 instead of 2240? Facilities asked.",
        "Let's plan to bump the iOS minimum from 17.2 to 18.0 after the summer release.",
        "Would it make sense to switch the base image to ghcr.io/larkspur/python-base:3.12 from "
        "registry.larkspur.dev/base/python:3.12-slim at some point?",
    ),
    "quoted_reported": (
        "Someone in #larkspur-random said larkspur/storefront is moving to "
        "larkspur-commerce/storefront, but I haven't seen anything official.",
        'Marcus wrote: "what if we renamed #releases to #ship-log?" No reply yet.',
        "The vendor's email claims expenses@larkspur.dev 'has been replaced by "
        "ap@larkspur.dev', but that's their template for another customer.",
        "Rumour has it Tomasz Wójcik is leaving Checkout for Payments; HR hasn't announced "
        "anything.",
        "The phishing mail said 'Your mailbox security@larkspur.dev has moved to "
        "security@larkspur-support.com, log in to confirm'. Don't click it.",
        "Kwame asked whether stage.larkspur.dev was replaced by stage2.larkspur.dev; I told him "
        "no.",
        "A candidate asked if we moved off pg-main.larkspur.internal to Aurora; we haven't.",
        'The blog post "How we carved larkspur/orders-api out of larkspur/monolith" goes out '
        "Tuesday.",
        'Jira bot: "PLAT-4821: To Do → In Review"',
        'Priya said "I\'d love to hand release management to Marcus Bell one day" at the '
        "offsite; Priya Raghunathan is still the release manager.",
    ),
    "other_languages": (
        "Wir haben überlegt, larkspur/storefront nach larkspur-commerce/storefront zu "
        "verschieben, aber vorerst bleibt alles, wie es ist.",
        "Ist stage.larkspur.dev noch der Staging-Host, oder nutzen wir schon "
        "staging.larkspur.cloud?",
        "Bitte schickt Spesenabrechnungen weiterhin an expenses@larkspur.dev, nicht an "
        "buchhaltung@larkspur.dev.",
        "Das Pro-Abo kostet $49 im Monat, das Team-Abo $129.",
        "¿Alguien sabe si #releases se va a renombrar a #novedades? Por ahora sigue igual.",
        "La reunión semanal sigue en la sala 4.12; la sala 2.07 está reservada para entrevistas.",
        "Tomasz Wójcik sigue siendo el PM de Checkout; Lucía Fernández lleva Pagos.",
        "Est-ce qu'on devrait migrer larkspur/orders-api vers larkspur-platform/orders-api le "
        "trimestre prochain ?",
        "La doc est toujours sur https://docs.larkspur.dev/handbook ; le lien "
        "https://larkspur.dev/docs n'existe pas encore.",
        "Ingrid Solberg reste responsable de la plateforme, contrairement à ce que dit la rumeur.",
    ),
    "chatter": (
        "lol the coffee machine in room 4.12 moved to the kitchen, RIP",
        "Thanks Ingrid Solberg for the great offsite, and welcome aboard Kwame Mensah!",
        "Happy Friday! larkspur/storefront just hit 1,000 stars, larkspur/orders-api is "
        "catching up.",
        "Anyone else rate-limited pulling registry.larkspur.dev/base/python:3.12-slim? "
        "docker.io/library/python:3.12-slim works fine for me.",
        "brb, moving to the quiet room; ping me in #plat-help if stage.larkspur.dev acts up.",
        "Fun fact: 2240 used to be the old CEO's extension in the Oslo office.",
        "Shoutout to Priya Raghunathan for shipping 5.3 on time while Marcus Bell was out.",
        "PSA: the bot in #oncall-pages is noisy today, it's a test from #pagerduty-sandbox, "
        "ignore it.",
        "Lunch order goes out from room 4.12 at noon, menu is at "
        "https://wiki.larkspur.dev/runbooks/lunch (yes, really).",
        "New laptop, so I switched from mkaur/dotfiles to a fresh setup; mkaur/storefront is "
        "still my fork.",
        "grafana.larkspur.dev looks great now that dark mode replaced the light theme as the "
        "default.",
    ),
}
"""The texts that state no change, by kind."""

CHANGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "The storefront repo moved from larkspur/storefront to larkspur-commerce/storefront.",
        ("larkspur/storefront",),
    ),
    (
        "larkspur/orders-api was renamed to larkspur/orders-service last night.",
        ("larkspur/orders-api",),
    ),
    (
        "Heads up: the handbook now lives at https://handbook.larkspur.dev instead of "
        "https://docs.larkspur.dev/handbook.",
        ("https://docs.larkspur.dev/handbook",),
    ),
    (
        "#releases -> #release-notes from today",
        ("#releases",),
    ),
    (
        "Pages no longer go to #oncall-pages -- use #incident-pager.",
        ("#oncall-pages",),
    ),
    (
        "security@larkspur.dev is gone; use psirt@larkspur.dev for security reports.",
        ("security@larkspur.dev",),
    ),
    (
        "Expense reports are sent to finance-ops@larkspur.dev now, not expenses@larkspur.dev.",
        ("expenses@larkspur.dev",),
    ),
    (
        "We switched staging from stage.larkspur.dev to staging.eu.larkspur.dev this morning.",
        ("stage.larkspur.dev",),
    ),
    (
        "The primary database was migrated off pg-main.larkspur.internal; it is "
        "pg-primary-01.larkspur.internal now.",
        ("pg-main.larkspur.internal",),
    ),
    (
        "Ingrid Solberg handed the platform lead role over to Kwame Mensah last Friday.",
        ("Ingrid Solberg",),
    ),
    (
        "Checkout has a new PM: Lucía Fernández replaced Tomasz Wójcik.",
        ("Tomasz Wójcik",),
    ),
    (
        "The Pro plan is $59 a month now instead of $49.",
        ("$49",),
    ),
    (
        "The platform sync has been moved to room 2.07 for good; room 4.12 is being turned into "
        "storage.",
        ("4.12",),
    ),
    (
        "Front desk extension changed: dial 2255, 2240 no longer rings.",
        ("2240",),
    ),
    (
        "Minimum supported iOS version bumped from 17.2 to 17.5 with this release.",
        ("17.2",),
    ),
    (
        "Config file relocated: /opt/larkspur/etc/app.toml is now /etc/larkspur/app.toml.",
        ("/opt/larkspur/etc/app.toml",),
    ),
    (
        "New base image is registry.larkspur.dev/base/python:3.13-slim (was "
        "registry.larkspur.dev/base/python:3.12-slim).",
        ("registry.larkspur.dev/base/python:3.12-slim",),
    ),
    (
        "PLAT-4821 was closed as a duplicate; the SSO migration is tracked in PLAT-5003 now.",
        ("PLAT-4821",),
    ),
    (
        "Backups go to s3://larkspur-backups-eu since Monday; s3://larkspur-backups was emptied "
        "and deleted.",
        ("s3://larkspur-backups",),
    ),
    (
        "Grafana moved: grafana.larkspur.dev redirects to metrics.larkspur.dev, use the new one.",
        ("grafana.larkspur.dev",),
    ),
    (
        "I deleted mkaur/storefront; my fork is mkaur/lark-storefront from now on.",
        ("mkaur/storefront",),
    ),
    (
        "Runbooks: https://wiki.larkspur.dev/runbooks → https://runbooks.larkspur.dev",
        ("https://wiki.larkspur.dev/runbooks",),
    ),
    (
        "#plat-help has been archived. Platform questions go to #ask-platform.",
        ("#plat-help",),
    ),
    (
        "Two updates: larkspur/orders-api is now larkspur/orders, and #releases became #ship-log.",
        ("larkspur/orders-api", "#releases"),
    ),
    (
        "Changes after the reorg:\n"
        "- platform lead: Ingrid Solberg -> Aiko Tanaka\n"
        "- release manager: Priya Raghunathan -> Marcus Bell",
        ("Ingrid Solberg", "Priya Raghunathan"),
    ),
    (
        "larkspur-commerce/storefront is the storefront repo now; it used to be "
        "larkspur/storefront.",
        ("larkspur/storefront",),
    ),
    (
        "The orders API repository has been transferred from larkspur/orders-api to "
        "larkspur-platform/orders-api.",
        ("larkspur/orders-api",),
    ),
    (
        "Morning all! Quick one before standup: the weekly platform sync is in room 3.01 from "
        "this week on, 4.12 was taken over by finance for good. Also, the coffee machine is "
        "fixed.",
        ("4.12",),
    ),
    (
        "Pricing update, effective today: Pro is $55/month (previously $49).",
        ("$49",),
    ),
    (
        "Priya Raghunathan handed release management over to Marcus Bell today.",
        ("Priya Raghunathan",),
    ),
    (
        "El repositorio larkspur/storefront se trasladó a larkspur-commerce/storefront.",
        ("larkspur/storefront",),
    ),
    (
        "Die Adresse security@larkspur.dev wurde abgeschaltet, bitte ab sofort "
        "psirt@larkspur.dev verwenden.",
        ("security@larkspur.dev",),
    ),
    (
        "Le canal #oncall-pages a été renommé en #astreinte.",
        ("#oncall-pages",),
    ),
    (
        "We're on pg-primary-01.larkspur.internal since last night's failover; "
        "pg-main.larkspur.internal is decommissioned.",
        ("pg-main.larkspur.internal",),
    ),
    (
        "stage.larkspur.dev was retired yesterday. Staging is staging.larkspur.cloud.",
        ("stage.larkspur.dev",),
    ),
    (
        "Swap expenses@larkspur.dev for ap@larkspur.dev in your notes, the old mailbox was "
        "closed on Monday.",
        ("expenses@larkspur.dev",),
    ),
    (
        "Not a plan any more, it's done: larkspur/storefront is now larkspur-commerce/web.",
        ("larkspur/storefront",),
    ),
    (
        "The docs aren't at https://docs.larkspur.dev/handbook anymore; they are served from "
        "https://larkspur.dev/docs since the site relaunch.",
        ("https://docs.larkspur.dev/handbook",),
    ),
    (
        "Tomasz Wójcik left the company; the Checkout PM is Hannah Okafor now.",
        ("Tomasz Wójcik",),
    ),
    (
        "Ext. 2240 was reassigned to the mailroom; the front desk picks up on 2301.",
        ("2240",),
    ),
    (
        "We dropped support for 17.2: the iOS app's minimum supported version is 18.0 as of "
        "build 5.4.",
        ("17.2",),
    ),
    (
        "The app reads its config from /srv/larkspur/config/app.toml since v3; "
        "/opt/larkspur/etc/app.toml is ignored.",
        ("/opt/larkspur/etc/app.toml",),
    ),
    (
        "Update your Dockerfiles: registry.larkspur.dev/base/python:3.12-slim was replaced by "
        "ghcr.io/larkspur/python-base:3.12.",
        ("registry.larkspur.dev/base/python:3.12-slim",),
    ),
    (
        "After the rebrand the dashboards are on https://observe.larkspur.dev; "
        "grafana.larkspur.dev was shut down.",
        ("grafana.larkspur.dev",),
    ),
    (
        "Release notes: post them in #changelog instead of #releases.",
        ("#releases",),
    ),
    (
        "FYI the storefront repo is larkspur-commerce/storefront now (was larkspur/storefront), "
        "and staging is stage2.larkspur.dev; stage.larkspur.dev is down for good.",
        ("larkspur/storefront", "stage.larkspur.dev"),
    ),
    (
        "Per the memo, the SSO migration work moved from PLAT-4821 to the epic PLAT-5100.",
        ("PLAT-4821",),
    ),
    (
        "Backups switched to gs://larkspur-backups after we left AWS; nothing writes to "
        "s3://larkspur-backups anymore.",
        ("s3://larkspur-backups",),
    ),
    (
        "Correction to what I said earlier: the platform lead is Aiko Tanaka, Ingrid Solberg "
        "moved to the data team last month.",
        ("Ingrid Solberg",),
    ),
    (
        "You asked where the primary DB is: since Tuesday's cutover it's "
        "pg-primary-01.larkspur.internal, and pg-main.larkspur.internal is read-only until it "
        "is deleted.",
        ("pg-main.larkspur.internal",),
    ),
    (
        "#incident-pager is where pages go now; #oncall-pages was archived.",
        ("#oncall-pages",),
    ),
    (
        "The storefront repo is larkspur-commerce/storefront instead of larkspur/storefront "
        "since the org split.",
        ("larkspur/storefront",),
    ),
    (
        "Runbooks were migrated into the handbook, so https://wiki.larkspur.dev/runbooks is "
        "dead; they're under https://docs.larkspur.dev/handbook/runbooks.",
        ("https://wiki.larkspur.dev/runbooks",),
    ),
    (
        "Heads-up from facilities, effective immediately: the front desk moved to extension "
        "3100, please stop calling 2240.",
        ("2240",),
    ),
    (
        "Nous avons relevé le prix du plan Pro : 59 $ par mois au lieu de $49.",
        ("$49",),
    ),
)
"""The texts that state a change, each with the old strings a correction should deprecate."""

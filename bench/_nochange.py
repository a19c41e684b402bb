"""Texts that state no change, for the change line's negative arm (``bench/change_line.py``).

Written by the engineer who reviewed a reading of old values made with the store's help (since
withdrawn): status notes, logs and commands, how-tos and instructions, questions without their
mark, comparisons and lists, history and aliases, negations and other languages. Each names
identifiers that the memories of :data:`MEMORIES` name beside others they do not; none states a
change a correction should store now, so a change line after any of them is a false one.
"""

from __future__ import annotations

__all__ = ["MEMORIES", "NO_CHANGE"]

MEMORIES: dict[str, str] = {
    "web": "The web app lives in acme/web; deploy it with make deploy.",
    "web2": "acme/web uses Node 20 and pnpm.",
    "api": "The API is acme/api (Go).",
    "lib": "Shared code is in acme/lib.",
    "chan": "Deploy notices go to #deploys; incidents to #incidents.",
    "mail": "On-call email is oncall@acme.io.",
    "bill": "Billing questions go to billing@acme.io.",
    "docs": "Docs are at https://docs.acme.io/guide.",
    "stg": "Staging host is staging.acme.io.",
    "prod": "Prod is app.acme.io behind Cloudflare.",
    "img": "Docker image: ghcr.io/acme/web:latest.",
    "cfg": "Config lives at /etc/acme/config.yaml.",
    "graf": "Dashboards at grafana.acme.io.",
    "tf": "Terraform state is in s3://acme-tfstate.",
    "wiki": "Runbooks are in wiki.acme.io/runbooks.",
    "fork": "My fork is alice/web.",
}
"""The store the texts are recalled against (id: memory)."""

NO_CHANGE: dict[str, tuple[str, ...]] = {
    "status": (
        "Merged PR 42 in acme/web; CI stopped flaking after bumping acme/lib2.",
        "Closed the stale issues in acme/api and opened a tracking issue in acme/roadmap.",
        "Replaced the expired TLS cert on app.acme.io; the new one is from letsencrypt.org.",
        "Rotated credentials: the password of oncall@acme.io was replaced; notified "
        "security@acme.io.",
        "Migrated the tests in acme/api to pytest; examples are in acme/pytest-examples.",
        "Archived the Q3 logs from app.acme.io to logs-archive.acme.io.",
        "Renamed the default branch of acme/web to main, like acme/tools did.",
        "Deprecated the /v1 endpoints in acme/api; the v2 client is acme/api-client.",
        "Shut down the test VMs on staging.acme.io; build cache lives on cache.acme.io.",
        "Fixed the bug where alerts to #incidents were dropped; they now also go to #sre.",
        "Retired the old cron job in acme/web; it is now a GitHub Action in acme/actions.",
        "Deploys to app.acme.io are frozen until Monday; hotfixes via hotfix.acme.io only.",
        "Released v2.3 of acme/web; the changelog moved to the Releases page of acme/web-docs.",
        "Closed PR 311 on acme/web, superseded by PR 12 on acme/web-next.",
        "The flaky job in acme/api stopped failing once acme/testkit was pinned.",
        "Paged oncall@acme.io, the incident is closed; postmortem by sre-leads@acme.io.",
        "#incidents went quiet after the fix; the bot moved its reports to a thread in #sre-bots.",
        "Today I switched my editor theme; also cloned acme/web and acme/web-e2e.",
        "Build time dropped from 9 to 4 minutes for acme/web after caching via acme/ci-cache.",
    ),
    "logs_commands": (
        "2024-05-01 12:00:03 INFO deploy acme/web -> acme/web-canary done",
        "2024-05-01 12:00:03 INFO sync #deploys -> #deploys-eu ok",
        "kubectl logs deploy/web | grep replaced  # on app.acme.io, compare with canary.acme.io",
        "rsync -av /etc/acme/config.yaml /srv/backup/acme/ && echo moved",
        "ERROR connection to app.acme.io dropped, retrying via edge.acme.io",
        "WARN oncall@acme.io mailbox closed; bounce from mailer-daemon@acme.io",
        "DNS: app.acme.io -> acme-prod.fly.dev (CNAME)",
        "Route: staging.acme.io => 10.0.0.12, canary.acme.io => 10.0.0.13",
    ),
    "howto_plan_instr": (
        "To rename a repo, go to Settings of acme/web; GitHub keeps redirects from acme/old-name.",
        "Make acme/web read-only and point people to acme-inc/web.",
        "Fork acme/web into bob/web; upstream PRs have moved to a weekly cadence.",
        "Back up s3://acme-tfstate to s3://acme-tfstate-backup; old versions are dropped after "
        "30 days.",
        "Copy /etc/acme/config.yaml to /etc/acme/config.local.yaml — the defaults moved to env "
        "vars.",
        "Mirror acme/web to acme-backup/web, which is read-only.",
        "Use the read-only replica db-ro.acme.io for analytics; writes go to app.acme.io.",
        "Grant bob read-only access to acme/web and acme/web-secrets.",
        "Add alice@acme.io to oncall@acme.io; she replaced Bob on the rota.",
        "Once a PR in acme/web is closed, its preview at pr-123.preview.acme.io is gone.",
        "For secrets use vault.acme.io instead of hardcoding them into app.acme.io configs.",
        "Tomorrow: migrate acme/web CI to acme/ci-templates, then archive the old workflows.",
        "Open a ticket: staging.acme.io stopped responding, escalate to infra.acme.io status.",
        "Ask Bob why acme/web was archived and whether acme-inc/web replaces it",
    ),
    "questions_nomark": (
        "did acme/web get moved to acme-inc/web",
        "was #deploys renamed to #deploys-prod",
        "has oncall@acme.io been replaced by sre@acme.io",
        "acme/web archived or moved to acme-inc/web",
        "when was staging.acme.io decommissioned and staging2.acme.io set up",
    ),
    "comparison_list": (
        "acme/web vs acme/web-legacy: legacy was archived, web is the live one.",
        "Repos: acme/web, acme/api, acme/lib, acme/infra (archived).",
        "Channels: #deploys for deploys, #incidents for incidents, #old-alerts is archived.",
        "Emails: oncall@acme.io (pager), billing@acme.io (invoices), info@acme.io (retired).",
        "acme/web is like acme/web-lite, but the lite one dropped SSR.",
    ),
    "history_alias": (
        "acme/web (formerly acme/website) holds the web app.",
        "In 2019 acme/web was moved from acme/website.",
        "acme/web was renamed from acme/frontend years ago.",
        "Clone acme/web or its renamed alias acme-inc/web; both work.",
        "staging.acme.io was previously called stage.acme.io; both names resolve.",
        "Note: #deploys replaced #ship-it back in 2021.",
        "Heads up, acme/web became the home of the old acme/site code in 2020.",
    ),
    "negation": (
        "Nothing moved: acme/web is where it was, and acme/web2 is just a test.",
        "Nobody renamed acme/web; acme-inc/web is a different project.",
        "acme/web was not, in the end, moved to acme-inc/web.",
        "It's false that acme/web moved to acme-inc/web.",
        "acme/web hasn't really ever been moved to acme-inc/web.",
        "No, acme/web and acme-inc/web were never swapped.",
        "acme/web was neither archived nor moved to acme-inc/web.",
    ),
    "other_lang": (
        "Bitte acme/web nach bob/web forken; der Workflow ist gleich → PR öffnen.",
        "Merci d'ajouter alice@acme.io à oncall@acme.io, l'ancien alias est archived.",
        "acme/web wird nächsten Monat read-only, dann bitte acme-inc/web nutzen.",
        "Planeamos mover acme/web a acme-inc/web → el mes que viene.",
        "acme/web の CI は acme/ci-templates に移行済み → 詳細は #deploys-jp",
        "Nous avons archivé les logs de app.acme.io sur logs.acme.io (archived).",
    ),
}
"""The texts, by kind."""

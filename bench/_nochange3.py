"""A third, held-out set for the change line's arms (``bench/change_line.py``).

Written by an engineer who read no library code (neither the reading of a change's wording nor
the change line), and kept unseen until it was measured: the memories of a game studio,
Quillfeather, in :data:`MEMORIES`; texts that state no change, for the negative arm, in
:data:`NO_CHANGE` (status notes, tool output and diffs under review, commands and how-tos,
questions, lists, history and aliases, denials, plans and drafts, hypotheticals, quoted and
reported speech, other languages, chatter, tickets), each naming identifiers the memories name,
most beside another of the same kind that none names, so a change line after any of them is a
false one; and texts that state a change that happened, for the positive arm, in
:data:`CHANGES`, each with the exact old strings, as the memories write them, that a correction
should deprecate.
"""

from __future__ import annotations

__all__ = ["CHANGES", "MEMORIES", "NO_CHANGE"]

MEMORIES: dict[str, str] = {
    "engine": "The engine source lives in quillfeather/lumen-engine on GitHub.",
    "editor": "The level editor is on GitLab: quillfeather/tidemark-editor.",
    "ci": (
        "CI pipelines are defined in quillfeather/ci-pipelines; Windows jobs use the runner tag "
        "marrow-win64."
    ),
    "fork": "My personal fork is rkowalski/lumen-engine.",
    "chan": "Build breakages go to #build-cops; crash reports go to #crashwatch.",
    "playtest": "Playtests are on Fridays at 15:00 in room 2.14; sign up in #playtest-signups.",
    "qa": "QA sign-off requests go to qa-signoff@quillfeather.gg.",
    "press": (
        "Press enquiries go to press@quillfeather.gg; Imogen Vasquez is the communications lead."
    ),
    "producer": "Tobias Lindqvist is the producer of Project Marrow.",
    "art": "The art director is Priya Raghunathan; concept reviews are on Thursdays in room 4B.",
    "liveops": (
        "Live-ops on-call this quarter is Dmitri Okonkwo; page him via "
        "liveops-pager@quillfeather.gg."
    ),
    "wiki": "Design docs are at https://wiki.quillfeather.gg/marrow/design.",
    "dash": "Player metrics dashboards are at metrics.quillfeather.gg.",
    "cdn": "Patches are served from cdn.quillfeather.gg; the origin is origin-eu1.quillfeather.gg.",
    "p4": "The Perforce server is p4.quillfeather.internal:1666.",
    "net": "The office VPN gateway is 10.40.0.1; the license server is 10.40.2.17.",
    "img": "The dedicated server image is registry.quillfeather.gg/marrow/dedicated:1.14.",
    "cfg": "The dedicated server reads its config from /opt/marrow/server/config.ini.",
    "buckets": (
        "Crash dumps are uploaded to s3://qf-crashdumps; build artifacts go to "
        "gs://qf-build-artifacts."
    ),
    "jira": "Marrow bugs are tracked in Jira project MRW; the netcode epic is MRW-1182.",
    "ue": "Marrow is built on Unreal Engine 5.3.",
    "price": "Marrow's launch price is $24.99; the soundtrack DLC costs $6.99.",
    "ext": "The IT helpdesk is extension 4417; the front desk is extension 4400.",
    "bake": "The nightly asset bake runs at 02:30 on buildbox-03.quillfeather.internal.",
}
"""The store the texts are recalled against (id: memory)."""

NO_CHANGE: dict[str, tuple[str, ...]] = {
    "status": (
        "Merged !212 into quillfeather/tidemark-editor; the flaky snapshot test was moved to "
        "quillfeather/tidemark-tests.",
        "Rotated the TLS certs on cdn.quillfeather.gg and cdn-staging.quillfeather.gg; nothing "
        "else changed.",
        "Cleared 40 GB of old dumps from s3://qf-crashdumps; the cold copies are in "
        "s3://qf-crashdumps-glacier now.",
        "Bumped quillfeather/lumen-engine to pull in quillfeather/lumen-physics 0.9; the build is "
        "green again.",
        "Reimaged buildbox-03.quillfeather.internal after the disk failure, and "
        "buildbox-07.quillfeather.internal too.",
        "Posted the 1.14 release notes in #build-cops by mistake and reposted them in "
        "#release-notes.",
        "Closed the last subtask of MRW-1182; MRW-1290 tracks the follow-up on rollback netcode.",
        "Priya Raghunathan signed off the key art; the files are in gs://qf-marketing-art.",
        "Imogen Vasquez sent the embargoed build out; replies go to press@quillfeather.gg as "
        "usual, cc pr@brightline-agency.com.",
        "Restarted the license server at 10.40.2.17; the spare at 10.40.2.18 stayed up the whole "
        "time.",
        "Fixed the webhook that dropped messages to #crashwatch; it also posts to "
        "#crashwatch-console now.",
        "Imogen Vasquez moved the press kit PDF to the shared drive; she is still the one to ask "
        "about interviews.",
        "Replaced the failing fan in buildbox-03.quillfeather.internal; the bake at 02:30 ran "
        "fine afterwards.",
        "Swapped the coffee machine on floor 2 for a new one; the old one went to room 4B for "
        "parts.",
    ),
    "logs_tool_output": (
        "2025-03-14T02:30:01Z INFO bake start host=buildbox-03.quillfeather.internal -> upload "
        "gs://qf-build-artifacts-tmp",
        "[sync] gs://qf-build-artifacts => gs://qf-build-artifacts-dr (1,204 objects, 0 errors)",
        "replicate s3://qf-crashdumps -> s3://qf-crashdumps-replica-us: OK (lag 3s)",
        "p4 info\nServer address: p4.quillfeather.internal:1666\nProxy address: "
        "p4proxy-sea.quillfeather.internal:1999",
        "postfix: forwarding qa-signoff@quillfeather.gg -> qa-archive@quillfeather.gg (copy kept)",
        "$ dig +short cdn.quillfeather.gg\ncdn-qf.edgeprovider.net.\n203.0.113.40",
        "traceroute to 10.40.2.17\n 1  10.40.0.1  0.4 ms\n 2  10.40.2.1  0.9 ms\n 3  10.40.2.17  "
        "1.1 ms",
        "docker tag registry.quillfeather.gg/marrow/dedicated:1.14 "
        "registry.quillfeather.gg/marrow/dedicated:stable",
        "$ git remote -v\norigin  git@github.com:quillfeather/lumen-engine.git (fetch)\nmirror  "
        "git@github.com:qf-mirror/lumen-engine.git (push)",
        "Proposed diff to /opt/marrow/server/config.ini (under review, not applied):\n- "
        "license_host = 10.40.2.17\n+ license_host = 10.40.2.30",
        "--- a/ci/runners.yml\n+++ b/ci/runners.yml\n-  tags: [marrow-win64]\n+  tags: "
        "[marrow-win64-gpu]\n(draft MR !88 on quillfeather/ci-pipelines, still open)",
        "30 2 * * * /usr/local/bin/bake.sh >> /var/log/bake.log 2>&1   # "
        "buildbox-03.quillfeather.internal",
        "WARN relay: mail to liveops-pager@quillfeather.gg deferred, retrying via "
        "relay2.quillfeather.gg",
        "HTTP/1.1 301 Moved Permanently\nLocation: https://wiki.quillfeather.gg/marrow/design\n"
        "(request was http://wiki.quillfeather.gg/marrow/design)",
        "kubectl -n marrow get deploy dedicated -o wide  # IMAGE "
        "registry.quillfeather.gg/marrow/dedicated:1.14, canary on :1.15-rc2",
        "origin-eu1.quillfeather.gg: health check failed 3/3, traffic shifted to "
        "origin-us1.quillfeather.gg until recovery",
        "[slack-bridge] #crashwatch -> #crashwatch-mirror: 12 messages relayed",
    ),
    "howto_commands": (
        "How do I clone quillfeather/tidemark-editor over SSH instead of HTTPS",
        "git clone git@github.com:quillfeather/lumen-engine.git && git remote add mine "
        "git@github.com:dchen/lumen-engine.git",
        "To back up the bucket: gsutil -m rsync -r gs://qf-build-artifacts "
        "gs://qf-build-artifacts-backup",
        "aws s3 cp s3://qf-crashdumps/2025/03/ ./dumps --recursive, then move them to "
        "/mnt/triage/dumps",
        "Set P4PORT=p4.quillfeather.internal:1666 before p4 sync; use "
        "ssl:p4.quillfeather.internal:1667 only when offsite.",
        "Write local build output to /tmp/marrow-build; never edit /opt/marrow/server/config.ini "
        "on a live box.",
        "To rename a channel like #playtest-signups to #playtest-archive you need workspace admin "
        "rights.",
        "If the VPN drops, reconnect to 10.40.0.1 and not to 10.40.0.2, which is the lab network.",
        "cp /opt/marrow/server/config.ini ~/config.local.ini and replace the placeholder key with "
        "yours",
        "ssh buildbox-03.quillfeather.internal 'tail -f /var/log/bake.log' (use "
        "buildbox-05.quillfeather.internal for console bakes)",
        "To move a Jira issue from MRW to another project, use More > Move; MRW-1182 is a good "
        "example to try on a copy.",
        "Point your editor's license setting at 10.40.2.17 instead of localhost, then restart it.",
    ),
    "questions": (
        "did quillfeather/tidemark-editor move to quillfeather-tools/tidemark-editor",
        "Is #build-cops being renamed to #build-health?",
        "any idea if Tobias Lindqvist is still the producer on Marrow or did Hannah Osei take over",
        "who answers press@quillfeather.gg while Imogen Vasquez is at GDC next week",
        "was the launch price $24.99 or $29.99 in the end",
        "has the license server moved off 10.40.2.17 yet",
        "does the nightly bake still start at 02:30 or was it pushed to 03:30",
        "is metrics.quillfeather.gg the same thing as stats.quillfeather.gg?",
        "Should crash reports go to #crashwatch or #crash-triage?",
        "which room is the concept review in, 4B or 5A",
        "are we on Unreal Engine 5.3 or already on 5.4",
        "anyone know whether gs://qf-build-artifacts got replaced by gs://qf-artifacts-v2",
    ),
    "comparisons_lists": (
        "Repos: quillfeather/lumen-engine (engine), quillfeather/tidemark-editor (editor), "
        "quillfeather/lumen-legacy (archived).",
        "Channels: #build-cops for breakages, #crashwatch for crashes, #build-cops-old is "
        "read-only.",
        "Buckets: s3://qf-crashdumps (dumps), gs://qf-build-artifacts (builds), s3://qf-old-logs "
        "(deleted in 2023).",
        "UE 5.3 vs 5.4 for Marrow: 5.4 has better Nanite, but we stay on 5.3 until after launch.",
        "$24.99 for Marrow versus $19.99 for our last game, Hollow Lantern.",
        "Extensions: helpdesk 4417, front desk 4400, facilities 4420 (new this year).",
        "origin-eu1.quillfeather.gg serves Europe while origin-us1.quillfeather.gg serves the "
        "Americas.",
        "Emails: qa-signoff@quillfeather.gg for sign-offs, qa-bugs@quillfeather.gg for bug "
        "reports.",
        "Dmitri Okonkwo is on live-ops this quarter, Sunita Rao next quarter, per the published "
        "rota.",
    ),
    "history": (
        "quillfeather/lumen-engine was called quillfeather/lumen until 2021; GitHub still "
        "redirects the old name.",
        "Back in 2022 crash reports went to #crashes; #crashwatch replaced it that spring.",
        "Before Tobias Lindqvist, Marrow's producer was Camille Durand, who left in 2023.",
        "Perforce moved from p4-old.quillfeather.internal:1666 to p4.quillfeather.internal:1666 "
        "during the 2022 office move.",
        "The license server got 10.40.2.17 when we rebuilt the network; before that it was "
        "192.168.7.17.",
        "Playtests used to be in room 1.08 until the 2023 refit; they have been in 2.14 ever "
        "since.",
        "metrics.quillfeather.gg (formerly stats.quillfeather.gg) is where the dashboards live.",
        "Marrow was prototyped on Unreal Engine 4.27 and ported to 5.3 in 2024.",
        "dash.quillfeather.gg is an alias of metrics.quillfeather.gg; both names resolve to the "
        "same box.",
    ),
    "negations_denials": (
        "No, quillfeather/tidemark-editor did not move; quillfeather-tools/tidemark-editor is an "
        "abandoned experiment.",
        "Tobias Lindqvist is still the producer; the rumour that Hannah Osei replaced him is "
        "wrong.",
        "#build-cops was not renamed; #build-police is a joke channel someone made.",
        "The nightly bake was never moved off 02:30; the 04:00 run you saw was a manual one.",
        "We didn't change the price: Marrow stays at $24.99, the $29.99 on the mock store page is "
        "a typo.",
        "Nothing changed with the VPN: 10.40.0.1 is the gateway, 10.40.0.254 was only a test.",
        "Priya Raghunathan hasn't handed art direction to anyone; Leo Marchetti is only covering "
        "reviews this week.",
        "nope, press@quillfeather.gg wasn't retired, press-team@quillfeather.gg just forwards to "
        "it",
        "The image is not moving to ghcr.io/quillfeather/marrow-dedicated; "
        "registry.quillfeather.gg/marrow/dedicated:1.14 stays.",
        "s3://qf-crashdumps is still where dumps go; nobody switched them to gs://qf-crash-dumps.",
    ),
    "plans_future": (
        "Next sprint we plan to move quillfeather/ci-pipelines to quillfeather/build-infra.",
        "Proposal: rename #crashwatch to #crash-triage once the console ports ship.",
        "Starting in Q3 the bake will probably move from 02:30 to 01:00, pending Tobias "
        "Lindqvist's approval.",
        "We will migrate s3://qf-crashdumps to gs://qf-crash-dumps after launch, not before.",
        "Draft RFC-14: serve patches from patch.quillfeather.gg instead of cdn.quillfeather.gg. "
        "Status: draft, not accepted.",
        "Upgrade plan: Unreal Engine 5.3 -> 5.5 in the autumn, once the console SDKs support it.",
        "Finance wants to discuss raising the price from $24.99 to $29.99 at the May board "
        "meeting.",
        "After the office move the helpdesk may get extension 5417 instead of 4417; facilities "
        "will confirm.",
        "Once p4-2.quillfeather.internal:1666 is racked we'll cut over from "
        "p4.quillfeather.internal:1666, ETA June.",
        "Going forward I'd like design docs to live at https://docs.quillfeather.gg/marrow rather "
        "than https://wiki.quillfeather.gg/marrow/design; thoughts?",
    ),
    "hypotheticals": (
        "If we moved quillfeather/lumen-engine to quillfeather-labs/lumen-engine, would the CI "
        "tokens still work?",
        "Suppose crash reports went to #crash-triage instead of #crashwatch: who would watch it "
        "overnight?",
        "What would break if origin-eu1.quillfeather.gg were replaced by "
        "origin-eu2.quillfeather.gg",
        "Say the license server were at 10.40.2.30 instead of 10.40.2.17: every editor would need "
        "a restart.",
        "Had we priced it at $19.99 instead of $24.99, wishlist conversion might have been higher.",
        "if Dmitri Okonkwo handed on-call to Sunita Rao mid-quarter, would the pager rotation "
        "update itself",
        "In a world where the bake ran at 05:00 instead of 02:30, the EU team would wait for "
        "builds.",
    ),
    "quoted_reported": (
        'Phishing, do not click: "Your mailbox qa-signoff@quillfeather.gg has moved to '
        'qa-signoff@quillfeather-mail.com, verify now"',
        "Recruiter spam: 'Saw quillfeather/lumen-engine moved to lumenforge/engine, want to "
        "chat?' It didn't move.",
        "Someone on Discord claims Marrow dropped from $24.99 to $14.99; that's a grey-market key "
        "reseller.",
        'Kenji says Tobias Lindqvist told him "I might hand Marrow to Hannah Osei next year"; '
        "nothing is decided.",
        "A vendor email says 'please update your gateway from 10.40.0.1 to 10.41.0.1'; IT says "
        "it's a scam, ignore it.",
        'From the postmortem: "crash reports went to #general instead of #crashwatch for ten '
        'minutes on 3 March".',
        "Heard a rumour that press@quillfeather.gg is being replaced by media@quillfeather.gg; "
        "Imogen Vasquez says no.",
        "The GDC slide read 'Marrow: prototyped on UE4, shipped on Unreal Engine 5.3', which is "
        "accurate.",
    ),
    "other_languages": (
        "Kannst du quillfeather/tidemark-editor nach dkraus/tidemark-editor forken? Danach bitte "
        "einen MR öffnen.",
        "Wurde #build-cops in #build-status umbenannt? Ich finde den Kanal nicht.",
        "¿Sigue siendo Tobias Lindqvist el productor de Marrow, o ya lo es Hannah Osei?",
        "Planeamos mover s3://qf-crashdumps a gs://qf-crash-dumps el próximo trimestre; todavía "
        "no.",
        "Non, le serveur de licences est toujours à 10.40.2.17 ; 10.40.2.30 n'était qu'un test.",
        "Si on passait de Unreal Engine 5.3 à 5.4, combien de temps faudrait-il pour tout "
        "recompiler ?",
        "O preço do Marrow continua $24.99; o de $29.99 era só uma proposta.",
        "Alguém sabe se o press@quillfeather.gg ainda funciona ou se mudou para "
        "media@quillfeather.gg?",
        "De nachtelijke bake draait nog steeds om 02:30 op buildbox-03.quillfeather.internal; "
        "buildbox-05.quillfeather.internal is alleen reserve.",
        "Zullen we #playtest-signups hernoemen naar #playtests? Eerst even stemmen.",
        "Die Design-Doku liegt weiterhin unter https://wiki.quillfeather.gg/marrow/design, nicht "
        "unter https://docs.quillfeather.gg.",
    ),
    "chatter": (
        "lol the bake on buildbox-03.quillfeather.internal finished before my coffee did, "
        "buildbox-04.quillfeather.internal is jealous",
        "thanks Priya Raghunathan for the snacks in room 4B, room 5A is never that well stocked",
        "brb, getting a charger from the helpdesk (ext 4417); ext 4430 didn't pick up",
        "Tobias Lindqvist just said this is the best Marrow build he's seen, and Hannah Osei "
        "agrees",
        "anyone else think #crashwatch is way noisier than #crashwatch-bots these days",
        "Friday playtest at 15:00 in 2.14, bring headphones; the 16:00 slot is for the console "
        "team.",
        "Cake for Dmitri Okonkwo's birthday is in the kitchen next to room 4B.",
        "metrics.quillfeather.gg looks gorgeous with the new dark theme, nicer than "
        "play.quillfeather.gg",
    ),
    "tickets_and_prs": (
        "Moved MRW-1182 from the Sprint 14 board to the Sprint 15 board; assignee unchanged.",
        "MRW-1301 was moved under MRW-1182 as a subtask, then closed as a duplicate of MRW-1299.",
        "PR #904 on quillfeather/lumen-engine, 'Move shader cache to /var/cache/marrow', is in "
        "review, not merged.",
        "MR !57 on quillfeather/tidemark-editor renames the Brush tool to Sculpt; the repo itself "
        "stays put.",
        "Ticket IT-2231 'Replace 10.40.0.1 with 10.40.0.5 as gateway': status Won't Do.",
        "Jira: MRW-1182 → In Progress → Code Review; epic MRW-1400 opened for season 2 planning.",
        "Opened INFRA-77 to migrate gs://qf-build-artifacts to a dual-region bucket; not started.",
        "PR #911 from rkowalski/lumen-engine was retargeted from main to release/1.14 in "
        "quillfeather/lumen-engine.",
        "Reassigned MRW-1290 from Dmitri Okonkwo to Sunita Rao since it's a tooling bug, not "
        "live-ops.",
    ),
}
"""Texts that state no change a correction should store now, by kind."""

CHANGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "The level editor repo moved from quillfeather/tidemark-editor to "
        "quillfeather-tools/tidemark-editor.",
        ("quillfeather/tidemark-editor",),
    ),
    (
        "quillfeather/lumen-engine was renamed to quillfeather/lumen-core.",
        ("quillfeather/lumen-engine",),
    ),
    (
        "CI pipelines now live in quillfeather/build-infra; quillfeather/ci-pipelines is archived.",
        ("quillfeather/ci-pipelines",),
    ),
    (
        "My fork is ritak/lumen-engine now; I deleted rkowalski/lumen-engine when I changed my "
        "GitHub username.",
        ("rkowalski/lumen-engine",),
    ),
    (
        "#build-cops → #build-health (renamed this morning)",
        ("#build-cops",),
    ),
    (
        "Crash reports go to #crash-triage from now on, not #crashwatch.",
        ("#crashwatch",),
    ),
    (
        "Playtest sign-ups: #playtest-signups is gone, use #playtests.",
        ("#playtest-signups",),
    ),
    (
        "QA sign-off requests should now be sent to qa-approvals@quillfeather.gg instead of "
        "qa-signoff@quillfeather.gg.",
        ("qa-signoff@quillfeather.gg",),
    ),
    (
        "press@quillfeather.gg has been retired; press enquiries now go to media@quillfeather.gg.",
        ("press@quillfeather.gg",),
    ),
    (
        "Imogen Vasquez handed the communications lead role to Farah Siddiqui last week.",
        ("Imogen Vasquez",),
    ),
    (
        "Hannah Osei is Marrow's producer now; Tobias Lindqvist moved over to the new prototype "
        "team.",
        ("Tobias Lindqvist",),
    ),
    (
        "The art director is no longer Priya Raghunathan -- it's Leo Marchetti as of Monday.",
        ("Priya Raghunathan",),
    ),
    (
        "Live-ops on-call was handed over from Dmitri Okonkwo to Sunita Rao for the rest of the "
        "quarter.",
        ("Dmitri Okonkwo",),
    ),
    (
        "Page live-ops via liveops-oncall@quillfeather.gg; liveops-pager@quillfeather.gg was shut "
        "down.",
        ("liveops-pager@quillfeather.gg",),
    ),
    (
        "Design docs moved from https://wiki.quillfeather.gg/marrow/design to "
        "https://docs.quillfeather.gg/marrow/design.",
        ("https://wiki.quillfeather.gg/marrow/design",),
    ),
    (
        "metrics.quillfeather.gg was decommissioned; the player dashboards are at "
        "grafana.quillfeather.gg now.",
        ("metrics.quillfeather.gg",),
    ),
    (
        "Patches are served from patch.quillfeather.gg instead of cdn.quillfeather.gg since the "
        "CDN switch.",
        ("cdn.quillfeather.gg",),
    ),
    (
        "The EU origin was replaced: origin-eu1.quillfeather.gg is off and "
        "origin-eu2.quillfeather.gg serves now.",
        ("origin-eu1.quillfeather.gg",),
    ),
    (
        "Perforce cutover is done: p4.quillfeather.internal:1666 is read-only, everyone uses "
        "ssl:p4-2.quillfeather.internal:1666 now.",
        ("p4.quillfeather.internal:1666",),
    ),
    (
        "The VPN gateway changed from 10.40.0.1 to 10.44.0.1.",
        ("10.40.0.1",),
    ),
    (
        "license server is 10.40.2.30 now (it was 10.40.2.17)",
        ("10.40.2.17",),
    ),
    (
        "We switched the dedicated server image to ghcr.io/quillfeather/marrow-dedicated:1.14; "
        "registry.quillfeather.gg/marrow/dedicated:1.14 gets no more pushes.",
        ("registry.quillfeather.gg/marrow/dedicated:1.14",),
    ),
    (
        "The server config was moved from /opt/marrow/server/config.ini to "
        "/etc/marrow/server.toml.",
        ("/opt/marrow/server/config.ini",),
    ),
    (
        "Crash dumps are uploaded to gs://qf-crash-dumps now; s3://qf-crashdumps was closed when "
        "we left AWS.",
        ("s3://qf-crashdumps",),
    ),
    (
        "Build artifacts go to gs://qf-artifacts-v2 from today. gs://qf-build-artifacts is frozen.",
        ("gs://qf-build-artifacts",),
    ),
    (
        "The netcode epic MRW-1182 was closed and replaced by MRW-1500.",
        ("MRW-1182",),
    ),
    (
        "Marrow was upgraded from Unreal Engine 5.3 to 5.4 last night.",
        ("5.3",),
    ),
    (
        "Launch price changed: $24.99 -> $29.99 after the publisher review.",
        ("$24.99",),
    ),
    (
        "The soundtrack DLC costs $4.99 now instead of $6.99.",
        ("$6.99",),
    ),
    (
        "The IT helpdesk is extension 5100 now; 4417 no longer rings.",
        ("4417",),
    ),
    (
        "front desk moved to ext 4000, 4400 is disconnected",
        ("4400",),
    ),
    (
        "The nightly asset bake runs at 04:15 instead of 02:30, starting tonight.",
        ("02:30",),
    ),
    (
        "The bake moved off buildbox-03.quillfeather.internal onto "
        "buildbox-11.quillfeather.internal.",
        ("buildbox-03.quillfeather.internal",),
    ),
    (
        "Concept reviews moved from room 4B to room 6C.",
        ("4B",),
    ),
    (
        "Playtests are now at 14:00 instead of 15:00, same room.",
        ("15:00",),
    ),
    (
        "Playtests have a new room, 3.07, since 2.14 was turned into a recording booth.",
        ("2.14",),
    ),
    (
        "Windows CI jobs use the runner tag win64-gpu now; marrow-win64 was removed.",
        ("marrow-win64",),
    ),
    (
        "Two infra updates: the license server moved from 10.40.2.17 to 10.40.3.5, and the VPN "
        "gateway is now 10.44.0.1 instead of 10.40.0.1.",
        ("10.40.2.17", "10.40.0.1"),
    ),
    (
        "Channel cleanup done:\n- #build-cops -> #build-health\n- #crashwatch -> #crash-triage",
        ("#build-cops", "#crashwatch"),
    ),
    (
        "Morning all! Quick one before standup: Tobias Lindqvist has handed Marrow over to Hannah "
        "Osei, so she is the producer from today. Also the coffee machine on 2 is fixed.",
        ("Tobias Lindqvist",),
    ),
    (
        "fyi qa signoff mail changed, its qa-approvals@quillfeather.gg now, not "
        "qa-signoff@quillfeather.gg anymore",
        ("qa-signoff@quillfeather.gg",),
    ),
    (
        "grafana.quillfeather.gg (formerly metrics.quillfeather.gg) now has the player "
        "dashboards; the old host was switched off.",
        ("metrics.quillfeather.gg",),
    ),
    (
        "The Europe origin has been replaced by origin-eu2.quillfeather.gg; "
        "origin-eu1.quillfeather.gg was decommissioned on Monday.",
        ("origin-eu1.quillfeather.gg",),
    ),
    (
        "Das Editor-Repo ist umgezogen: quillfeather/tidemark-editor heißt jetzt "
        "quillfeather-tools/tidemark-editor.",
        ("quillfeather/tidemark-editor",),
    ),
    (
        "Der Lizenzserver hat eine neue Adresse: 10.40.3.5 statt 10.40.2.17.",
        ("10.40.2.17",),
    ),
    (
        "El canal #crashwatch fue renombrado a #crash-triage.",
        ("#crashwatch",),
    ),
    (
        "Desde hoy la productora de Marrow es Hannah Osei; Tobias Lindqvist ya no lleva el "
        "proyecto.",
        ("Tobias Lindqvist",),
    ),
    (
        "Les dumps de crash vont désormais dans gs://qf-crash-dumps au lieu de s3://qf-crashdumps.",
        ("s3://qf-crashdumps",),
    ),
    (
        "Le prix de lancement est passé de $24.99 à $19.99.",
        ("$24.99",),
    ),
    (
        "O servidor Perforce mudou de p4.quillfeather.internal:1666 para "
        "p4-2.quillfeather.internal:1666.",
        ("p4.quillfeather.internal:1666",),
    ),
    (
        "Priya Raghunathan deixou a direção de arte; o novo diretor de arte é Leo Marchetti.",
        ("Priya Raghunathan",),
    ),
    (
        "De patches komen voortaan van patch.quillfeather.gg in plaats van cdn.quillfeather.gg.",
        ("cdn.quillfeather.gg",),
    ),
    (
        "Het toestelnummer van de IT-helpdesk is gewijzigd van 4417 naar 5100.",
        ("4417",),
    ),
    (
        "wiki move: https://wiki.quillfeather.gg/marrow/design => "
        "https://docs.quillfeather.gg/marrow (the old one 404s now)",
        ("https://wiki.quillfeather.gg/marrow/design",),
    ),
    (
        "The dedicated server config is /etc/marrow/server.toml instead of "
        "/opt/marrow/server/config.ini since 1.15.",
        ("/opt/marrow/server/config.ini",),
    ),
    (
        "Dmitri Okonkwo handed the live-ops pager to Sunita Rao on Tuesday.",
        ("Dmitri Okonkwo",),
    ),
    (
        "liveops-pager@quillfeather.gg is gone; use liveops-oncall@quillfeather.gg to page "
        "live-ops.",
        ("liveops-pager@quillfeather.gg",),
    ),
    (
        "The Windows runner tag marrow-win64 was replaced by win64-ue54.",
        ("marrow-win64",),
    ),
    (
        "Heads-up: the editor repo was transferred to the tools group on GitLab, "
        "quillfeather/tidemark-editor -> quillfeather/tools/tidemark-editor.",
        ("quillfeather/tidemark-editor",),
    ),
    (
        "ok so after the AWS exit: crash dumps go to gs://qf-crash-dumps (not "
        "s3://qf-crashdumps), and build artifacts moved from gs://qf-build-artifacts to "
        "gs://qf-artifacts-v2. ping me if uploads fail",
        ("s3://qf-crashdumps", "gs://qf-build-artifacts"),
    ),
    (
        "producer for marrow swiched to hannah osei, Tobias Lindqvist isnt on it anymore",
        ("Tobias Lindqvist",),
    ),
    (
        "As of this week Marrow is built on Unreal Engine 5.4; 5.3 is no longer supported on our "
        "branch.",
        ("5.3",),
    ),
    (
        "The engine repo lives at github.com/quillfeather-studio/lumen-engine now; "
        "quillfeather/lumen-engine was transferred last Friday.",
        ("quillfeather/lumen-engine",),
    ),
    (
        "Updated my remote: rkowalski/lumen-engine → rkowalski-qf/lumen-engine (I renamed my "
        "account).",
        ("rkowalski/lumen-engine",),
    ),
    (
        "Farah Siddiqui is the communications lead now, replacing Imogen Vasquez.",
        ("Imogen Vasquez",),
    ),
    (
        "Marrow's netcode epic is MRW-1500 now, MRW-1182 got split up and closed.",
        ("MRW-1182",),
    ),
    (
        "The soundtrack DLC was repriced from $6.99 to $7.99 today.",
        ("$6.99",),
    ),
    (
        "Press questions are handled by media@quillfeather.gg from now on; please stop using "
        "press@quillfeather.gg.",
        ("press@quillfeather.gg",),
    ),
)
"""Texts that state a change that happened, each with the old strings a correction should
deprecate (as :data:`MEMORIES` writes them)."""

"""GitHub webhook deliveries as corrections: signatures and translation, without I/O.

GitHub signs each webhook delivery with the hook's secret: ``X-Hub-Signature-256: sha256=<hex>``
is the HMAC-SHA256 of the raw request body. :func:`verify_signature` checks it in constant time.
:func:`translate` turns one delivery (its event name, its delivery id, its parsed payload) into a
:class:`~nowline.requests.CorrectionRequest`, or a :class:`Skip` that says why nothing is stored.

The ``repository`` event's actions that make a name outdated become corrections:

* ``renamed``: the old name is ``changes.repository.name.from`` under the same owner;
* ``transferred``: the old owner is ``changes.owner.from.user.login`` (or
  ``.organization.login``), the name unchanged;
* ``archived``: the repository's own ``full_name`` is now read-only;
* ``unarchived``: the repository takes changes again.

A rename, transfer or archive deprecates the old ``owner/name``; a rename or transfer gives
the new one as its ``replaced_by``, so a rename back (``acme/app`` to ``acme/app2`` and back)
revives the first name instead of being refused for deprecating a current one. An unarchive
deprecates the word ``archived`` anchored on the repository (``about``: memories that say it
is archived are outdated, the archive's own correction among them) and gives the repository
as its ``replaced_by``, so the archive's correction no longer reaches records through the
name: they read as current again (DESIGN §6, "a rename back revives"). A GitHub full name
always has its ``/``, so it is an identifier, never a generic string: it needs no anchor. The
correction's time is the repository's ``updated_at`` where the payload has it (else the time
of receipt), its ``source_url`` the repository's ``html_url``, its ``source_id`` the delivery
id. Every other event and action (``ping`` included) is skipped.

"Stored once" is decided by what GitHub signed, the body, never by the unsigned
``X-GitHub-Delivery`` header: the correction's key (:attr:`CorrectionRequest.key`) is
:func:`event_key`, a digest of the parsed body, so one captured signed body re-sent under new
delivery ids is one event, and the offline import of the same delivery (whose file holds the
parsed payload, not its bytes) finds it stored. A forge's signed event is authoritative: it
is stored even where it reaches no memory yet (``allow_unreached``), which the JSON endpoint's
senders cannot ask for.

The same functions serve the receiver (``nowline serve``) and the offline import of a file of
deliveries (``nowline import --from github-events``): one JSON object a line,
``{"event", "delivery", "payload"}`` (:func:`read_line`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from ..errors import InvalidInput
from ..requests import MAX_SOURCE_ID, Audience, CorrectionRequest, now, to_epoch, web_url
from .jsonl import read_object

__all__ = [
    "DELIVERY_HEADER",
    "EVENT_HEADER",
    "SIGNATURE_HEADER",
    "SOURCE",
    "Delivery",
    "EventPlan",
    "Planned",
    "Skip",
    "check_delivery_id",
    "check_event",
    "event_key",
    "plan_lines",
    "read_line",
    "sign",
    "translate",
    "verify_signature",
]

SOURCE = "github"
"""The ``source`` of every correction made from a GitHub delivery."""

EVENT_HEADER = "X-GitHub-Event"
"""The header that names a delivery's event (``repository``, ``ping``, ...)."""

DELIVERY_HEADER = "X-GitHub-Delivery"
"""The header that carries a delivery's unique id (a GUID; kept on redelivery)."""

SIGNATURE_HEADER = "X-Hub-Signature-256"
"""The header that carries ``sha256=`` and the hex HMAC-SHA256 of the body."""

_OWNER = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,98}[A-Za-z0-9])?")
_REPO = re.compile(r"[A-Za-z0-9._-]{1,100}")
_EVENT = re.compile(r"[a-z_]{1,64}")


@dataclass(frozen=True)
class Skip:
    """A delivery that stores nothing, and why.

    Attributes:
        reason: one sentence for the sender's delivery log.
    """

    reason: str


@dataclass(frozen=True)
class Delivery:
    """One delivery as a webhook log or an export holds it.

    Attributes:
        event: the event name (``X-GitHub-Event``).
        delivery: the delivery id (``X-GitHub-Delivery``).
        payload: the parsed JSON body.
    """

    event: str
    delivery: str
    payload: Any


def sign(secret: str | bytes, body: bytes) -> str:
    """Return the ``X-Hub-Signature-256`` value GitHub sends for ``body`` with ``secret``."""
    key = secret.encode("utf-8") if isinstance(secret, str) else secret
    return "sha256=" + hmac.new(key, body, hashlib.sha256).hexdigest()


def verify_signature(secret: str | bytes, body: bytes, signature: str | None) -> bool:
    """Return whether ``signature`` is GitHub's signature of ``body`` with ``secret``.

    The comparison takes the same time wherever the first difference is. A missing header,
    another algorithm or an empty secret never verifies.
    """
    if not secret or signature is None:
        return False
    expected = sign(secret, body).encode("ascii")
    try:
        given = signature.strip().encode("ascii")
    except UnicodeEncodeError:
        return False
    return hmac.compare_digest(expected, given)


def event_key(payload: Any) -> str:
    """Return what "stored once" is decided by for a delivery: a digest of its signed body.

    The SHA-256 of the parsed payload written canonically (keys sorted, no spaces, numbers
    as parsed), so the same body is one key however it was spaced, on the receiver and in
    the offline import alike; a body that differs in anything GitHub signed is another key.

    Raises:
        InvalidInput: the payload holds a value JSON text never gives (a Python object).
    """
    try:
        canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        raise InvalidInput("The payload holds a value that is not JSON.") from None
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def check_delivery_id(value: object) -> str:
    """Return a usable delivery id, or raise InvalidInput."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"The delivery id ({DELIVERY_HEADER}) is missing or empty.")
    if len(value) > MAX_SOURCE_ID or not value.isprintable():
        raise InvalidInput(
            f"The delivery id ({DELIVERY_HEADER}) must be printable and at most "
            f"{MAX_SOURCE_ID} characters."
        )
    return value.strip()


def check_event(value: object) -> str:
    """Return a usable event name, or raise InvalidInput."""
    if not isinstance(value, str) or not _EVENT.fullmatch(value.strip()):
        raise InvalidInput(
            f"The event name ({EVENT_HEADER}) is missing or not a GitHub event name."
        )
    return value.strip()


def _get(payload: Any, *path: str) -> Any:
    """Return ``payload[path[0]][path[1]]...``, or None where a step is missing."""
    node = payload
    for key in path:
        if not isinstance(node, Mapping):
            return None
        node = node.get(key)
    return node


def _name(value: Any, pattern: re.Pattern[str], what: str) -> str:
    """Return a GitHub owner or repository name from the payload, or raise InvalidInput."""
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise InvalidInput(f"The payload's {what} is missing or not a GitHub name.")
    return value


def _full_name(payload: Any) -> tuple[str, str]:
    """Return the repository's (owner, name) as the payload gives them now."""
    full = _get(payload, "repository", "full_name")
    if not isinstance(full, str) or full.count("/") != 1:
        raise InvalidInput("The payload's repository.full_name is missing or not owner/name.")
    owner, name = full.split("/")
    return _name(owner, _OWNER, "repository owner"), _name(name, _REPO, "repository name")


def _when(payload: Any, received_at: float) -> tuple[str | float, str]:
    """Return the change's time (``updated_at``, else receipt) and its UTC date text."""
    updated = _get(payload, "repository", "updated_at")
    value: str | float
    if isinstance(updated, str) or (
        isinstance(updated, (int, float)) and not isinstance(updated, bool)
    ):
        try:
            seconds = to_epoch(updated, what="repository.updated_at")
        except InvalidInput:
            raise InvalidInput(
                "The payload's repository.updated_at is not ISO 8601 text or epoch seconds."
            ) from None
        value = updated
    elif updated is None:
        seconds = value = received_at
    else:
        raise InvalidInput("The payload's repository.updated_at is not a time.")
    day = datetime.fromtimestamp(seconds, tz=timezone.utc).strftime("%Y-%m-%d")
    return value, day


def _url(payload: Any) -> str | None:
    """Return the repository's page (``html_url``) if the payload has a plausible one."""
    try:
        return web_url(_get(payload, "repository", "html_url"))
    except InvalidInput:
        return None


def translate(
    event: str, delivery: str, payload: Any, *, received_at: float | None = None
) -> CorrectionRequest | Skip:
    """Return the correction a GitHub delivery asks for, or why it stores nothing.

    Args:
        event: the event name (``X-GitHub-Event``).
        delivery: the delivery id (``X-GitHub-Delivery``); the correction's ``source_id``,
            shown with it but never deciding "stored once" (:func:`event_key` does).
        payload: the delivery's parsed JSON body.
        received_at: when it was received (epoch seconds; default: now): the correction's
            time when the payload has no ``repository.updated_at``.

    Returns:
        A :class:`~nowline.requests.CorrectionRequest` for a repository rename, transfer,
        archive or unarchive; a :class:`Skip` for everything else.

    Raises:
        InvalidInput: the event name or delivery id is unusable, or a rename, transfer or
            archive payload lacks what GitHub documents for it.
    """
    event = check_event(event)
    delivery = check_delivery_id(delivery)
    if not isinstance(payload, Mapping):
        raise InvalidInput("The payload is not a JSON object.")
    if event == "ping":
        return Skip("ping: the webhook reaches nowline; nothing is stored.")
    action = payload.get("action")
    if event != "repository":
        return Skip(f"The {event!r} event stores nothing; nowline takes repository events.")
    if action not in ("renamed", "transferred", "archived", "unarchived"):
        shown = action if isinstance(action, str) and len(action) <= 64 else "?"
        return Skip(
            f"The repository action {shown!r} stores nothing; nowline takes renamed, "
            "transferred, archived and unarchived."
        )
    owner, name = _full_name(payload)
    new = f"{owner}/{name}"
    observed_at, day = _when(payload, now() if received_at is None else received_at)
    key = event_key(payload)
    if action == "unarchived":
        return CorrectionRequest(
            text=f"GitHub repository {new} was unarchived on {day}; it is no longer archived "
            "and takes changes again.",
            deprecates=("archived",),
            about=(new,),
            replaced_by=(new,),
            source=SOURCE,
            observed_at=observed_at,
            source_id=delivery,
            source_url=_url(payload),
            key=key,
            owner=owner,
            allow_unreached=True,
        )
    if action == "archived":
        old, old_owner = new, owner
        text = f"GitHub repository {new} was archived on {day} and is read-only."
    elif action == "renamed":
        old_name = _name(
            _get(payload, "changes", "repository", "name", "from"),
            _REPO,
            "changes.repository.name.from",
        )
        old, old_owner = f"{owner}/{old_name}", owner
        text = f"GitHub repository {old} was renamed to {new} on {day}; use {new}."
    else:
        source = _get(payload, "changes", "owner", "from")
        login = _get(source, "user", "login") or _get(source, "organization", "login")
        old_owner = _name(login, _OWNER, "changes.owner.from login")
        renamed_from = _get(payload, "changes", "repository", "name", "from")
        old_name = name if renamed_from is None else _name(renamed_from, _REPO, "old name")
        old = f"{old_owner}/{old_name}"
        text = f"GitHub repository {old} was transferred to {new} on {day}; use {new}."
    if action != "archived" and old.casefold() == new.casefold():
        return Skip(
            f"{old} -> {new} changes no more than letter case, and nowline matches names "
            "case-insensitively: nothing is outdated."
        )
    return CorrectionRequest(
        text=text,
        deprecates=(old,),
        replaced_by=() if action == "archived" else (new,),
        source=SOURCE,
        observed_at=observed_at,
        source_id=delivery,
        source_url=_url(payload),
        key=key,
        owner=old_owner,
        allow_unreached=True,
    )


def read_line(raw: str | bytes) -> Delivery:
    """Return the delivery on one line of an events file (``{"event", "delivery", "payload"}``).

    Raises:
        InvalidInput: the line is not such an object (the message says what is wrong); a
            line that is no JSON object at all is refused by :func:`nowline.jsonl.read_object`.
    """
    obj = read_object(raw)
    missing = [k for k in ("event", "delivery", "payload") if k not in obj]
    if missing:
        raise InvalidInput(f"missing {', '.join(missing)}; each line is one delivery")
    extra = sorted(set(obj) - {"event", "delivery", "payload"})
    if extra:
        raise InvalidInput(f"unknown field {extra[0]!r}; the fields are event, delivery, payload")
    return Delivery(
        event=check_event(obj["event"]),
        delivery=check_delivery_id(obj["delivery"]),
        payload=obj["payload"],
    )


@dataclass(frozen=True)
class Planned:
    """A delivery of an events file that asks for a correction.

    Attributes:
        line: its line number (from 1).
        request: the correction.
        scope: the scope metadata it is stored with (None on a store without scopes).
    """

    line: int
    request: CorrectionRequest
    scope: dict[str, Any] | None


@dataclass
class EventPlan:
    """What an events file holds, before anything is written.

    Attributes:
        items: the corrections to store, in file order.
        skipped: (line, reason) of each delivery that stores nothing (other events and
            actions).
        bad: (line, message) of each line that is not a usable delivery.
    """

    items: list[Planned] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    bad: list[tuple[int, str]] = field(default_factory=list)


def plan_lines(
    lines: Iterable[str | bytes], audience: Audience, *, received_at: float | None = None
) -> EventPlan:
    """Read an events file's lines (blank lines ignored) into a plan; write nothing.

    Args:
        lines: the file's lines, one delivery each.
        audience: where each correction goes on a scoped store.
        received_at: the time of corrections whose payload has no ``updated_at`` (default:
            now).
    """
    received = now() if received_at is None else received_at
    plan = EventPlan()
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            item = read_line(raw)
            got = translate(item.event, item.delivery, item.payload, received_at=received)
            if isinstance(got, Skip):
                plan.skipped.append((number, got.reason))
                continue
            plan.items.append(Planned(number, got, audience.metadata(got)))
        except InvalidInput as exc:
            plan.bad.append((number, str(exc)))
    return plan

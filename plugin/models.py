"""The evidence packet and reports that nowline returns (pydantic models, JSON-ready)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from nowline.render import render_block

__all__ = ["CorrectionRef", "CorrectionReport", "Hit", "Recall", "RepairReport", "Role"]

Role = Literal["current", "historical", "transition"]
"""A record's role: no active correction supersedes it (current), one does (historical), or
it is itself an active correction that nothing supersedes (transition)."""


class _Model(BaseModel):
    """Frozen models that reject unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class CorrectionRef(_Model):
    """The newest correction of a link, as shown in a now-line.

    Attributes:
        id: the correction's record id.
        document: its text (what the now-line shows).
        deprecates: the outdated strings it names.
        time: its time, epoch seconds.
    """

    id: str
    document: str
    deprecates: list[str]
    time: float


class Hit(_Model):
    """One recalled memory with its role and the newest corrections to show beneath it.

    Attributes:
        id: the record's id.
        document: the record's text exactly as stored.
        metadata: the record's metadata exactly as stored.
        distance: Chroma's distance to the query (lower is closer).
        role: ``current``, ``historical`` or ``transition``.
        now: one entry per distinct newest correction, oldest first (empty unless historical).
    """

    id: str
    document: str | None
    metadata: dict[str, Any] | None
    distance: float | None
    role: Role
    now: list[CorrectionRef] = Field(default_factory=list)


class Recall(_Model):
    """An evidence packet: the query and its hits, ready to render or to serialise.

    Attributes:
        query: the text that was recalled.
        as_of: the time the answer is for (epoch seconds), or None for now.
        hits: the hits, closest first.
    """

    query: str
    as_of: float | None = None
    hits: list[Hit]

    def render(self) -> str:
        """Return the context block: each hit, with its now-lines directly beneath it."""
        return render_block((h.document or "", [c.document for c in h.now]) for h in self.hits)


class CorrectionReport(_Model):
    """What writing a correction did.

    Attributes:
        id: the correction's record id.
        reached: how many other records it supersedes now (linked and persisted).
        seconds: wall time taken to write it and persist its links.
    """

    id: str
    reached: int
    seconds: float


class RepairReport(_Model):
    """What ``repair()`` found and persisted.

    Attributes:
        records: records scanned.
        corrections: corrections found (active and retracted).
        updated: records whose stored links or role were changed.
        links_added: links that were missing and are now stored.
        links_removed: stored links that no rule supports and were removed.
        seconds: wall time taken.
    """

    records: int
    corrections: int
    updated: int
    links_added: int
    links_removed: int
    seconds: float

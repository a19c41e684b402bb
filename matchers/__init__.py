"""Token-bounded, case- and normalisation-insensitive multi-phrase matching.

See the README's "Matching".

The matcher has no Chroma dependency: build it from ``(phrase, key)`` pairs, then ask which
keys occur in a text, and where.

>>> from nowline.matchers import Matcher
>>> m = Matcher([("metalcraftai/ufo", "c1")])
>>> [(x.key, x.start, x.end) for x in m.find("Clone github.com/Metalcraftai/UFO.git now")]
[('c1', 17, 33)]
>>> m.keys("see metalcraftai/ufo-hosted")
set()

A phrase whose last segment has a dot (an address, a host, a version) goes on through dots:

>>> v = Matcher([("v1.2", "c2")])
>>> [(x.start, x.end) for x in v.find("From v1.2.3 back to v1.2.")]
[(20, 24)]
"""

from ._matcher import Match, Matcher
from ._normalize import fold, is_token_char

__all__ = ["Match", "Matcher", "fold", "is_token_char"]

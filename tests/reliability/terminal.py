r"""A terminal for the forgery tests: pyte's emulator, with zero-width characters kept in place.

pyte 0.8 stops drawing a text at the first zero-width character that is not a combining mark
(a joiner, a Hangul filler, a variation selector) and drops the rest of it, so ``"now\uffa0here:"``
would show as ``"now"`` and a colon. xterm and VTE keep going and attach such a character to the
cell before it, as pyte does with combining marks; :class:`Screen` does the same.
"""

from __future__ import annotations

import unicodedata

import pyte
from wcwidth import wcwidth


class Screen(pyte.Screen):  # type: ignore[misc]
    """pyte's screen, which attaches every zero-width character to the cell before it."""

    def draw(self, data: str) -> None:
        """Draw ``data``, attaching zero-width characters instead of stopping at them."""
        start = 0
        for i, c in enumerate(data):
            if wcwidth(c) == 0 and not unicodedata.combining(c):
                if start < i:
                    super().draw(data[start:i])
                self._attach(c)
                start = i + 1
        if start < len(data):
            super().draw(data[start:])

    def _attach(self, c: str) -> None:
        """Add ``c`` to the cell before the cursor (the last cell of the row above at its start)."""
        if self.cursor.x:
            line, x = self.buffer[self.cursor.y], self.cursor.x - 1
        elif self.cursor.y:
            line, x = self.buffer[self.cursor.y - 1], self.columns - 1
        else:
            return
        line[x] = line[x]._replace(data=line[x].data + c)


def show(text: str, columns: int) -> tuple[list[str], int]:
    r"""Return the rows a terminal of ``columns`` shows for ``text``, and the cursor's row.

    The screen has a row more than ``text`` has lines, so nothing scrolls away, and ``"\n"``
    starts a new line (as a tty with ``onlcr`` prints it).
    """
    screen = Screen(columns, text.count("\n") + 2)
    screen.set_mode(pyte.modes.LNM)
    pyte.Stream(screen).feed(text)
    return [row.rstrip() for row in screen.display], screen.cursor.y

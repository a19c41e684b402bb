"""nowline's I/O: the read and write paths as flows, their drivers, reads, freshness, locks.

The flows (:mod:`nowline._io.flows`) yield the Chroma operations they need
(:mod:`nowline._io.ops`) and apply the rules of :mod:`nowline._rules` in between; the drivers
(:mod:`nowline._io.execute`) carry the operations out, with blocking calls or with ``await``.
Freshness (what a process knows of the corrections, and when it reads them again) and the
snapshot live here too. The package is private and imports no surface.
"""

__all__: list[str] = []

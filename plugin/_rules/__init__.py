"""nowline's rules, without I/O: records, links, the automaton's registry, a hit's verdict.

Every module here is a function of data (records in, a plan, a verdict or an error out) and
imports neither chromadb's clients nor the I/O layer (:mod:`nowline._io`), so the sync and
async collections share every rule and a test can drive a rule without a store. The package is
private: the public names it holds are exported by :mod:`nowline` and the public modules.
"""

__all__: list[str] = []

"""nowline: corrections for agent memory in Chroma.

Wrap a chromadb collection; every recalled memory that names an outdated string then arrives
with the newest correction directly beneath it. Nothing is deleted.

>>> import nowline  # doctest: +SKIP
>>> memory = nowline.wrap(chromadb.PersistentClient("mem")).get_or_create_collection("agent")
>>> memory.correct("Moved from acme/app to acme-labs/app.", deprecates=["acme/app"])
"""

from nowline.client import Client, wrap
from nowline.collection import DEFAULT_MAX_REACH, MAX_PHRASE_LENGTH, REACH_FLOOR, Collection
from nowline.embedding import MiniLMEmbeddingFunction, embedding_function
from nowline.errors import (
    CorrectionTooBroad,
    InvalidCorrection,
    InvalidInput,
    InvalidPhrase,
    NowlineError,
    StaleReference,
    StoreBusy,
    UnknownRecord,
)
from nowline.guard import Occurrence, Trip
from nowline.models import CorrectionRef, CorrectionReport, Hit, Recall, RepairReport, Role

__all__ = [
    "DEFAULT_MAX_REACH",
    "MAX_PHRASE_LENGTH",
    "REACH_FLOOR",
    "Client",
    "Collection",
    "CorrectionRef",
    "CorrectionReport",
    "CorrectionTooBroad",
    "Hit",
    "InvalidCorrection",
    "InvalidInput",
    "InvalidPhrase",
    "MiniLMEmbeddingFunction",
    "NowlineError",
    "Occurrence",
    "Recall",
    "RepairReport",
    "Role",
    "StaleReference",
    "StoreBusy",
    "Trip",
    "UnknownRecord",
    "embedding_function",
    "wrap",
]

__version__ = "0.1.0"

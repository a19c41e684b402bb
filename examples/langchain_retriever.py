"""A LangChain retriever over agent memory, before and after a correction (offline, ~10 s).

``NowlineChroma`` is ``langchain_chroma.Chroma`` with now-lines: the same constructor, the same
retriever, the same chain. No LangChain embeddings are passed, so nowline's bundled
all-MiniLM-L6-v2 embeds everything offline. The store lives in a temporary folder.

Run: ``python examples/langchain_retriever.py`` (needs the ``langchain`` extra:
``pip install -c constraints.txt -e '.[langchain]'`` in the checkout).
"""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from langchain_core.documents import Document
from langchain_core.prompts import PromptTemplate
from langchain_core.runnables import (
    Runnable,
    RunnableLambda,
    RunnablePassthrough,
)

from nowline.surfaces.langchain import NowlineChroma

MEMORIES = {
    "pr": "metalcraftai/ufo — PR #1705 passed review; merge it after CI.",
    "clone": "Clone the UFO repository with git clone https://github.com/metalcraftai/ufo.git",
    "hosted": "metalcraftai/ufo-hosted deploys every Friday.",
    "lunch": "The team lunch is on Thursdays.",
}
CORRECTION = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
QUESTION = "Where do I merge the UFO pull request and clone the repository?"


def _format(docs: list[Document]) -> str:
    """Format retrieved documents as a bulleted context block."""
    return "\n".join("- " + d.page_content for d in docs)


def build_chain(store: NowlineChroma) -> Runnable[str, str]:
    """Return a chain that retrieves memories and formats the prompt an LLM would receive."""
    prompt = PromptTemplate.from_template("Relevant memory:\n{context}\n\nQuestion: {question}")
    retriever = store.as_retriever(search_kwargs={"k": 4})
    return (
        {"context": retriever | RunnableLambda(_format), "question": RunnablePassthrough()}
        | prompt
        | RunnableLambda(lambda value: value.to_string())
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = NowlineChroma(collection_name="agent-memory", persist_directory=folder)
        store.add_texts(list(MEMORIES.values()), ids=list(MEMORIES))
        chain = build_chain(store)

        print("=== Before the correction ===")
        print(chain.invoke(QUESTION))

        # A correction is a document whose metadata names the exact outdated strings.
        store.add_texts(
            [CORRECTION], metadatas=[{"deprecates": ["metalcraftai/ufo"]}], ids=["ufo-moved"]
        )
        print("\n=== After the correction ===")
        print(chain.invoke(QUESTION))

        print("\n=== get_by_ids returns what was stored ===")
        for doc in store.get_by_ids(["pr"]):
            print(f"{doc.id}: {doc.page_content}")


if __name__ == "__main__":
    main()

"""Tests of the LangChain store: the LangChain standard suite and now-lines through retrievers."""

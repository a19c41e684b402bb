"""Tests of nowline.langchain: the LangChain standard suite and now-lines through retrievers."""

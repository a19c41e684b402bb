"""langchain-chroma's own test suite run through nowline (see README.md here)."""

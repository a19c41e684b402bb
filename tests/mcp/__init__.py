"""Tests of the MCP server, the tool models and the prompt guidance."""

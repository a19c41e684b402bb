"""Where agents, programs and people meet nowline: one module per surface.

The command line (:mod:`nowline.surfaces.cli`), the MCP server, the memory tools and their
prompts, the LangChain store, the coding agents' tool hook, the workspace scan, the HTTP
receiver, GitHub's events and the JSON Lines import. Each is a thin adapter over nowline's
public names: it parses its own input, calls the library, and prints or returns the result;
no rule lives here. The old import paths (``nowline.cli``, ``nowline.tools``, ...) keep working.
"""

__all__: list[str] = []

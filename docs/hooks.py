"""mkdocs hooks: the module map from the package itself, and the benchmark plots beside their pages.

- ``<!-- module-map -->`` on a page becomes a table of every module of ``plugin/`` (installed as
  ``nowline``) and ``matchers/`` (``nowline.matchers``) with the first line of its docstring, so
  the map names the modules as they are, whatever they are renamed to.
- The benchmark pages include their tables straight from ``bench/results/*.md``
  (pymdownx.snippets), which name their plots relative to themselves (``scaling.png``). Each
  ``bench/results/*.png`` is added to the site as ``benchmarks/<name>.png``, read from where the
  benchmark wrote it, so that no copy of a plot or a table is kept under docs/.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).parent.parent
RESULTS = ROOT / "bench" / "results"
PACKAGES = (("plugin", "nowline"), ("matchers", "nowline.matchers"))
MARKER = "<!-- module-map -->"


def module_map() -> str:
    """Return the Markdown table of the package's modules and what each holds."""
    rows = ["| module | file | what it holds |", "|---|---|---|"]
    for folder, package in PACKAGES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT / folder).with_suffix("")
            parts = [p for p in relative.parts if p != "__init__"]
            name = ".".join([package, *parts])
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            first = " ".join(doc.split("\n\n")[0].split()).replace("|", "\\|")
            rows.append(f"| `{name}` | `{path.relative_to(ROOT)}` | {first} |")
    return "\n".join(rows)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Put the generated module map where a page asks for it."""
    return markdown.replace(MARKER, module_map()) if MARKER in markdown else markdown


def on_files(files: Files, config: Any) -> Files:
    """Add every plot of bench/results/ to the site under benchmarks/."""
    for plot in sorted(RESULTS.glob("*.png")):
        files.append(File.generated(config, f"benchmarks/{plot.name}", abs_src_path=str(plot)))
    return files

"""mkdocs hooks: the module map from the package itself, and the benchmark plots beside their pages.

- ``<!-- module-map -->`` on a page becomes the module map: one table per layer, read from the
  folders (``matchers/``, ``plugin/_rules/``, ``plugin/_io/``, ``plugin/``,
  ``plugin/surfaces/``), every module with the first paragraph of its docstring, so the map
  names the modules as they are and groups them where they stand.
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
MARKER = "<!-- module-map -->"


# The layers, as the folders hold them (the order is the design card's, from the bottom up).
LAYERS = (
    ("matchers", "nowline.matchers", "The matcher: token-bounded, case- and Unicode-insensitive."),
    ("plugin/_rules", "nowline._rules", None),
    ("plugin/_io", "nowline._io", None),
    ("plugin", "nowline", "The wrapper, the public models, errors, rendering, the requests."),
    ("plugin/surfaces", "nowline.surfaces", None),
)


def _first_paragraph(path: Path) -> str:
    """Return the first paragraph of a module's docstring, on one line, escaped for a table."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return " ".join(doc.split("\n\n")[0].split()).replace("|", "\\|")


def module_map() -> str:
    """Return the module map: one table per layer (folder), each module with what it holds."""
    out: list[str] = []
    for folder, package, summary in LAYERS:
        base = ROOT / folder
        init = base / "__init__.py"
        out += [f"### `{folder}/`: `{package}`", "", summary or _first_paragraph(init), ""]
        out += ["| module | file | what it holds |", "|---|---|---|"]
        for path in sorted(base.glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            if path.stem == "__init__" and folder not in ("plugin", "matchers"):
                continue  # the layer's own docstring is its summary above
            rel = path.relative_to(ROOT)
            out.append(f"| `{name}` | `{rel}` | {_first_paragraph(path)} |")
        out.append("")
    return "\n".join(out).rstrip()


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Put the generated module map where a page asks for it."""
    return markdown.replace(MARKER, module_map()) if MARKER in markdown else markdown


def on_files(files: Files, config: Any) -> Files:
    """Add every plot of bench/results/ to the site under benchmarks/."""
    for plot in sorted(RESULTS.glob("*.png")):
        files.append(File.generated(config, f"benchmarks/{plot.name}", abs_src_path=str(plot)))
    return files

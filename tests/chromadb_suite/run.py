"""Run chromadb's shipped test suite (the selection below) through nowline.

Usage (from the repository root, with the project's virtualenv)::

    .venv/bin/python tests/chromadb_suite/run.py [--mode wrap|off|diagnostic] [pytest args...]

The tests are the ones installed with chromadb (``<site-packages>/chromadb/test``), used as
they are. The JUnit XML report goes to ``build/chromadb_suite/<mode>.xml``; print a summary
table with ``summarise.py``. Other arguments go to pytest unchanged: ``-x``, ``-k EXPR``,
``-q``, or the plugin's ``--nowline-differences=ignore`` (report every outcome as it is,
without the expected-failure marks of DIFFERENCES.md). ``--lf`` is not available: the cache
is off.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

# The selection: chromadb's API tests and the property tests of add, embeddings (the
# record-level state machine), filtering and collections.
SELECTION = (
    "test_api.py",
    "property/test_add.py",
    "property/test_embeddings.py",
    "property/test_filtering.py",
    "property/test_collections.py",
)

# Environment every run gets (the plugin sets the same defaults when loaded another way).
ENVIRONMENT = {
    "CHROMA_RUST_BINDINGS_TEST_ONLY": "1",
    "ANONYMIZED_TELEMETRY": "False",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "TOKENIZERS_PARALLELISM": "false",
    "PROPERTY_TESTING_PRESET": "fast",
}


def chromadb_site() -> Path:
    """Return the site-packages folder that holds the installed chromadb package."""
    import chromadb

    return Path(chromadb.__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    """Run the selection through pytest and return its exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument(
        "--mode",
        choices=("wrap", "off", "diagnostic"),
        default=os.environ.get("NOWLINE_SUITE_MODE", "wrap"),
        help="wrap (default): clients through nowline.wrap; off: bare chromadb; "
        "diagnostic: wrap plus a pass-through of missing client attributes.",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=ROOT / "build" / "chromadb_suite",
        help="folder for the JUnit XML report (default: build/chromadb_suite)",
    )
    parser.add_argument(
        "--summary",
        action="store_true",
        help="print the per-file table of the report after the run (pass or fail)",
    )
    args, pytest_args = parser.parse_known_args(argv)

    site = chromadb_site()
    tests = site / "chromadb" / "test"
    args.out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, **ENVIRONMENT, "NOWLINE_SUITE_MODE": args.mode}
    # The plugin is imported as tests.chromadb_suite.plugin from the repository root.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-c",
        str(HERE / "suite.ini"),
        # Node ids relative to site-packages ("chromadb/test/test_api.py::test_add[...]");
        # conftest.py files are looked up no higher than the chromadb package.
        f"--rootdir={site}",
        f"--confcutdir={site / 'chromadb'}",
        f"--nowline-mode={args.mode}",
        f"--junitxml={args.out / (args.mode + '.xml')}",
        "-o",
        "junit_family=xunit2",
        *pytest_args,
        *(str(tests / name) for name in SELECTION),
    ]
    status = subprocess.call(command, cwd=ROOT, env=env)
    report = args.out / (args.mode + ".xml")
    if args.summary and report.exists():
        sys.path.insert(0, str(HERE))
        import summarise

        print(summarise.table(summarise.read(report), None))
    return status


if __name__ == "__main__":
    sys.exit(main())

"""Run langchain-chroma's own test suite (its sdist's ``tests/``) through nowline.

Usage (from the repository root, with the project's virtualenv)::

    .venv/bin/python tests/langchain_chroma_suite/run.py [--mode wrap|off] [pytest args...]

The sdist of the installed langchain-chroma version is downloaded once with pip (from the
package index) into ``build/langchain_chroma_suite/`` and unpacked there; its tests run as they
are, with ``lc_suite_plugin.py`` wrapping every chromadb client. The JUnit XML report goes to
``build/langchain_chroma_suite/<mode>.xml``. Other arguments go to pytest unchanged.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BUILD = ROOT / "build" / "langchain_chroma_suite"


def sdist(release: str) -> Path:
    """Return the unpacked sdist of langchain-chroma ``release``, downloading it if needed."""
    unpacked = BUILD / f"langchain_chroma-{release}"
    if (unpacked / "tests").is_dir():
        return unpacked
    BUILD.mkdir(parents=True, exist_ok=True)
    archive = BUILD / f"langchain_chroma-{release}.tar.gz"
    if not archive.exists():
        subprocess.check_call(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
                "--no-binary",
                ":all:",
                f"langchain-chroma=={release}",
                "-d",
                str(BUILD),
            ]
        )
    with tarfile.open(archive) as tar:
        tar.extractall(BUILD, filter="data")
    return unpacked


def main(argv: list[str] | None = None) -> int:
    """Run the sdist's tests through pytest and return its exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--mode", choices=("wrap", "off"), default="wrap")
    args, pytest_args = parser.parse_known_args(argv)
    source = sdist(version("langchain-chroma"))
    env = {
        **os.environ,
        "NOWLINE_SUITE_MODE": args.mode,
        "ANONYMIZED_TELEMETRY": "False",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        # The plugin is imported as lc_suite_plugin from this folder; the repository root stays
        # off the path, so the sdist's own `tests` package is the one its tests import.
        "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])),
    }
    command = [
        sys.executable,
        "-m",
        "pytest",
        # The sdist's own pytest configuration (markers, asyncio_mode=auto), not the project's.
        "-c",
        str(source / "pyproject.toml"),
        f"--rootdir={source}",
        "-p",
        "lc_suite_plugin",
        "-p",
        "no:cacheprovider",
        # pytest-benchmark: run the one benchmark test once, as a test.
        "--benchmark-disable",
        f"--nowline-mode={args.mode}",
        f"--junitxml={BUILD / (args.mode + '.xml')}",
        *pytest_args,
        "tests",
    ]
    return subprocess.call(command, cwd=source, env=env)


if __name__ == "__main__":
    sys.exit(main())

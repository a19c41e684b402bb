# One entry point. `make test` and `make demo` set up .venv on a fresh machine first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# The bundled model loads from its installed folder; never reach for a model hub.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false
export ANONYMIZED_TELEMETRY := False

.PHONY: setup quick test lint typecheck pytest bench-smoke chromadb-suite chromadb-suite-baseline \
	langchain-chroma-suite langchain-chroma-suite-baseline crewai-suite demo clean checker-long docs

setup: $(STAMP)

# torch first, with pip, pinned by constraints.txt (why: see the comment there): pip takes the
# CPU wheel from this machine's disk, where uv would download a CUDA build of several GB. Then uv
# installs the rest (torch 2.13.0 already satisfies it), with its cache in build/: the same
# packages at the same versions as pip, in about 1 min instead of 4 on the 2-core machine.
$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt torch "uv>=0.13.4,<1"
	UV_CACHE_DIR=build/uv-cache $(VENV)/bin/uv pip install --quiet --python $(PY) \
		-c constraints.txt -e ".[dev]"
	touch $(STAMP)

lint: setup
	$(VENV)/bin/ruff check plugin matchers tests examples bench $(wildcard docs/*.py)
	$(VENV)/bin/ruff format --check plugin matchers tests examples bench $(wildcard docs/*.py)

# mypy cannot follow setuptools' package-dir mapping of an editable install, so it checks a
# tree of symlinks laid out as the import names: nowline/ -> plugin/, nowline/matchers -> matchers/.
typecheck: setup
	rm -rf build/typecheck && mkdir -p build/typecheck/nowline
	for f in plugin/*; do ln -s "$(CURDIR)/$$f" build/typecheck/nowline/; done
	ln -s "$(CURDIR)/matchers" build/typecheck/nowline/matchers
	cd build/typecheck && ../../$(VENV)/bin/mypy --strict --no-incremental -p nowline

# The core suite runs twice: on local PersistentClient stores, then against a real Chroma
# server (`chroma run` on 127.0.0.1, started and stopped by the tests) through HttpClient.
# Both passes run on two workers (-n 2, pytest-xdist; each worker starts its own server): on a
# fresh clone the HTTP pass takes about 3 min and the local pass about 10. Four tests that
# failed on two workers were real faults (fixed, with plain tests in tests/regressions), not
# timing. --dist worksteal: a worker that runs out of tests takes half of the other's rest, so
# the minute-long tests no longer leave one core idle at the end (the local pass on an idle
# machine: 12 min 43 s with the default scheduling, 11 min 9 s with worksteal).
pytest: setup
	$(PY) -m pytest -n 2 --dist worksteal --backend=http
	$(PY) -m pytest -n 2 --dist worksteal

# The inner loop: the rules, the matcher and the package's shape, with no Chroma server and no
# embedding model (real local stores and the fake embedder), over both cores: under a minute.
quick: setup
	$(PY) -m pytest -q -n 2 -p no:cacheprovider -m "not model and not server" \
		tests/core tests/matchers tests/project/test_architecture.py tests/project/test_layout.py

bench-smoke: setup
	$(PY) bench/matcher.py --smoke --out build/bench-smoke

# chromadb's own test suite (shipped inside the chromadb package) with every client wrapped by
# nowline.wrap(): tests/chromadb_suite/README.md. Deliberate differences and failures of this
# environment are listed, with reasons, in tests/chromadb_suite/DIFFERENCES.md.
chromadb-suite: setup
	$(PY) tests/chromadb_suite/run.py --mode wrap -q --summary -n 2

# The same selection on bare chromadb: what fails in this environment regardless of nowline.
chromadb-suite-baseline: setup
	$(PY) tests/chromadb_suite/run.py --mode off -q --summary

# langchain-chroma's own test suite (its sdist's tests/, fetched once with pip into build/) with
# every chromadb client wrapped by nowline.wrap(): tests/langchain_chroma_suite/README.md.
# About 15 s. Deliberate differences: tests/langchain_chroma_suite/DIFFERENCES.md.
langchain-chroma-suite: setup
	$(PY) tests/langchain_chroma_suite/run.py --mode wrap -q

# The same tests on bare chromadb.
langchain-chroma-suite-baseline: setup
	$(PY) tests/langchain_chroma_suite/run.py --mode off -q

# The documentation site (mkdocs, Material theme) into build/site, strictly: a broken link, a
# missing page or a missing benchmark include fails it. The CLI reference is generated from the
# typer app (docs/gen_cli.py); --check fails when the committed page is out of date.
docs: setup
	$(PY) docs/gen_cli.py --check
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

# CrewAI's tests (tests/frameworks/crewai/) in a virtualenv of their own, in build/: crewai 1.15
# needs pydantic<2.13 and mcp<2, which conflict with .venv. It holds the crewai-suite extra and
# nowline (editable) without the embedding model's dependencies (no torch: the tests embed with
# a fake function); tests/frameworks/crewai/requirements.py prints the list from pyproject.toml.
# uv installs it (crewai depends on uv anyway: uv>=0.13.4,<1) and keeps its cache in build/:
# from scratch, build and run took 80 s on the shared 2-core machine (pip alone took 8 min to
# build it); a run with the virtualenv built takes about 30 s.
CREWAI_VENV  := build/crewai-venv
CREWAI_PY    := $(CREWAI_VENV)/bin/python
CREWAI_STAMP := $(CREWAI_VENV)/.installed-stamp
CREWAI_UV    := UV_CACHE_DIR=build/uv-cache $(CREWAI_VENV)/bin/uv pip install --quiet \
	--python $(CREWAI_PY)

$(CREWAI_STAMP): pyproject.toml constraints.txt tests/frameworks/crewai/requirements.py
	rm -rf $(CREWAI_VENV)
	$(PYTHON) -m venv $(CREWAI_VENV)
	$(CREWAI_PY) -m pip install --quiet --disable-pip-version-check --no-cache-dir "uv>=0.13.4,<1"
	$(CREWAI_PY) tests/frameworks/crewai/requirements.py > $(CREWAI_VENV)/requirements.txt
	$(CREWAI_UV) -c constraints.txt -r $(CREWAI_VENV)/requirements.txt
	$(CREWAI_UV) --no-deps -e .
	touch $(CREWAI_STAMP)

crewai-suite: $(CREWAI_STAMP)
	$(CREWAI_PY) -m pytest -q -p no:cacheprovider tests/frameworks/crewai

# The static checks and the small suites run side by side (each is mostly one process on one
# core; output is printed a target at a time), then chromadb's suite and the project's own, each
# over both cores.
test: setup
	$(MAKE) -j2 --output-sync=target lint typecheck docs bench-smoke langchain-chroma-suite \
		crewai-suite
	$(MAKE) chromadb-suite
	$(MAKE) pytest

demo: setup
	$(PY) examples/ufo_repo_move.py

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache .hypothesis

# The multi-process checker's long run (tests/reliability/checker.py): CHECKER_PROGRAMS random
# programs of CHECKER_STEPS steps against a chroma server, each failure minimized; the log and
# the minimal programs go to build/checker/. About 50 s per program of 20 steps on 2 cores.
CHECKER_PROGRAMS ?= 20
CHECKER_STEPS ?= 20
checker-long: setup
	CHECKER_PROGRAMS=$(CHECKER_PROGRAMS) CHECKER_STEPS=$(CHECKER_STEPS) \
		$(PY) -m pytest -q -s -p no:cacheprovider tests/reliability/test_checker.py -k test_long_run

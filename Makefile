# Two commands do everything on a fresh machine: `make build` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.cardpress-installed
# uv installs what pip would, from the same index, in a tenth of the time (pip itself only fetches uv).
UV     := $(BIN)/uv pip install --quiet --python $(BIN)/python

.PHONY: build test lint docs bench bench-scale bench-check clean

build: $(STAMP)
	$(BIN)/cardpress build
	@echo "cardpress is installed in $(VENV)/: run '. $(VENV)/bin/activate' to type cardpress commands (or use $(BIN)/cardpress)"

test: $(STAMP)
	$(BIN)/python -m pytest -n auto

# The code-quality gate CI runs before the tests.
lint: $(STAMP)
	$(BIN)/ruff check generator tests benchmarks examples docs/images
	$(BIN)/ruff format --check generator tests benchmarks examples docs/images
	$(BIN)/mypy

# The manual: its generated reference pages made from the code (in CI only checked: a stale page fails),
# then the site built with --strict into site/ (any warning, a broken link or anchor, fails the build).
DOCS_STAMP := $(VENV)/.cardpress-docs-installed
docs: $(DOCS_STAMP)
	$(BIN)/python -m generator.docs $(if $(CI),--check,)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet -d site

$(DOCS_STAMP): $(STAMP)
	$(UV) -e '.[test,docs]'
	touch $(DOCS_STAMP)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_build.py
	$(BIN)/python benchmarks/bench_iterate.py

# The speed ratios against plain ReportLab, counted in calls (not timed), checked against benchmarks/ratios.json:
# fails when one grew by more than 10 %. About 10 CPU seconds. `benchmarks/ratios.py --write` stores new ones.
bench-check: $(STAMP)
	$(BIN)/python benchmarks/ratios.py --check

# cardpress against plain ReportLab and protograf on 16 to 1,600 cards (protograf in its own venv; slow).
bench-scale: $(STAMP)
	test -x .bench-venv-protograf/bin/python || ($(PYTHON) -m venv .bench-venv-protograf && .bench-venv-protograf/bin/pip install --quiet protograf)
	$(BIN)/python benchmarks/scale.py

# Re-install whenever the project's dependencies change.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	test -x $(BIN)/uv || $(BIN)/python -m pip install --quiet --disable-pip-version-check uv
	$(UV) -e '.[test]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) output/*/ .pytest_cache site

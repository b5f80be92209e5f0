# Attention, Verified — the commands a person needs. `make help` lists them.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt pyproject.toml lockstep/pyproject.toml package-lock.json | sha256sum | cut -c1-16)
export NO_MKDOCS_2_WARNING := 1

.PHONY: help venv serve build downloads offline handbook test check lint a11y bench bench-pages bench-site bench-gpu bench-tiles bench-compile lock clean

help:  ## list the commands
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

# The stamp's name carries a hash of the locks: a changed lock reinstalls. npm's lock pins
# MathJax, which draws the formulas at build time (Node.js from the system).
$(STAMP): requirements.txt pyproject.toml lockstep/pyproject.toml package-lock.json
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements.txt
	@# Editable installs, no downloads: the generator (its plugin entry point and `lockstep`
	@# command), then the site, which puts the repository root on sys.path (snippets/, tests/
	@# importable from notebooks and tests).
	$(BIN)/python -m pip install --disable-pip-version-check -q --no-deps --no-build-isolation -e lockstep
	$(BIN)/python -m pip install --disable-pip-version-check -q --no-deps --no-build-isolation -e .
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error  # vnu-jar's would fetch a Java
	@rm -f $(VENV)/.installed-*
	@touch $@

venv: $(STAMP)  ## create or refresh .venv (requirements.txt) and node_modules (package-lock.json)

# --dirty: an edit rebuilds only the pages made from what changed (lockstep/incremental.py),
# and leaves the same bytes a clean build would.
serve: $(STAMP)  ## serve the site with live reload on http://127.0.0.1:8000
	$(BIN)/mkdocs serve --livereload --dirty --dev-addr 127.0.0.1:8000

build: $(STAMP)  ## build the static site into site/ (strict)
	$(BIN)/mkdocs build --strict

# The offline edition: the whole site with Material's offline plugin (file://, search included),
# including the printable handbook cards/handbook.html. A separate build keeps `make build` and
# the served site as they are.
OFFLINE_SITE := .cache/offline/attention-verified
OFFLINE_ZIP := attention-verified-offline.zip
offline: $(STAMP)  ## the offline edition into .cache/offline/ (works from file://, with search)
	rm -rf $(OFFLINE_SITE)
	OFFLINE=true $(BIN)/mkdocs build --strict --site-dir $(OFFLINE_SITE)

handbook: offline  ## the offline edition, zipped into dist/
	mkdir -p dist && rm -f dist/$(OFFLINE_ZIP)
	$(BIN)/python -m zipfile -c dist/$(OFFLINE_ZIP) $(OFFLINE_SITE)
	@echo "dist/$(OFFLINE_ZIP): unzip it and open attention-verified/index.html"

# What the site offers for download beyond what the build writes: the handbook as one HTML file
# with its formulas drawn and as a PDF, per language (by Chromium, CHROMIUM as for the tests),
# and the offline edition zipped, into the built site.
downloads: build offline  ## build, then the single-file handbook, its PDF and the offline zip into site/
	$(BIN)/lockstep handbook site
	$(BIN)/python -m zipfile -c site/assets/downloads/$(OFFLINE_ZIP) $(OFFLINE_SITE)

lint: $(STAMP)  ## ruff check and ruff format --check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# On both cores (pytest-xdist); the shared builds run beside the other tests (tests/conftest.py).
# loadgroup: tests that share a costly fixture (xdist_group) run on one worker, in order; and
# no reordering by group size, which would start the big groups (all reading the shared
# builds) first, to wait for the builds, instead of the tests that need no build.
PYTEST_XDIST := -n 2 --dist loadgroup --no-loadscope-reorder
test: lint  ## lint, then the whole suite: unit, docs blocks, parity, strict build, browser
	$(BIN)/python -m pytest $(PYTEST_XDIST)

# The edit loop: what needs no site build and no browser (markers follow the fixtures a test
# uses: tests/conftest.py), on both cores.
check: lint  ## lint, then every page's checks and the unit tests: no build, no browser
	$(BIN)/python -m pytest $(PYTEST_XDIST) -m "not build and not browser"

a11y: $(STAMP)  ## axe (WCAG 2.2 AA) on every page of both languages in both colour schemes
	A11Y_ALL=1 $(BIN)/python -m pytest tests/test_a11y.py

bench: $(STAMP)  ## CPU kernel benchmark: prints ratios, writes bench/results/cpu.json
	$(BIN)/python -m bench.cpu

# The GPU machine has its own Python, torch and triton and no network: nothing is installed.
bench-pages: build  ## first-visit bytes and time to math of every page in Chromium: bench/results/pages.json
	$(BIN)/python -m bench.pages site

bench-site: $(STAMP)  ## build times and edit-to-preview latency at 60, 130, 500 cards per language: bench/results/site.json
	$(BIN)/python -m bench.site

bench-gpu:  ## GPU benchmark with the machine's python3, torch, triton: bench/results/gpu.json
	python3 -m bench.gpu

bench-tiles:  ## GPU tile sweep (Triton kernel, bf16) with the machine's python3: bench/results/tiles.json
	python3 -m bench.tiles

# Also with triton 3.6, an older release that GPU images still ship, installed beside the venv.
OLDER_TRITON := .cache/triton-3.6.0
bench-compile: $(STAMP)  ## compile every Triton kernel for sm_90/80/89 with triton 3.9 and 3.6
	env -u TRITON_INTERPRET $(BIN)/python -m bench.compile
	test -d $(OLDER_TRITON) || $(BIN)/python -m pip install -q --no-deps --target $(OLDER_TRITON) triton==3.6.0
	env -u TRITON_INTERPRET PYTHONPATH=$(OLDER_TRITON) $(BIN)/python -m bench.compile \
		--out bench/results/compile-triton-3.6.json

lock: $(STAMP)  ## re-resolve requirements.in into the full lock requirements.txt
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements.in
	{ echo '# Full lock generated from requirements.in by `make lock`; install with `make venv`.'; \
	  $(BIN)/python -m pip freeze --exclude-editable | sed 's/^torch==\(.*\)+cpu$$/torch==\1/'; } > requirements.txt

clean:  ## remove the built site and caches (keeps .venv)
	rm -rf site dist .cache test-output .pytest_cache .ruff_cache .hypothesis

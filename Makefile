# ArrayBench. `make run` serves the portal; `make test` runs every check and test.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run worker webhook-worker test lint test-tools stop benchmark changepoints fuzz plotly-bundle clean

install: $(STAMP)

# Rebuilt only when a requirements file changes.
$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

run: install
	$(BIN)/python manage.py serve

# More Celery workers against the same broker and database (on this or another machine).
worker: install
	$(BIN)/python -m celery -A portal worker --loglevel INFO

# A worker for the alert notifications (WEBHOOK_QUEUE): slow webhooks hold it, not the upload workers.
webhook-worker: install
	$(BIN)/python -m celery -A portal worker --loglevel INFO --queues $${WEBHOOK_QUEUE:-$${ARRAYBENCH_QUEUE:-arraybench}-webhooks} --hostname webhooks@%h

# Debian's Chromium for the browser tests and chart images (Playwright and kaleido drive it; no
# browser download), TeX Live for the LaTeX export test with Latin Modern fonts (the report PDF's text
# in outline fonts) and poppler-utils (pdftotext, pdftoppm) to read the report PDF back, each installed
# once with apt-get.
APT_INSTALL := DEBIAN_FRONTEND=noninteractive apt-get install -y -qq
test-tools:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && $(APT_INSTALL) chromium >/dev/null; }
	@command -v pdflatex >/dev/null 2>&1 || { apt-get update -qq && $(APT_INSTALL) --no-install-recommends texlive-latex-recommended >/dev/null; }
	@kpsewhich lmodern.sty >/dev/null 2>&1 || { apt-get update -qq && $(APT_INSTALL) --no-install-recommends lmodern >/dev/null; }
	@command -v pdftotext >/dev/null 2>&1 || { apt-get update -qq && $(APT_INSTALL) poppler-utils >/dev/null; }
	@command -v fio >/dev/null 2>&1 || { apt-get update -qq && $(APT_INSTALL) --no-install-recommends fio >/dev/null; }

# mypy reads its settings from pyproject.toml; its django-stubs plugin imports
# portal.settings_typecheck, which starts no server and needs no DATABASE_URL.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The tests run in TEST_PROCESSES processes (pytest-xdist), each with its own copy of the migrated test database;
# a test file's tests run in one process, so a module's fixtures are made once.
TEST_PROCESSES ?= 2
test: install test-tools lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python manage.py check
	$(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist loadfile

benchmark: install test-tools
	$(BIN)/python -m tests.benchmark

# The change-point detector's figures on simulated firmware histories (docs/numbers.md: Changes across firmware versions).
changepoints: install
	$(BIN)/python -m tests.changepoints

# Damaged copies of every format's sample files, thousands per format (FUZZ_EXAMPLES to change), and each
# file cut at every line end and inside every number (up to FUZZ_CUTS of each kind per file, 0 for all);
# thousands of random curves read by throughput_at and by the database's arraybench_figure_at.
fuzz: install
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests/ingest/test_fuzz.py tests/test_figure_at_property.py -p no:cacheprovider

# static/vendor/plotly/plotly.min.js, rebuilt from the npm registry's plotly.js (only when the plotly
# package or the charts' trace types change: the built file is committed, so `make run` needs no npm).
plotly-bundle:
	cd vendor/plotly && npm ci --ignore-scripts --no-audit --no-fund && node build.mjs

stop: install
	$(BIN)/python manage.py stopservices

clean:
	rm -rf $(VENV)

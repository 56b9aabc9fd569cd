# The two commands: `make run` serves the app, `make test` runs the whole suite.
# Both install what they need on a fresh machine (a virtualenv in .venv; for tests Debian's chromium and postgresql).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test soak screenshots install install-test chromium postgresql axe lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'

# Browser tests drive Debian's chromium (never `playwright install`).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "installing Debian's chromium"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi

# PostgreSQL tests start their own server from Debian's binaries (tests/postgres_fixture.py):
# install the package only, never start its service.
postgresql:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		echo "installing Debian's postgresql"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	fi

# axe-core checks the pages' accessibility in the browser tests (tests/browser/axe.py): npm installs
# the pinned version into a cache directory, never into the repository.
AXE_VERSION := 4.10.3
AXE_DIR ?= $(or $(CHRONICLE_AXE_DIR),$(HOME)/.cache/chronicle/axe-core)
axe:
	@if [ ! -f "$(AXE_DIR)/node_modules/axe-core/package.json" ] || \
		! grep -q '"version": "$(AXE_VERSION)"' "$(AXE_DIR)/node_modules/axe-core/package.json"; then \
		echo "installing axe-core $(AXE_VERSION) with npm into $(AXE_DIR)"; \
		if ! command -v npm >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; \
		fi; \
		mkdir -p "$(AXE_DIR)" && cd "$(AXE_DIR)" && \
		printf '{"name": "chronicle-axe", "private": true, "dependencies": {"axe-core": "$(AXE_VERSION)"}}\n' > package.json && \
		npm install --no-audit --no-fund --no-package-lock --loglevel=error; \
	fi

run: install
	$(BIN)/chronicle serve --host $(HOST) --port $(PORT)

test: install-test chromium postgresql axe
	$(BIN)/ruff check events server client tests bench
	$(BIN)/python -m pytest

# The reliability tests at full counts (50 kills, 1,000 cuts, 100,000 frames, 1,000 rounds, ...);
# they rewrite docs/reliability.md. `make test` runs the same tests with smaller counts.
soak: install-test chromium postgresql axe
	CHRONICLE_SOAK=1 $(BIN)/python -m pytest tests/reliability tests/browser/test_security.py

# Every page kind of every game at 1440 x 900 and 390 x 844 into docs/screenshots/, and the lobby and
# each play page in French and Russian into docs/screenshots/fr/ and ru/, and the later panels (chat and
# undo, consent, dispute, pass-and-play) in all three (make test writes the same shots into
# .pytest_cache/screenshots/ instead).
screenshots: install-test chromium axe
	CHRONICLE_SCREENSHOTS=1 $(BIN)/python -m pytest tests/browser/test_pages.py \
		tests/browser/test_offline.py::test_the_offline_page_fits_a_phone_passes_axe_and_speaks_the_readers_language \
		tests/browser/test_disputes.py::test_the_dispute_panel_and_a_branch_fit_a_phone_pass_axe_and_are_translated

bench: install-test chromium
	$(BIN)/python -m bench.fold

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info

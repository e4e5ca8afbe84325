# Reign of Kings DB. `make run` serves the site with a Celery worker; `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: install engine regions-engine realms-engine run test test-fast bench browser-deps load-core clean load-deps load fuzz

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP) engine regions-engine realms-engine

# The rules engine compiled to C with mypyc (scripts/build_engine.py, i.e. scripts/build_native.py r1; about a minute, then only when
# simulator/engines/r1 changes). Without it the same engine runs as plain Python, about 2.5 times slower.
# On CI (CI=true) a failed build fails: the compiled engine is never silently replaced by the plain one.
engine: $(STAMP)
	@if [ "$${CI:-}" = "true" ]; then $(PY) -m scripts.build_engine; \
	else $(PY) -m scripts.build_engine || echo "engine: not compiled; the rules engine runs as plain Python (slower)"; fi

# The Heroes and Regions engine (simulator/engines/regions) compiled the same way (scripts/build_regions.py), on
# its own: about three times faster than its plain-Python modules, which run unchanged without it.
regions-engine: $(STAMP)
	@$(PY) -m scripts.build_regions || echo "regions engine: not compiled; it runs as plain Python (slower)"

# The realms engine (simulator/engines/realms) compiled the same way (scripts/build_realms.py), on its own: about
# three times faster than its plain-Python modules, which run unchanged without it.
realms-engine: $(STAMP)
	@$(PY) -m scripts.build_realms || echo "realms engine: not compiled; it runs as plain Python (slower)"

load-core: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py loadcards cards/data/core.json cards/games/realms/data/realms.json cards/games/regions/data/regions.json
	$(PY) manage.py publishstarters

run: load-core
	./scripts/run.sh

# Debian's Chromium for the browser tests (Playwright drives /usr/bin/chromium; it never downloads one).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# Debian's wrk for the load test (scripts/load/run.py).
load-deps:
	@command -v wrk >/dev/null 2>&1 || { \
	  echo "Installing Debian's wrk for the load test"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq wrk >/dev/null; }

# Load test: gunicorn (production settings) on 127.0.0.1, wrk at 50 connections for 60 s per URL.
load: install load-deps
	$(PY) -m scripts.load.run

# Nightly-style fuzzing: hypothesis, >= 10,000 cases per target (scripts/fuzz/run.py).
fuzz: install
	$(PY) -m scripts.fuzz.run

# The fast tier runs in parallel (pytest-xdist, one worker per core); the tests that start processes, drive a
# browser, need a broker or play thousands of games run after it, one at a time.
FAST := not browser and not broker and not slow and not processes
test: install browser-deps
	$(PY) -m pytest -q -n auto -m "$(FAST)"
	$(PY) -m pytest -q -m "not ($(FAST))"

test-fast: install
	$(PY) -m pytest -q -n auto -m "$(FAST)"

bench: load-core
	$(PY) -m scripts.bench

clean:
	rm -rf var/ $(VENV) staticfiles/ build/
	rm -f simulator/engines/r1/*.so simulator/engines/r1/native.txt simulator/engines/common/*.so simulator/engines/common/native.txt

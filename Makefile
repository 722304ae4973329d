# Two commands: `make serve` and `make test`. Both install what they need: the exact
# versions of requirements.lock (with their hashes), then this project.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock
COMPILE := $(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes

.PHONY: serve test test-long bench lint clean screenshots lock

$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install -q --no-deps -e .
	$(BIN)/python -m pip check
	touch $(STAMP)

# Upgrade the lock files to the newest releases pyproject.toml allows: requirements.lock
# (the server and the dev extra: make, CI) and requirements-runtime.lock (the same
# versions, the server's alone: the Docker image).  Then `make test`.
lock: $(STAMP)
	$(COMPILE) --extra dev --upgrade -o $(LOCK)
	$(COMPILE) -c $(LOCK) -o requirements-runtime.lock

serve: $(STAMP)
	$(BIN)/kozyr serve

test: $(STAMP)
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

test-long: $(STAMP)
	KOZYR_LONG=1 $(BIN)/python -m pytest -q tests/engine $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/engine.py

# every family × phase × size × language of the table -> tests/browser/screenshots/ (not in CI)
screenshots: $(STAMP)
	KOZYR_SCREENSHOTS=1 $(BIN)/python -m pytest -q tests/browser/test_screenshots.py $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check engine app tests bench
	$(BIN)/mypy engine
	$(BIN)/mypy app

clean:
	rm -rf $(VENV) .pytest_cache kozyr.db

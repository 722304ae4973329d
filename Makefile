# Two commands: `make serve` and `make test`. Both install what they need.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve test test-long bench lint clean screenshots

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

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

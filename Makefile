# Set-up and entry points. `make demo` and `make test` work on a fresh machine.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup system-deps demo test lint eval clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.14.1 torchvision==0.29.1
	$(BIN)/pip install --quiet -e '.[yolo,dev]'
	touch $(STAMP)

# Debian packages the tests use (headless Chromium for the overlay page).
system-deps:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null)

# The real pipeline on the shipped synthetic clip (scripts/make_demo_clip.py): find the table,
# track the balls, find the strokes, rule on them; then the referee's calls from the frame log.
demo: setup
	$(BIN)/snooker-referee analyze samples/demo_clip.mp4 --out out/demo --referee
	$(BIN)/snooker-referee replay out/demo/frame_log.jsonl

# The tests in TEST_WORKERS processes (pytest-xdist), each handed whole files so that a file's
# module fixtures are made once; most tests use one core. TEST_WORKERS=0: all in this process.
TEST_WORKERS ?= 2

test: setup system-deps
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

lint: setup
	$(BIN)/ruff check src tests scripts

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache .hypothesis

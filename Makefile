# The two commands a new user runs: `make demo` and `make test`. Both create .venv from nothing.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test demo bench lint typecheck clean train-env browser-deps

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --editable '.[dev,vision,web]'
	touch $@

## train-env: a separate .venv-train with the CPU build of torch and ultralytics (training only)
TRAIN_PY := .venv-train/bin/python
train-env: $(TRAIN_PY)
$(TRAIN_PY):
	$(PYTHON) -m venv .venv-train
	$(TRAIN_PY) -m pip install --quiet torch==2.13.0
	# PyPI's torchvision and ultralytics would pull a CUDA torch: install them without dependencies.
	$(TRAIN_PY) -m pip install --quiet --no-deps torchvision==0.28.0 ultralytics==8.4.190 ultralytics-thop==2.2.3 \
		ultralytics-platform==0.1.99 nvidia-ml-py==13.615.71
	$(TRAIN_PY) -m pip install --quiet numpy==2.4.6 opencv-python-headless==5.0.0.93 matplotlib==3.11.2 pillow==13.0.0 \
		pyyaml==6.0.4 requests==2.34.2 psutil==7.2.2 polars==2.1.0 onnx==1.23.2 onnxslim==0.1.98 onnxruntime==1.31.1
	$(TRAIN_PY) -m pip install --quiet --no-deps --editable .

## test: create/update .venv, install, run the whole suite (doctests included)
# One worker per core (at most four): the suite is mostly single-threaded Python (whole games refereed).
TEST_WORKERS ?= auto
test: $(STAMP) browser-deps
	$(PY) -m pytest -q -n $(TEST_WORKERS) --maxprocesses 4

## browser-deps: Debian's chromium and its driver for the real-browser test (apt; skipped where impossible)
browser-deps:
	@command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo -n ); \
		( $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver ) \
		>/dev/null 2>&1 || echo "chromium could not be installed: the real-browser test will be skipped"; }

## demo: serve the referee's page on http://127.0.0.1:8000 (the built-in game, or CAMERA=0 / a video path / URL)
CAMERA ?= builtin
demo: $(STAMP)
	$(VENV)/bin/dice-referee serve --source $(CAMERA)

## bench: the rules engine, the dice reader (real and synthetic photos), then the camera pipeline on rendered games (Las Vegas's tables, Royale's 3-5 players, Just 4 Fun's board)
bench: $(STAMP)
	$(PY) -m pip install --quiet --no-deps lasvegas==0.2.0 tabulate tqdm
	$(PY) bench/bench_referee.py
	@if [ -f models/dice_detector/detector.onnx ] && [ -f models/die_reader/reader.onnx ]; then \
		$(PY) -m models.dice_detector.evaluate && $(PY) bench/bench_pipeline.py --config all --seeds 11 12 13 14 --rounds 1 && \
		for n in 3 4 5; do $(PY) bench/bench_pipeline.py --rules las-vegas-royale --players $$n --seeds 321 322 323 --rounds 1; done; \
		$(PY) bench/bench_pipeline.py --rules las-vegas-royale+main --players 3 --seeds 321 322 323 --rounds 1; \
	else echo "dice reader: no trained weights committed yet (see models/dice_detector/MODEL_CARD.md)"; fi
	$(PY) bench/bench_pipeline.py --reader truth
	$(PY) bench/bench_stones.py
	$(PY) bench/bench_board.py --players 2 3 4 --seeds 600 602
	$(PY) bench/bench_web.py --viewers 20 --seconds 20

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .venv-train build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis

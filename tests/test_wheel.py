"""The package installs like any Python tool: a wheel built from the repository referees outside the clone.

The wheel is built as pip builds it for ``pip install .`` or ``pipx install .`` (an isolated build, so
this needs the package registry, as ``make test`` does), unpacked as an installer would into a folder
far from the clone, and run there with the clone out of sight (``python -S``: no editable install).
"""

import fcntl
import json
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PHOTO = ROOT / "tests/vision/fixtures/real/train__00000_jpg.rf.03fc98fe08a13885a9a3.jpg"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    # pip builds in the source tree (build/): ``make test``'s workers (pytest-xdist) build one at a time.
    with open(ROOT / "pyproject.toml") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                               capture_output=True, text=True, timeout=600)  # fmt: skip
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = out.glob("dice_referee-*.whl")
    site = out / "site"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(site)
    return site, names


def run_installed(site, *args, cwd):
    # -S: no site module, so neither the clone's editable install nor its .pth files are seen; the
    # environment's third-party packages come after the unpacked wheel.
    env = {"PYTHONPATH": f"{site}:{sysconfig.get_paths()['purelib']}", "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-S", *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)  # fmt: skip


def test_wheel_carries_the_shipped_models_and_no_training_checkpoints(installed):
    _, names = installed
    for name in (
        "models/dice_detector/detector.onnx",
        "models/dice_detector/config.json",
        "web/templates/live.html",
        "models/die_reader/reader.onnx",
        "models/die_reader/config.json",
    ):
        assert name in names
    assert not [n for n in names if n.endswith(".pt")]


def test_detect_runs_from_the_installed_wheel(installed, tmp_path):
    site, _ = installed
    where = run_installed(site, "-c", "import vision.detect as d; print(d.MODELS)", cwd=tmp_path)
    assert where.stdout.strip() == str(site / "models"), where.stderr
    out = run_installed(site, "-m", "dice_referee", "detect", "--json", str(PHOTO), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    (line,) = out.stdout.splitlines()
    dice = json.loads(line)["dice"]
    assert dice and all(1 <= die["pips"] <= 6 for die in dice)


def test_the_page_renders_from_the_installed_wheel(installed, tmp_path):
    site, _ = installed
    script = (
        "from web.app import create_app\n"
        f"app = create_app({{'INSTANCE_PATH': {str(tmp_path / 'instance')!r}, 'AUTOSTART': False, 'TESTING': True}})\n"
        "page = app.test_client().get('/', follow_redirects=True)\n"
        "print(page.status_code, 'dice-referee' in page.get_data(as_text=True).lower())\n"
    )
    out = run_installed(site, "-c", script, cwd=tmp_path)
    assert out.stdout.split() == ["200", "True"], out.stderr[-2000:]

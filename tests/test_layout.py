"""The dependency direction of the packages (web -> vision -> referee) and a pure rules core."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "referee": {
        "numpy",
        "cv2",
        "torch",
        "flask",
        "ultralytics",
        "onnxruntime",
        "vision",
        "web",
        "models",
        "dice_referee",
    },
    "vision": {"web", "flask", "torch", "ultralytics", "dice_referee"},
    "models": {"web", "flask", "dice_referee"},
}


def test_referee_imports_only_the_standard_library_in_a_fresh_interpreter():
    # Modules already loaded at start-up (site hooks of the editable install) are not referee's doing.
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import referee, referee.lasvegas.simulate, referee.lasvegas.notation, referee.record\n"
        "import referee.lasvegas.jsonio, referee.lasvegas.narrate, referee.lasvegas.camera, referee.interpret\n"
        "import referee.royale\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "print(','.join(sorted(new - set(sys.stdlib_module_names) - {'referee'})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "", f"referee pulled in non-stdlib modules: {out.stdout.strip()}"


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_source_never_imports_against_the_dependency_direction(package):
    offenders = []
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in FORBIDDEN[package]]
    assert offenders == []


def test_referee_imports_are_all_stdlib_or_referee():
    stdlib = set(sys.stdlib_module_names)
    for path in (ROOT / "referee").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                tops = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                tops = [node.module.split(".")[0]]
            else:
                continue
            for top in tops:
                assert top in stdlib or top in {"referee", "__future__"}, f"{path.name} imports {top}"


def test_las_vegas_never_imports_the_games_built_on_it():
    """Royale is a rule set of the Las Vegas engine: the engine offers hooks and never imports Royale."""
    for path in (ROOT / "referee" / "lasvegas").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            assert not any(m.startswith("referee.royale") for m in modules), path.name

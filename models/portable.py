"""Paths in committed configs, written relative to the repository so that they hold on any clone."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root (the folder holding ``models/``)."""


def portable(value: Any, root: Path = ROOT) -> Any:
    """``value`` (a config: dicts, lists, strings) with every absolute path made relative to ``root``.

    A path inside the repository becomes e.g. ``datasets/die_reader``; one beside it (the shared
    datasets) ``../shared/datasets/real-d6-rune55``. Other strings are kept as they are.

    Example:
        >>> portable({"data": "/r/datasets/x.yaml", "real": "/shared/d", "n": 3, "s": "yolo11n.yaml"}, Path("/r"))
        {'data': 'datasets/x.yaml', 'real': '../shared/d', 'n': 3, 's': 'yolo11n.yaml'}
    """
    if isinstance(value, dict):
        return {key: portable(item, root) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [portable(item, root) for item in value]
    if isinstance(value, str) and value.startswith("/") and " " not in value:
        return os.path.relpath(value, root)
    return value

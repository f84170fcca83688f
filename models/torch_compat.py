"""Makes PyPI's torchvision importable beside the CPU build of torch used for training.

PyPI's torchvision wheel is built against CUDA torch; next to the CPU wheel its compiled operators
fail to load, and ``import torchvision`` then dies registering a fake kernel for the missing
``torchvision::nms``. ultralytics only needs NMS from those operators, so when (and only when) the
compiled op is absent we define ``torchvision::nms`` (and its quantized twin ``qnms``) in pure
torch before torchvision is imported. ``torchvision.ops.nms`` itself refuses to run without the
extension, so it is pointed at the same function. Import this module first in every training entry
point.
"""

from __future__ import annotations

import os
from pathlib import Path

import torch

# Never reach the network, never install anything, keep ultralytics' settings inside the project.
os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("YOLO_AUTOINSTALL", "false")
os.environ.setdefault("YOLO_CONFIG_DIR", str(Path(__file__).resolve().parents[1] / "runs" / "yolo-config"))


def _has_nms() -> bool:
    try:
        torch.ops.torchvision.nms  # noqa: B018 - the lookup itself is the test
    except (AttributeError, RuntimeError):
        return False
    return True


def _nms(boxes: torch.Tensor, scores: torch.Tensor, iou_threshold: float) -> torch.Tensor:
    """Greedy non-maximum suppression, the same contract as torchvision.ops.nms (indices, best first)."""
    order = scores.argsort(descending=True)
    x1, y1, x2, y2 = boxes.unbind(1)
    areas = (x2 - x1).clamp(min=0) * (y2 - y1).clamp(min=0)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        rest = order[1:]
        if rest.numel() == 0:
            break
        w = (torch.minimum(x2[i], x2[rest]) - torch.maximum(x1[i], x1[rest])).clamp(min=0)
        h = (torch.minimum(y2[i], y2[rest]) - torch.maximum(y1[i], y1[rest])).clamp(min=0)
        inter = w * h
        iou = inter / (areas[i] + areas[rest] - inter).clamp(min=1e-9)
        order = rest[iou <= iou_threshold]
    if not keep:
        return torch.empty(0, dtype=torch.long, device=boxes.device)
    return torch.stack(keep)


if not _has_nms():
    # torchvision registers fake kernels for both of these at import; qnms (quantized) is never used.
    _LIB = torch.library.Library("torchvision", "DEF")
    for _name in ("nms", "qnms"):
        _LIB.define(f"{_name}(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        _LIB.impl(_name, _nms, "CPU")


def _patch_torchvision_ops() -> None:
    """torchvision.ops.nms refuses to run when its extension failed to load: route it to the op above."""
    import torchvision.ops
    import torchvision.ops.boxes

    if not __import__("torchvision.extension").extension._has_ops():
        torchvision.ops.nms = torchvision.ops.boxes.nms = _nms


_patch_torchvision_ops()

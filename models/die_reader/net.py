"""The die reader network: a small CNN with heads for the pips (6), the palette colour (12) and the size."""

from __future__ import annotations

import torch
from torch import nn

from vision.colours import PALETTE_NAMES

CHANNELS = (16, 32, 64, 96)
"""Channels of the three blocks (at full, half and quarter resolution) and of the last convolution (v1-v7)."""


def _block(cin: int, cout: int, pool: bool) -> list[nn.Module]:
    layers: list[nn.Module] = [
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    ]  # fmt: skip
    if pool:
        layers.append(nn.MaxPool2d(2))
    return layers


class DieReaderNet(nn.Module):
    """A BGR crop (scaled to 0..1) -> (pip logits (N, 6), colour logits (N, 12)[, size (N,)]).

    With ``size_head`` a third output tells the die's size (square root of its silhouette's area) as a
    fraction of the larger side of the box the crop was cut around: a die turned 45 degrees fills its
    box less than one lying square, so box sides alone cannot tell a Biggy from a turned die.

    With ``standardise`` the network also sees each crop standardised (zero mean, unit spread): dark
    dice in dim photos show their pips, while the raw channels keep the absolute colour. Doing it
    inside the network puts the one implementation in the exported ONNX graph.
    """

    def __init__(self, colours: int = len(PALETTE_NAMES), standardise: bool = False, size_head: bool = False,
                 channels: tuple[int, int, int, int] = CHANNELS) -> None:  # fmt: skip
        super().__init__()
        self.standardise = standardise
        first, second, third, last = channels
        self.features = nn.Sequential(
            *_block(6 if standardise else 3, first, True), *_block(first, second, True), *_block(second, third, True),
            nn.Conv2d(third, last, 3, padding=1, bias=False), nn.BatchNorm2d(last), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
        )  # fmt: skip
        self.pips = nn.Linear(last, 6)
        self.colour = nn.Linear(last, colours)
        self.size = nn.Linear(last, 1) if size_head else None  # the logarithm of the size fraction

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Logits of the pips and colour heads, and the size fraction (positive) with ``size_head``."""
        if self.standardise:
            mean = x.mean(dim=(1, 2, 3), keepdim=True)
            spread = (x - mean).pow(2).mean(dim=(1, 2, 3), keepdim=True).sqrt()
            x = torch.cat([x, (x - mean) / (spread + 0.02)], dim=1)
        features = self.features(x)
        if self.size is None:
            return self.pips(features), self.colour(features)
        return self.pips(features), self.colour(features), self.size(features).squeeze(1).exp()

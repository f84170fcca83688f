"""A pinhole camera looking at the table plane, in table millimetres (z up, the table at z = 0)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Camera", "look_at"]


@dataclass(frozen=True)
class Camera:
    """Intrinsics and pose: ``image = K [R | -R C] X`` for table points ``X`` in millimetres."""

    width: int
    """Image width in pixels."""
    height: int
    """Image height in pixels."""
    focal_px: float
    """Focal length in pixels (square pixels, principal point at the image centre)."""
    rotation: np.ndarray
    """3x3 rotation from table axes to camera axes (x right, y down, z forward)."""
    centre_mm: np.ndarray
    """Camera position in table millimetres."""

    @property
    def intrinsics(self) -> np.ndarray:
        """The 3x3 camera matrix K."""
        return np.array([[self.focal_px, 0, self.width / 2], [0, self.focal_px, self.height / 2], [0, 0, 1.0]])

    def to_camera(self, points_mm: np.ndarray) -> np.ndarray:
        """Table points (N, 3) in camera coordinates (N, 3)."""
        return (np.asarray(points_mm, dtype=float) - self.centre_mm) @ self.rotation.T

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Table points (N, 3) to pixel coordinates (N, 2)."""
        cam = self.to_camera(points_mm)
        z = np.maximum(cam[:, 2:3], 1e-6)
        return cam[:, :2] / z * self.focal_px + np.array([self.width / 2, self.height / 2])

    def table_homography(self) -> np.ndarray:
        """The 3x3 homography from table-plane millimetres (x, y, 1) to pixels."""
        r = self.rotation
        t = -r @ self.centre_mm
        return self.intrinsics @ np.column_stack([r[:, 0], r[:, 1], t])


def look_at(
    width: int, height: int, fov_deg: float, target_mm: np.ndarray, tilt_deg: float, azimuth_deg: float,
    distance_mm: float, roll_deg: float = 0.0,
) -> Camera:  # fmt: skip
    """A camera ``distance_mm`` from ``target_mm``, tilted ``tilt_deg`` from vertical.

    Args:
        width: image width in pixels.
        height: image height in pixels.
        fov_deg: horizontal field of view.
        target_mm: the table point at the image centre.
        tilt_deg: angle between the optical axis and the vertical (0 = straight down).
        azimuth_deg: direction, on the table, from which the camera looks (0 = from -y, the players' side).
        distance_mm: distance from the camera to the target.
        roll_deg: rotation of the image about the optical axis.
    """
    tilt, azimuth, roll = np.radians([tilt_deg, azimuth_deg, roll_deg])
    # The camera sits on the side given by the azimuth, up and back from the target.
    back = np.array([np.sin(azimuth), -np.cos(azimuth), 0.0])
    centre = np.asarray(target_mm, dtype=float) + distance_mm * (
        np.sin(tilt) * back + np.cos(tilt) * np.array([0, 0, 1.0])
    )
    forward = np.asarray(target_mm, dtype=float) - centre
    forward /= np.linalg.norm(forward)
    # "Right" stays horizontal, perpendicular to the viewing direction on the table, even straight down.
    right = np.array([np.cos(azimuth), np.sin(azimuth), 0.0])
    down = np.cross(forward, right)
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    c, s = np.cos(roll), np.sin(roll)
    right, down = c * right + s * down, -s * right + c * down
    rotation = np.stack([right, down, forward])
    focal = width / 2 / np.tan(np.radians(fov_deg) / 2)
    return Camera(width, height, float(focal), rotation, centre)

"""Suite-wide settings: hypothesis runs derandomized so every run checks the same examples."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "dice-referee",
    derandomize=True,
    deadline=None,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("dice-referee")

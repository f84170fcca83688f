"""Camera to table: capture, table calibration, dice detection and reading, zones, tracking.

Depends on ``referee`` for its domain types and validators, never on ``web`` (see README, "Layout").
"""

"""The live referee page (Flask): video, payouts, alerts, history.

Composes ``vision`` and ``referee``; nothing imports ``web``.
"""

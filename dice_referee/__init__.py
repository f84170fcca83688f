"""dice-referee: point a camera at a real dice-game table and let the software referee the game.

The packages are ``referee`` (pure rules engine), ``vision`` (camera to table snapshot), ``models``
(trained detectors and their recipes) and ``web`` (the live page). This package holds only the
command line that composes them.
"""

__version__ = "0.1.0"

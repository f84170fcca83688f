"""``python -m dice_referee`` runs the command line."""

from dice_referee.cli import main

raise SystemExit(main())

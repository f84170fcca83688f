"""Procedural renders of Las Vegas tables with exact labels, for training and for the built-in game."""

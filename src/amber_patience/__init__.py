"""Amber Patience: patience games from the Amber texts, with a solver behind every game."""

__version__ = "0.1.0"

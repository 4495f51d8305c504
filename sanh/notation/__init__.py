"""Notation: JSON forms of actions, views and settlements; hand histories."""

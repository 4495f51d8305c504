"""Tournaments: the scheduled multi-table Hold'em tournament (mtt.py) and its table balancing
(balance.py)."""

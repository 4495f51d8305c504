"""Analysis: exact odds (house edge / RTP) and Monte Carlo simulation of the banked games."""

"""Hints, bots, the par score of a deal and benchmarks, on a fast simulator of the rules."""

"""Sizing: drives needed for a target, read from a system's measured drive-count sweeps."""

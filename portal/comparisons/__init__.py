"""Comparisons: systems against each other, and one system against one parameter."""

"""pages views."""

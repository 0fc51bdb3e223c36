"""exports views."""

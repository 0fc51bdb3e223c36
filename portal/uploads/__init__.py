"""uploads views."""

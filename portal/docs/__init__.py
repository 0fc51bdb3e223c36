"""The project's documentation (``README.md`` and ``docs/*.md``) served as pages at ``/docs/``."""

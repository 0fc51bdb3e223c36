"""The REST API under ``/api/v1/``: tokens, uploads through the ingestion pipeline, reads, comparisons, tables."""

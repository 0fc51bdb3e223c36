"""The dict form of the result types (``ResultSet.take_dict``, checked by ``ingest.contract``), typed: what
:func:`ingest.read` and the other parse functions hand over, and what the portal stores from it.

One ``TypedDict`` per result type, with the same fields (``tests/ingest/test_result_dicts.py`` holds them to
the dataclasses in ``ingest.result``), so mypy checks every key the portal reads of a parse. Every field is
present, as ``take_dict`` writes them; values follow the result types' units (MB/s of 10^6 bytes, ms, %).
An array profile's arrays, volumes and drives stay plain dicts: the portal stores the profile as it is.
"""

from typing import Any, TypedDict


class TransferSizeDict(TypedDict):
    bytes: int
    pct: float


class WorkloadDict(TypedDict):
    name: str | None
    read_pct: float | None
    random_pct: float | None
    transfer_sizes: list[TransferSizeDict]
    alignment_bytes: int | None
    streams: int | None


class PointDict(TypedDict):
    load: dict[str, Any]
    iops: float | None
    read_iops: float | None
    write_iops: float | None
    mbps: float | None
    read_mbps: float | None
    write_mbps: float | None
    avg_response_ms: float | None
    avg_read_response_ms: float | None
    avg_write_response_ms: float | None
    max_response_ms: float | None
    cpu_pct: float | None
    metrics: dict[str, Any]


class RunDict(TypedDict):
    name: str
    description: str
    started_at: str | None
    workload: WorkloadDict
    verdict: str | None
    phase: str
    params: dict[str, Any]
    points: list[PointDict]


class SystemDict(TypedDict):
    name: str | None
    vendor: str | None
    model: str | None
    controllers: int | None
    firmware: str | None
    cache_mb_per_controller: float | None
    drive_count: int | None
    arrays: list[dict[str, Any]]
    volumes: list[dict[str, Any]]
    drives: list[dict[str, Any]]
    details: dict[str, Any]


class ResultSetDict(TypedDict):
    format: str
    tool: dict[str, Any]  # {"name": ..., "version": ...}
    source: dict[str, Any]  # {"name": ..., "sha256": ...}
    system: SystemDict | None
    runs: list[RunDict]
    warnings: list[str]

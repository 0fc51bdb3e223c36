"""fio's logs, which are not results: the per-I/O (or averaged) latency, bandwidth and IOPS logs of
``write_lat_log`` / ``write_bw_log`` / ``write_iops_log`` and the latency histogram logs of
``write_hist_log``. They are refused with a sentence saying which of fio's outputs to upload."""

from __future__ import annotations

import re

from ...source import decode_head

# A log line: time (ms), value, direction, block size, then fio 3's offset and priority when logged.
LOG_LINE = re.compile(r"\d+, \d+, [012], \d+(?:, \d+){0,2}")
# A histogram line: time (ms), direction, block size, then a count per latency bin (fio 2.17 to 3.x
# write 1,216 bins; fewer with log_hist_coarseness).
HISTOGRAM_LINE = re.compile(r"\d+, [012], \d+(?:, \d+){16,}")
LINES_CHECKED = 3
UPLOAD_INSTEAD = (
    "upload the output fio printed for the same run with --output-format=json (or json+), the file given to --output"
)
# The log fio names by its suffix (``<prefix>_clat.1.log``), and what it records.
LOG_KINDS = {
    "lat": "latency log (write_lat_log: completion plus submission latency of each I/O, or averaged)",
    "clat": "completion latency log (write_lat_log)",
    "slat": "submission latency log (write_lat_log)",
    "bw": "bandwidth log (write_bw_log)",
    "iops": "IOPS log (write_iops_log)",
}
LOG_KIND = re.compile(r"[_-](clat|slat|lat|bw|iops)(?:\.\d+)?\.log$")


def refuse(head: bytes, name: str) -> str | None:
    """A sentence naming a fio log and the output to upload instead; ``None`` for any other file."""
    text = decode_head(head)
    # The last line of the head may be cut: only whole lines are checked.
    lines = [line.strip() for line in text.split("\n")[:-1] if line.strip()][:LINES_CHECKED]
    if not lines:
        return None
    if all(HISTOGRAM_LINE.fullmatch(line) for line in lines):
        bins = lines[0].count(",") - 2
        return (
            f"{name} is a fio latency histogram log (write_hist_log: {bins} latency bins counted every "
            f"log_hist_msec), not the results of a run; {UPLOAD_INSTEAD}"
        )
    if all(LOG_LINE.fullmatch(line) for line in lines):
        kind = LOG_KIND.search(name)
        what = LOG_KINDS[kind.group(1)] if kind else "log (write_lat_log, write_bw_log or write_iops_log)"
        return f"{name} is a fio {what}: one line per I/O or logging interval, not a run's results; {UPLOAD_INSTEAD}"
    return None

"""The arithmetic of the white papers, as pure functions: plain values in, dataclasses out.

No Django and no database here; selectors adapt rows to these inputs, and pages, exports and
commands all print what these functions compute.

- ``curves``: response-time curves and throughput at a response-time threshold.
- ``compare``: percentage improvement, ranges over matched configurations, replicates and
  Welch's t-test (``stats`` holds Student's t distribution).
- ``pairing``: which configurations and workloads of two systems are compared with each other.
- ``stroke``: disk-stroke multipliers and the estimator.
- ``sizing``: per-drive figures against the papers' guidelines (a tool's own sizing lives with the tool,
  in ``portal/tools/``).
- ``drive_scaling``: drives needed for a target from a drive-count sweep, the back-end formula.
- ``grid_prediction``: untested combinations of two load parameters from the sweeps through a focal point.
- ``tables``: the table model and the white-paper layouts.
"""

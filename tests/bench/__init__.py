"""The parts of ``make benchmark`` (``tests/benchmark.py``): files, servers, store, workers, pages."""

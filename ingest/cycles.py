"""Reading a file with Python's cycle collector paused."""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycle_collection_paused() -> Iterator[None]:
    """Pauses Python's cycle collector while a file is read and its result checked, or result sets
    are stored: both build a large tree of results (or rows) with no reference cycles, which the
    collector would otherwise traverse again and again as it grows. Reference counting still frees
    everything at once; the collector's state is restored (a pause inside a pause leaves it paused).

    When the collector is turned back on, what was allocated meanwhile is handed to its oldest
    generation (``gc.freeze`` then ``gc.unfreeze``, which move objects without examining them):
    otherwise the first allocation afterwards makes it traverse the whole new tree at once (about
    5 % of reading a large file), to find no cycle. Skipped when the process froze objects itself."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()

"""Results: runs and their points, stored in bulk and read one run or one system at a time."""

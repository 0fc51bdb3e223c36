"""Published catalogues of results (MLPerf Storage's and IO500's submissions), imported from local clones of their
repositories as published systems that cite where each figure was read."""

"""Many deals at once: the survey's and autoplay's files of results (SQLite, resumable, shared
by several workers), autoplay's games, and the statistics both report (Wilson intervals,
percentiles)."""

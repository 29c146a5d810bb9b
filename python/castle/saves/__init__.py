"""The player's files: the saved game and the statistics (:class:`castle.SaveStore`, atomic,
JSON in and JSON out), and the lock that keeps one player on a data directory at a time."""

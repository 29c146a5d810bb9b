-- A survey file as castle wrote it before the CPU limit (schema version 1): what an old
-- file holds, kept as it was, for the tests that open one with today's castle.
CREATE TABLE castle_survey (
    schema_version INTEGER NOT NULL, created TEXT NOT NULL, castle_version TEXT NOT NULL
);
CREATE TABLE verdicts (
    variant TEXT NOT NULL,
    deal INTEGER NOT NULL CHECK (deal >= 1),
    status TEXT NOT NULL CHECK (status IN ('solved', 'unsolvable', 'unknown')),
    states INTEGER NOT NULL,
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    limit_hit TEXT,
    max_states INTEGER,
    max_seconds REAL,
    max_memory INTEGER,
    solved_at TEXT NOT NULL,
    PRIMARY KEY (variant, deal)
) WITHOUT ROWID;
CREATE TABLE claim_owners (
    owner TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL,
    started_at REAL NOT NULL, seen_at REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE claims (
    variant TEXT NOT NULL, deal INTEGER NOT NULL, owner TEXT NOT NULL,
    claimed_at REAL NOT NULL, finished_at REAL,
    max_states INTEGER, max_seconds REAL, max_memory INTEGER,
    PRIMARY KEY (variant, deal)
) WITHOUT ROWID;
INSERT INTO castle_survey VALUES (1, '2026-11-01T00:00:00Z', '0.1.0');
INSERT INTO verdicts VALUES
    ('beleaguered-castle', 954, 'unknown', 1000, 0.5, 0, 'states', 1000, NULL, 1073741824,
     '2026-11-01T00:00:00Z'),
    ('beleaguered-castle', 1, 'unsolvable', 1717, 0.01, 0, NULL, 1000, NULL, 1073741824,
     '2026-11-01T00:00:00Z');

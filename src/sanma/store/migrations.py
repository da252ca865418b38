"""The database schema, as numbered migrations, for SQLite and for PostgreSQL.

``MIGRATIONS[n - 1]`` takes a SQLite database from version ``n - 1`` to ``n``, ``PG_MIGRATIONS[n - 1]``
a PostgreSQL one; :func:`sanma.store.open_db` applies the missing ones in order, each in its own
transaction, and records each in ``schema_version``. A change to the schema is a new migration
appended to both (never an edit of an applied one), with a test that opens a database of the
previous version.

Kept in Python rather than a ``.sql`` file so an installed wheel always carries it.

Tables (version 1):

``players``           one row per player name (Tenhou names; Mahjong Soul records are
                      anonymised to A/B/C; sanma's own games name their seats or bots).
``games``             one row per game: ``kind`` (``record`` from a file, ``engine`` played by sanma,
                      ``simulation`` one game of a run whose events were kept), the rule set
                      (name, and the full rules as JSON when sanma played it), the seed, the Tenhou
                      log id (``log_id``, unique: the same game read from two formats is one game),
                      when it was played (``played_at``, ISO 8601, when known), hands, complete.
``records``           one row per imported file, unique by SHA-256 ``checksum`` (importing a file again
                      stores nothing), with its path, format, bytes and game.
``results``           one row per game and seat: player, final score, placement, points, chips, and the
                      seat's counts (hands, wins, deal-ins, riichi, calls, draws, win and deal-in points,
                      kita) that statistics sum.
``kyoku``             one row per hand: round, dealer, honba, sticks, start and end scores, outcome and
                      the range of its events.
``events``            the game's mjai events in order, one JSON object per row (``game_id``, ``idx``).
``simulations``       one row per ``sanma simulate`` run: rules name and full rules JSON, seed, bots,
                      games, hands, seconds and the summary JSON.
``simulation_results`` one row per game and ``--bots`` entry of a run (seat, placement, score, points,
                      wins, deal-ins, riichi, calls, hands); ``game_id`` when the game's events were kept.

Tables of the score keeper (``sanma table``; version 2, :mod:`sanma.store.keeper`):

``keeper_sessions``   one row per kept session: its series name, rules (name and full JSON), people in
                      seat-draw order, entry mode (``hands`` or ``final`` scores only) and ``version``
                      (the number of changes: what an expected-version check compares).
``keeper_changes``    the session's append-only log (triggers refuse UPDATE and DELETE): ``seq``,
                      ``kind`` (add / fix / delete / undo), ``target``, the entry as JSON, who, why,
                      when, and the client id that makes a repeated send a no-op.
"""

from __future__ import annotations

V1 = """
CREATE TABLE players (
    id    INTEGER PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE
);

CREATE TABLE simulations (
    id          INTEGER PRIMARY KEY,
    rules_name  TEXT NOT NULL,
    rules_json  TEXT NOT NULL,
    seed        TEXT NOT NULL,
    bots        TEXT NOT NULL,              -- JSON list, one bot per entry
    games       INTEGER NOT NULL CHECK (games >= 0),
    kyoku       INTEGER NOT NULL CHECK (kyoku >= 0),
    seconds     REAL,
    summary     TEXT,                       -- JSON (sanma simulate --json), when given
    created_at  TEXT NOT NULL
);

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    kind             TEXT NOT NULL CHECK (kind IN ('record', 'engine', 'simulation')),
    log_id           TEXT UNIQUE,
    rules_name       TEXT NOT NULL,
    rules_json       TEXT,
    seed             TEXT,
    simulation_id    INTEGER REFERENCES simulations(id) ON DELETE CASCADE,
    simulation_index INTEGER,
    played_at        TEXT,
    created_at       TEXT NOT NULL,
    hands            INTEGER NOT NULL CHECK (hands >= 0),
    complete         INTEGER NOT NULL CHECK (complete IN (0, 1)),
    UNIQUE (simulation_id, simulation_index)
);
CREATE INDEX games_order ON games(played_at, id);

CREATE TABLE records (
    id           INTEGER PRIMARY KEY,
    checksum     TEXT NOT NULL UNIQUE CHECK (length(checksum) = 64),
    source_path  TEXT NOT NULL,
    format       TEXT NOT NULL,
    rule_name    TEXT NOT NULL,
    size         INTEGER NOT NULL CHECK (size >= 0),
    content      BLOB,
    game_id      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    imported_at  TEXT NOT NULL
);
CREATE INDEX records_game ON records(game_id);

CREATE TABLE results (
    game_id         INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 2),
    player_id       INTEGER NOT NULL REFERENCES players(id),
    recorded_name   TEXT NOT NULL,
    score           INTEGER,
    placement       INTEGER CHECK (placement BETWEEN 1 AND 3),
    points          REAL,
    chips           INTEGER,
    hands           INTEGER NOT NULL CHECK (hands >= 0),
    wins            INTEGER NOT NULL CHECK (wins >= 0),
    deal_ins        INTEGER NOT NULL CHECK (deal_ins >= 0),
    riichi          INTEGER NOT NULL CHECK (riichi >= 0),
    calls           INTEGER NOT NULL CHECK (calls >= 0),
    draws           INTEGER NOT NULL CHECK (draws >= 0),
    win_points      INTEGER NOT NULL CHECK (win_points >= 0),
    deal_in_points  INTEGER NOT NULL CHECK (deal_in_points >= 0),
    kita            INTEGER NOT NULL CHECK (kita >= 0),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_player ON results(player_id);

CREATE TABLE kyoku (
    game_id       INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx           INTEGER NOT NULL CHECK (idx >= 0),
    round_wind    TEXT NOT NULL CHECK (round_wind IN ('E', 'S', 'W', 'N')),
    dealer        INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 2),
    honba         INTEGER NOT NULL,
    kyotaku       INTEGER NOT NULL,
    start_scores  TEXT NOT NULL,            -- JSON list
    end_scores    TEXT,                     -- JSON list
    deltas        TEXT,                     -- JSON list
    outcome       TEXT CHECK (outcome IN ('hora', 'ryukyoku')),
    first_event   INTEGER NOT NULL,
    last_event    INTEGER NOT NULL,
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE events (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL CHECK (idx >= 0),
    kyoku_idx  INTEGER,
    type       TEXT NOT NULL,
    actor      INTEGER,
    data       TEXT NOT NULL,               -- the mjai event, JSON
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

CREATE TABLE simulation_results (
    simulation_id  INTEGER NOT NULL REFERENCES simulations(id) ON DELETE CASCADE,
    game_index     INTEGER NOT NULL CHECK (game_index >= 0),
    entry          INTEGER NOT NULL CHECK (entry BETWEEN 0 AND 2),
    bot            TEXT NOT NULL,
    seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 2),
    placement      INTEGER NOT NULL CHECK (placement BETWEEN 1 AND 3),
    score          INTEGER NOT NULL,
    points         REAL NOT NULL,
    wins           INTEGER NOT NULL CHECK (wins >= 0),
    deal_ins       INTEGER NOT NULL CHECK (deal_ins >= 0),
    riichi         INTEGER NOT NULL CHECK (riichi >= 0),
    calls          INTEGER NOT NULL CHECK (calls >= 0),
    hands          INTEGER NOT NULL CHECK (hands >= 0),
    game_id        INTEGER REFERENCES games(id) ON DELETE SET NULL,
    PRIMARY KEY (simulation_id, game_index, entry)
);
"""

V2_KEEPER = """
CREATE TABLE keeper_sessions (
    id          INTEGER PRIMARY KEY,
    series      TEXT,
    rules_name  TEXT NOT NULL,
    rules_json  TEXT NOT NULL,
    people      TEXT NOT NULL,              -- JSON list, seat-draw order (E, S, W[, N])
    mode        TEXT NOT NULL CHECK (mode IN ('hands', 'final')),
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    created_at  TEXT NOT NULL
);
CREATE INDEX keeper_sessions_series ON keeper_sessions(series);

CREATE TABLE keeper_changes (
    session_id  INTEGER NOT NULL REFERENCES keeper_sessions(id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    kind        TEXT NOT NULL CHECK (kind IN ('add', 'fix', 'delete', 'undo')),
    target      INTEGER,
    entry       TEXT,                       -- JSON object (add, fix)
    author      TEXT NOT NULL,
    reason      TEXT NOT NULL,
    client_id   TEXT,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (session_id, seq),
    UNIQUE (session_id, client_id)
) WITHOUT ROWID;

CREATE TRIGGER keeper_changes_no_update BEFORE UPDATE ON keeper_changes
BEGIN SELECT RAISE(ABORT, 'keeper_changes is append-only'); END;
CREATE TRIGGER keeper_changes_no_delete BEFORE DELETE ON keeper_changes
BEGIN SELECT RAISE(ABORT, 'keeper_changes is append-only'); END;
"""

# Version 3: the browser table's served games (``sanma serve``). A table is its settings, the
# actions applied to it in order and the events each caused, written in one transaction per action;
# a restarted server rebuilds every unfinished table from its seed and the actions. A finished
# table's game is also a ``games`` row (``game_id``) that ``sanma replay`` / ``sanma stats`` read.
#   ``web_tables``   id (unguessable), rules (name and full JSON), seats (JSON: kind, name and the
#                    SHA-256 of each seat's token, never the token), seed and its SHA-256, clock,
#                    per-seat toggles and time banks (JSON), created_at, finished, game_id.
#   ``web_actions``  (table_id, idx): the seat, the action (mjai JSON and its index among the seat's
#                    legal actions), how it was chosen (seat, bot, auto, clock) and when.
#   ``web_events``   (table_id, idx): the engine's mjai events, in order.
V_WEB = """
CREATE TABLE web_tables (
    id          TEXT PRIMARY KEY,
    rules_name  TEXT NOT NULL,
    rules_json  TEXT NOT NULL,
    seats       TEXT NOT NULL,
    seed        TEXT NOT NULL,
    seed_hash   TEXT NOT NULL CHECK (length(seed_hash) = 64),
    clock       TEXT NOT NULL,
    toggles     TEXT NOT NULL,
    banks       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    finished    INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
    game_id     INTEGER REFERENCES games(id) ON DELETE SET NULL
);
CREATE INDEX web_tables_order ON web_tables(finished, created_at);

CREATE TABLE web_actions (
    table_id  TEXT NOT NULL REFERENCES web_tables(id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL CHECK (idx >= 0),
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 2),
    legal_idx INTEGER NOT NULL CHECK (legal_idx >= 0),
    action    TEXT NOT NULL,
    how       TEXT NOT NULL CHECK (how IN ('seat', 'bot', 'auto', 'clock')),
    at        TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;

CREATE TABLE web_events (
    table_id  TEXT NOT NULL REFERENCES web_tables(id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL CHECK (idx >= 0),
    data      TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
"""

# Version 4: the score keeper's derived-state cache (docs/KEEPER.md "Storage"). Never a source of
# truth: one row per session holding the computed state after the first ``prefix_len`` entries
# in force (the games finished by then), valid only while the SHA-256 of those entries is still
# ``prefix_hash``; a write or read then replays only the entries after it (the game in play).
V4_KEEPER_CACHE = """
CREATE TABLE keeper_cache (
    session_id   INTEGER PRIMARY KEY REFERENCES keeper_sessions(id),
    version      INTEGER NOT NULL CHECK (version >= 0),
    prefix_len   INTEGER NOT NULL CHECK (prefix_len >= 0),
    prefix_hash  TEXT NOT NULL CHECK (length(prefix_hash) = 64),
    snapshot     TEXT NOT NULL                -- JSON (sanma.keeper.keeper.Session.snapshot)
);
"""

# Version 5: the served tables' wall key (issue 11, issue 14 item 8): a table with an external
# mjai seat keys its walls with a secret from ``secrets`` (``Game(wall_key=...)``, 32 bytes as
# hex), so a bot that knows or chose the seed still cannot rebuild a wall; published with the seed after the
# game (``sanma verify`` re-deals with both). NULL: the walls follow from the seed alone.
V_WEB_WALL_KEY = """
ALTER TABLE web_tables ADD COLUMN wall_key TEXT CHECK (wall_key IS NULL OR length(wall_key) = 64);
"""

# Version 6: links with a right (issue 23 "Access", :mod:`sanma.store.access`): the SHA-256 of each
# link's token (never the token), what it opens (``kind``: keeper_session, tournament; ``target``:
# its id as text) and its ``role`` (organiser, read, and a kind's own, in ``scope``).
V_ACCESS = """
CREATE TABLE access_links (
    token_sha256  TEXT PRIMARY KEY CHECK (length(token_sha256) = 64),
    kind          TEXT NOT NULL,
    target        TEXT NOT NULL,
    role          TEXT NOT NULL,
    scope         TEXT,
    created_at    TEXT NOT NULL
);
CREATE INDEX access_links_target ON access_links(kind, target);
"""

# Version 7: several server processes on one database (issue 22). ``runner``: the key of the
# process that runs the table (its advisory lock is held while it lives; NULL: nobody yet — always
# NULL on SQLite, where one process serves the file); ``schedule``: the table scheduler's state
# (``web/scheduler.Schedule`` as JSON: every prompt, window and pause with its time in milliseconds
# since the epoch) as of the last stored change, so the next runner keeps every deadline exactly;
# ``status``: what the lobby shows of a running table (scores, round, hands), kept by its runner, so
# every process lists the same. ``web_presence``: how many connections each process holds per seat.
V_WEB_SHARED = """
ALTER TABLE web_tables ADD COLUMN runner INTEGER;
ALTER TABLE web_tables ADD COLUMN schedule TEXT;
ALTER TABLE web_tables ADD COLUMN status TEXT;

CREATE TABLE web_presence (
    table_id  TEXT NOT NULL REFERENCES web_tables(id) ON DELETE CASCADE,
    node      INTEGER NOT NULL,
    counts    TEXT NOT NULL,
    PRIMARY KEY (table_id, node)
) WITHOUT ROWID;
"""

# Version 8: tournaments (``sanma tournament``, issue 19 item 4; :mod:`sanma.store.tournaments`).
#   ``tournaments``        its rules (name and full JSON), players (JSON list), rounds, seating (swiss,
#                          random or fixed), the published seed, the plan (JSON: the random draw of every
#                          round, or the referee's seating CSV rows), settings (JSON: the round clock).
#   ``tournament_rounds``  one row per seated round: its byes (JSON) and when its clock started.
#   ``tournament_tables``  one row per table of a seated round: the keeper session that keeps it (its
#                          people are the table's seats, East first).
# A kept session gets ``games_limit``: a tournament table keeps one game, and an entry that would
# start another is refused.
V8_TOURNAMENTS = """
CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    rules_name  TEXT NOT NULL,
    rules_json  TEXT NOT NULL,
    players     TEXT NOT NULL,
    rounds      INTEGER NOT NULL CHECK (rounds >= 1),
    seating     TEXT NOT NULL CHECK (seating IN ('swiss', 'random', 'fixed')),
    seed        INTEGER NOT NULL,
    plan        TEXT,
    settings    TEXT NOT NULL,
    created_at  TEXT NOT NULL
);

CREATE TABLE tournament_rounds (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
    round          INTEGER NOT NULL CHECK (round >= 1),
    byes           TEXT NOT NULL,
    started_at     TEXT,
    created_at     TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

CREATE TABLE tournament_tables (
    tournament_id  INTEGER NOT NULL,
    round          INTEGER NOT NULL,
    table_no       INTEGER NOT NULL CHECK (table_no >= 1),
    session_id     INTEGER NOT NULL UNIQUE REFERENCES keeper_sessions(id),
    PRIMARY KEY (tournament_id, round, table_no),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds(tournament_id, round)
);

ALTER TABLE keeper_sessions ADD COLUMN games_limit INTEGER CHECK (games_limit IS NULL OR games_limit >= 1);
"""

#: The lobby's list, newest first (``store.tables.listing``), read from an index, not sorted.
V9_WEB_NEWEST = """
CREATE INDEX web_tables_newest ON web_tables(created_at DESC, id);
"""

#: Version 10: how many other server processes follow a table (``store.tables.follow``): its runner
#: notifies its moves only while some do — a notification costs PostgreSQL a signal to every listening
#: session and the one lock on the notification queue, at every move (docs/PERFORMANCE.md, issue 22).
V10_WEB_FOLLOWERS = """
ALTER TABLE web_tables ADD COLUMN followers INTEGER NOT NULL DEFAULT 0 CHECK (followers >= 0);
"""

#: Migration ``n`` (1-based) is ``MIGRATIONS[n - 1]``.
MIGRATIONS: tuple[str, ...] = (V1, V2_KEEPER, V_WEB, V4_KEEPER_CACHE, V_WEB_WALL_KEY, V_ACCESS, V_WEB_SHARED,
                               V8_TOURNAMENTS, V9_WEB_NEWEST, V10_WEB_FOLLOWERS)

SCHEMA_VERSION = len(MIGRATIONS)

# --------------------------------------------------------------------------------------------
# PostgreSQL: the same tables, columns (in the same order), keys, checks and indexes in its types.
# An id is BIGINT GENERATED BY DEFAULT AS IDENTITY (SQLite's INTEGER PRIMARY KEY: given ids are
# kept, as ``sanma db copy`` needs), a float DOUBLE PRECISION, bytes BYTEA; the append-only log's
# triggers call a function. tests/test_store_backends.py checks both schemas have the same columns.
# --------------------------------------------------------------------------------------------

PG_V1 = """
CREATE TABLE players (
    id    BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE
);

CREATE TABLE simulations (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    rules_name  TEXT NOT NULL,
    rules_json  TEXT NOT NULL,
    seed        TEXT NOT NULL,
    bots        TEXT NOT NULL,
    games       INTEGER NOT NULL CHECK (games >= 0),
    kyoku       INTEGER NOT NULL CHECK (kyoku >= 0),
    seconds     DOUBLE PRECISION,
    summary     TEXT,
    created_at  TEXT NOT NULL
);

CREATE TABLE games (
    id               BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    kind             TEXT NOT NULL CHECK (kind IN ('record', 'engine', 'simulation')),
    log_id           TEXT UNIQUE,
    rules_name       TEXT NOT NULL,
    rules_json       TEXT,
    seed             TEXT,
    simulation_id    BIGINT REFERENCES simulations(id) ON DELETE CASCADE,
    simulation_index INTEGER,
    played_at        TEXT,
    created_at       TEXT NOT NULL,
    hands            INTEGER NOT NULL CHECK (hands >= 0),
    complete         INTEGER NOT NULL CHECK (complete IN (0, 1)),
    UNIQUE (simulation_id, simulation_index)
);
CREATE INDEX games_order ON games(played_at, id);

CREATE TABLE records (
    id           BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    checksum     TEXT NOT NULL UNIQUE CHECK (length(checksum) = 64),
    source_path  TEXT NOT NULL,
    format       TEXT NOT NULL,
    rule_name    TEXT NOT NULL,
    size         BIGINT NOT NULL CHECK (size >= 0),
    content      BYTEA,
    game_id      BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    imported_at  TEXT NOT NULL
);
CREATE INDEX records_game ON records(game_id);

CREATE TABLE results (
    game_id         BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 2),
    player_id       BIGINT NOT NULL REFERENCES players(id),
    recorded_name   TEXT NOT NULL,
    score           INTEGER,
    placement       INTEGER CHECK (placement BETWEEN 1 AND 3),
    points          DOUBLE PRECISION,
    chips           INTEGER,
    hands           INTEGER NOT NULL CHECK (hands >= 0),
    wins            INTEGER NOT NULL CHECK (wins >= 0),
    deal_ins        INTEGER NOT NULL CHECK (deal_ins >= 0),
    riichi          INTEGER NOT NULL CHECK (riichi >= 0),
    calls           INTEGER NOT NULL CHECK (calls >= 0),
    draws           INTEGER NOT NULL CHECK (draws >= 0),
    win_points      INTEGER NOT NULL CHECK (win_points >= 0),
    deal_in_points  INTEGER NOT NULL CHECK (deal_in_points >= 0),
    kita            INTEGER NOT NULL CHECK (kita >= 0),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_player ON results(player_id);

CREATE TABLE kyoku (
    game_id       BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx           INTEGER NOT NULL CHECK (idx >= 0),
    round_wind    TEXT NOT NULL CHECK (round_wind IN ('E', 'S', 'W', 'N')),
    dealer        INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 2),
    honba         INTEGER NOT NULL,
    kyotaku       INTEGER NOT NULL,
    start_scores  TEXT NOT NULL,
    end_scores    TEXT,
    deltas        TEXT,
    outcome       TEXT CHECK (outcome IN ('hora', 'ryukyoku')),
    first_event   INTEGER NOT NULL,
    last_event    INTEGER NOT NULL,
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE events (
    game_id    BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL CHECK (idx >= 0),
    kyoku_idx  INTEGER,
    type       TEXT NOT NULL,
    actor      INTEGER,
    data       TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE simulation_results (
    simulation_id  BIGINT NOT NULL REFERENCES simulations(id) ON DELETE CASCADE,
    game_index     INTEGER NOT NULL CHECK (game_index >= 0),
    entry          INTEGER NOT NULL CHECK (entry BETWEEN 0 AND 2),
    bot            TEXT NOT NULL,
    seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 2),
    placement      INTEGER NOT NULL CHECK (placement BETWEEN 1 AND 3),
    score          INTEGER NOT NULL,
    points         DOUBLE PRECISION NOT NULL,
    wins           INTEGER NOT NULL CHECK (wins >= 0),
    deal_ins       INTEGER NOT NULL CHECK (deal_ins >= 0),
    riichi         INTEGER NOT NULL CHECK (riichi >= 0),
    calls          INTEGER NOT NULL CHECK (calls >= 0),
    hands          INTEGER NOT NULL CHECK (hands >= 0),
    game_id        BIGINT REFERENCES games(id) ON DELETE SET NULL,
    PRIMARY KEY (simulation_id, game_index, entry)
);
"""

PG_V2_KEEPER = """
CREATE TABLE keeper_sessions (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    series      TEXT,
    rules_name  TEXT NOT NULL,
    rules_json  TEXT NOT NULL,
    people      TEXT NOT NULL,
    mode        TEXT NOT NULL CHECK (mode IN ('hands', 'final')),
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    created_at  TEXT NOT NULL
);
CREATE INDEX keeper_sessions_series ON keeper_sessions(series);

CREATE TABLE keeper_changes (
    session_id  BIGINT NOT NULL REFERENCES keeper_sessions(id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    kind        TEXT NOT NULL CHECK (kind IN ('add', 'fix', 'delete', 'undo')),
    target      INTEGER,
    entry       TEXT,
    author      TEXT NOT NULL,
    reason      TEXT NOT NULL,
    client_id   TEXT,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (session_id, seq),
    UNIQUE (session_id, client_id)
);

CREATE FUNCTION keeper_changes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'keeper_changes is append-only'; END $$;
CREATE TRIGGER keeper_changes_no_update BEFORE UPDATE ON keeper_changes
    FOR EACH ROW EXECUTE FUNCTION keeper_changes_append_only();
CREATE TRIGGER keeper_changes_no_delete BEFORE DELETE ON keeper_changes
    FOR EACH ROW EXECUTE FUNCTION keeper_changes_append_only();
CREATE TRIGGER keeper_changes_no_truncate BEFORE TRUNCATE ON keeper_changes
    FOR EACH STATEMENT EXECUTE FUNCTION keeper_changes_append_only();
"""

PG_V_WEB = """
CREATE TABLE web_tables (
    id          TEXT PRIMARY KEY,
    rules_name  TEXT NOT NULL,
    rules_json  TEXT NOT NULL,
    seats       TEXT NOT NULL,
    seed        TEXT NOT NULL,
    seed_hash   TEXT NOT NULL CHECK (length(seed_hash) = 64),
    clock       TEXT NOT NULL,
    toggles     TEXT NOT NULL,
    banks       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    finished    INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
    game_id     BIGINT REFERENCES games(id) ON DELETE SET NULL
);
CREATE INDEX web_tables_order ON web_tables(finished, created_at);

CREATE TABLE web_actions (
    table_id  TEXT NOT NULL REFERENCES web_tables(id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL CHECK (idx >= 0),
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 2),
    legal_idx INTEGER NOT NULL CHECK (legal_idx >= 0),
    action    TEXT NOT NULL,
    how       TEXT NOT NULL CHECK (how IN ('seat', 'bot', 'auto', 'clock')),
    at        TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);

CREATE TABLE web_events (
    table_id  TEXT NOT NULL REFERENCES web_tables(id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL CHECK (idx >= 0),
    data      TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
"""

PG_V4_KEEPER_CACHE = """
CREATE TABLE keeper_cache (
    session_id   BIGINT PRIMARY KEY REFERENCES keeper_sessions(id),
    version      INTEGER NOT NULL CHECK (version >= 0),
    prefix_len   INTEGER NOT NULL CHECK (prefix_len >= 0),
    prefix_hash  TEXT NOT NULL CHECK (length(prefix_hash) = 64),
    snapshot     TEXT NOT NULL
);
"""

PG_V_WEB_WALL_KEY = V_WEB_WALL_KEY

PG_V_ACCESS = V_ACCESS  # portable: text columns and an index


PG_V_WEB_SHARED = """
ALTER TABLE web_tables ADD COLUMN runner BIGINT;
ALTER TABLE web_tables ADD COLUMN schedule TEXT;
ALTER TABLE web_tables ADD COLUMN status TEXT;
CREATE INDEX web_tables_runner ON web_tables(runner) WHERE finished = 0;

CREATE TABLE web_presence (
    table_id  TEXT NOT NULL REFERENCES web_tables(id) ON DELETE CASCADE,
    node      BIGINT NOT NULL,
    counts    TEXT NOT NULL,
    PRIMARY KEY (table_id, node)
);
"""

PG_V8_TOURNAMENTS = """
CREATE TABLE tournaments (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name        TEXT NOT NULL,
    rules_name  TEXT NOT NULL,
    rules_json  TEXT NOT NULL,
    players     TEXT NOT NULL,
    rounds      INTEGER NOT NULL CHECK (rounds >= 1),
    seating     TEXT NOT NULL CHECK (seating IN ('swiss', 'random', 'fixed')),
    seed        BIGINT NOT NULL,
    plan        TEXT,
    settings    TEXT NOT NULL,
    created_at  TEXT NOT NULL
);

CREATE TABLE tournament_rounds (
    tournament_id  BIGINT NOT NULL REFERENCES tournaments(id),
    round          INTEGER NOT NULL CHECK (round >= 1),
    byes           TEXT NOT NULL,
    started_at     TEXT,
    created_at     TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

CREATE TABLE tournament_tables (
    tournament_id  BIGINT NOT NULL,
    round          INTEGER NOT NULL,
    table_no       INTEGER NOT NULL CHECK (table_no >= 1),
    session_id     BIGINT NOT NULL UNIQUE REFERENCES keeper_sessions(id),
    PRIMARY KEY (tournament_id, round, table_no),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds(tournament_id, round)
);

ALTER TABLE keeper_sessions ADD COLUMN games_limit INTEGER CHECK (games_limit IS NULL OR games_limit >= 1);
"""

#: PostgreSQL's migration ``n`` is ``PG_MIGRATIONS[n - 1]``: the same versions as ``MIGRATIONS``.
PG_MIGRATIONS: tuple[str, ...] = (PG_V1, PG_V2_KEEPER, PG_V_WEB, PG_V4_KEEPER_CACHE, PG_V_WEB_WALL_KEY,
                                  PG_V_ACCESS, PG_V_WEB_SHARED, PG_V8_TOURNAMENTS, V9_WEB_NEWEST,
                                  V10_WEB_FOLLOWERS)


def migrations_for(dialect: str) -> tuple[str, ...]:
    """The migrations of a backend (``"sqlite"`` or ``"postgresql"``)."""
    scripts = PG_MIGRATIONS if dialect == "postgresql" else MIGRATIONS
    if len(scripts) != SCHEMA_VERSION:
        raise AssertionError(f"{dialect} has {len(scripts)} migrations, the schema is at version {SCHEMA_VERSION}")
    return scripts

package sqlbase

import (
	"strings"
)

// Dialect is what differs between SQLite and PostgreSQL in the schema.
// Migrations are written once with {{name}} placeholders for these.
type Dialect struct {
	name string
	// Column types.
	boolean string // BOOLEAN in PostgreSQL; INTEGER 0/1 in SQLite
	time    string // TIMESTAMPTZ; INTEGER Unix microseconds in SQLite
	json    string // JSONB; TEXT holding JSON in SQLite
	true    string // literal true
	false   string // literal false
}

// The dialects of the two backends.
var (
	SQLite = Dialect{
		name: "sqlite", boolean: "INTEGER", time: "INTEGER", json: "TEXT",
		true: "1", false: "0",
	}
	Postgres = Dialect{
		name: "postgres", boolean: "BOOLEAN", time: "TIMESTAMPTZ", json: "JSONB",
		true: "TRUE", false: "FALSE",
	}
)

// Expand replaces the dialect placeholders in sql.
func (d Dialect) Expand(sql string) string {
	return strings.NewReplacer(
		"{{bool}}", d.boolean,
		"{{time}}", d.time,
		"{{json}}", d.json,
		"{{true}}", d.true,
		"{{false}}", d.false,
	).Replace(sql)
}

// Migration is one versioned step of the schema. Versions are applied in
// order, each in its own transaction, and recorded in schema_migrations;
// a database newer than this program is refused.
type Migration struct {
	Version int
	Name    string
	SQL     []string // statements, with dialect placeholders
	SQLite  []string // statements for SQLite only
}

// Statements returns m's statements in dialect d, expanded.
func (m Migration) Statements(d Dialect) []string {
	var out []string
	for _, s := range m.SQL {
		out = append(out, d.Expand(s))
	}
	if d.name == "sqlite" {
		out = append(out, m.SQLite...)
	}
	return out
}

// Migrations is the schema's history. Never edit an applied step: append
// a new one.
var Migrations = []Migration{
	{
		Version: 1,
		Name:    "games and moves",
		SQL: []string{
			// One row per game. plies mirrors the number of rows in moves
			// and is what the ply check of Append compares; the primary
			// key of moves backs it up.
			`CREATE TABLE games (
				id           TEXT PRIMARY KEY,
				game         TEXT NOT NULL,
				variants     {{json}} NOT NULL,
				params       {{json}} NOT NULL,
				seats        {{json}} NOT NULL,
				plies        INTEGER NOT NULL DEFAULT 0,
				over         {{bool}} NOT NULL DEFAULT {{false}},
				result       {{json}},
				computer_due {{bool}} NOT NULL DEFAULT {{false}},
				lease_owner  TEXT,
				lease_until  {{time}},
				created      {{time}} NOT NULL,
				updated      {{time}} NOT NULL
			)`,
			// The record: one row per move.
			`CREATE TABLE moves (
				game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
				ply     INTEGER NOT NULL CHECK (ply >= 0),
				token   TEXT NOT NULL,
				created {{time}} NOT NULL,
				PRIMARY KEY (game_id, ply)
			)`,
			// What Claim scans: games waiting for a computer move.
			`CREATE INDEX games_computer_due ON games (updated)
				WHERE computer_due = {{true}} AND over = {{false}}`,
			// What List reads: the lobby, newest first.
			`CREATE INDEX games_updated ON games (updated)`,
			// What a PostgreSQL listener reads to catch up after a reconnect.
			`CREATE INDEX moves_created ON moves (created)`,
		},
	},
	{
		Version: 2,
		Name:    "fingerprints, clocks, requests and rematches",
		SQL: []string{
			// The rules the game is played by (host.Game.Fingerprint).
			`ALTER TABLE games ADD COLUMN fingerprint TEXT NOT NULL DEFAULT ''`,
			// The time control, and when the seat to move runs out of
			// time (NULL when no clock runs), which Claim compares.
			`ALTER TABLE games ADD COLUMN clock {{json}}`,
			`ALTER TABLE games ADD COLUMN deadline {{time}}`,
			// A pending proposal, such as a takeback.
			`ALTER TABLE games ADD COLUMN request {{json}}`,
			// Rematches: the game this one is a rematch of, and the
			// rematch of this one (set once).
			`ALTER TABLE games ADD COLUMN rematch_of TEXT`,
			`ALTER TABLE games ADD COLUMN rematch TEXT`,
			// What Claim scans besides computer moves: running clocks.
			`CREATE INDEX games_deadline ON games (deadline)
				WHERE deadline IS NOT NULL AND over = {{false}}`,
		},
		SQLite: []string{
			// The order of changes, which other processes on the file
			// poll: every change of a game sets its seq to one more
			// than the largest (writers take turns, so seq grows in
			// commit order).
			`ALTER TABLE games ADD COLUMN seq INTEGER NOT NULL DEFAULT 0`,
			`CREATE INDEX games_seq ON games (seq)`,
		},
	},
}

// SchemaVersion is the version this program migrates to.
func SchemaVersion() int { return Migrations[len(Migrations)-1].Version }

// MigrationsTable is the table that records the applied migrations.
const MigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY,
	name    TEXT NOT NULL,
	applied {{time}} NOT NULL
)`

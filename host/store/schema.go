package store

import (
	"strings"
)

// dialect is what differs between SQLite and PostgreSQL in the schema.
// Migrations are written once with {{name}} placeholders for these.
type dialect struct {
	name string
	// Column types.
	boolean string // BOOLEAN in PostgreSQL; INTEGER 0/1 in SQLite
	time    string // TIMESTAMPTZ; INTEGER Unix microseconds in SQLite
	json    string // JSONB; TEXT holding JSON in SQLite
	true    string // literal true
	false   string // literal false
}

var (
	sqliteDialect = dialect{
		name: "sqlite", boolean: "INTEGER", time: "INTEGER", json: "TEXT",
		true: "1", false: "0",
	}
	postgresDialect = dialect{
		name: "postgres", boolean: "BOOLEAN", time: "TIMESTAMPTZ", json: "JSONB",
		true: "TRUE", false: "FALSE",
	}
)

// expand replaces the dialect placeholders in sql.
func (d dialect) expand(sql string) string {
	return strings.NewReplacer(
		"{{bool}}", d.boolean,
		"{{time}}", d.time,
		"{{json}}", d.json,
		"{{true}}", d.true,
		"{{false}}", d.false,
	).Replace(sql)
}

// migration is one versioned step of the schema. Versions are applied in
// order, each in its own transaction, and recorded in schema_migrations;
// a database newer than this program is refused.
type migration struct {
	version int
	name    string
	sql     []string // statements, with dialect placeholders
}

// migrations is the schema's history. Never edit an applied step: append
// a new one.
var migrations = []migration{
	{
		version: 1,
		name:    "games and moves",
		sql: []string{
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
}

// schemaVersion is the version this program migrates to.
func schemaVersion() int { return migrations[len(migrations)-1].version }

const migrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY,
	name    TEXT NOT NULL,
	applied {{time}} NOT NULL
)`

package pgtest_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/matombo/matombo/host/store/postgres/pgtest"
)

// TestCluster: a cluster serves over TCP and its socket, keeps its data
// across Stop and Start, and leaves nothing behind after Remove.
func TestCluster(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := pgtest.Start(t)
	dsn := pgtest.Database(t, c)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE kept (n INTEGER); INSERT INTO kept VALUES (7)`); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)

	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := pgx.Connect(ctx, dsn); err == nil {
		t.Fatal("connected to a stopped cluster")
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	conn, err = pgx.Connect(ctx, c.SocketDSN(dbName(t, dsn)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT n FROM kept`).Scan(&n); err != nil || n != 7 {
		t.Fatalf("after a restart: %d, %v", n, err)
	}
	conn.Close(ctx)

	if err := c.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.Socket); !os.IsNotExist(err) {
		t.Errorf("the cluster's directory is still there: %v", err)
	}
}

func dbName(t *testing.T, dsn string) string {
	t.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Database
}

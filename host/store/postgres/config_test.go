package postgres

import (
	"testing"
	"time"

	"github.com/matombo/matombo/host/store"
)

// TestPoolConfig: the connection string's settings win over the defaults;
// an explicit option wins over both.
func TestPoolConfig(t *testing.T) {
	const url = "postgres://u@localhost/db"
	for _, tc := range []struct {
		name      string
		dsn       string
		opts      []store.Option
		maxConns  int32
		minConns  int32
		statement string
		lock      string
		app       string
	}{
		{"defaults", url, nil, 10, 1, "5000", "5000", "matombo"},
		{"url settings", url + "?pool_max_conns=20&pool_min_conns=3&statement_timeout=2000&application_name=eu1", nil, 20, 3, "2000", "2000", "eu1"},
		{"key=value settings", "host=localhost dbname=db pool_max_conns=4 statement_timeout=750 lock_timeout=100", nil, 4, 1, "750", "100", "matombo"},
		{"options win", url + "?pool_max_conns=20&pool_min_conns=3&statement_timeout=2000",
			[]store.Option{store.WithMaxConns(30), store.WithMinConns(5), store.WithStatementTimeout(3 * time.Second)}, 30, 5, "3000", "3000", "matombo"},
		{"min above max", url + "?pool_max_conns=2", []store.Option{store.WithMinConns(5)}, 2, 2, "5000", "5000", "matombo"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := store.NewConfig(tc.opts...)
			pc, err := poolConfig(tc.dsn, &cfg)
			if err != nil {
				t.Fatal(err)
			}
			rp := pc.ConnConfig.RuntimeParams
			if pc.MaxConns != tc.maxConns || pc.MinConns != tc.minConns {
				t.Errorf("pool %d..%d, want %d..%d", pc.MinConns, pc.MaxConns, tc.minConns, tc.maxConns)
			}
			if rp["statement_timeout"] != tc.statement || rp["lock_timeout"] != tc.lock || rp["application_name"] != tc.app {
				t.Errorf("session settings %v", rp)
			}
			if rp["idle_in_transaction_session_timeout"] != "60000" {
				t.Errorf("idle_in_transaction_session_timeout %q", rp["idle_in_transaction_session_timeout"])
			}
			if want := mustAtoiMs(t, tc.statement); cfg.StatementTimeout != want {
				t.Errorf("effective statement timeout %v, want %v", cfg.StatementTimeout, want)
			}
			if pc.ConnConfig.ConnectTimeout <= 0 || pc.ConnConfig.ConnectTimeout > cfg.OpTimeout {
				t.Errorf("connect timeout %v", pc.ConnConfig.ConnectTimeout)
			}
		})
	}
}

func mustAtoiMs(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s + "ms")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

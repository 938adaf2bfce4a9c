package postgres

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/matombo/matombo/host/store"
)

// storageSection returns the section of docs/serve.md about storage.
func storageSection(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../../docs/serve.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "\n## Storage and several servers\n")
	if i < 0 {
		t.Fatal(`docs/serve.md has no "## Storage and several servers" section`)
	}
	doc = doc[i+1:]
	if j := strings.Index(doc[3:], "\n## "); j >= 0 {
		doc = doc[:j+3]
	}
	return doc
}

// tableRows returns the rows of the Markdown table after the line
// starting with header, as cells.
func tableRows(t *testing.T, doc, header string) [][]string {
	t.Helper()
	i := strings.Index(doc, header)
	if i < 0 {
		t.Fatalf("no table %q in the storage section", header)
	}
	var rows [][]string
	for n, line := range strings.Split(doc[i:], "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			break
		}
		if n < 2 { // header and rule
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	return rows
}

// TestDocsSettings: the defaults in the docs' table of settings are the
// ones poolConfig sets.
func TestDocsSettings(t *testing.T) {
	doc := storageSection(t)
	cfg := store.NewConfig()
	pc, err := poolConfig("postgres://u@localhost/db", &cfg)
	if err != nil {
		t.Fatal(err)
	}
	rp := pc.ConnConfig.RuntimeParams
	actual := map[string]string{
		"pool_max_conns":                      itoa(int(pc.MaxConns)),
		"pool_min_conns":                      itoa(int(pc.MinConns)),
		"pool_health_check_period":            pc.HealthCheckPeriod.String(),
		"connect_timeout":                     itoa(int(pc.ConnConfig.ConnectTimeout.Seconds())) + " (seconds)",
		"statement_timeout":                   rp["statement_timeout"] + " (ms)",
		"lock_timeout":                        "the statement timeout",
		"idle_in_transaction_session_timeout": rp["idle_in_transaction_session_timeout"] + " (ms)",
		"application_name":                    "`" + rp["application_name"] + "`",
	}
	if rp["lock_timeout"] != rp["statement_timeout"] {
		t.Errorf("lock_timeout %s is not the statement timeout", rp["lock_timeout"])
	}
	rows := tableRows(t, doc, "| Setting |")
	if len(rows) != len(actual) {
		t.Errorf("the docs list %d settings, want %d", len(rows), len(actual))
	}
	for _, row := range rows {
		name := strings.Trim(row[0], "`")
		want, ok := actual[name]
		if !ok {
			t.Errorf("the docs list setting %s, which the store does not set", name)
			continue
		}
		if row[1] != want {
			t.Errorf("setting %s: the docs say %q, the default is %q", name, row[1], want)
		}
	}
	if !strings.Contains(doc, "MATOMBO_STORE_LOAD=1 go test -run TestLoad -v ./host/store/postgres/") {
		t.Error("the docs do not give the load test's command")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

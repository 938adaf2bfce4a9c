package sqlite

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
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

var backticked = regexp.MustCompile("`([^`]+)`")

// TestDocsSchema: the tables of the docs name exactly the columns the
// migrations create.
func TestDocsSchema(t *testing.T) {
	doc := storageSection(t)
	s, err := Open(context.Background(), ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	db := s.(*sqliteStore).rdb
	for _, table := range []string{"games", "moves"} {
		var documented []string
		for _, row := range tableRows(t, doc, "| Table `"+table+"`") {
			for _, m := range backticked.FindAllStringSubmatch(row[0], -1) {
				documented = append(documented, m[1])
			}
		}
		rows, err := db.Query(`SELECT name FROM pragma_table_info(?)`, table)
		if err != nil {
			t.Fatal(err)
		}
		var actual []string
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				t.Fatal(err)
			}
			actual = append(actual, name)
		}
		rows.Close()
		slices.Sort(documented)
		slices.Sort(actual)
		if !slices.Equal(documented, actual) {
			t.Errorf("table %s: the docs name %v, the schema has %v", table, documented, actual)
		}
	}
}

package strictjson

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

type site struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// job is embedded in doc: encoding/json writes its fields as doc's own,
// but for Game, which doc's own field shadows.
type job struct {
	Index int    `json:"job"`
	Game  string `json:"game"`
	inner
}

// inner is embedded two levels down.
type inner struct {
	Lines int `json:"lines"`
}

type doc struct {
	job
	Game  string         `json:"game"`
	Sites []site         `json:"sites"`
	Vars  map[string]any `json:"vars"`
	Seat  *int           `json:"seat,omitempty"`
	Time  json.Number    `json:"time"`
	Plain string
	Skip  string `json:"-"`
}

func TestCheck(t *testing.T) {
	typ := reflect.TypeFor[doc]()
	for _, tt := range []struct {
		name, data string
		want       string // "" for none
	}{
		{"a good one", `{"game":"g","sites":[{"name":"a1","count":2}],"vars":{"any":[1,{"x":2}]},"seat":1,"Plain":"p"}`, ""},
		{"a key twice", `{"game":"g","game":"h"}`, `the key "game" is given twice`},
		{"a key twice in a site", `{"sites":[{"name":"a1","name":"a2"}]}`, `the key "name" is given twice`},
		{"a key twice in a map", `{"vars":{"x":1,"x":2}}`, `the key "x" is given twice`},
		{"a key in another case", `{"GAME":"g"}`, `unknown field "GAME"`},
		{"a field's Go name for a tagged field", `{"Game":"g"}`, `unknown field "Game"`},
		{"a skipped field", `{"Skip":"s"}`, `unknown field "Skip"`},
		{"a site's key in another case", `{"sites":[{"Count":1}]}`, `unknown field "Count"`},
		{"any key in a map", `{"vars":{"GAME":1}}`, ""},
		{"not UTF-8", "{\"game\":\"\xff\"}", "not UTF-8"},
		{"too deep", `{"vars":{"a":[[[[[[[[]]]]]]]]}}`, "deeper than 6 levels"},
		{"two values", `{"game":"g"} {}`, "something follows"},
		{"garbage after", `{"game":"g"}x`, "something follows"},
		{"a scalar", `3`, ""},
		{"a number", `{"time":1.5}`, ""},
		{"a number in a string", `{"time":"1.5"}`, `the string "1.5" where a number is wanted`},
		{"a string in a map of any", `{"vars":{"time":"1.5"}}`, ""},
		{"an embedded struct's fields, as doc's own", `{"job":1,"lines":2,"game":"g"}`, ""},
		{"an embedded struct's field twice", `{"job":1,"job":2}`, `the key "job" is given twice`},
		{"an embedded struct's Go name", `{"job":1,"inner":{}}`, `unknown field "inner"`},
		{"an embedded struct's Go name, exported", `{"Job":1}`, `unknown field "Job"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := Check([]byte(tt.data), typ, 6)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			if assert.Error(t, err) {
				assert.Contains(t, err.Error(), tt.want)
			}
		})
	}
}

// FuzzCheck: Check never panics, and what it passes is one JSON value
// encoding/json reads. Numbers are read as text (UseNumber), as the
// server reads its bodies: a number too large for a float64 is JSON, and
// its range is the decoder's to check, not Check's.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"game":"g","sites":[{"name":"a1"}]}`, `{"game":"g","game":"h"}`, `[[[]]]`, `{"vars":{"a":{"b":1}}}`, "{\"a\":\"\xff\"}", `{} {}`} {
		f.Add([]byte(s))
	}
	typ := reflect.TypeFor[doc]()
	f.Fuzz(func(t *testing.T, data []byte) {
		if Check(data, typ, 8) != nil {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("passed but not JSON: %q: %v", data, err)
		}
		if err := dec.Decode(&v); err != io.EOF {
			t.Fatalf("passed but not one JSON value: %q: %v", data, err)
		}
	})
}

// BenchmarkCheckStruct checks an object of many keys, each a field of a
// struct (a state's sites, a shard file's results): the struct's fields
// are read once a Check, not once a key.
func BenchmarkCheckStruct(b *testing.B) {
	data := []byte(`{"game":"kalah","vars":{"a":1,"b":2},"time":3,"Plain":"x","sites":[` +
		strings.Repeat(`{"name":"a1","count":4},`, 47) + `{"name":"b6","count":4}]}`)
	typ := reflect.TypeFor[doc]()
	for b.Loop() {
		if err := Check(data, typ, 8); err != nil {
			b.Fatal(err)
		}
	}
}

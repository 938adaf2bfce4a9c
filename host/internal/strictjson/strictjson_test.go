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

// The struct types of TestFieldsAsEncodingJSON: each embeds others as
// encoding/json's rules for embedded fields care about.
type (
	// byPointer embeds its struct through a pointer.
	byPointer struct {
		*Pointed
		Own int `json:"own"`
	}
	Pointed struct {
		Lines int `json:"lines"`
	}
	// twoAlike embeds two structs with a field of one name at one
	// depth: encoding/json writes neither where neither is tagged (or
	// both), the tagged one where one is.
	twoAlike struct {
		left
		right
	}
	left struct {
		Same  int    // untagged, as right's
		Mine  string // untagged, named Mine
		Other int    `json:"other"`
	}
	right struct {
		Same int
		Mine string `json:"Mine"` // tagged: it wins over left's untagged Mine
	}
	// dashed names a field "-" (the tag "-,").
	dashed struct {
		Dash int `json:"-,"`
	}
	// badTag has a tag that is not a valid name: the field keeps its Go
	// name.
	badTag struct {
		Odd int `json:"a\"b"`
	}
	// diamond embeds left twice, one level down: encoding/json writes
	// none of its fields.
	diamond struct {
		viaA
		viaB
	}
	viaA struct{ left }
	viaB struct{ left }
	// shallow's own field hides twoAlike's ambiguous Same one level
	// down.
	shallow struct {
		twoAlike
		Same int
	}
)

// TestFieldsAsEncodingJSON: a struct's keys are exactly those
// encoding/json writes it with: those of a struct embedded through a
// pointer too, none for a name two embedded fields give at one depth
// (neither or both tagged) or a struct embedded twice at one depth gives,
// the tagged one's over an untagged one of its depth, "-" for the tag "-,", the Go name for a tag that is not a name.
func TestFieldsAsEncodingJSON(t *testing.T) {
	candidates := []string{"lines", "own", "Pointed", "Same", "Mine", "other", "-", "Dash", "Odd", "a\"b", "left", "right", "twoAlike", "job", "game"}
	for _, v := range []any{byPointer{Pointed: &Pointed{}}, twoAlike{}, dashed{}, badTag{}, diamond{}, shallow{}, doc{}} {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var written map[string]any
		if err := json.Unmarshal(data, &written); err != nil {
			t.Fatal(err)
		}
		typ := reflect.TypeOf(v)
		for _, key := range candidates {
			data, err := json.Marshal(map[string]any{key: nil})
			if err != nil {
				t.Fatal(err)
			}
			_, want := written[key]
			got := Check(data, typ, 8)
			assert.Equal(t, want, got == nil, "%s: key %q: %v", typ.Name(), key, got)
		}
	}
}

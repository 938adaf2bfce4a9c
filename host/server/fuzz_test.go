package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/matombo/matombo/docs"
)

// fuzzServer is a server over an in-memory store with one game, g1, for
// the fuzz targets.
func fuzzServer(f *testing.F) *Server {
	s, _ := fuzzGame(f)
	return s
}

// fuzzGame is fuzzServer and the ID of its game.
func fuzzGame(f *testing.F) (*Server, string) {
	s, err := New(lib(), newMemStore(), WithRules(docs.Rules), WithLimits(testLimits), WithHosts("example.com"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, jsonRequest("POST", "/api/games", `{"game": "gore"}`))
	if rec.Code != http.StatusCreated {
		f.Fatalf("creating a game: %d %s", rec.Code, rec.Body)
	}
	var g struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &g); err != nil {
		f.Fatal(err)
	}
	return s, g.ID
}

// jsonRequest is a request with a JSON body, as the page sends it.
func jsonRequest(method, path, body string) *http.Request {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

// checkAnswer fails on a 500 or an answer that is not JSON.
func checkAnswer(t *testing.T, rec *httptest.ResponseRecorder, body string) {
	if rec.Code >= 500 {
		t.Fatalf("status %d for body %q: %s", rec.Code, body, rec.Body)
	}
	if !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("the answer to %q is not JSON: %s", body, rec.Body)
	}
}

// FuzzCreate sends any body to POST /api/games: never a 500, always JSON.
func FuzzCreate(f *testing.F) {
	s := fuzzServer(f)
	for _, b := range []string{`{"game": "tsoro", "variants": ["4x8"], "params": {"bonus": 3}, "seats": ["human", "random"]}`,
		`{"game": "yematatu", "params": {"board": "square"}}`, `{"game": "gore", "params": {"trading": "maybe"}}`,
		`{"game": 1}`, `{"params": {"holes": 1e300}}`, `{"game": "tsoro", "seats": [null, ""]}`, `[]`, `"`,
		`{"game": "gore", "clock": {"initial": 300, "increment": 5}}`, `{"game": "gore", "clock": {"initial": 1e309}}`,
		`{"game": "gore", "clock": {"initial": -0, "increment": "NaN"}}`, `{"game": "gore", "clock": null}`,
		`{"game": "tsoro", "game": "gore"}`, `{"GAME": "gore"}`, `{"game": "gore", "params": {"trading": true, "trading": false}}`,
		"{\"game\": \"gore\xff\"}", `{"game": "gore", "params": {"x": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}`} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, jsonRequest("POST", "/api/games", body))
		checkAnswer(t, rec, body)
	})
}

// FuzzMove sends any body to POST /api/games/g1/moves: never a 500,
// always JSON.
func FuzzMove(f *testing.F) {
	s := fuzzServer(f)
	for _, b := range []string{`{"token": "a1", "ply": 0, "seat": "00"}`, `{"token": "offer:a1,a2", "ply": 0}`,
		`{"token": "a1", "ply": -1}`, `{"token": "a1", "ply": 1e20}`, `{"ply": null}`, `{"token": "\u0000"}`,
		`{"token": "a1", "token": "a2", "ply": 0}`, `{"Token": "a1", "ply": 0}`, "{\"token\": \"a\xc0\", \"ply\": 0}"} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, jsonRequest("POST", "/api/games/g1/moves", body))
		checkAnswer(t, rec, body)
	})
}

// FuzzGameActions sends any body to the takeback and rematch of a game:
// never a 500, always JSON.
func FuzzGameActions(f *testing.F) {
	s, id := fuzzGame(f)
	for _, b := range []string{`{"seat": "00", "ply": 0}`, `{"seat": "", "ply": 0, "accept": true}`, `{"ply": -5}`,
		`{"seat": "x", "ply": 1e20, "accept": null}`, `{"seat": 5}`, `{}`, `[]`} {
		f.Add("takeback", b)
		f.Add("rematch", b)
	}
	f.Fuzz(func(t *testing.T, action, body string) {
		if action != "takeback" {
			action = "rematch"
		}
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest("POST", "/api/games/"+id+"/"+action, strings.NewReader(body)))
		checkAnswer(t, rec, body)
	})
}

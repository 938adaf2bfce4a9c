// Package sqlbase is what the SQL backends of package store share: the
// schema and its migrations, the JSON columns of a game, and the
// classification of errors.
package sqlbase

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/matombo/matombo/host/store"
)

// Columns are a game's JSON columns, encoded.
type Columns struct {
	Variants, Params, Seats []byte
	Result                  []byte // nil when the game goes on
	Clock                   []byte // nil for an untimed game
	Request                 []byte // nil when there is none
}

// Encode checks g and encodes its JSON columns.
func Encode(g *store.Game) (Columns, error) {
	var c Columns
	if err := store.Check(g); err != nil {
		return c, err
	}
	variants := g.Variants
	if variants == nil {
		variants = []string{}
	}
	params := g.Params
	if params == nil {
		params = map[string]any{}
	}
	seats := g.Seats
	if seats == nil {
		seats = []store.Seat{}
	}
	var err error
	if c.Variants, err = json.Marshal(variants); err != nil {
		return c, fmt.Errorf("variants: %w", err)
	}
	if c.Params, err = json.Marshal(params); err != nil {
		return c, fmt.Errorf("params: %w", err)
	}
	if c.Seats, err = json.Marshal(seats); err != nil {
		return c, fmt.Errorf("seats: %w", err)
	}
	c.Result, c.Clock, c.Request, err = EncodeState(g.Result, g.Clock, g.Request)
	return c, err
}

// ChangeSeats checks the seats of update u against the stored seats of
// game id (a JSON column) and encodes them.
func ChangeSeats(id string, stored []byte, u store.Update) ([]byte, error) {
	var old []store.Seat
	if err := json.Unmarshal(stored, &old); err != nil {
		return nil, fmt.Errorf("stored seats: %w", err)
	}
	if err := store.CheckSeats(u, len(old)); err != nil {
		return nil, &store.Error{Op: "update", ID: id, Detail: err.Error()}
	}
	b, err := json.Marshal(u.Seats)
	if err != nil {
		return nil, &store.Error{Op: "update", ID: id, Detail: "seats: " + err.Error()}
	}
	return b, nil
}

// EncodeState encodes the columns a move or an update sets (nil for nil).
func EncodeState(r *store.Result, c *store.Clock, q *store.Request) (result, clock, request []byte, err error) {
	if r != nil {
		rr := *r
		if rr.Notes == nil {
			rr.Notes = []string{}
		}
		if rr.Scores == nil {
			rr.Scores = []float64{}
		}
		if result, err = json.Marshal(rr); err != nil {
			return nil, nil, nil, fmt.Errorf("result: %w", err)
		}
	}
	if c != nil {
		if clock, err = json.Marshal(c); err != nil {
			return nil, nil, nil, fmt.Errorf("clock: %w", err)
		}
	}
	if q != nil {
		if request, err = json.Marshal(q); err != nil {
			return nil, nil, nil, fmt.Errorf("request: %w", err)
		}
	}
	return result, clock, request, nil
}

// Decode fills g's fields from its JSON columns; record is the JSON array
// of its tokens, or nil when the caller filled g.Record.
func Decode(g *store.Game, c Columns, record []byte) error {
	if err := json.Unmarshal(c.Variants, &g.Variants); err != nil {
		return fmt.Errorf("stored variants: %w", err)
	}
	if err := json.Unmarshal(c.Params, &g.Params); err != nil {
		return fmt.Errorf("stored params: %w", err)
	}
	if err := json.Unmarshal(c.Seats, &g.Seats); err != nil {
		return fmt.Errorf("stored seats: %w", err)
	}
	if len(c.Result) > 0 {
		g.Result = new(store.Result)
		if err := json.Unmarshal(c.Result, g.Result); err != nil {
			return fmt.Errorf("stored result: %w", err)
		}
	}
	if len(c.Clock) > 0 {
		g.Clock = new(store.Clock)
		if err := json.Unmarshal(c.Clock, g.Clock); err != nil {
			return fmt.Errorf("stored clock: %w", err)
		}
	}
	if len(c.Request) > 0 {
		g.Request = new(store.Request)
		if err := json.Unmarshal(c.Request, g.Request); err != nil {
			return fmt.Errorf("stored request: %w", err)
		}
	}
	if record != nil {
		if err := json.Unmarshal(record, &g.Record); err != nil {
			return fmt.Errorf("stored record: %w", err)
		}
	}
	if g.Record == nil {
		g.Record = []string{}
	}
	return nil
}

// SeatPlayers returns the players of the stored seats, without secrets.
func SeatPlayers(seats []byte) ([]string, error) {
	var ss []store.Seat
	if err := json.Unmarshal(seats, &ss); err != nil {
		return nil, fmt.Errorf("stored seats: %w", err)
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Player
	}
	return out, nil
}

// Deadline is the deadline column of a game with clock c that is over or
// not: nil when no clock runs.
func Deadline(c *store.Clock, over bool) *time.Time {
	d := c.Deadline()
	if over || d.IsZero() {
		return nil
	}
	return &d
}

// Nullable returns nil for a nil b, else b as a string: a JSON column's
// value.
func Nullable(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

// CtxError classifies an error that came with a done context: the caller's
// own cancellation is returned as such; the store's operation timeout
// means the database did not answer in time.
func CtxError(parent context.Context, op, id string, err error) (error, bool) {
	if parent.Err() != nil {
		return &store.Error{Op: op, ID: id, Err: parent.Err()}, true
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &store.Error{Op: op, ID: id, Kind: store.ErrUnavailable, Detail: "the database did not answer in time", Err: err}, true
	}
	return nil, false
}

// RematchConflict is the error of a Create whose game of RematchOf has a
// rematch already, or is not there (rematch == "").
func RematchConflict(id, of, rematch string) error {
	if rematch == "" {
		return &store.Error{Op: "create", ID: id, Kind: store.ErrNotFound, Detail: fmt.Sprintf("no game %q to be a rematch of", of)}
	}
	return &store.Error{Op: "create", ID: id, Kind: store.ErrConflict, Detail: fmt.Sprintf("game %q has a rematch already: %s", of, rematch)}
}

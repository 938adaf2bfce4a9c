package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// NewID returns a fresh game ID: 64 random bits in hex.
func NewID() string { return randomHex(8) }

// NewSecret returns a fresh seat secret: 128 random bits in hex.
func NewSecret() string { return randomHex(16) }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// encoded is a game's JSON columns.
type encoded struct {
	variants, params, seats []byte
	result                  []byte // nil when there is none
}

// encode checks g and marshals its JSON columns.
func encode(g *Game) (encoded, error) {
	var e encoded
	if g.Game == "" {
		return e, errors.New("the game's name is empty")
	}
	for i, tok := range g.Record {
		if tok == "" {
			return e, fmt.Errorf("token %d of the record is empty", i)
		}
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
		seats = []Seat{}
	}
	var err error
	if e.variants, err = json.Marshal(variants); err != nil {
		return e, fmt.Errorf("variants: %w", err)
	}
	if e.params, err = json.Marshal(params); err != nil {
		return e, fmt.Errorf("params: %w", err)
	}
	if e.seats, err = json.Marshal(seats); err != nil {
		return e, fmt.Errorf("seats: %w", err)
	}
	if e.result, err = encodeResult(g.Result); err != nil {
		return e, err
	}
	return e, nil
}

// encodeResult checks an outcome's JSON; nil for none.
func encodeResult(r json.RawMessage) ([]byte, error) {
	if len(r) == 0 {
		return nil, nil
	}
	if !json.Valid(r) {
		return nil, errors.New("the result is not valid JSON")
	}
	return []byte(r), nil
}

// decode fills g's fields from its JSON columns.
func decode(g *Game, variants, params, seats, result, record []byte) error {
	if err := json.Unmarshal(variants, &g.Variants); err != nil {
		return fmt.Errorf("stored variants: %w", err)
	}
	if err := json.Unmarshal(params, &g.Params); err != nil {
		return fmt.Errorf("stored params: %w", err)
	}
	if err := json.Unmarshal(seats, &g.Seats); err != nil {
		return fmt.Errorf("stored seats: %w", err)
	}
	if len(result) > 0 {
		g.Result = json.RawMessage(append([]byte(nil), result...))
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

// seatPlayers returns the players of the stored seats, without secrets.
func seatPlayers(seats []byte) ([]string, error) {
	var ss []Seat
	if err := json.Unmarshal(seats, &ss); err != nil {
		return nil, fmt.Errorf("stored seats: %w", err)
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Player
	}
	return out, nil
}

// withTimeout bounds one store call by the configured operation timeout.
func (c config) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.opTimeout)
}

// ctxError classifies an error that came with a done context: the
// caller's own cancellation is returned as such; the store's operation
// timeout means the database did not answer in time.
func ctxError(parent context.Context, op, id string, err error) (error, bool) {
	if parent.Err() != nil {
		return &Error{Op: op, ID: id, Err: parent.Err()}, true
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Op: op, ID: id, Kind: ErrUnavailable, Detail: "the database did not answer in time", Err: err}, true
	}
	return nil, false
}

// Package store keeps games in a database.
//
// This file is a placeholder holding only the interface agreed with the
// store's author, so that package server compiles until the real package
// lands; it is replaced by the real package on merge.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Seat is one player's seat in a stored game.
type Seat struct {
	Player string // "human" or a computer player spec
	Secret string // 128-bit random hex for human seats, "" for computers
}

// Game is a stored game.
type Game struct {
	ID          string
	Game        string
	Variants    []string
	Params      map[string]any
	Seats       []Seat
	Record      []string        // tokens from the opening
	Over        bool            // the game has ended
	Result      json.RawMessage // outcome JSON when over
	ComputerDue bool            // the seat to move is a computer
	Created     time.Time
	Updated     time.Time
}

// Errors of a store, wrapped; use errors.Is.
var (
	ErrNotFound    = errors.New("not found")
	ErrConflict    = errors.New("conflict")
	ErrUnavailable = errors.New("store unavailable")
)

// Change is one appended move.
type Change struct {
	ID  string
	Ply int
}

// Store keeps games.
type Store interface {
	Create(ctx context.Context, g *Game) error
	Get(ctx context.Context, id string) (*Game, error)
	Append(ctx context.Context, id string, ply int, token string, over bool, result json.RawMessage, computerDue bool) (*Game, error)
	Claim(ctx context.Context, owner string, lease time.Duration) (*Game, error)
	Watch(ctx context.Context) (<-chan Change, error)
	Count(ctx context.Context) (int, error)
	Ping(ctx context.Context) error
	Close() error
}

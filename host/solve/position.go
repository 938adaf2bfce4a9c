package solve

import (
	"github.com/matombo/matombo/host"
)

// codec turns a state's position into a compact byte string and back. A
// position is what the repetition rules compare: the counts and owners of
// the sites, the captured totals, the hands, the script's position
// variables and the player to move; not the ply count, the history or the
// result. It is the host's exact encoding (State.AppendPosition), kept
// behind this one type so that the solver does not depend on its form.
type codec struct {
	g *host.Game
}

// newCodec returns the codec of g.
func newCodec(g *host.Game) codec { return codec{g: g} }

// encode appends the encoding of s's position to dst.
func (c codec) encode(dst []byte, s *host.State) []byte { return s.AppendPosition(dst) }

// decode returns a fresh state at the encoded position; its history holds
// only that position.
func (c codec) decode(enc []byte) (*host.State, error) { return c.g.StateFromPosition(enc) }

// decodeInto sets dst to the encoded position with r, without allocating.
func (c codec) decodeInto(r *host.Runner, dst *host.State, enc []byte) error {
	return r.SetPosition(dst, enc)
}

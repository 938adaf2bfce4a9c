package kernel

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The history type itself, against a plain slice, with copies taken and
// played on at random, across many chunk boundaries. The keys share their
// top bits (the tail's filter), their bits for the Bloom filters and their
// low bits (the chunks' index) in pairs, so every shortcut is taken and
// every collision met.
func TestHistoryModel(t *testing.T) {
	keys := []uint64{0, 128, 1 << 56, 1<<56 | 128 | 1, 0x9E3779B97F4A7C15}
	rng := rand.New(rand.NewPCG(9, 9))
	type pair struct {
		h     History
		model []uint64
	}
	hs := []*pair{{}}
	for step := 0; step < 20000; step++ {
		p := hs[rng.IntN(len(hs))]
		switch op := rng.IntN(10); {
		case op < 6:
			k := keys[rng.IntN(len(keys))]
			p.h.Push(k)
			p.model = append(p.model, k)
		case op < 8 && len(p.model) > 0:
			p.h.Pop()
			p.model = p.model[:len(p.model)-1]
		case op == 8 && len(hs) < 8:
			q := &pair{}
			q.h.CopyFrom(&p.h)
			q.model = append([]uint64(nil), p.model...)
			hs = append(hs, q)
		case op == 9:
			q := hs[rng.IntN(len(hs))]
			p.h.CopyFrom(&q.h)
			p.model = append(p.model[:0:0], q.model...)
		}
		// Check the history just used and one other (all of them now and
		// then): the others must not have changed.
		check := []*pair{p, hs[rng.IntN(len(hs))]}
		if step%500 == 0 {
			check = hs
		}
		for i, q := range check {
			require.Equal(t, len(q.model), q.h.Len(), "history %d at step %d", i, step)
			for _, k := range keys {
				n := 0
				for _, x := range q.model {
					if x == k {
						n++
					}
				}
				require.Equal(t, n, q.h.Count(k), "history %d, key %d at step %d", i, k, step)
			}
		}
	}
}

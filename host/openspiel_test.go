package host

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// playthrough is an OpenSpiel playthrough: the actions of one game and the
// states printed in full along the way.
type playthrough struct {
	actions []int
	tensors map[int][]int // state number -> ObservationTensor(0)
	legal   map[int][]int // state number -> LegalActions()
	obs     map[int]string
	returns []int
}

func readPlaythrough(t *testing.T, path string) playthrough {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	pt := playthrough{tensors: map[int][]int{}, legal: map[int][]int{}, obs: map[int]string{}}
	state := -1
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	ints := func(s string) []int {
		s = strings.Trim(s, "[]")
		var out []int
		for _, f := range strings.Split(s, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			v, err := strconv.ParseFloat(f, 64)
			require.NoError(t, err)
			out = append(out, int(v))
		}
		return out
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# State "):
			state, err = strconv.Atoi(strings.TrimPrefix(line, "# State "))
			require.NoError(t, err)
		case strings.HasPrefix(line, "action: "):
			a, err := strconv.Atoi(strings.TrimPrefix(line, "action: "))
			require.NoError(t, err)
			pt.actions = append(pt.actions, a)
		case strings.HasPrefix(line, "ObservationTensor(0) = "):
			pt.tensors[state] = ints(strings.TrimPrefix(line, "ObservationTensor(0) = "))
		case strings.HasPrefix(line, "ObservationString(0) = "):
			pt.obs[state] = strings.Trim(strings.TrimPrefix(line, "ObservationString(0) = "), `"`)
		case strings.HasPrefix(line, "LegalActions() = "):
			pt.legal[state] = ints(strings.TrimPrefix(line, "LegalActions() = "))
		case strings.HasPrefix(line, "Returns() = "):
			pt.returns = ints(strings.TrimPrefix(line, "Returns() = "))
		}
	}
	require.NoError(t, sc.Err())
	return pt
}

func testLibrary(t testing.TB) *Library {
	t.Helper()
	lib := NewLibrary()
	require.NoError(t, lib.AddDir(filepath.Join("testdata", "games")))
	return lib
}

// kalahSite maps an OpenSpiel Kalah board index to a site name.
func kalahSite(i int) string {
	switch {
	case i == 0:
		return "b7"
	case i == 7:
		return "a7"
	case i < 7:
		return "a" + strconv.Itoa(i)
	default:
		return "b" + strconv.Itoa(14-i)
	}
}

// TestKalahMatchesOpenSpiel replays OpenSpiel's Kalah playthroughs with the
// kalah test script and compares every printed board and legal list.
func TestKalahMatchesOpenSpiel(t *testing.T) {
	g, err := testLibrary(t).Load("kalah")
	require.NoError(t, err)
	for _, file := range []string{"mancala.txt", "mancala-2955027f.txt", "kalah.txt", "kalah-6cbf7691.txt"} {
		t.Run(file, func(t *testing.T) {
			pt := readPlaythrough(t, filepath.Join("testdata", "openspiel", file))
			require.NotEmpty(t, pt.actions)
			s := g.Start()
			check := func(n int) {
				if tensor, ok := pt.tensors[n]; ok {
					for i := 0; i < 14; i++ {
						idx, _ := g.Board().Index(kalahSite(i))
						require.Equalf(t, tensor[i], s.Count(idx), "state %d, board[%d] = %s\n%s", n, i, kalahSite(i), s.Diagram())
					}
				}
				if legal, ok := pt.legal[n]; ok && !s.Over() {
					var want []string
					for _, a := range legal {
						want = append(want, kalahSite(a))
					}
					require.ElementsMatchf(t, want, s.Legal(), "state %d", n)
				}
			}
			check(0)
			for n, a := range pt.actions {
				require.NoErrorf(t, s.Play(kalahSite(a)), "state %d, action %d", n, a)
				check(n + 1)
			}
			require.True(t, s.Over(), "the playthrough ends the game")
			want := 0
			switch {
			case pt.returns[0] > pt.returns[1]:
				want = 1
			case pt.returns[1] > pt.returns[0]:
				want = 2
			}
			require.Equal(t, want, s.Outcome().Winner)
		})
	}
}

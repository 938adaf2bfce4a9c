package host

import (
	"io"
	"testing"
	"time"
)

func TestZZReproTime(t *testing.T) {
	src := miniSource("rep", ``)
	src = replaceOnce(src, `play = function(p, kind, s) m.finish(0, "done") end`,
		`play = function(p, kind, s) for i=1,1e7 do print(string.rep("x", 1000000)) end m.finish(0, "done") end`)
	for _, lim := range []Limits{{}, {Time: 3 * time.Second, Steps: 1 << 40}} {
		g, err := loadSource(t, "rep", src, WithLimits(lim), WithLog(io.Discard))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		err = g.Start().Play("a1")
		t.Logf("%v after %v", err, time.Since(start))
	}
}

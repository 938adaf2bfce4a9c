package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
)

// checkSpec checks a player spec against game g without keeping the
// player; the error names the bad part and the valid names or options.
func checkSpec(g *host.Game, spec string) error {
	_, err := player.New(g, spec)
	return err
}

// seeded returns spec with seed=seed added when it names no seed of its
// own, so that players built for different games and seats differ.
func seeded(spec string, seed uint64) string {
	sp, err := player.ParseSpec(spec)
	if err != nil {
		return spec
	}
	for _, o := range sp.Options {
		if o.Key == "seed" {
			return spec
		}
	}
	sp.Options = append(sp.Options, player.Option{Key: "seed", Value: strconv.FormatUint(seed, 10)})
	return sp.String()
}

// specHelp lists the players for help texts.
func specHelp() string {
	var b strings.Builder
	for _, line := range player.Describe() {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	return b.String()
}

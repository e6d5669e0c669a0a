// Package gengame writes large valid games for benchmarks: no game of the corpus is larger than
// 70 KB, and the speed goals also name 400 KB.
package gengame

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Layered writes a valid game of about size bytes: a board game skeleton plus many layered
// relations over a successor chain, so that rules depend on each other as in real games.
func Layered(size int) string {
	var b strings.Builder
	b.WriteString("; generated benchmark game\n(role red)\n(role blue)\n(init (control red))\n")
	b.WriteString("(<= (legal ?r noop) (role ?r) (not (true (control ?r))))\n")
	b.WriteString("(<= (legal ?r (step ?n)) (true (control ?r)) (num ?n))\n")
	b.WriteString("(<= (next (control blue)) (true (control red)))\n(<= (next (control red)) (true (control blue)))\n")
	b.WriteString("(<= terminal (true (count 100)))\n(<= (goal ?r 50) (role ?r))\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "(num %d)\n(succ %d %d)\n", i, i, i+1)
	}
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "; layer %d\n(<= (rel%d ?x ?y)\n    (succ ?x ?z)\n    (rel%d ?z ?y)\n    (not (blocked%d ?x)))\n", i, i, i/2, i%7)
		fmt.Fprintf(&b, "(<= (rel%d ?x ?x) (num ?x) (distinct ?x 0))\n(blocked%d %d)\n", i, i%7, i%100)
	}
	return b.String()
}

// MiddleRule returns the offset just inside the first rule that starts in the second half of
// src, after its "(<= ": where the benchmarks type.
func MiddleRule(src string) int {
	return strings.Index(src[len(src)/2:], "(<= ") + len(src)/2 + 4
}

// Inputs are the inputs of the editor benchmarks: a generated 400 KB game and the largest corpus
// games, read from corpusDir (the shared corpus beside the repository). A game that cannot be
// read is left out and skipped says why.
func Inputs(corpusDir string, skipped func(format string, args ...any)) map[string]string {
	out := map[string]string{"generated-400KB": Layered(400 << 10)}
	if src, err := Corpus(corpusDir, 400<<10); err != nil {
		skipped("skipping the corpus-made 400 KB file: %v (the shared corpus is not beside the repository)", err)
	} else {
		out["corpus-400KB"] = src
	}
	for _, name := range []string{
		"ggp-org__ggp-repository/war/root/games/duplicateStateLarge/duplicateStateLarge.kif",
		"ggp-org__ggp-repository/war/root/games/chess/chess.kif",
	} {
		data, err := os.ReadFile(filepath.Join(corpusDir, name))
		if err != nil {
			skipped("skipping corpus game %s: %v (the shared corpus is not beside the repository)", name, err)
			continue
		}
		out[filepath.Base(name)] = string(data)
	}
	return out
}

package game

import (
	"math"
	"slices"
	"testing"
)

// Play's statistics follow one distribution on both engines (64 lanes with generators of their
// own on the compiled engine, one generator on the interpreter): with fixed seeds, the first
// role's goal values (a chi-square test of two samples) and the mean length (a z test) of
// tic-tac-toe and of a game of three roles with simultaneous moves. The same seed gives the
// same statistics again on each engine.
func TestPlayEnginesAgree(t *testing.T) {
	for _, c := range []struct {
		path          string
		compiled, int int
	}{
		{"../testdata/games/tictactoe.kif", 40000, 8000},
		{"../testdata/games/race3.kif", 20000, 2000},
	} {
		stats := map[Engine]*PlayStats{}
		for _, e := range []Engine{Compiled, Interpreted} {
			g := loadFile(t, c.path, e)
			n := c.compiled
			if e == Interpreted {
				n = c.int
			}
			st, err := g.Playouts(bg, PlayOptions{Playouts: n, Seed: 3, MaxDepth: 200})
			if err != nil {
				t.Fatal(err)
			}
			again, err := g.Playouts(bg, PlayOptions{Playouts: n, Seed: 3, MaxDepth: 200})
			if err != nil {
				t.Fatal(err)
			}
			if st.MeanLength != again.MeanLength || st.First != again.First || st.Terminal != again.Terminal {
				t.Errorf("%s %s: seed 3 twice: %+v and %+v", c.path, e, st, again)
			}
			if st.Playouts != n || st.Engine != e {
				t.Fatalf("%s %s: %d playouts on %s", c.path, e, st.Playouts, st.Engine)
			}
			stats[e] = st
		}
		a, b := stats[Compiled], stats[Interpreted]
		// Chi-square of two samples of sizes na and nb over the goal values of the first role.
		na, nb := float64(a.Playouts), float64(b.Playouts)
		var keys []string
		for v := range a.Goals[0] {
			keys = append(keys, v)
		}
		for v := range b.Goals[0] {
			if !slices.Contains(keys, v) {
				keys = append(keys, v)
			}
		}
		chi2 := 0.0
		for _, v := range keys {
			x, y := float64(a.Goals[0][v]), float64(b.Goals[0][v])
			d := x*math.Sqrt(nb/na) - y*math.Sqrt(na/nb)
			chi2 += d * d / (x + y)
		}
		// p = 0.001 for 1 to 4 degrees of freedom.
		limit := []float64{10.8, 13.8, 16.3, 18.5}[min(len(keys)-2, 3)]
		if chi2 > limit {
			t.Errorf("%s: goal values of the first role: compiled %v, interpreted %v: chi-square %.2f", c.path, a.Goals[0], b.Goals[0], chi2)
		}
		va, vb := variance(a), variance(b)
		if z := (a.MeanLength - b.MeanLength) / math.Sqrt(va/na+vb/nb); math.Abs(z) > 3.3 {
			t.Errorf("%s: mean length: compiled %.3f, interpreted %.3f, z = %.2f", c.path, a.MeanLength, b.MeanLength, z)
		}
		t.Logf("%s: first role's goals compiled %v, interpreted %v; mean length %.3f and %.3f", c.path, a.Goals[0], b.Goals[0], a.MeanLength, b.MeanLength)
	}
}

// variance is the variance of the playouts' lengths.
func variance(st *PlayStats) float64 {
	s2 := 0.0
	for n, k := range st.Lengths {
		d := float64(n) - st.MeanLength
		s2 += d * d * float64(k)
	}
	return s2 / float64(st.Playouts)
}

package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// blockers is a game on a line of 12 squares where a blocker steps from ?u to ?v while a
// checking piece on ?t and the king on ?k stand so that ?v is between them, unless the king
// is still attacked from ?t with ?u vacated ("threat ?t ?k ?u", a copy of hit/3, read with every
// argument bound): chess's "a move blocking a check does not leave the king in check". The
// relaxed rule of legal derives each move once per checking square and king square; its
// group (true (check ?t)) (true (king ?k)) (between ?v ?t ?k) says only "some check through
// ?v". hit's magic set is threat's, copied whole.
func blockers() string {
	var b strings.Builder
	b.WriteString(`(role p)
(init (at 1)) (init (check 0)) (init (king 6)) (init (clock 0))
(<= (legal p (go ?u ?v)) (true (at ?u)) (succ ?u ?v) (true (check ?t)) (true (king ?k)) (between ?v ?t ?k) (not (threat ?t ?k ?u)))
(<= (legal p (go ?u ?v)) (true (at ?u)) (succ ?v ?u) (true (check ?t)) (true (king ?k)) (between ?v ?t ?k) (not (threat ?t ?k ?u)))
(<= (legal p wait) (true (clock ?c)))
(<= (threat ?t ?k ?i) (hit ?t ?k ?i))
(<= (hit ?t ?k ?i) (true (check ?t)) (num ?k) (num ?i) (distinct ?i ?k) (not (true (at ?k))))
(<= (next (at ?v)) (does p (go ?u ?v)))
(<= (next (at ?u)) (does p wait) (true (at ?u)))
(<= (next (check ?t)) (true (check ?s)) (succ ?s ?t))
(<= (next (check ?t)) (true (check ?t)) (does p wait))
(<= (next (king ?k)) (true (king ?k)))
(<= (next (clock ?n)) (true (clock ?m)) (succ ?m ?n))
(<= terminal (true (clock 9)))
(<= (goal p 100) (true (at 5)))
(<= (goal p 0) (not (true (at 5))))
`)
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "(num %d) (succ %d %d)\n", i, i, i+1)
		for t := 0; t < 12; t++ {
			for k := 0; k < 12; k++ {
				if t < i && i < k || k < i && i < t {
					fmt.Fprintf(&b, "(between %d %d %d)\n", i, t, k)
				}
			}
		}
	}
	return b.String()
}

// TestExistentialGroupsCorpus: mummymaze1p, which grounds restricted (its relaxed program as
// written is too big), has the same ground rules with the groups apart as without.
func TestExistentialGroupsCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: grounds mummymaze1p twice (some 6 s of CPU)")
	}
	path := filepath.Join(corpusDir, "ggp-org__ggp-repository/war/root/games/mummymaze1p/mummymaze1p.kif")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("SKIPPED: the shared corpus (%s) is not there: %v", corpusDir, err)
	}
	lim := DefaultGroundLimits
	lim.Timeout = 120 * time.Second
	if groundWith(t, string(src), lim, true) != groundWith(t, string(src), lim, false) {
		t.Error("the ground rules differ with the groups apart")
	}
}

// TestExistentialGroups: the restricted relaxed program evaluates the groups that only say
// "there is some ..." apart, and merges a magic set copied whole, while the ground rules stay
// those of the rules as written. Per game: the limit of ground rules that makes it ground
// restricted, and the relations "exists" and the magic relations merged into another.
func TestExistentialGroups(t *testing.T) {
	for _, c := range []struct {
		name          string
		src           string
		maxRules      int
		exists, moved int // at least
	}{
		// 3,523 ground rules as written, 115 restricted; both rules of legal share their group.
		{"blockers", blockers(), 300, 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := compileText(t, c.src).take()
			rg := g.relaxed(&magicPlan{existential: true})
			exists, merged := 0, 0
			for _, r := range rg.rels {
				if strings.HasPrefix(r.name, "exists ") && len(r.rules) > 0 {
					exists++
				}
				if strings.HasPrefix(r.name, "magic ") && len(r.rules) == 0 {
					merged++
				}
			}
			if exists < c.exists || merged < c.moved {
				t.Errorf("%d relations exists and %d magic relations merged, want at least %d and %d", exists, merged, c.exists, c.moved)
			}
			if len(rg.evalRules) < exists {
				t.Errorf("%d rules evaluated apart, for %d relations exists", len(rg.evalRules), exists)
			}
			lim := GroundLimits{MaxRules: c.maxRules}
			split := groundWith(t, c.src, lim, true)
			written := groundWith(t, c.src, lim, false)
			if split != written {
				t.Errorf("the ground rules differ with the groups apart:\n%s\nwithout:\n%s", split, written)
			}
		})
	}
}

// groundWith grounds src restricted by magic sets (past lim's ground rules as written), with
// existential groups apart or not, and returns its rules as text (groundText).
func groundWith(t *testing.T, src string, lim GroundLimits, existential bool) string {
	t.Helper()
	defer func(was bool) { existentialGroups = was }(existentialGroups)
	existentialGroups = existential
	p := compileText(t, src)
	gr, err := p.Ground(context.Background(), lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(gr.Rules) > lim.MaxRules {
		t.Fatalf("%d ground rules", len(gr.Rules))
	}
	return groundText(p, gr)
}

// TestInlinable: the relations of a restricted relaxed program read through their rules
// (ground_inline.go) are those read only negated whose rules copy one atom that depends on
// the state, with static literals of the head's variables.
func TestInlinable(t *testing.T) {
	base := `(role p) (init (at 1)) (init (king 2)) (num 1) (num 2) (num 3) (even 2)
(<= (next (at ?v)) (does p (go ?u ?v)))
(<= (next (king ?u)) (does p (go ?u ?v)))
(<= terminal (true (at 3))) (goal p 100)
`
	for _, c := range []struct {
		rules, want string
	}{
		// A copy of the state, and a copy with a static test.
		{`(<= (legal p (go ?u ?v)) (true (at ?u)) (num ?v) (true (king ?k)) (not (att ?k ?v)))
(<= (att ?k ?v) (true (at ?k)) (num ?v))
(<= (att ?k ?v) (true (king ?v)) (even ?k))`, "att"},
		// Read positively too.
		{`(<= (legal p (go ?u ?v)) (true (at ?u)) (num ?v) (true (king ?k)) (not (att ?k ?v)))
(<= (next (seen ?k)) (att ?k ?k))
(<= (att ?k ?v) (true (at ?k)) (num ?v))`, ""},
		// A variable of its own.
		{`(<= (legal p (go ?u ?v)) (true (at ?u)) (num ?v) (true (king ?k)) (not (att ?k ?v)))
(<= (att ?k ?v) (true (at ?k)) (num ?v) (true (king ?w)))`, ""},
		// Reads one that a rule reads negated too: that one is evaluated.
		{`(<= (legal p (go ?u ?v)) (true (at ?u)) (num ?v) (true (king ?k)) (not (att ?k ?v)) (not (hit ?k ?v)))
(<= (att ?k ?v) (hit ?k ?v))
(<= (hit ?k ?v) (true (at ?k)) (num ?v))`, "att"},
	} {
		g := compileText(t, base+c.rules).take()
		rg := g.relaxed(&magicPlan{existential: true, inline: true})
		b := &grounder{g: g, rg: rg}
		var got []string
		for r := range rg.inlinable(b.dynamic) {
			got = append(got, r.name)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("read through their rules: %q, want %q, in\n%s", got, c.want, c.rules)
		}
	}
}

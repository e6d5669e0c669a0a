package game

import (
	"errors"
	"testing"

	"github.com/gdl-lsp/gdl/eval"
)

// SuccessorKeys gives, for every joint move in the order of JointMoves, the key of the state
// Next gives; StateOfKey makes that state again from its key. On both engines.
func TestSuccessorKeys(t *testing.T) {
	for _, e := range []Engine{Compiled, Interpreted} {
		g := loadFile(t, "../testdata/games/race3.kif", e)
		s, err := g.Initial(bg)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 3; step++ {
			legal, err := g.Legal(bg, s)
			if err != nil {
				t.Fatal(err)
			}
			joints, total, err := g.JointMoves(bg, s, 1000)
			if err != nil || total != 8 {
				t.Fatalf("%s: %d joint moves, %v", e, total, err)
			}
			var keys []string
			err = g.SuccessorKeys(bg, s, legal, 0, func(k int, key []byte) {
				if k != len(keys) {
					t.Errorf("%s: joint move %d called as %d", e, len(keys), k)
				}
				keys = append(keys, string(key))
			})
			if err != nil || len(keys) != len(joints) {
				t.Fatalf("%s: %d keys for %d joint moves, %v", e, len(keys), len(joints), err)
			}
			for k, j := range joints {
				next, err := g.Next(bg, s, j)
				if err != nil {
					t.Fatal(err)
				}
				if next.Key() != keys[k] {
					t.Errorf("%s: joint move %s: the key differs from Next's", e, g.FormatJoint(j))
				}
				again, err := g.StateOfKey(keys[k])
				if err != nil || again.Key() != next.Key() || again.String() != next.String() {
					t.Errorf("%s: StateOfKey: %v, %q vs %q", e, err, again, next)
				}
				if l1, _ := g.Legal(bg, again); len(l1[0]) != len(legalOf(t, g, next)[0]) {
					t.Errorf("%s: the state made from its key has other legal moves", e)
				}
			}
			// A limit plays the first joint moves only.
			n := 0
			if err := g.SuccessorKeys(bg, s, legal, 3, func(int, []byte) { n++ }); err != nil || n != 3 {
				t.Errorf("%s: limit 3: %d, %v", e, n, err)
			}
			s, _ = g.Next(bg, s, joints[len(joints)-1])
		}
	}
}

func legalOf(t *testing.T, g *Game, s *State) [][]eval.Term {
	l, err := g.Legal(bg, s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// SuccessorKeys refuses what Next refuses; StateOfKey refuses keys that are not this game's.
func TestSuccessorKeysErrors(t *testing.T) {
	for _, e := range []Engine{Compiled, Interpreted} {
		g := loadFile(t, "../testdata/games/tictactoe.kif", e)
		s, _ := g.Initial(bg)
		legal := legalOf(t, g, s)
		bad := [][]eval.Term{legal[1], legal[0]} // noop for xplayer, marks for oplayer
		var illegal *IllegalMoveError
		if err := g.SuccessorKeys(bg, s, bad, 0, func(int, []byte) {}); !errors.As(err, &illegal) {
			t.Errorf("%s: illegal moves: %v", e, err)
		}
		var jerr *JointError
		if err := g.SuccessorKeys(bg, s, legal[:1], 0, func(int, []byte) {}); !errors.As(err, &jerr) {
			t.Errorf("%s: one list for two roles: %v", e, err)
		}
		joints, _ := g.ParseJointMoves("((mark 1 1) noop) (noop (mark 2 1)) ((mark 1 2) noop) (noop (mark 2 2)) ((mark 1 3) noop)")
		p, _ := g.Replay(bg, joints)
		var over *GameOverError
		if err := g.SuccessorKeys(bg, p.State(), legalOf(t, g, p.State()), 0, func(int, []byte) {}); !errors.As(err, &over) {
			t.Errorf("%s: terminal state: %v", e, err)
		}
		for _, key := range []string{"", "x", "c1234", "i123"} {
			if _, err := g.StateOfKey(key); err == nil {
				t.Errorf("%s: StateOfKey(%q) passes", e, key)
			}
		}
	}
}

// Issue 22, item 4: the compiled engine plays a state's joint moves in batches, so a state
// with more joint moves than a batch holds gets every one, in order, each with Next's key.
func TestSuccessorKeysBatches(t *testing.T) {
	src := "(role a) (role b) (role c) (role d) (init (t 0)) (<= (legal ?r (m ?n)) (role ?r) (index ?n)) " +
		"(<= (next (t ?n)) (does a (m ?n))) (<= terminal (true (t 9))) (<= (goal ?r 0) (role ?r)) " +
		"(index 0) (index 1) (index 2) (index 3) (index 4) (index 5) (index 6) (index 7) (index 8) (index 9)\n"
	g, _, err := Load(bg, src, Options{Engine: Compiled})
	if err != nil || g.Engine() != Compiled {
		t.Fatalf("%v %v", err, g.Why())
	}
	s, _ := g.Initial(bg)
	legal := legalOf(t, g, s)
	n := 0
	err = g.SuccessorKeys(bg, s, legal, 0, func(k int, key []byte) {
		if k != n {
			t.Fatalf("joint move %d called as %d", n, k)
		}
		n++
		if k%997 != 0 {
			return
		}
		next, err := g.Next(bg, s, jointNumber(legal, k))
		if err != nil || next.Key() != string(key) {
			t.Errorf("joint move %d: the key differs from Next's (%v)", k, err)
		}
	})
	if err != nil || n != 10_000 || n <= successorBatch/(1+8*g.net.Words()) {
		t.Fatalf("%d joint moves, %v", n, err)
	}
}

package ide

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
)

const smallGame = "; a counter\n(role robot)\n(init (p 1))\n(<= (legal robot go) (true (p 1)))\n(<= (next (p 2)) (does robot go))\n(<= terminal (true (p 2)))\n(goal robot 100)\n"

var limits = eval.Limits{Timeout: 20 * time.Second}

// openGame opens smallGame as the document "doc" of new Games.
func openGame(t *testing.T, opts GamesOptions) (context.Context, *Games, *Snapshot) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	gs := NewGames(ctx, opts)
	snap := NewSnapshot(1, smallGame)
	gs.Update("doc", snap)
	return ctx, gs, snap
}

// TestGameKeptAcrossCommentEdits: a document keeps its game (and what was evaluated on it) while
// its clauses stay the same; an edit of a clause, or other limits, make a new game and stop the
// old one's evaluations.
func TestGameKeptAcrossCommentEdits(t *testing.T) {
	ctx, gs, v1 := openGame(t, GamesOptions{})
	first := gs.gameOf("doc", v1, limits)
	if _, err := gs.Session("doc", v1, limits, analysis.BoardConfig{}).Answers(ctx, "(legal ?r ?m)", Wait{Budget: time.Minute}); err != nil {
		t.Fatal(err)
	}

	f := v1.File().Edit(2, 2, "n edited")
	v2 := v1.Next(2, f)
	gs.Update("doc", v2)
	if c := gs.gameOf("doc", v2, limits); c != first {
		t.Error("a comment edit made a new game")
	}
	first.mu.Lock()
	kept := first.answers[`answers 20s [] (legal ?r ?m)`]
	first.mu.Unlock()
	if kept == nil || !kept.ready() {
		t.Error("the answers did not carry over")
	}

	at := strings.Index(v2.Text(), "(goal")
	v3 := v2.Next(3, v2.File().Edit(at, at, "(init (q 1))\n"))
	gs.Update("doc", v3)
	third := gs.gameOf("doc", v3, limits)
	if third == first {
		t.Fatal("a clause edit kept the game")
	}
	if first.ctx.Err() == nil {
		t.Error("the replaced game was not stopped")
	}
	if c := gs.gameOf("doc", v3, eval.Limits{Timeout: time.Second}); c == third {
		t.Error("other limits kept the game")
	}

	// A request on a version that is no longer current gets a game of its own, stopped.
	old := gs.gameOf("doc", v1, limits)
	if old == first || old.ctx.Err() == nil {
		t.Error("an old version got a running game")
	}
	_, err := gs.Session("doc", v1, limits, analysis.BoardConfig{}).Answers(ctx, "(legal ?r ?m)", Wait{Budget: time.Minute})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("answers on an old version: %v, want canceled", err)
	}
}

// TestClosedDocumentForgotten: closing a document drops its game and its joint moves.
func TestClosedDocumentForgotten(t *testing.T) {
	ctx, gs, snap := openGame(t, GamesOptions{})
	s := gs.Session("doc", snap, limits, analysis.BoardConfig{})
	if st, err := s.Play(ctx, []string{"go"}); err != nil || st.Step != 1 {
		t.Fatalf("play: %+v, %v", st, err)
	}
	c := gs.gameOf("doc", snap, limits)
	gs.Close("doc")
	if c.ctx.Err() == nil {
		t.Error("the closed document's game was not stopped")
	}
	if h := s.History(); len(h) != 0 {
		t.Errorf("the closed document's moves are kept: %v", h)
	}
}

// TestStillRunning: a request that cannot wait says the evaluation is still running; the
// evaluation goes on, the refresh function is called when it is done, and a later request gets
// the result from the memo.
func TestStillRunning(t *testing.T) {
	refreshed := make(chan struct{}, 1)
	ctx, gs, snap := openGame(t, GamesOptions{Refresh: func() {
		select {
		case refreshed <- struct{}{}:
		default:
		}
	}})
	s := gs.Session("doc", snap, limits, analysis.BoardConfig{})
	c := gs.gameOf("doc", snap, limits)
	// Hold the lens slots: the lens's evaluation waits until one is free.
	for range cap(c.lenses) {
		c.lenses <- struct{}{}
	}
	_, err := s.Answers(ctx, "(legal ?r ?m)", Wait{Budget: 0, Refresh: true})
	if !errors.Is(err, ErrStillRunning) {
		t.Fatalf("answers while the lens slots are taken: %v, want ErrStillRunning", err)
	}
	<-c.lenses
	<-refreshed
	qa, err := s.Answers(ctx, "(legal ?r ?m)", Wait{Budget: 0})
	if err != nil || qa.Count != 1 {
		t.Fatalf("answers after the refresh: %+v, %v", qa, err)
	}
}

// TestUrgentAtOnce: a hover's evaluation (urgent) starts at once while the lenses' evaluations
// wait for a slot, and a lens's evaluation asked for again by a hover starts at once.
func TestUrgentAtOnce(t *testing.T) {
	_, gs, snap := openGame(t, GamesOptions{})
	c := gs.gameOf("doc", snap, limits)
	for range cap(c.lenses) {
		c.lenses <- struct{}{}
	}
	job := func(context.Context) (*Answers, error) { return &Answers{}, nil }
	lens1 := memo(c, c.answers, "lens 1", false, time.Minute, job)
	lens2 := memo(c, c.answers, "lens 2", false, time.Minute, job)
	<-memo(c, c.answers, "hover", true, time.Minute, job).done
	<-memo(c, c.answers, "lens 1", true, time.Minute, job).done
	if !lens1.ready() {
		t.Error("the lens asked for by a hover is not done")
	}
	if lens2.ready() {
		t.Error("a lens ran with every lens slot taken")
	}
	for range cap(c.lenses) {
		<-c.lenses
	}
	<-lens2.done
}

package ide

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/board"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/syntax"
)

// gameSession opens a game of testdata/games as a document and returns its session.
func gameSession(t *testing.T, file string) *Session {
	t.Helper()
	src, err := os.ReadFile("../testdata/games/" + file)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	gs := NewGames(ctx, GamesOptions{})
	f, _ := syntax.ParseDialect(string(src), syntax.Detect(file, string(src)))
	snap := SnapshotOf(1, f)
	name := "file:///games/" + file
	gs.Update(name, snap)
	return gs.Session(name, snap, limits, analysis.BoardConfig{})
}

// TestComputerMoveFromBelief: the game view's computer move plays a GDL-II role from what it
// knows. Monty Hall's contestant, shown a goat behind door 3 after picking door 2, switches
// whether the car is behind door 1 or door 2: it does not know which (a player that saw the
// state would keep its door when the car is behind it).
func TestComputerMoveFromBelief(t *testing.T) {
	ctx := context.Background()
	s := gameSession(t, "montyhall.kif")
	for seed := range uint64(10) {
		for _, line := range [][][]string{
			{{"noop", "(hide 1)"}, {"(pick 2)", "noop"}, {"noop", "(reveal 3)"}},
			{{"noop", "(hide 2)"}, {"(pick 2)", "noop"}, {"noop", "(reveal 3)"}},
		} {
			if _, err := s.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			for _, joint := range line {
				if st, err := s.Play(ctx, joint); err != nil || st.Error != "" {
					t.Fatalf("%v: %v %v", joint, err, st)
				}
			}
			st, err := s.ComputerMove(ctx, ComputerOptions{Playouts: 300, Seed: seed})
			if err != nil || st.Error != "" {
				t.Fatalf("computer move: %v %v", err, st)
			}
			if len(st.Computer) != 1 || st.Computer[0].Move != "switch" || st.Computer[0].States != 2 {
				t.Errorf("car behind door %s, seed %d: %+v", line[0][1], seed, st.Computer)
			}
		}
	}
}

// hiddenToken is a GDL-II game on a 2x2 board: random hides a token on the first row, which
// the seeker does not see; the second row stays empty.
const hiddenToken = `(role random) (role seeker)
(index 1) (index 2)
(<= (init (cell ?r ?c b)) (index ?r) (index ?c))
(init (phase hide))
(<= (legal random (hide ?c)) (true (phase hide)) (index ?c))
(<= (legal random noop) (true (phase look)))
(<= (legal seeker noop) (true (phase hide)))
(<= (legal seeker (look ?c)) (true (phase look)) (index ?c))
(<= (next (cell 1 ?c t)) (does random (hide ?c)))
(<= (next (cell ?r ?c b)) (true (cell ?r ?c b)) (not (does random (hide ?c))))
(<= (next (cell ?r ?c b)) (true (cell ?r ?c b)) (distinct ?r 1))
(<= (next (cell ?r ?c t)) (true (cell ?r ?c t)))
(<= (next (phase look)) (true (phase hide)))
(<= (next (phase done)) (true (phase look)))
(<= (sees seeker hidden) (does random (hide ?c)))
(<= (sees seeker (seen ?c ?x)) (does seeker (look ?c)) (true (cell 1 ?c ?x)))
(<= terminal (true (phase done)))
(<= (goal seeker 100) (true (phase done)))
(<= (goal seeker 0) (not (true (phase done))))
`

// TestViewAs: the state as a GDL-II role knows it: the squares that are the same in every
// state it may be in are drawn, the others unknown; the true state stays in the state's view.
func TestViewAs(t *testing.T) {
	ctx := context.Background()
	gs := NewGames(ctx, GamesOptions{})
	f, _ := syntax.Parse(hiddenToken)
	snap := SnapshotOf(1, f)
	gs.Update("file:///hidden.kif", snap)
	s := gs.Session("file:///hidden.kif", snap, limits, analysis.BoardConfig{})
	st, err := s.Play(ctx, []string{"(hide 2)", "noop"})
	if err != nil || st.Error != "" || st.Percepts == nil {
		t.Fatalf("%v %+v", err, st)
	}
	if len(st.View.Boards) != 1 {
		t.Fatalf("boards: %+v", st.View)
	}
	draw := func(v *board.View) string {
		var rows []string
		for _, row := range v.Boards[0].Cells {
			var cells []string
			for _, c := range row {
				cells = append(cells, c.Text)
			}
			rows = append(rows, strings.Join(cells, ","))
		}
		return strings.Join(rows, " / ")
	}
	if got := draw(st.View); got != ",t / ," {
		t.Errorf("the true board: %q", got)
	}
	seeker := s.ViewAs(ctx, st, "seeker")
	if seeker.Error != "" || seeker.States != 2 || !seeker.Complete {
		t.Fatalf("seeker: %+v", seeker)
	}
	if got := draw(seeker.View); got != "?,? / ," {
		t.Errorf("the seeker's board: %q", got)
	}
	if len(seeker.Unknown) != 2 || seeker.Unknown[0] != (board.Square{Board: 0, Row: 0, Column: 0}) {
		t.Errorf("unknown squares: %v", seeker.Unknown)
	}
	if !slices.Contains(seeker.Known, "(phase look)") || slices.Contains(seeker.Known, "(cell 1 2 t)") {
		t.Errorf("known: %v", seeker.Known)
	}
	// Looking under cup 2 shows the token: the seeker knows the whole board.
	st, err = s.Play(ctx, []string{"noop", "(look 2)"})
	if err != nil || st.Error != "" {
		t.Fatalf("%v %+v", err, st)
	}
	seeker = s.ViewAs(ctx, st, "seeker")
	if got := draw(seeker.View); got != ",t / ," || seeker.States != 1 || len(seeker.Unknown) != 0 {
		t.Errorf("after looking: %q, %+v", got, seeker)
	}
	random := s.ViewAs(ctx, st, "random")
	if got := draw(random.View); got != ",t / ," {
		t.Errorf("random, who hid the token: %q", got)
	}
	if bad := s.ViewAs(ctx, st, "nobody"); bad.Error == "" {
		t.Error("a role the game does not have")
	}
	// Monty Hall has no board: the car is an unknown fluent off the boards.
	m := gameSession(t, "montyhall.kif")
	for _, joint := range [][]string{{"noop", "(hide 1)"}, {"(pick 2)", "noop"}, {"noop", "(reveal 3)"}} {
		if st, err = m.Play(ctx, joint); err != nil || st.Error != "" {
			t.Fatalf("%v %+v", err, st)
		}
	}
	contestant := m.ViewAs(ctx, st, "contestant")
	if !slices.Contains(contestant.UnknownOthers, "prize") || slices.Contains(contestant.UnknownOthers, "shown") || contestant.States != 2 {
		t.Errorf("contestant: %+v", contestant)
	}
}

// A state command that waits for the document's turn while the computer move that holds it
// has not begun to think yet (it replays the history and finds the legal moves first) cuts the
// thinking short when it begins. It used to wait for the whole search: a minute with a playout
// budget, and the lsp test TestComputerMoveYields failed once on CI.
func TestWaitingCommandCutsLaterThinking(t *testing.T) {
	var ss sessions
	release, err := ss.take(context.Background(), "doc")
	if err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() {
		back, err := ss.take(context.Background(), "doc")
		if err == nil {
			back()
		}
		waited <- err
	}()
	// Let the command reach its wait: were the thinking to begin first, the command would find
	// it and cut it short anyway, so the test passes either way with the fix.
	time.Sleep(50 * time.Millisecond)
	think, stop := context.WithCancel(context.Background())
	forget := ss.thinking("doc", stop)
	select {
	case <-think.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the thinking that began while a command waited was not cut short")
	}
	forget()
	release()
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	// Thinking with no command waiting (the one that waited has had its turn) runs on.
	release, _ = ss.take(context.Background(), "doc")
	defer release()
	think, stop = context.WithCancel(context.Background())
	defer ss.thinking("doc", stop)()
	if think.Err() != nil {
		t.Error("thinking cut short with no command waiting")
	}
}

// The game view's computer move and playouts do not wait for a network that takes seconds to
// build (chess, once it fits the budget of grounding): after fastWait they run on the
// document's interpreter while the build goes on, and on the network once it is made.
func TestFastGameDoesNotWaitForTheBuild(t *testing.T) {
	ctx := context.Background()
	s := gameSession(t, "tictactoe.kif")
	c := s.game()
	slow := newResult[*game.Game]() // a build that has not finished
	c.view.mu.Lock()
	c.view.build = slow
	c.view.mu.Unlock()
	st, err := s.ComputerMove(ctx, ComputerOptions{MoveTime: 50 * time.Millisecond})
	if err != nil || st.Error != "" || len(st.Computer) != 1 || st.Computer[0].Engine != game.Interpreted {
		t.Fatalf("while the network is built: %+v, %v", st, err)
	}
	if rep := s.Playouts(ctx, 10, 1, time.Minute); rep.Error != "" || rep.Report.Engine != game.Interpreted {
		t.Fatalf("playouts while the network is built: %+v", rep)
	}
	fg, err := game.New(ctx, c.g.Analysis(), game.Options{Engine: game.Compiled})
	if err != nil {
		t.Fatal(err)
	}
	slow.finish(fg, nil)
	if st, err = s.ComputerMove(ctx, ComputerOptions{MoveTime: 50 * time.Millisecond}); err != nil || len(st.Computer) != 1 || st.Computer[0].Engine != game.Compiled {
		t.Fatalf("once the network is built: %+v, %v", st, err)
	}
}

package prolog_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gamecorpus "github.com/gdl-lsp/gdl/internal/corpus"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/prolog"
	"github.com/gdl-lsp/gdl/syntax"
)

const corpus = "../../shared/games"

func needSWI(t testing.TB) string {
	p, err := exec.LookPath("swipl")
	if err != nil {
		gamecorpus.Skipf(t, "SKIPPED: swipl (Debian swi-prolog-nox) is not installed; scripts/test.sh installs it")
	}
	return p
}

func convertFile(t testing.TB, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := syntax.Parse(string(data))
	out, blocking := prolog.Convert(analysis.Analyze(f, nil))
	if blocking != nil {
		t.Fatalf("%s: refused: %v", path, blocking[0].Message)
	}
	return out
}

// runSWI loads program and driver and runs goal, returning standard output. A run that does not
// end within timeout (wall time) gives a *swiTimeout with the output printed until then; any other
// failure, including an ERROR message from SWI-Prolog, gives a *swiError with its stderr.
func runSWI(t testing.TB, swipl, program, driver, goal string, timeout time.Duration) (string, error) {
	dir := t.TempDir()
	pl := filepath.Join(dir, "game.pl")
	if err := os.WriteFile(pl, []byte(program+driver), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, swipl, "-q", "-g", "consult('"+pl+"'),"+goal+",halt", "-t", "halt(1)")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return out.String(), &swiTimeout{timeout}
	}
	if err == nil && strings.Contains(errb.String(), "ERROR") {
		err = errors.New("SWI-Prolog reported an error")
	}
	if err != nil {
		return out.String(), &swiError{err, errb.String()}
	}
	return out.String(), nil
}

// swiError is a run of SWI-Prolog that failed: an error in the program or the goal.
type swiError struct {
	err    error
	stderr string
}

func (e *swiError) Error() string { return e.err.Error() + ": " + e.stderr }

// swiTimeout is a run of SWI-Prolog stopped because it took longer than its time limit.
type swiTimeout struct{ after time.Duration }

func (e *swiTimeout) Error() string {
	return fmt.Sprintf("SWI-Prolog did not finish within %s", e.after)
}

// TestTicTacToeInProlog checks the converted program against ggp-base's ProverStateMachineTest
// expectations for ticTacToe.
func TestTicTacToeInProlog(t *testing.T) {
	swipl := needSWI(t)
	path := filepath.Join(corpus, "ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif")
	if _, err := os.Stat(path); err != nil {
		gamecorpus.Skipf(t, "SKIPPED: ../shared/games is not there")
	}
	prog := convertFile(t, path)
	goal := `gdl_roles(Rs), gdl_print_list(roles, Rs), gdl_init(S0), gdl_set_state(S0),
	  forall(member(R, Rs), (gdl_legal(R, Ms), length(Ms, N), format("~w ~w~n", [R, N]))),
	  foldl([J, S, S1]>>(gdl_set_state(S), gdl_next(Rs, J, S1)),
	    [[mark('1','1'), noop], [noop, mark('1','3')], [mark('3','1'), noop], [noop, mark('2','2')], [mark('2','1'), noop]], S0, SN),
	  gdl_set_state(SN), ( gdl_terminal -> writeln(terminal) ; writeln(running) ),
	  forall(member(R, Rs), (gdl_goals(R, Gs), format("goal ~w ~w~n", [R, Gs])))`
	out, err := runSWI(t, swipl, prog, prolog.WalkDriver, goal, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	want := "roles xplayer oplayer\nxplayer 9\noplayer 1\nterminal\ngoal xplayer [100]\ngoal oplayer [0]\n"
	if out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}

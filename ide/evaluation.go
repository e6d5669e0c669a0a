package ide

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gdl-lsp/gdl/game"
)

// Evaluation is what the evaluated features (the answers in a hover, the counts in lens titles,
// inlay hints) need of a document's game: the answers of a query and the document's current
// state, each within a budget, and the words for an evaluation's error. Games.Session gives the
// one implementation, on the game API; features never call the game directly.
type Evaluation interface {
	// Answers returns the answers of a query (KIF text) in the document's current state.
	Answers(ctx context.Context, query string, w Wait) (*Answers, error)
	// Position returns the document's current state.
	Position(ctx context.Context, w Wait) (*Position, error)
	// Explain words an evaluation error for the snapshot the evaluation was asked about (the
	// line of a rule named in a limit error is the line in that snapshot).
	Explain(err error) string
	// Timeout is the time limit of one evaluation under the user's settings.
	Timeout() time.Duration
	// History returns the joint moves played in the document's session (one move per role),
	// which its current state replays.
	History() [][]string
}

// Wait says how a feature waits for an evaluation: it is computed once per game and state and
// shared by every request that asks for it, and each request waits only as long as its own
// budget allows.
type Wait struct {
	// Budget is how long the request waits; then it gets ErrStillRunning and the evaluation goes
	// on (a later request gets its result).
	Budget time.Duration
	// Urgent puts the evaluation before those of the code lenses: someone is looking (a hover,
	// the hints on screen).
	Urgent bool
	// Refresh asks, when the evaluation finishes after the budget, for the features to be asked
	// again (lenses, hints; Games' refresh function).
	Refresh bool
	// Timeout bounds the evaluation itself, at most the user's time limit (0: that limit).
	Timeout time.Duration
}

// ErrStillRunning says that an evaluation did not finish within the caller's budget; it goes on
// and a later request gets its result.
var ErrStillRunning = errors.New("evaluation still running")

// Answers are what a query gives in a document's current state (see game.Answers).
type Answers struct {
	Count      int      // distinct answers (at most the memo's cap; More says whether there are others)
	More       bool     // there are more answers than Count
	Answers    []string // spelled out, sorted
	NeedsMove  bool     // a query about a joint move: answered after each legal joint move
	ByMove     []MoveAnswers
	JointMoves int   // a query about a joint move: the legal joint moves of the state
	Stopped    error // why not every joint move was evaluated
	Played     int   // the joint moves played to reach the state
}

// MoveAnswers are the answers of a query about a joint move after one joint move.
type MoveAnswers struct {
	Move    []string // one move per role, in role order
	Answers []string
	Count   int
	More    bool
	Err     error
}

// countText words how many answers there are: "10 answers", "1000+ answers" when the
// evaluation stopped looking.
func countText(n int, more bool, noun string) string {
	if more {
		return fmt.Sprintf("%d+ %ss", n, noun)
	}
	return plural(n, noun)
}

// Position is a document's current state: the initial state followed by the joint moves
// played, as far as they still apply to the document's rules.
type Position struct {
	Fluents []string   // the state's fluents, sorted
	Played  [][]string // the joint moves replayed, one move per role
	Err     error      // why the replay stopped before the last joint move played (a *game.MoveError)

	state *game.State
}

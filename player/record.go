package player

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrorKind says why the manager replaced a player's move, or what went wrong with a message.
type ErrorKind string

const (
	Late        ErrorKind = "late"        // no answer within the clock
	Unreadable  ErrorKind = "unreadable"  // the answer is not one term of the game
	Illegal     ErrorKind = "illegal"     // the move is not legal in the state
	Refused     ErrorKind = "refused"     // an HTTP status other than 200, busy, or an answer other than the one expected
	Unreachable ErrorKind = "unreachable" // the connection failed or closed before an answer
)

// Record is a match as the runner (RunMatch, the game manager of GGP) ran it: the JSON of `gdl
// match --format json` and --record, and the editor's gdl.runMatch.
// Lists per role are in role order.
type Record struct {
	MatchID    string    `json:"match_id"`
	Game       string    `json:"game"`
	Roles      []string  `json:"roles"`
	Players    []string  `json:"players"`
	GDLII      bool      `json:"gdl_ii"`
	StartClock float64   `json:"startclock"` // seconds
	PlayClock  float64   `json:"playclock"`  // seconds
	Started    time.Time `json:"started"`
	Engine     string    `json:"engine"` // the manager's engine
	Start      []Answer  `json:"start"`  // the answers to START
	Initial    []string  `json:"initial_state"`
	Moves      []Step    `json:"moves"`
	End        []Answer  `json:"end"`   // the answers to STOP (or ABORT)
	Goals      []int     `json:"goals"` // at the end; -1: none, or several
	Completed  bool      `json:"completed"`
	// Aborted says why the match ended before a terminal state (cancelled, the step limit, a
	// state that cannot be evaluated).
	Aborted string  `json:"aborted,omitempty"`
	Errors  int     `json:"errors"` // moves the manager replaced
	Seconds float64 `json:"seconds"`
	// StatesOmitted counts the steps whose state the record leaves out: it keeps at most
	// MaxRecordFluents fluents of states (a game whose state grows on every move would fill the
	// memory), the first ones; the joint moves replay the rest.
	StatesOmitted int `json:"states_omitted,omitempty"`
}

// MaxRecordFluents bounds the fluents of the states a Record keeps, all steps together.
const MaxRecordFluents = 1_000_000

// Step is one joint move of a match.
type Step struct {
	Step    int      `json:"step"`    // 1 for the first joint move
	Joint   []string `json:"joint"`   // the moves played, as KIF
	Answers []Answer `json:"answers"` // what each player answered
	State   []string `json:"state"`   // the fluents of the state after it, sorted
	// Percepts (GDL-II) are what each role perceived from the joint move.
	Percepts [][]string `json:"percepts,omitempty"`
	Terminal bool       `json:"terminal"`
}

// Answer is a player's answer to one message.
type Answer struct {
	Role  string    `json:"role"`
	Reply string    `json:"reply,omitempty"` // as received (at most 200 bytes shown)
	Move  string    `json:"move,omitempty"`  // PLAY: the move played for the role
	Ms    float64   `json:"ms"`              // the time to the answer, in milliseconds
	Kind  ErrorKind `json:"error_kind,omitempty"`
	Error string    `json:"error,omitempty"` // PLAY: why the move was replaced by a random legal one
}

// JointMoves returns the joint moves of the match, one move per role each.
func (r *Record) JointMoves() [][]string {
	out := make([][]string, len(r.Moves))
	for i, s := range r.Moves {
		out[i] = s.Joint
	}
	return out
}

// Summary is one line: how the match ended and the goals.
func (r *Record) Summary() string {
	var b strings.Builder
	if r.Completed {
		fmt.Fprintf(&b, "terminal after %d joint moves", len(r.Moves))
	} else {
		fmt.Fprintf(&b, "stopped after %d joint moves: %s", len(r.Moves), r.Aborted)
	}
	if r.Goals != nil {
		b.WriteString(": ")
		for i, role := range r.Roles {
			if i > 0 {
				b.WriteString(", ")
			}
			if r.Goals[i] < 0 {
				fmt.Fprintf(&b, "%s no goal", role)
			} else {
				fmt.Fprintf(&b, "%s %d", role, r.Goals[i])
			}
		}
	}
	if r.Errors > 0 {
		fmt.Fprintf(&b, "; %d moves replaced", r.Errors)
	}
	return b.String()
}

// WriteText writes the record as a readable transcript.
func (r *Record) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "match %s of %s (start clock %gs, play clock %gs%s)\n", r.MatchID, r.Game, r.StartClock, r.PlayClock, map[bool]string{true: ", GDL-II", false: ""}[r.GDLII])
	for i, role := range r.Roles {
		fmt.Fprintf(&b, "  %s: %s\n", role, r.Players[i])
	}
	answers := func(label string, as []Answer) {
		var parts []string
		for _, a := range as {
			if a.Kind != "" {
				parts = append(parts, fmt.Sprintf("%s %s: %s (%s)", a.Role, a.Kind, a.Error, ms(a.Ms)))
			} else if a.Reply != "" {
				parts = append(parts, fmt.Sprintf("%s %s (%s)", a.Role, a.Reply, ms(a.Ms)))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(&b, "%s: %s\n", label, strings.Join(parts, "; "))
		}
	}
	answers("start", r.Start)
	for _, s := range r.Moves {
		var times []string
		for _, a := range s.Answers {
			if a.Reply != "" || a.Kind != "" {
				times = append(times, fmt.Sprintf("%s %s", a.Role, ms(a.Ms)))
			}
		}
		fmt.Fprintf(&b, "%3d. (%s)", s.Step, strings.Join(s.Joint, " "))
		if len(times) > 0 {
			fmt.Fprintf(&b, "  [%s]", strings.Join(times, ", "))
		}
		b.WriteString("\n")
		for _, a := range s.Answers {
			if a.Kind != "" {
				fmt.Fprintf(&b, "     %s %s: %s; played %s instead\n", a.Role, a.Kind, a.Error, a.Move)
			}
		}
		for i, ps := range s.Percepts {
			if len(ps) > 0 {
				fmt.Fprintf(&b, "     %s sees %s\n", r.Roles[i], strings.Join(ps, " "))
			}
		}
	}
	answers("end", r.End)
	if r.StatesOmitted > 0 {
		fmt.Fprintf(&b, "(the states of the last %d steps are left out of the record: it keeps %d fluents at most)\n", r.StatesOmitted, MaxRecordFluents)
	}
	fmt.Fprintf(&b, "%s (%.1fs)\n", r.Summary(), r.Seconds)
	_, err := io.WriteString(w, b.String())
	return err
}

func ms(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%.2fs", v/1000)
	}
	return fmt.Sprintf("%.0fms", v)
}

// Abbreviate shortens text for a record or a log line: its layout collapsed to single spaces, at most n
// bytes (cut at a character's start), "…" when cut.
func Abbreviate(s string, n int) string {
	cut := len(s) > 4*n+8
	if cut {
		s = s[:4*n+8] // enough for n bytes after collapsing any layout but long runs of it
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		if cut {
			return s + "…"
		}
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

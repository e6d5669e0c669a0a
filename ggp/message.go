// Package ggp speaks the General Game Playing protocol: a game manager posts plain-text KIF
// messages to each player's HTTP address and the player answers each within a clock.
//
//	(INFO)                                                     available | busy
//	(PREVIEW (<rules>) <previewclock>)                         ready | busy
//	(START <id> <role> (<rules>) <startclock> <playclock>)     ready
//	(PLAY <id> <joint move> | nil)                             <move>
//	(STOP <id> <joint move>)                                   done
//	(ABORT <id>)                                               done
//
// GDL-II (games with sees, or with the random role) replaces the joint move with the turn, the
// player's own last move and its percepts: (PLAY <id> <turn> <move> | nil (<percepts>) | nil).
//
// The package has the messages (Parse, Message.String), the player (Player: an http.Handler
// over the built-in players of package player), and the seat of a player at a URL (HTTPSeat)
// in a match of package player's runner (player.RunMatch: clocks, the replacement of illegal,
// late and unreadable moves, the match record). It sits above package player; only it and the
// CLI know HTTP.
package ggp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/player"
)

// Kind is the kind of a message.
type Kind string

const (
	Info    Kind = "INFO"
	Preview Kind = "PREVIEW" // a game to look at before a match of it may start (ggp-base)
	Start   Kind = "START"
	Play    Kind = "PLAY"
	Stop    Kind = "STOP"
	Abort   Kind = "ABORT"
)

// Message is a message of the manager to a player.
type Message struct {
	Kind    Kind
	MatchID string // all but INFO and PREVIEW
	// START (and PREVIEW: the rules, and its clock in StartClock)
	Role                  string
	Rules                 string // the game description: the text inside its parentheses, as sent
	StartClock, PlayClock time.Duration
	// PLAY and STOP of GDL: the joint move played last, one move per role in role order, as KIF;
	// nil in the first PLAY (`nil` on the wire).
	Joint []string
	// PLAY and STOP of GDL-II: the turn (0 in the first PLAY), the player's own last move
	// ("" for nil) and what it perceived (nil for nil).
	II       bool
	Turn     int
	LastMove string
	Percepts []string
}

// Parse reads a message. Keywords and nil are read in any case; comments and any layout are
// allowed. Every error is a *SyntaxError with the place in the message.
func Parse(text string) (*Message, error) { return parse(text, messageLimits) }

func parse(text string, lim readLimits) (*Message, error) {
	es, err := readExprs(text, lim)
	if err != nil {
		return nil, err
	}
	if len(es) == 0 {
		return nil, syntaxError(text, len(text), "empty message: expected (INFO), (PREVIEW ...), (START ...), (PLAY ...), (STOP ...) or (ABORT ...)")
	}
	if len(es) > 1 {
		return nil, syntaxError(text, es[1].Start, "a message is one list; text follows its end")
	}
	e := es[0]
	if !e.IsList || len(e.List) == 0 || e.List[0].IsList {
		return nil, syntaxError(text, e.Start, "a message is a list starting with INFO, PREVIEW, START, PLAY, STOP or ABORT")
	}
	kw := e.List[0]
	ma := &msgArgs{text: text, e: e, args: e.List[1:], m: &Message{Kind: Kind(strings.ToUpper(kw.Atom))}}
	var read func() error
	switch ma.m.Kind {
	case Info:
		read = func() error { return ma.want(0, "") }
	case Preview:
		read = ma.preview
	case Start:
		read = ma.start
	case Play, Stop:
		read = ma.playOrStop
	case Abort:
		read = ma.abort
	default:
		return nil, syntaxError(text, kw.Start, "unknown message %s: expected INFO, PREVIEW, START, PLAY, STOP or ABORT", kw.Atom)
	}
	if err := read(); err != nil {
		return nil, err
	}
	return ma.m, nil
}

// msgArgs is a message being read: its text, its list, the arguments after its keyword, and
// the Message they fill.
type msgArgs struct {
	text string
	e    *Expr
	args []*Expr
	m    *Message
}

// want checks that the message has n arguments; shape shows them in the error.
func (ma *msgArgs) want(n int, shape string) error {
	args := ma.args
	if len(args) == n {
		return nil
	}
	at := ma.e.End - 1
	if len(args) > n {
		at = args[n].Start
	}
	takes := fmt.Sprintf("%d arguments", n)
	switch n {
	case 0:
		takes = "no arguments"
	case 1:
		takes = "1 argument"
	}
	return syntaxError(ma.text, at, "%s takes %s%s; found %d", ma.m.Kind, takes, shape, len(args))
}

// preview reads (PREVIEW (<rules>) <preview clock>).
func (ma *msgArgs) preview() (err error) {
	if err = ma.want(2, ": (PREVIEW (<rules>) <preview clock>)"); err != nil {
		return err
	}
	if ma.m.Rules, err = rulesOf(ma.text, ma.args[0]); err != nil {
		return err
	}
	ma.m.StartClock, err = clock(ma.text, ma.args[1], "the preview clock")
	return err
}

// start reads (START <match id> <role> (<rules>) <start clock> <play clock>).
func (ma *msgArgs) start() (err error) {
	if err = ma.want(5, ": (START <match id> <role> (<rules>) <start clock> <play clock>)"); err != nil {
		return err
	}
	m, text, args := ma.m, ma.text, ma.args
	if m.MatchID, err = atom(text, args[0], "the match id"); err != nil {
		return err
	}
	if m.Role, err = atom(text, args[1], "the role"); err != nil {
		return err
	}
	if m.Rules, err = rulesOf(text, args[2]); err != nil {
		return err
	}
	if m.StartClock, err = clock(text, args[3], "the start clock"); err != nil {
		return err
	}
	m.PlayClock, err = clock(text, args[4], "the play clock")
	return err
}

// playOrStop reads (PLAY <match id> <joint move>) or (STOP ...), and the GDL-II forms with a
// turn, the role's move and its percepts.
func (ma *msgArgs) playOrStop() (err error) {
	m, text, args := ma.m, ma.text, ma.args
	if len(args) == 4 {
		return m.parseII(text, args)
	}
	if err = ma.want(2, fmt.Sprintf(": (%s <match id> <joint move>), or 4 in GDL-II: (%s <match id> <turn> <move> <percepts>)", m.Kind, m.Kind)); err != nil {
		return err
	}
	if m.MatchID, err = atom(text, args[0], "the match id"); err != nil {
		return err
	}
	j := args[1]
	if j.Keyword("nil") {
		return nil
	}
	if !j.IsList || len(j.List) == 0 {
		return syntaxError(text, j.Start, "the joint move must be a list of one move per role, or nil, not %s", j.String())
	}
	for _, mv := range j.List {
		m.Joint = append(m.Joint, mv.String())
	}
	return nil
}

// abort reads (ABORT <match id>).
func (ma *msgArgs) abort() (err error) {
	if err = ma.want(1, ": (ABORT <match id>)"); err != nil {
		return err
	}
	ma.m.MatchID, err = atom(ma.text, ma.args[0], "the match id")
	return err
}

// rulesOf returns the text inside the list of a game description.
func rulesOf(text string, e *Expr) (string, error) {
	if !e.IsList {
		return "", syntaxError(text, e.Start, "the game description must be a list of rules in parentheses, not %s", e.Atom)
	}
	return text[e.Start+1 : e.End-1], nil
}

// parseII reads the arguments of a GDL-II PLAY or STOP.
func (m *Message) parseII(text string, args []*Expr) error {
	var err error
	m.II = true
	if m.MatchID, err = atom(text, args[0], "the match id"); err != nil {
		return err
	}
	t := args[1]
	n, convErr := strconv.Atoi(t.Atom)
	if t.IsList || convErr != nil || n < 0 {
		return syntaxError(text, t.Start, "the turn must be a whole number from 0, not %s", t.String())
	}
	m.Turn = n
	if mv := args[2]; !mv.Keyword("nil") {
		m.LastMove = mv.String()
	}
	ps := args[3]
	switch {
	case ps.Keyword("nil"):
	case ps.IsList:
		m.Percepts = []string{}
		for _, p := range ps.List {
			m.Percepts = append(m.Percepts, p.String())
		}
	default:
		return syntaxError(text, ps.Start, "the percepts must be a list, or nil, not %s", ps.Atom)
	}
	return nil
}

func atom(text string, e *Expr, what string) (string, error) {
	if e.IsList {
		return "", syntaxError(text, e.Start, "%s must be a name, not a list", what)
	}
	return e.Atom, nil
}

func clock(text string, e *Expr, what string) (time.Duration, error) {
	if e.IsList {
		return 0, syntaxError(text, e.Start, "%s must be a number of seconds, not a list", what)
	}
	s, err := strconv.ParseFloat(e.Atom, 64)
	if err != nil || math.IsNaN(s) || s <= 0 {
		return 0, syntaxError(text, e.Start, "%s must be a positive number of seconds, not %s", what, e.Atom)
	}
	if s > player.MaxClock.Seconds() {
		return 0, syntaxError(text, e.Start, "%s of %s seconds is more than %v", what, e.Atom, player.MaxClock)
	}
	return time.Duration(s * float64(time.Second)), nil
}

// String writes the message as it goes on the wire.
func (m *Message) String() string {
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(string(m.Kind))
	switch m.Kind {
	case Preview:
		b.WriteString(" (")
		writeRules(&b, m.Rules)
		fmt.Fprintf(&b, ") %s", seconds(m.StartClock))
	case Start:
		fmt.Fprintf(&b, " %s %s (", m.MatchID, m.Role)
		writeRules(&b, m.Rules)
		fmt.Fprintf(&b, ") %s %s", seconds(m.StartClock), seconds(m.PlayClock))
	case Play, Stop:
		b.WriteString(" " + m.MatchID)
		if m.II {
			fmt.Fprintf(&b, " %d %s %s", m.Turn, orNil(m.LastMove), list(m.Percepts))
		} else {
			b.WriteString(" " + list(m.Joint))
		}
	case Abort:
		b.WriteString(" " + m.MatchID)
	}
	b.WriteString(")")
	return b.String()
}

// writeRules writes a game description inside its list.
func writeRules(b *strings.Builder, rules string) {
	b.WriteString(rules)
	if strings.ContainsAny(rules[strings.LastIndexAny(rules, "\n\r")+1:], ";") {
		b.WriteString("\n") // a comment on the last line must not swallow the ')'
	}
}

// seconds writes a clock: whole seconds as an integer, as every player reads them.
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

func orNil(s string) string {
	if s == "" {
		return "nil"
	}
	return s
}

func list(items []string) string {
	if items == nil {
		return "nil"
	}
	return "(" + strings.Join(items, " ") + ")"
}

// Rules turns a game description in KIF into the rules of a START message: each form compact on
// one line (comments dropped: some players do not read them), forms separated by spaces.
func Rules(kif string) (string, error) {
	// Every top-level form is read as its text (keep 0), without the bounds of a message
	// received: a description given here comes from this process (PrepareFile: read by the
	// syntax parser, which takes games of any size).
	es, err := readExprs(kif, readLimits{depth: math.MaxInt, exprs: math.MaxInt})
	if err != nil {
		return "", err
	}
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, " "), nil
}

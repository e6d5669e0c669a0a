package eval

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Limits bound one evaluation call (one Legal, Next, Ask, ... or one playout step). A zero
// field takes the value of DefaultLimits.
type Limits struct {
	Timeout  time.Duration // wall time per call (the context's deadline, if any, applies as well)
	MaxFacts int           // facts derived plus query answers per call (facts computed once per game count in the call that needs them)
	MaxDepth int           // nesting depth of a derived term: a constant has depth 0, (f a) depth 1
	// MaxState bounds the fluents of one state (init, next), checked as they are derived: a
	// state that doubles on every move stops at the limit instead of filling the memory of
	// every caller that keeps states (a match record, a search tree, a table of states).
	MaxState int
}

// DefaultLimits are generous for every game of the corpus and stop runaway rules within
// seconds. Every evaluation has a time limit: a zero Timeout means DefaultLimits.Timeout, so an
// invalid rule cannot hang a caller that forgot to set one or to pass a context with a deadline.
var DefaultLimits = Limits{Timeout: 10 * time.Second, MaxFacts: 5_000_000, MaxDepth: 256, MaxState: 100_000}

func (l Limits) withDefaults() Limits {
	if l.MaxFacts <= 0 {
		l.MaxFacts = DefaultLimits.MaxFacts
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultLimits.Timeout
	}
	if l.MaxState <= 0 {
		l.MaxState = DefaultLimits.MaxState
	}
	return l
}

// Which limit stopped an evaluation.
const (
	LimitTime     = "time"
	LimitFacts    = "facts"
	LimitDepth    = "term depth"
	LimitState    = "state size"
	LimitCanceled = "canceled"
)

// LimitError says that an evaluation was stopped, by which limit and where: the relation and
// the rule being evaluated.
type LimitError struct {
	Limit    string      // LimitTime, LimitFacts, LimitDepth, LimitState or LimitCanceled
	Value    string      // the limit's value, like "256" or "2s"
	Relation string      // the relation being derived, as name/arity ("" if none yet)
	Span     syntax.Span // the rule being evaluated (zero Span if none)
	Line     int         // 1-based line of the rule, 0 if none
	Fact     string      // for LimitDepth: the start of the term that was too deep
	Query    string      // for LimitFacts: the query whose answers passed the limit ("" if none)
	Cause    error       // for LimitCanceled: the context's error
}

func (e *LimitError) Error() string {
	var b strings.Builder
	switch e.Limit {
	case LimitCanceled:
		fmt.Fprintf(&b, "evaluation canceled (%v)", e.Cause)
	case LimitTime:
		fmt.Fprintf(&b, "evaluation stopped: time limit %s exceeded", e.Value)
	case LimitFacts:
		fmt.Fprintf(&b, "evaluation stopped: more than %s facts derived", e.Value)
	case LimitDepth:
		fmt.Fprintf(&b, "evaluation stopped: term depth limit %s exceeded", e.Value)
	case LimitState:
		fmt.Fprintf(&b, "evaluation stopped: a state of more than %s fluents", e.Value)
	}
	if e.Query != "" {
		fmt.Fprintf(&b, " (answers included) while answering %s", e.Query)
	}
	if e.Relation != "" {
		fmt.Fprintf(&b, " while deriving %s", e.Relation)
		if e.Line > 0 {
			fmt.Fprintf(&b, " by the rule on line %d", e.Line)
		}
	}
	if e.Fact != "" {
		fmt.Fprintf(&b, ": %s", e.Fact)
	}
	return b.String()
}

func (e *LimitError) Unwrap() error { return e.Cause }

func (g *session) limitErr(limit string, p *plan, cause error) *LimitError {
	e := &LimitError{Limit: limit, Cause: cause}
	switch limit {
	case LimitTime:
		e.Value = g.lim.Timeout.String()
	case LimitFacts:
		e.Value = fmt.Sprint(g.lim.MaxFacts)
	case LimitDepth:
		e.Value = fmt.Sprint(g.lim.MaxDepth)
	case LimitState:
		e.Value = fmt.Sprint(g.lim.MaxState)
	}
	if p != nil && p.rule != nil && p.rule.rel != nil {
		e.Relation = p.rule.rel.label()
		e.Span = p.rule.span
		if g.lines != nil {
			e.Line = g.lines.Position(p.rule.span.Start, syntax.UTF8).Line + 1
		}
	}
	return e
}

func (e *LimitError) withFact(g *session, t Term) *LimitError {
	e.Fact = g.strStart(t, 120)
	return e
}

// RefusedError is returned for a question whose answer depends on rules without a defined
// meaning: unsafe rules, negation through recursion, or forms with syntax errors. Diagnostics
// are the analyzer's (or, when it had none for the rule, the evaluator's own with the same codes).
type RefusedError struct {
	Relation    string // the relation that was asked for or needed, as name/arity
	Diagnostics []analysis.Diagnostic
}

func (e *RefusedError) Error() string {
	msg := fmt.Sprintf("%s has no defined meaning", e.Relation)
	if len(e.Diagnostics) > 0 {
		d := e.Diagnostics[0]
		msg += fmt.Sprintf(": %s [%s]", d.Message, d.Code)
		if len(e.Diagnostics) > 1 {
			msg += fmt.Sprintf(" (and %d more)", len(e.Diagnostics)-1)
		}
	}
	return msg
}

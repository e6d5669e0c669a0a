package ide

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/syntax"
	"github.com/gdl-lsp/gdl/verify"
)

// Verification from the editor: the "Verify game" command runs verify.Verify on the document's
// game and shows each finding as a diagnostic on the rules involved (terminal rules for
// termination, legal rules for playability, goal rules for goal and winnability, input and base
// for coverage; for a finding about one role, that role's rules, or its role fact), with the
// witness in the message and a quick fix that replays it into the document's state.

// VerifyOptions bound a verification.
type VerifyOptions struct {
	MaxStates int           // 0: verify.DefaultMaxStates
	Timeout   time.Duration // 0: no bound but ctx
	Limits    eval.Limits   // the interpreter's limits per evaluation
	// Cache, when set, is where the game is made and kept (Games.Cache: the game view's and
	// the computer's game of the same text); nil: made for this verification alone.
	Cache *game.Cache
	// Progress, when set, is called about four times a second with the states explored and the
	// depth reached.
	Progress func(explored, depth int, elapsed time.Duration)
}

// VerifyReport is the verification of one version of a document.
type VerifyReport struct {
	Version     int32
	Result      *verify.Result
	Engine      game.Engine
	Diagnostics []VerifyDiagnostic
	Summary     string // one line for a message: complete or not, states, findings
}

// VerifyDiagnostic is a finding (or a state that could not be evaluated) placed on the rules
// involved.
type VerifyDiagnostic struct {
	Span     syntax.Span // the head of the first rule involved (see place)
	Severity analysis.Severity
	Code     string // verify-<property>, or verify-error for a state that could not be evaluated
	Message  string
	Related  []RelatedSpan // the other rules involved
	Witness  [][]string    // the joint moves from the initial state, one move per role each
}

// RelatedSpan is a place a diagnostic refers to.
type RelatedSpan struct {
	Span    syntax.Span
	Message string
}

// maxWitnessInMessage bounds the joint moves written in a diagnostic's message; the quick fix
// replays the whole witness.
const maxWitnessInMessage = 12

// Verify verifies the game of a snapshot (on the compiled engine when it grounds) and places its
// findings on the document's rules.
func Verify(ctx context.Context, snap *Snapshot, opts VerifyOptions) (*VerifyReport, error) {
	res, err := snap.AnalysisContext(ctx)
	if err != nil {
		return nil, err
	}
	g, err := opts.Cache.Game(ctx, res, game.Options{Engine: game.Auto, Limits: opts.Limits})
	if err != nil {
		return nil, err
	}
	vo := verify.Options{MaxStates: opts.MaxStates, Timeout: opts.Timeout}
	if opts.Progress != nil {
		vo.Progress = func(p verify.Progress) { opts.Progress(p.Explored, p.Depth, p.Elapsed) }
	}
	r, err := verify.Verify(ctx, g, vo)
	if err != nil {
		return nil, err
	}
	rep := &VerifyReport{Version: snap.Version, Result: r, Engine: g.Engine()}
	m := res.Model
	for _, f := range r.Findings {
		d := VerifyDiagnostic{Code: "verify-" + string(f.Property), Severity: findingSeverity(f.Property), Witness: moveTexts(g, f.Moves)}
		d.Span, d.Related = place(m, f.Relations, roleKey(g, f.Role))
		d.Message = f.Message + witnessText(verify.Witness(f.Joints, f.Infix))
		d.Related = append(d.Related, explanationRelated(f.Explanation)...)
		rep.Diagnostics = append(rep.Diagnostics, d)
	}
	for _, e := range r.Errors {
		d := VerifyDiagnostic{Code: "verify-error", Severity: analysis.Warning, Witness: moveTexts(g, e.Moves),
			Message: "a reachable state could not be evaluated, so verification is not complete: " + e.Message + witnessText(verify.Witness(e.Joints, e.Infix))}
		d.Span, d.Related = place(m, nil, "")
		rep.Diagnostics = append(rep.Diagnostics, d)
	}
	rep.Summary = summary(r, g.Engine())
	return rep, nil
}

// findingSeverity: a game that cannot be played to its end is broken (error); one that plays but
// where a role cannot win, or whose input or base is incomplete, is suspicious (warning).
func findingSeverity(p verify.Property) analysis.Severity {
	switch p {
	case verify.Termination, verify.Playability, verify.Goal:
		return analysis.Error
	}
	return analysis.Warning
}

// roleKey is the key of a role's name (as the analyzer's symbols have it), "" for no role.
func roleKey(g *game.Game, name string) string {
	i := slices.Index(g.RoleNames(), name)
	if i < 0 {
		return ""
	}
	return syntax.Fold(g.StringIn(g.Roles()[i], syntax.Prefix))
}

// roleRelations are the relations whose first argument is a role.
var roleRelations = map[string]bool{"legal": true, "goal": true, "input": true, "sees": true}

// place finds where a finding belongs and returns the span of a head and the related places.
// A finding about one role (role: its key) goes on that role's rules of the first of its
// relations that has some, those whose head names the role, else those whose role argument is a
// variable (rules for every role), the other ones related; a role without any goes on its role
// fact. Other findings go on the first rule of the first of the relations that the game has,
// the relation's other rules related. Without any, the start of the file.
func place(m *analysis.Model, relations []string, role string) (syntax.Span, []RelatedSpan) {
	if role != "" {
		if sp, related, ok := placeOnRole(m, relations, role); ok {
			return sp, related
		}
	}
	for _, rel := range relations {
		var spans []syntax.Span
		for _, c := range m.Clauses {
			if c.Key() == rel {
				spans = append(spans, c.Head.Span())
			}
		}
		if len(spans) == 0 {
			continue
		}
		var related []RelatedSpan
		for _, s := range spans[1:] {
			related = append(related, RelatedSpan{Span: s, Message: "another rule of " + rel})
		}
		return spans[0], related
	}
	return syntax.Span{}, nil
}

// placeOnRole places a finding about a role (see place).
func placeOnRole(m *analysis.Model, relations []string, role string) (syntax.Span, []RelatedSpan, bool) {
	for _, rel := range relations {
		if !roleRelations[rel] {
			continue
		}
		var own, shared []syntax.Span
		for _, c := range m.Clauses {
			if c.Key() != rel || c.Head.Arity() == 0 {
				continue
			}
			switch who := c.Head.Args()[0]; who.Kind() {
			case syntax.TermConstant:
				if who.Name().Key() == role {
					own = append(own, c.Head.Span())
				}
			case syntax.TermVariable:
				shared = append(shared, c.Head.Span())
			}
		}
		if len(own)+len(shared) == 0 {
			continue
		}
		var related []RelatedSpan
		for _, s := range own {
			related = append(related, RelatedSpan{Span: s, Message: "another rule of " + rel + " for this role"})
		}
		for _, s := range shared {
			related = append(related, RelatedSpan{Span: s, Message: "a rule of " + rel + " for every role"})
		}
		return related[0].Span, related[1:], true
	}
	for _, c := range m.Clauses {
		if c.Key() == "role" && c.Head.Arity() == 1 {
			if who := c.Head.Args()[0]; who.Kind() == syntax.TermConstant && who.Name().Key() == role {
				return c.Head.Span(), nil, true
			}
		}
	}
	return syntax.Span{}, nil, false
}

func moveTexts(g *game.Game, moves [][]eval.Term) [][]string {
	out := make([][]string, len(moves))
	for i, j := range moves {
		for _, m := range j {
			out[i] = append(out[i], g.String(m))
		}
	}
	return out
}

// witnessText writes a witness for a message, as gdl query --moves takes it.
func witnessText(joints []string) string {
	switch {
	case len(joints) == 0:
		return " (in the initial state)"
	case len(joints) > maxWitnessInMessage:
		return fmt.Sprintf(" (after %d joint moves: %s … %s; the quick fix replays them)", len(joints),
			strings.Join(joints[:maxWitnessInMessage/2], " "), strings.Join(joints[len(joints)-maxWitnessInMessage/2:], " "))
	}
	return fmt.Sprintf(" (after %s)", strings.Join(joints, " "))
}

func summary(r *verify.Result, e game.Engine) string {
	var b strings.Builder
	if r.Complete {
		fmt.Fprintf(&b, "verified all %d reachable states", r.States)
	} else {
		fmt.Fprintf(&b, "verified %d states (stopped: %s; every state up to depth %d)", r.States, r.Stopped, r.FullDepth)
	}
	switch n := len(r.Findings); n {
	case 0:
		b.WriteString(": no finding")
	case 1:
		b.WriteString(": 1 finding")
	default:
		fmt.Fprintf(&b, ": %d findings", n)
	}
	var unknown []string
	for _, p := range verify.Properties {
		if r.Properties[p] == verify.Unknown {
			unknown = append(unknown, string(p))
		}
	}
	if len(unknown) > 0 {
		fmt.Fprintf(&b, "; unknown: %s", strings.Join(unknown, ", "))
	}
	fmt.Fprintf(&b, " (%s engine, %v)", e, r.Elapsed.Round(time.Millisecond))
	return b.String()
}

// maxExplainedRules bounds the rules of a finding's explanation related to its diagnostic.
const maxExplainedRules = 6

// explanationRelated relates the rules of a finding's explanation (verify.Explain) to its
// diagnostic: each rule that fails in the witness's state, with the body literal that fails
// there and why, and each rule whose instance holds (several goals), nearest the top first.
func explanationRelated(x *explain.Explanation) []RelatedSpan {
	if x == nil {
		return nil
	}
	var out []RelatedSpan
	queue := append([]*explain.Node{}, x.Proofs...)
	if x.WhyNot != nil {
		queue = append(queue, x.WhyNot)
	}
	seen := map[int]bool{}
	for len(queue) > 0 && len(out) < maxExplainedRules {
		n := queue[0]
		queue = queue[1:]
		queue = append(queue, n.Children...)
		if n.Kind != explain.KindRule || n.Rule == nil || seen[n.Rule.Start] {
			continue
		}
		seen[n.Rule.Start] = true
		msg := "in the witness's last state, " + n.Literal + " holds by this rule"
		if !n.Holds {
			msg = "in the witness's last state, this rule gives no " + n.Literal
			for _, c := range n.Children {
				if !c.Holds && c.Kind != explain.KindUnreached {
					msg += ": " + c.Literal + " fails"
					if c.Note != "" {
						msg += " (" + c.Note + ")"
					}
					break
				}
			}
		}
		out = append(out, RelatedSpan{Span: syntax.Span{Start: n.Rule.Start, End: n.Rule.End}, Message: msg})
	}
	return out
}

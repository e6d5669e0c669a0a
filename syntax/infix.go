package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The infix parser. A file is a sequence of statements, facts `p(a,b)` and rules
// `h :- l1 & l2`, separated by nothing but where the grammar says a statement ends: after its
// head when no ':-' follows, after a body literal when no '&' follows. Each statement is one
// top-level item, so an edit reparses only the statements around it. The trees have the shapes
// the typed views expect (see Node.Infix):
//
//	p(a,X)      List [Word p, LParen, Word a, Punct ',', Variable X, RParen]
//	~l          List Infix [Operator '~', l]
//	(a | b)     List Infix [Operator '(', a, Punct '|', b, RParen]
//	h :- a & b  List Infix [h, Operator ':-', a, Punct '&', b]
//
// Recovery is local: a list that cannot go on (a ')' is missing) ends at its last operand, a
// literal followed by ':-' starts the next rule, and a '(' at the start of a line never starts
// a literal: it begins a prefix form. Nothing ever scans to the end of the file to decide where
// a statement ends, so the parse of a statement depends only on its text and the token after it.

// Frames of the lists being built by expr.
const (
	frCall  uint8 = iota // name(...)
	frGroup              // (l | l ...)
	frNot                // ~l
)

type ifr struct {
	kind  uint8
	lit   bool  // its operands are literals (a disjunction, a negation, not(...) and or(...)), not terms
	open  int32 // stage index of its first child
	paren int32 // token index of its '('
	sep   int32 // token index of the separator taken last, -1 after the '('
}

// States of expr.
const (
	stOperand  = iota // p.ii is at a token that starts an operand
	stFirst           // the top frame was just opened: its first operand, or ')' for a call
	stAfterSep        // the top frame took a separator: an operand must follow
	stAfter           // an operand was completed (or found missing)
)

// istart starts the infix token buffer at pos, the start of an item.
func (p *parser) istart(pos int) {
	p.it = p.it[:0]
	p.ii = 0
	p.ipos = pos
	p.ibase = pos
	p.ireach = pos
}

// itok returns infix token k of the item, scanning as needed; false past the end of the text.
func (p *parser) itok(k int) (tok, bool) {
	for k >= len(p.it) {
		if p.ipos >= len(p.src) {
			return tok{}, false
		}
		kind, end := scanInfix(p.src, p.ipos)
		p.it = append(p.it, tok{int32(p.ipos), int32(end), kind})
		p.ipos = end
		p.ireach = max(p.ireach, end)
	}
	return p.it[k], true
}

// skippable reports whether the grammar steps over a token: trivia, and bad characters (which are
// kept in the tree and reported, like in prefix).
func skippable(k Kind) bool { return k == Whitespace || k == Comment || k == Bad }

// peekSig returns the index of the first token from p.ii on that is not skippable.
func (p *parser) peekSig() (int, tok, bool) {
	for k := p.ii; ; k++ {
		t, ok := p.itok(k)
		if !ok {
			return k, tok{}, false
		}
		if !skippable(t.kind) {
			return k, t, true
		}
	}
}

// nextSig returns the index of the first token from k on that is not skippable (or the index
// past the last token).
func (p *parser) nextSig(k int) int {
	for ; ; k++ {
		t, ok := p.itok(k)
		if !ok || !skippable(t.kind) {
			return k
		}
	}
}

// stageUpTo stages the tokens from p.ii up to k (exclusive).
func (p *parser) stageUpTo(k int) {
	for ; p.ii < k; p.ii++ {
		p.stage = append(p.stage, p.ileaf(p.it[p.ii]))
	}
}

// take stages the tokens up to k and token k itself.
func (p *parser) take(k int) {
	p.stageUpTo(k)
	p.stage = append(p.stage, p.ileaf(p.it[k]))
	p.ii = k + 1
}

func (p *parser) rel(off int32) int { return int(off) - p.ibase }

func (p *parser) tokText(t tok) string { return p.src[t.start:t.end] }

func (p *parser) isOp(t tok, op string) bool {
	return t.kind == Operator && p.tokText(t) == op || t.kind == Punct && p.tokText(t) == op
}

// canStart reports whether an infix token starts an operand: a name, a variable, '~', or a '('
// that is not at the start of a line.
func (p *parser) canStart(t tok) bool {
	switch t.kind {
	case Word, Variable:
		return true
	case Operator:
		return p.src[t.start] == '~'
	case LParen:
		return !atLineStart(p.src, int(t.start))
	}
	return false
}

// sameLine reports whether token k is on the line of the last token taken.
func (p *parser) sameLine(k int) bool {
	if p.ii == 0 {
		return true
	}
	return !hasLineBreak(p.src[p.it[p.ii-1].end:p.it[k].start])
}

func hasLineBreak(s string) bool { return strings.ContainsAny(s, "\n\r") }

// ileaf makes the node of an infix token and reports what is wrong with the token itself.
func (p *parser) ileaf(t tok) Node {
	n := Node{Kind: t.kind, Start: t.start - int32(p.ibase), End: t.end - int32(p.ibase)}
	s, e := int(n.Start), int(n.End)
	text := p.tokText(t)
	switch t.kind {
	case Word:
		if text[0] == '"' {
			n.Quoted = true
			p.checkQuoted(text, s, e)
		}
	case Variable:
		if text[0] == '?' {
			if len(text) == 1 {
				p.errorf(s, e, CodeEmptyVariable, nil, "'?' must be followed by a variable name")
				break
			}
			var fix *Fix
			msg := fmt.Sprintf("%s is a variable of prefix GDL (KIF); in infix a variable starts with an upper-case letter", text)
			if v, ok := Infix.Var(text); ok {
				msg += ": " + v
				fix = &Fix{Title: "Write " + v, Edits: []TextEdit{{Span{s, e}, v}}}
			}
			p.errorf(s, e, CodeMixedNotation, fix, "%s", msg)
		}
	case Comment:
		if text[0] == ';' {
			marks := len(text) - len(strings.TrimLeft(text, ";"))
			p.errorf(s, s+marks, CodeMixedNotation,
				&Fix{Title: "Start the comment with '%'", Edits: []TextEdit{{Span{s, s + marks}, strings.Repeat("%", marks)}}, Safe: true},
				"';' starts a comment in prefix GDL (KIF); infix comments start with '%%'")
		}
	case Bad:
		p.infixBad(text, s, e)
	}
	return n
}

// checkQuoted reports a quoted name that is unterminated, empty or holds control characters or
// invalid UTF-8.
func (p *parser) checkQuoted(text string, s, e int) {
	switch {
	case len(text) < 2 || text[len(text)-1] != '"':
		p.errorf(s, e, CodeBadQuotedName, &Fix{Title: "Close the quotes", Edits: []TextEdit{{Span{e, e}, `"`}}},
			"the quoted name %s is not closed: a '\"' must end it on the same line", text)
	case len(text) == 2:
		p.errorf(s, e, CodeBadQuotedName, nil, "empty quoted name \"\": a name has at least one character")
	case !utf8.ValidString(text):
		p.errorf(s, e, CodeBadQuotedName, nil, "the quoted name %s holds invalid UTF-8", strings.ToValidUTF8(text, "\uFFFD"))
	case strings.ContainsFunc(text, func(r rune) bool { return r < 0x20 || r == 0x7f || r == bom }):
		p.errorf(s, e, CodeBadQuotedName, nil, "the quoted name %q holds a control character", text)
	}
}

// infixBad reports a run of characters infix GDL has no use for.
func (p *parser) infixBad(text string, s, e int) {
	r, _ := utf8.DecodeRuneInString(text)
	switch {
	case r == utf8.RuneError || r < 0x20 || r == 0x7f:
		p.badChar(text, 0, len(text))
		p.errs[len(p.errs)-1].Span = Span{s, e}
	case text == ":":
		p.errorf(s, e, CodeBadCharacter, nil, "a ':' that is not ':-': a rule is written head :- body")
	case r >= utf8.RuneSelf:
		p.errorf(s, e, CodeBadCharacter, nil, "character U+%04X cannot be part of an infix name: quote the name, \"like this\"", r)
	default:
		p.errorf(s, e, CodeBadCharacter, nil,
			"%q cannot be part of an infix name (letters, digits and _ - + * / can): quote a name that has it, \"like this\"", text)
	}
}

// closeFrame closes the list of the top frame, unclosed or not, and leaves its node staged as
// the operand just completed.
func (p *parser) closeFrame(unclosed bool) {
	f := p.iframes[len(p.iframes)-1]
	p.iframes = p.iframes[:len(p.iframes)-1]
	if unclosed {
		t := p.it[f.paren]
		at := int(p.stage[len(p.stage)-1].End)
		p.errorf(p.rel(t.start), p.rel(t.end), CodeUnclosedOpen,
			&Fix{Title: `Insert ")"`, Edits: []TextEdit{{Span{at, at}, ")"}}},
			"'(' is never closed: a ')' is missing")
	}
	n := p.closeList(int(f.open), unclosed)
	n.Infix = f.kind != frCall
	p.stage = append(p.stage, n)
}

// expr parses one operand, a literal when lit or a term, whose first token is token p.ii (which
// canStart), and returns its node. Lists are built on an explicit stack, so any depth of
// nesting is fine: expr is a loop over the states of that stack, one method per state.
func (p *parser) expr(lit bool) Node {
	base := len(p.iframes)
	want := lit // the operand at p.ii is a literal
	state := stOperand
	for {
		switch state {
		case stOperand:
			state = p.exprOperand(want)
		case stFirst, stAfterSep:
			state, want = p.exprNext(state == stFirst, want)
		case stAfter:
			if len(p.iframes) == base {
				n := p.stage[len(p.stage)-1]
				p.stage = p.stage[:len(p.stage)-1]
				return n
			}
			state, want = p.exprAfter(want)
		}
	}
}

// exprOperand takes the token p.ii that starts an operand (a literal when want): a name, which
// opens a call when a '(' follows; a '~', which opens a negation; or a '(', which opens a
// disjunction. It returns the next state.
func (p *parser) exprOperand(want bool) int {
	t := p.it[p.ii]
	switch t.kind {
	case Word, Variable:
		p.take(p.ii)
		k := p.ii // a '(' directly after the name, or after spaces on the same line, makes a call
		if w, ok := p.itok(k); ok && w.kind == Whitespace && !hasLineBreak(p.tokText(w)) {
			k++
		}
		if lp, ok := p.itok(k); ok && lp.kind == LParen {
			leaf := p.stage[len(p.stage)-1]
			if t.kind == Variable {
				p.errorf(int(leaf.Start), int(leaf.End), CodeVariableName, nil,
					"variable %s where a relation or function name is expected", p.tokText(t))
			}
			name := Symbol{Cursor{&leaf, p.src[p.ibase:], 0}}.Key()
			p.iframes = append(p.iframes, ifr{kind: frCall, lit: name == "not" || name == "or",
				open: int32(len(p.stage) - 1), paren: int32(k), sep: -1})
			p.take(k)
			return stFirst
		}
		return stAfter
	case Operator: // '~'
		if !want {
			p.errorf(p.rel(t.start), p.rel(t.end), CodeBadTerm, nil,
				"'~' negates a literal; it cannot be part of a term")
		}
		p.iframes = append(p.iframes, ifr{kind: frNot, lit: true, open: int32(len(p.stage)), sep: -1})
		p.take(p.ii)
		return stFirst
	case LParen:
		if !want {
			p.errorf(p.rel(t.start), p.rel(t.end), CodeBadTerm, nil,
				"a disjunction (a | b) is a literal; it cannot be part of a term")
		}
		p.iframes = append(p.iframes, ifr{kind: frGroup, lit: true, open: int32(len(p.stage)), paren: int32(p.ii), sep: -1})
		p.take(p.ii)
		p.stage[len(p.stage)-1].Kind = Operator
		return stFirst
	}
	return stOperand
}

// exprNext is where the top frame needs an operand (first: it was just opened, so a call may
// close at once): it stages the next operand, or closes an empty call, or reports the operand
// missing. It returns the next state and whether the next operand is a literal.
func (p *parser) exprNext(first, want bool) (int, bool) {
	f := &p.iframes[len(p.iframes)-1]
	k, t, ok := p.peekSig()
	if ok && p.canStart(t) {
		p.stageUpTo(k)
		return stOperand, f.lit
	}
	if ok && first && f.kind == frCall && t.kind == RParen {
		p.take(k)
		p.closeFrame(false)
		return stAfter, want
	}
	// An operand is missing. Said when the list goes on (a ')' or a separator follows);
	// else the list is cut short here, which the ')' it lacks says alone.
	if f.kind == frNot || ok && (t.kind == RParen || t.kind == Punct && p.src[t.start] != '.' && p.sameLine(k)) {
		p.missingOperand(f, first)
	}
	if f.kind == frNot {
		p.closeFrame(false)
	}
	return stAfter, want
}

// exprAfter is where an operand of the top frame was completed: a negation closes; a list
// closes at its ')', takes a separator, reports a wrong or missing one, or is cut short
// (unclosed). It returns the next state and whether the next operand is a literal.
func (p *parser) exprAfter(want bool) (int, bool) {
	f := &p.iframes[len(p.iframes)-1]
	if f.kind == frNot {
		p.closeFrame(false)
		return stAfter, want
	}
	sep := "','"
	if f.kind == frGroup {
		sep = "'|'"
	}
	k, t, ok := p.peekSig()
	switch {
	case ok && t.kind == RParen:
		p.take(k)
		p.closeFrame(false)
	case ok && f.kind == frCall && p.isOp(t, ","), ok && f.kind == frGroup && p.isOp(t, "|"):
		p.take(k)
		f.sep = int32(k)
		return stAfterSep, want
	case ok && f.kind == frGroup && p.isOp(t, "&"):
		p.errorf(p.rel(t.start), p.rel(t.end), CodeConjunctionInOr, nil,
			"'&' inside parentheses: GDL has no conjunction inside a disjunction; write one rule per branch, or define a relation for the conjunction")
		p.take(k)
		f.sep = int32(k)
		return stAfterSep, want
	case ok && t.kind == Punct && p.src[t.start] != '.' && p.sameLine(k):
		p.errorf(p.rel(t.start), p.rel(t.end), CodeUnexpectedToken, nil,
			"expected %s or ')', found '%s'", sep, p.tokText(t))
		p.take(k)
		f.sep = int32(k)
		return stAfterSep, want
	case ok && p.canStart(t) && p.sameLine(k):
		p.errorf(p.rel(t.start), p.rel(t.end), CodeUnexpectedToken, nil,
			"expected %s or ')' before %s", sep, p.tokText(t))
		p.stageUpTo(k)
		return stOperand, f.lit
	default:
		p.closeFrame(true)
	}
	return stAfter, want
}

// missingOperand reports a list that needs an operand where none can start.
func (p *parser) missingOperand(f *ifr, first bool) {
	var t tok
	switch {
	case f.kind == frNot:
		t = p.firstTokOf(f)
		p.errorf(p.rel(t.start), p.rel(t.end), CodeBadLiteral, nil, "'~' must be followed by the literal it negates")
	case f.kind == frCall:
		t = p.it[f.paren]
		if !first {
			t = p.it[f.sep]
		}
		what, code := "a term", CodeBadTerm
		if f.lit {
			what, code = "a literal", CodeBadLiteral
		}
		p.errorf(p.rel(t.start), p.rel(t.end), code, nil, "expected %s after '%s'", what, p.tokText(t))
	case first:
		t = p.it[f.paren]
		p.errorf(p.rel(t.start), p.rel(t.end), CodeBadLiteral, nil, "expected a literal after '('")
	default:
		t = p.it[f.sep]
		p.errorf(p.rel(t.start), p.rel(t.end), CodeBadLiteral, nil, "expected a literal after '%s'", p.tokText(t))
	}
}

// firstTokOf returns the token of a frame's first child (the '~' of a negation).
func (p *parser) firstTokOf(f *ifr) tok {
	n := p.stage[f.open]
	return tok{n.Start + int32(p.ibase), n.End + int32(p.ibase), n.Kind}
}

// statement parses the infix fact or rule whose first token is at pos and returns its node
// (offsets relative to pos) and its end. In a prefix file (inPrefix), a '.' right after the
// statement is part of it.
func (p *parser) statement(pos int, inPrefix bool) (Node, int) {
	p.istart(pos)
	mark := len(p.stage)
	_, t, _ := p.peekSig() // the caller saw a token that starts a statement
	hasHead := !p.isOp(t, ":-")
	var head Node
	if hasHead {
		head = p.expr(true)
	}
	k, t, ok := p.peekSig()
	if !ok || !p.isOp(t, ":-") {
		p.checkStatementHead(head, false)
		if inPrefix {
			head = p.withDot(head)
		}
		return head, pos + int(head.End)
	}
	if hasHead {
		p.checkStatementHead(head, true)
		p.stage = append(p.stage, head)
	} else {
		p.errorf(p.rel(t.start), p.rel(t.end), CodeRuleWithoutHead, nil, "rule without a head: ':-' must follow the head atom")
	}
	p.take(k)
	prev := k // the ':-' or the last '&'
	for {
		k, t, ok := p.peekSig()
		if !ok || !p.canStart(t) {
			p.afterSeparator(prev, false)
			break
		}
		stage0, ii0, errs0 := len(p.stage), p.ii, len(p.errs)
		p.stageUpTo(k)
		lit := p.expr(true)
		if _, t2, ok2 := p.peekSig(); ok2 && p.isOp(t2, ":-") {
			// The literal is the head of the next rule: this rule ends before it.
			p.stage, p.ii, p.errs = p.stage[:stage0], ii0, p.errs[:errs0]
			p.afterSeparator(prev, true)
			break
		}
		p.checkBodyLiteral(lit)
		p.stage = append(p.stage, lit)
		k, t, ok = p.peekSig()
		if ok && p.isOp(t, "|") {
			p.bareDisjunction()
			k, t, ok = p.peekSig()
		}
		if ok && p.isOp(t, ",") {
			// Prolog joins body literals with ','; infix GDL with '&'.
			if t2, ok2 := p.itok(p.nextSig(k + 1)); ok2 && p.canStart(t2) {
				s, e := p.rel(t.start), p.rel(t.end)
				p.errorf(s, e, CodeUnexpectedToken, &Fix{Title: "Write '&'", Edits: []TextEdit{{Span{s, e}, " &"}}},
					"body literals are joined with '&', not ','")
				p.take(k)
				prev = k
				continue
			}
		}
		if !ok || !p.isOp(t, "&") {
			break
		}
		p.take(k)
		prev = k
	}
	n := p.closeList(mark, false)
	n.Infix = true
	if inPrefix {
		n = p.withDot(n)
	}
	return n, pos + int(n.End)
}

// afterSeparator reports a '&' that no literal follows (a ':-' with nothing after it is a rule
// with an empty body, which the analyzer reports).
func (p *parser) afterSeparator(prev int, nextRule bool) {
	t := p.it[prev]
	if !p.isOp(t, "&") {
		return
	}
	msg := "expected a literal after '&'"
	if nextRule {
		msg += "; what follows is the head of the next rule"
	}
	p.errorf(p.rel(t.start), p.rel(t.end), CodeBadLiteral, nil, "%s", msg)
}

// bareDisjunction turns the literal just staged and the '| literal' that follow into one
// disjunction, and reports that it needs parentheses.
func (p *parser) bareDisjunction() {
	open := len(p.stage) - 1
	first := true
	for {
		k, t, ok := p.peekSig()
		if !ok || !p.isOp(t, "|") {
			break
		}
		p.take(k)
		if first {
			p.stage[len(p.stage)-1].Kind = Operator
			first = false
		}
		k, t, ok = p.peekSig()
		if !ok || !p.canStart(t) {
			p.errorf(p.rel(p.it[k-1].start), p.rel(p.it[k-1].end), CodeBadLiteral, nil, "expected a literal after '|'")
			break
		}
		p.stageUpTo(k)
		lit := p.expr(true)
		p.checkBodyLiteral(lit)
		p.stage = append(p.stage, lit)
	}
	n := p.closeList(open, false)
	n.Infix = true
	p.stage = append(p.stage, n)
	s, e := int(n.Start), int(n.End)
	p.errorf(s, e, CodeBareDisjunction,
		&Fix{Title: "Put the disjunction in parentheses", Edits: []TextEdit{{Span{s, s}, "("}, {Span{e, e}, ")"}}},
		"a disjunction must be written in parentheses, (a | b): '&' and '|' do not mix without them")
}

// withDot makes a '.' right after a statement part of it (in a prefix file, where it would
// otherwise be a form of its own).
func (p *parser) withDot(n Node) Node {
	if n.Kind != List {
		return n
	}
	t, ok := p.itok(p.ii)
	if !ok || !p.isOp(t, ".") {
		return n
	}
	kids := make([]Node, len(n.Kids)+1)
	copy(kids, n.Kids)
	kids[len(n.Kids)] = p.ileaf(t)
	p.ii++
	n.Kids = kids
	n.End = kids[len(kids)-1].End
	return n
}

// checkStatementHead reports a fact or rule head that is not an atom.
func (p *parser) checkStatementHead(n Node, rule bool) {
	what := "a fact"
	if rule {
		what = "the head of a rule"
	}
	switch {
	case n.Kind == Variable && rule:
		p.errorf(int(n.Start), int(n.End), CodeBadHead, nil, "%s must be an atom, found variable %s", what, p.src[p.ibase+int(n.Start):p.ibase+int(n.End)])
	case n.Kind == List && n.Infix:
		found := "a negation"
		if p.src[p.ibase+int(n.Kids[0].Start)] != '~' {
			found = "a disjunction"
		}
		p.errorf(int(n.Start), int(n.End), CodeBadHead, nil, "%s must be an atom, found %s", what, found)
	}
}

// checkBodyLiteral reports a body literal that is a variable.
func (p *parser) checkBodyLiteral(n Node) {
	if n.Kind == Variable {
		p.errorf(int(n.Start), int(n.End), CodeBadLiteral, nil,
			"expected a literal (an atom, ~literal, distinct(a,b) or (a | b)), found variable %s", p.src[p.ibase+int(n.Start):p.ibase+int(n.End)])
	}
}

// infixUnit makes the item of an infix statement or leaf.
func (p *parser) infixUnit(start, end int, n Node) *unit {
	u := &unit{text: p.text(start, end), node: n}
	u.errs = p.takeErrors()
	u.extra = int32(max(0, p.ireach-end))
	return u
}

// parseInfixItems is parseItems for an infix file.
func (p *parser) parseInfixItems(items []item, stop func(end int) bool) []item {
	pos := p.base
	for pos < len(p.src) {
		kind, e := scanInfix(p.src, pos)
		var u *unit
		end := e
		switch {
		case kind == LParen:
			var n Node
			n, end = p.prefixForm(pos)
			u = p.infixUnit(pos, end, n)
		case kind == Word || kind == Variable || kind == Operator:
			var n Node
			n, end = p.statement(pos, false)
			if n.Kind == Variable {
				p.errorf(0, end-pos, CodeTopLevelVariable, nil,
					"variable %s stands alone at the top level: expected a fact or a rule", p.src[pos:end])
			}
			u = p.infixUnit(pos, end, n)
		case kind == Whitespace && e-pos <= 6 && commonSpace[p.src[pos:e]] != nil:
			u = commonSpace[p.src[pos:e]]
		default:
			p.istart(pos)
			t, _ := p.itok(0)
			n := p.ileaf(t)
			switch {
			case kind == RParen:
				p.errorf(0, 1, CodeUnmatchedClose, &Fix{Title: "Remove the unmatched ')'", Edits: []TextEdit{{Span{0, 1}, ""}}},
					"unmatched ')': no '(' is open here")
			case kind == Punct && p.src[pos] != '.':
				p.errorf(0, 1, CodeUnexpectedToken, nil, "a '%s' cannot start a fact or rule", p.src[pos:e])
			}
			u = p.infixUnit(pos, end, n)
		}
		items = append(items, item{pos, u})
		pos = end
		if stop(end) {
			return items
		}
	}
	return items
}

// prefixForm parses, in an infix file, a form written in prefix notation whose '(' is at pos:
// with prefix tokens (and infix comments), to its matching ')', or when that never comes, up to
// the first name at the start of a line (or the end of the text). It is one error, naming the
// notation.
func (p *parser) prefixForm(pos int) (Node, int) {
	p.istart(pos)
	p.marks = p.marks[:0]
	stage0 := len(p.stage)
	i := pos
	var n Node
	closed := false
	for i < len(p.src) && !closed {
		kind, e := scan(p.src, i)
		if p.src[i] == '%' { // an infix comment ends a form that stays open
			kind, e = scanInfix(p.src, i)
		}
		p.ireach = max(p.ireach, e)
		if i > pos && (kind == Word || kind == Variable || kind == Bad) && atLineStart(p.src, i) {
			break
		}
		leaf := Node{Kind: kind, Start: int32(i - pos), End: int32(e - pos)}
		i = e
		switch kind {
		case LParen:
			p.marks = append(p.marks, int32(len(p.stage)))
			p.stage = append(p.stage, leaf)
		case RParen:
			p.stage = append(p.stage, leaf)
			list := p.closeList(int(p.marks[len(p.marks)-1]), false)
			p.marks = p.marks[:len(p.marks)-1]
			if len(p.marks) == 0 {
				n, closed = list, true
			} else {
				p.stage = append(p.stage, list)
			}
		default:
			p.stage = append(p.stage, leaf)
		}
	}
	if !closed {
		// Trivia after the last token belong to what follows.
		for len(p.stage) > int(p.marks[len(p.marks)-1])+1 && p.stage[len(p.stage)-1].Kind.IsTrivia() {
			p.stage = p.stage[:len(p.stage)-1]
		}
		for {
			list := p.closeList(int(p.marks[len(p.marks)-1]), true)
			p.marks = p.marks[:len(p.marks)-1]
			if len(p.marks) == 0 {
				n = list
				break
			}
			p.stage = append(p.stage, list)
		}
	}
	p.stage = p.stage[:stage0]
	end := pos + int(n.End)
	text := p.src[pos:end]
	msg := "this form is written in prefix GDL (KIF), but the file is infix GDL: write it as p(X) :- q(X) & ~r(X)"
	var fix *Fix
	if !n.Unclosed {
		if conv, ok := p.convertForm(Cursor{&n, text, 0}, Infix); ok {
			msg = "this form is written in prefix GDL (KIF), but the file is infix GDL: in infix it is " + oneLine(conv)
			fix = &Fix{Title: "Write the form in infix", Edits: []TextEdit{{Span{0, len(text)}, conv}}, Safe: true}
		}
	}
	p.errorf(0, len(text), CodeMixedNotation, fix, "%s", msg)
	return n, end
}

// infixInPrefix tries, in a prefix file, the top-level name [pos, wordEnd) as the start of an
// infix statement: a name directly followed by '(', or followed by ':-' on the same line. It
// succeeds when the statement's text has balanced parentheses and ends where a prefix token
// ends, so that the prefix parser's matching of parentheses is the same with or without it.
// reach is how far the attempt read.
func (p *parser) infixInPrefix(pos, wordEnd int) (n Node, end, reach int, ok bool) {
	reach = wordEnd
	trigger := wordEnd < len(p.src) && p.src[wordEnd] == '('
	if !trigger {
		j := wordEnd
		for j < len(p.src) && (p.src[j] == ' ' || p.src[j] == '\t') {
			j++
		}
		reach = min(j+2, len(p.src))
		trigger = strings.HasPrefix(p.src[j:], ":-")
	}
	if !trigger {
		return Node{}, 0, reach, false
	}
	// Only a name that starts with a letter (or a '~'): a prefix file may hold odd symbols
	// before a list, such as 0123(5), which are no infix.
	if c := p.src[pos]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '~') {
		return Node{}, 0, reach, false
	}
	if k, e := scanInfix(p.src, pos); k != Word && k != Variable && !(k == Operator && p.src[pos] == '~') || e > wordEnd {
		return Node{}, 0, reach, false
	}
	stage0, errs0 := len(p.stage), len(p.errs)
	n, end = p.statement(pos, true)
	reach = max(reach, p.ireach)
	p.stage = p.stage[:stage0]
	clean := len(p.errs) == errs0
	p.errs = p.errs[:errs0]
	if !prefixAligned(p.src, pos, end) {
		return Node{}, 0, reach, false
	}
	text := p.src[pos:end]
	msg := "this is written in infix GDL, but the file is prefix GDL (KIF): write it as (<= (p ?x) (q ?x) (not (r ?x)))"
	var fix *Fix
	if clean {
		if conv, ok := p.convertForm(Cursor{&n, text, 0}, Prefix); ok {
			msg = "this is written in infix GDL, but the file is prefix GDL (KIF): in prefix it is " + oneLine(conv)
			fix = &Fix{Title: "Write it in prefix GDL", Edits: []TextEdit{{Span{0, len(text)}, conv}}, Safe: true}
		}
	}
	p.errorf(0, len(text), CodeMixedNotation, fix, "%s", msg)
	return n, end, reach, true
}

// prefixAligned reports whether [start, end) is a run of whole prefix tokens with balanced
// parentheses.
func prefixAligned(src string, start, end int) bool {
	depth := 0
	i := start
	for i < end {
		k, e := scan(src, i)
		switch k {
		case LParen:
			depth++
		case RParen:
			depth--
			if depth < 0 {
				return false
			}
		}
		i = e
	}
	return i == end && depth == 0
}

// oneLine shortens a converted form for a message: its first line, and "..." if there is more.
func oneLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

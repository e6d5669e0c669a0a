package ide

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestNamesInMarkdown is issue 22, item 17: a backtick in a quoted infix name closed the hover's
// code span, and what followed became a clickable link. On games whose names hold backticks,
// brackets, parentheses, angle brackets and addresses, the hover (with evaluated answers), the
// signature help at every name and the explanation of every defined relation write Markdown in
// which, outside code spans, nothing is a link, an image, an address or HTML.
func TestNamesInMarkdown(t *testing.T) {
	games := map[syntax.Dialect]string{
		syntax.Infix: "role(\"r`[x](https://a.example)\")\ninit(\"c`](https://b.example)``\"(1))\n" +
			"legal(R,\"go``<img src=x>\") :- role(R)\nnext(\"c`](https://b.example)``\"(2)) :- true(\"c`](https://b.example)``\"(1))\n" +
			"terminal :- true(\"c`](https://b.example)``\"(2))\ngoal(R,100) :- role(R) & \"`x![y](z)\"(R)\n\"`x![y](z)\"(R) :- role(R)\n",
		syntax.Prefix: "(role r`[x]`)\n(init (c`<b>`` 1))\n(<= (legal ?r go``<img>) (role ?r))\n" +
			"(<= (next (c`<b>`` 2)) (true (c`<b>`` 1)))\n(<= terminal (true (c`<b>`` 2)))\n(<= (goal ?r 100) (role ?r) (`x![y] ?r))\n(<= (`x![y] ?r) (role ?r))\n",
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for d, src := range games {
		snap := NewSnapshotIn(1, src, d)
		if ds, _ := snap.Diagnostics(ctx); len(ds) > 0 {
			t.Fatalf("%v: the game has diagnostics: %v", d, ds)
		}
		games := NewGames(ctx, GamesOptions{})
		games.Update("names", snap)
		session := games.Session("names", snap, eval.Limits{Timeout: 20 * time.Second}, analysis.BoardConfig{})
		for _, o := range snap.Model().AllOccurrences() {
			off := o.Span.Start + 1
			if h := Hover(ctx, snap, off, HoverOptions{Markdown: true, Eval: session, Budget: time.Minute}); h != nil {
				if bad := markdownInjection(h.Text); bad != "" {
					t.Errorf("%v: hover on %s: %s in\n%s", d, o.Name, bad, h.Text)
				}
			}
			if o.Kind == analysis.OccRelation && o.Def {
				// The explanation of the head's relation, with every argument a variable, in
				// the state after a joint move (next's need one).
				args := make([]string, o.Arity)
				for i := range args {
					args[i], _ = d.Var(fmt.Sprintf("?a%d", i))
				}
				x := session.ExplainLiteral(ctx, d.Atom(o.Name, args...), ExplainOptions{})
				if bad := markdownInjection(x.Markdown); bad != "" {
					t.Errorf("%v: explanation of %s: %s in\n%s", d, o.Name, bad, x.Markdown)
				}
			}
			if sh := SignatureHelp(snap, o.Span.End, true); sh != nil {
				for _, sig := range sh.Signatures {
					for _, text := range append([]string{sig.Doc}, paramDocs(sig)...) {
						if bad := markdownInjection(text); bad != "" {
							t.Errorf("%v: signature help of %s: %s in\n%s", d, o.Name, bad, text)
						}
					}
				}
			}
		}
	}
}

func paramDocs(s Signature) []string {
	var out []string
	for _, p := range s.Params {
		out = append(out, p.Doc)
	}
	return out
}

// markdownInjection reads text as CommonMark reads code spans and backslash escapes, and
// returns what, outside the code spans, could make a link, an image, an autolink or HTML: an
// unescaped '[', '<' or "://", or a backtick that opens no code span.
func markdownInjection(text string) string {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\\' && i+1 < len(text):
			i++ // an escaped character is text
		case c == '`':
			n := 1
			for i+n < len(text) && text[i+n] == '`' {
				n++
			}
			// The span ends at the next run of exactly n backticks.
			end := -1
			for j := i + n; j < len(text); {
				if text[j] != '`' {
					j++
					continue
				}
				m := 1
				for j+m < len(text) && text[j+m] == '`' {
					m++
				}
				if m == n {
					end = j + m
					break
				}
				j += m
			}
			if end < 0 {
				return "a backtick that opens no code span"
			}
			i = end - 1
		case c == '[' || c == '<':
			return "an unescaped " + string(c)
		case strings.HasPrefix(text[i:], "://"):
			return "an address"
		}
	}
	return ""
}

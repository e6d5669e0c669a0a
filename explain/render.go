package explain

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gdl-lsp/gdl/internal/markdown"
)

// Text writes the explanation as an indented tree, one literal per line with what holds it or
// why it fails, rules as path:line (path "" writes line N).
func (x *Explanation) Text(path string) string {
	var b strings.Builder
	switch {
	case x.Holds && x.Ground && len(x.Proofs) == 1:
		fmt.Fprintf(&b, "%s holds%s\n", x.Literal, heightOf(x.Proofs[0]))
	case x.Holds:
		more := ""
		if x.More {
			more = ", and more"
		}
		fmt.Fprintf(&b, "%s: %s%s, %s\n", x.Literal, answersText(len(x.Proofs)), more, plural(len(x.Proofs), "with its proof", "each with its proof"))
	}
	roots := x.Proofs
	if x.WhyNot != nil {
		roots = []*Node{x.WhyNot}
	}
	for _, r := range roots {
		writeTree(&b, r, path)
	}
	if x.Cut {
		b.WriteString("(parts are cut: raise --depth, or explain the literal cut on its own)\n")
	}
	return b.String()
}

func heightOf(n *Node) string {
	if n.Kind == KindRule {
		return fmt.Sprintf(" (a proof of height %d)", n.Height)
	}
	return ""
}

func answersText(n int) string { return strconv.Itoa(n) + " " + plural(n, "answer", "answers") }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// writeTree writes n and its descendants, two spaces deeper per level (an explicit stack: a
// tree is as deep as its tallest proof).
func writeTree(b *strings.Builder, root *Node, path string) {
	type item struct {
		n     *Node
		depth int
	}
	stack := []item{{root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		b.WriteString(strings.Repeat("  ", it.depth))
		if it.n.ID > 0 {
			fmt.Fprintf(b, "#%d ", it.n.ID)
		}
		b.WriteString(it.n.Literal)
		if d := describe(it.n, textStyle(path)); d != "" {
			b.WriteString("  ")
			b.WriteString(d)
		}
		b.WriteByte('\n')
		for i := len(it.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{it.n.Children[i], it.depth + 1})
		}
	}
}

// style is how describe writes a rule's place and text quoted from the game.
type style struct {
	place func(r *Rule) string
	quote func(s string) string
}

func textStyle(path string) style {
	return style{place: func(r *Rule) string { return r.Place(path) }, quote: func(s string) string { return s }}
}

// describe is what follows a node's literal on its line.
func describe(n *Node, st style) string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	switch n.Kind {
	case KindRule:
		what := "by rule "
		switch {
		case !n.Holds:
			what = "rule "
		case n.Rule.Fact:
			what = "by fact "
		}
		place := what + st.place(n.Rule)
		if !n.Holds {
			place += " fails"
		}
		add(place)
		add(st.quote(bindingsText(n.Bindings)))
		if n.Tried > 1 {
			add(fmt.Sprintf("(the best of %d bindings tried", n.Tried))
			for _, o := range n.Others {
				parts[len(parts)-1] += "; also " + st.quote(strings.TrimPrefix(bindingsText(o), "with "))
			}
			parts[len(parts)-1] += ")"
		}
		if n.Note != "" {
			parts[len(parts)-1] += ":"
		}
		add(st.quote(n.Note))
	case KindRef:
		add(fmt.Sprintf("proved above, #%d", n.Ref))
	case KindUnreached:
		add("after the failing literal: " + n.Note)
	case KindCut:
		add(st.quote(n.Note))
	default:
		if n.Holds {
			if n.Note == "" {
				add("holds")
			}
			add(st.quote(n.Note))
		} else {
			add("fails")
			if n.Kind == KindAtom {
				parts[len(parts)-1] = "does not hold"
			}
			if n.Note != "" {
				parts[len(parts)-1] += ":"
			}
			add(st.quote(n.Note))
		}
	}
	return strings.Join(parts, " ")
}

// Markdown writes the explanation as nested Markdown lists for an editor: literals as code,
// each rule's place as a link to the target link gives it (nil: "line N" without a link).
func (x *Explanation) Markdown(link func(r *Rule) string) string {
	st := style{quote: markdown.Text, place: func(r *Rule) string {
		if link == nil {
			return "line " + strconv.Itoa(r.Line)
		}
		return "[line " + strconv.Itoa(r.Line) + "](" + link(r) + ")"
	}}
	var b strings.Builder
	switch {
	case x.Holds && x.Ground && len(x.Proofs) == 1:
		fmt.Fprintf(&b, "%s holds%s.\n\n", markdown.Code(x.Literal), heightOf(x.Proofs[0]))
	case x.Holds:
		more := ""
		if x.More {
			more = ", and more"
		}
		fmt.Fprintf(&b, "%s: %s%s, %s.\n\n", markdown.Code(x.Literal), answersText(len(x.Proofs)), more, plural(len(x.Proofs), "with its proof", "each with its proof"))
	default:
		fmt.Fprintf(&b, "%s does not hold.\n\n", markdown.Code(x.Literal))
	}
	roots := x.Proofs
	if x.WhyNot != nil {
		roots = []*Node{x.WhyNot}
	}
	type item struct {
		n     *Node
		depth int
	}
	for _, r := range roots {
		stack := []item{{r, 0}}
		for len(stack) > 0 {
			it := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			b.WriteString(strings.Repeat("  ", it.depth))
			b.WriteString("- ")
			if it.n.ID > 0 {
				fmt.Fprintf(&b, "#%d ", it.n.ID)
			}
			b.WriteString(markdown.Code(it.n.Literal))
			if d := describe(it.n, st); d != "" {
				b.WriteString(" — ")
				b.WriteString(d)
			}
			b.WriteByte('\n')
			for i := len(it.n.Children) - 1; i >= 0; i-- {
				stack = append(stack, item{it.n.Children[i], it.depth + 1})
			}
		}
		b.WriteByte('\n')
	}
	if x.Cut {
		b.WriteString("Parts are cut: explain a literal cut on its own, or raise the depth.\n")
	}
	return b.String()
}

// Place writes the rule's place as path:line, or "line N" without a path.
func (r *Rule) Place(path string) string {
	if path == "" {
		return "line " + strconv.Itoa(r.Line)
	}
	return path + ":" + strconv.Itoa(r.Line)
}

func bindingsText(bs []Binding) string {
	if len(bs) == 0 {
		return ""
	}
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = b.Var + " = " + b.Value
	}
	return "with " + strings.Join(parts, ", ")
}

// DOT writes the explanation as a Graphviz digraph: a box per literal (green: holds, red: does
// not hold, grey and dashed: cut), an edge to each child, and a shared subproof's edges going to
// the one node that stands for it.
func (x *Explanation) DOT(path string) string {
	var b strings.Builder
	b.WriteString("digraph explanation {\n  node [shape=box, fontname=\"monospace\"];\n")
	fmt.Fprintf(&b, "  label=%s;\n  labelloc=t;\n", quoteDOT(x.Text(path)[:strings.IndexByte(x.Text(path), '\n')]))
	roots := x.Proofs
	if x.WhyNot != nil {
		roots = []*Node{x.WhyNot}
	}
	names := map[*Node]string{}
	byID := map[int]string{}
	type item struct {
		n      *Node
		parent string
	}
	var stack []item
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, item{roots[i], ""})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := it.n
		if n.Kind == KindRef {
			if target, ok := byID[n.Ref]; ok && it.parent != "" {
				fmt.Fprintf(&b, "  %s -> %s;\n", it.parent, target)
				continue
			}
		}
		name := "n" + strconv.Itoa(len(names)+1)
		names[n] = name
		if n.ID > 0 {
			byID[n.ID] = name
		}
		label := n.Literal
		if d := describe(n, textStyle(path)); d != "" {
			label += "\n" + d
		}
		style := `color="darkgreen"`
		switch {
		case n.Kind == KindCut:
			style = `color="gray", style="dashed"`
		case !n.Holds:
			style = `color="red"`
		}
		fmt.Fprintf(&b, "  %s [label=%s, %s];\n", name, quoteDOT(label), style)
		if it.parent != "" {
			fmt.Fprintf(&b, "  %s -> %s;\n", it.parent, name)
		}
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{n.Children[i], name})
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// quoteDOT writes s as a DOT string.
func quoteDOT(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

package syntax

import (
	"fmt"
	"strconv"
	"strings"
)

// Dump renders the tree for golden tests: one line per node with its kind, absolute range and,
// for tokens, the quoted text.
func (f *File) Dump() string {
	var b strings.Builder
	for _, it := range f.items {
		dumpNode(&b, it.text, it.start, &it.node, 0)
	}
	for _, e := range f.errs {
		fmt.Fprintf(&b, "error %d..%d %s: %s\n", e.Span.Start, e.Span.End, e.Code, e.Message)
	}
	return b.String()
}

func dumpNode(b *strings.Builder, text string, base int, n *Node, depth int) {
	b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(b, "%s %d..%d", n.Kind, base+int(n.Start), base+int(n.End))
	if n.Kind == List {
		if n.Unclosed {
			b.WriteString(" unclosed")
		}
		if n.Infix {
			b.WriteString(" infix")
		}
		b.WriteByte('\n')
		for i := range n.Kids {
			dumpNode(b, text, base, &n.Kids[i], depth+1)
		}
		return
	}
	if n.Quoted {
		b.WriteString(" quoted")
	}
	b.WriteString(" " + strconv.Quote(text[n.Start:n.End]) + "\n")
}

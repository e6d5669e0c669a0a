package analysis

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// TestDocs keeps docs/diagnostics.md in step with the registry: it is generated from the checks'
// own documentation and the parser's codes. Refresh with `go test ./analysis -run TestDocs -update`.
func TestDocs(t *testing.T) {
	var b strings.Builder
	b.WriteString(`# Diagnostics

Every problem ` + "`gdl check`" + ` and the language server report has a stable code, listed here with
its default severity, an example of code that triggers it, and the fix. This file is generated
from the checks themselves (` + "`go test ./analysis -run TestDocs -update`" + `).

Severities: **error** (the game is invalid: players will reject it or disagree on its meaning;
` + "`gdl check`" + ` exits 1), **warning** (valid but suspicious, or a quirk that some players accept),
**info**, and **hint** (style; editors show it faintly).

A project can change the severity of any code, or turn it off, in a ` + "`gdl.json`" + ` file in the
game's folder or any folder above it:

` + "```json" + `
{
  "severity": {"order-hint": "off", "unused-relation": "error"}
}
` + "```" + `

Diagnostics that know their repair carry it as a fix: ` + "`gdl check --format json`" + ` lists its
edits, and editors offer it as a quick fix.

At most 1,000 diagnostics of one file are shown, by ` + "`gdl check`" + ` and in the editor: the first
ones by position, then a note of severity info, code ` + "`" + CodeTooMany + "`" + `, saying how
many more there are (a file of junk has about one error per byte).

`)
	b.WriteString("## Syntax (the parser)\n\n")
	codes := append([]string(nil), syntax.Codes...)
	sort.Strings(codes)
	for _, c := range codes {
		d, ok := SyntaxDocs[c]
		if !ok {
			t.Errorf("syntax code %s has no documentation in SyntaxDocs", c)
		}
		if !writeDoc(&b, c, Error, CategorySyntax, d.Summary, d.Example, d.Fix, d.Dialect) {
			t.Errorf("the example of syntax code %s does not produce it", c)
		}
	}
	b.WriteString("## Semantics and style (the checks)\n\n")
	for _, c := range Checks {
		if c.Summary == "" || c.Example == "" || c.Fix == "" {
			t.Errorf("check %s lacks a summary, example or fix", c.Code)
		}
		if !writeDoc(&b, c.Code, c.Severity, c.Category, c.Summary, c.Example, c.Fix, syntax.Prefix) {
			t.Errorf("the example of check %s does not produce it", c.Code)
		}
	}
	const path = "../docs/diagnostics.md"
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil || string(have) != b.String() {
		t.Fatalf("docs/diagnostics.md is out of date: run go test ./analysis -run TestDocs -update")
	}
}

// writeDoc writes the section of one code and reports whether its example produces that code.
// In examples, <BEL> stands for the control character U+0007, which a Markdown file cannot show.
func writeDoc(b *strings.Builder, code string, sev Severity, cat Category, summary, example, fix string, d syntax.Dialect) bool {
	fmt.Fprintf(b, "### %s\n\n%s Default severity: **%s**. Category: %s.\n\n", code, summary, sev, cat)
	lang := "gdl"
	if d == syntax.Infix {
		lang = "prolog" // the closest highlighting Markdown viewers have for infix GDL
	}
	fmt.Fprintf(b, "```%s\n%s\n```\n\n", lang, example)
	// The message the example produces, as users will see it.
	f, _ := syntax.ParseDialect(strings.ReplaceAll(example, "<BEL>", "\a"), d)
	found := false
	for _, d := range Analyze(f, nil).Diagnostics {
		if d.Code == code {
			fmt.Fprintf(b, "Message: `%s`\n\n", d.Message)
			found = true
			break
		}
	}
	fmt.Fprintf(b, "Fix: %s\n\n", fix)
	return found
}

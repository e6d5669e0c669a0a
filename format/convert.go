package format

import (
	"fmt"

	"github.com/gdl-lsp/gdl/syntax"
)

// Convert writes a file without syntax errors in dialect to, laid out in the canonical style of
// that notation: every form, comment and blank line is kept in order (see syntax.File.Convert
// for how names and variables are written). A name or variable the target cannot write, or a
// syntax error, is an error with its position.
func Convert(f *syntax.File, to syntax.Dialect) (string, *syntax.ConvertError) {
	text, err := f.Convert(to)
	if err != nil {
		return "", err
	}
	g, errs := syntax.ParseDialect(text, to)
	if len(errs) > 0 {
		// The converter writes what the target parser reads; this is a bug, said plainly.
		return "", &syntax.ConvertError{Message: fmt.Sprintf("internal error: the %s text has a syntax error: %s", to, errs[0].Message)}
	}
	return File(g), nil
}

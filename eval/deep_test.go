package eval

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/internal/gengame"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestDeepNesting is issue 22, item 2, in the evaluator: a rule body nesting not a million
// levels deep is compiled, and the game played and asked, with the goroutine stack limited to 4
// MB, so nothing recurses per level of a rule's nesting (200,000 levels; 50,000 with -short).
// Terms nesting deeper than maxNesting, and an or with more alternatives than maxDisjuncts, are
// refused (eval-unsupported).
func TestDeepNesting(t *testing.T) {
	gengame.EachNested(t, 200_000, 50_000, func(t *testing.T, shape, src string) {
		d, deepQuery, flat := syntax.Prefix, "(p ?x)", "p"
		if gengame.Infix(shape) {
			d, deepQuery = syntax.Infix, "p(X)"
		}
		f, _ := syntax.ParseDialect(src, d)
		g := Compile(analysis.Analyze(f, nil))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		s, err := g.Initial(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Legal(ctx, s); err != nil {
			t.Fatal(err)
		}
		text := flat
		if strings.HasSuffix(shape, "term") {
			text = deepQuery
		}
		q, err := g.ParseQuery(text)
		if err != nil {
			t.Fatal(err)
		}
		answers, err := g.Ask(ctx, s, nil, q)
		var refused *RefusedError
		switch {
		case strings.HasSuffix(shape, "not"), shape == "infix-paren": // an even number of nots, or one alternative: p holds
			if err != nil || len(answers) != 1 {
				t.Errorf("%d answers, error %v; want p", len(answers), err)
			}
		case !errors.As(err, &refused) || !strings.Contains(err.Error(), "more than"):
			t.Errorf("%d answers, error %v; want p refused for its size", len(answers), err)
		}
	})
}

// TestDeepQuery: a query nesting deeper than maxNesting is refused with an error, before
// anything walks it recursively; one as deep as that is answered.
func TestDeepQuery(t *testing.T) {
	g, _ := Load(gengame.Nested("not", 2))
	ctx := context.Background()
	s, err := g.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	deep := func(n int) string {
		return strings.Repeat("(not ", n) + "(true (c 1))" + strings.Repeat(")", n)
	}
	if _, err := g.ParseQuery(deep(maxNesting + 1)); err == nil || !strings.Contains(err.Error(), "more than 10000 levels") {
		t.Errorf("a query nesting %d levels deep: error %v", maxNesting+2, err)
	}
	q, err := g.ParseQuery(deep(maxNesting - 2))
	if err != nil {
		t.Fatal(err)
	}
	if answers, err := g.Ask(ctx, s, nil, q); err != nil || len(answers) != 1 {
		t.Errorf("%d answers, error %v", len(answers), err)
	}
}

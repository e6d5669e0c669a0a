package game

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// genGame writes a valid game (safe, stratified) chosen by the bytes of data: one or two roles
// (sometimes GDL-II's random), unary and 0-ary fluents over three constants, moves with an
// argument, derived relations in three levels (negation only of lower levels, positive recursion
// within a level), legal, next (with does), sees, terminal and goal rules.
func genGame(data []byte) string {
	pos := 0
	pick := func(n int) int {
		if n <= 1 {
			return 0
		}
		if pos >= len(data) {
			return 0
		}
		b := int(data[pos])
		pos++
		return b % n
	}
	var b strings.Builder
	roles := []string{"r0"}
	switch pick(3) {
	case 1:
		roles = append(roles, "r1")
	case 2:
		roles = append(roles, "random")
	}
	for _, r := range roles {
		fmt.Fprintf(&b, "(role %s)\n", r)
	}
	b.WriteString("(dom c0) (dom c1) (dom c2)\n(succ c0 c1) (succ c1 c2)\n")
	// A positive literal that binds ?x, then more literals about it.
	binder := func() string {
		switch pick(4) {
		case 0:
			return "(dom ?x)"
		case 1:
			return fmt.Sprintf("(true (p%d ?x))", pick(3))
		case 2:
			return "(succ ?x ?y)"
		}
		return fmt.Sprintf("(true (p%d ?x))", pick(3))
	}
	// state literal about ?x (bound), for level lv (derived relations of lower levels, or the
	// same level when positive).
	var lit func(lv int, allowDoes bool) string
	lit = func(lv int, allowDoes bool) string {
		switch pick(10) {
		case 0:
			return fmt.Sprintf("(true (p%d ?x))", pick(3))
		case 1:
			return fmt.Sprintf("(not (true (p%d ?x)))", pick(3))
		case 2:
			return fmt.Sprintf("(true q%d)", pick(2))
		case 3:
			return fmt.Sprintf("(not (true q%d))", pick(2))
		case 4:
			return fmt.Sprintf("(distinct ?x c%d)", pick(3))
		case 5:
			if lv > 0 {
				return fmt.Sprintf("(d%d_%d ?x)", pick(lv), pick(2))
			}
		case 6:
			if lv > 0 {
				return fmt.Sprintf("(not (d%d_%d ?x))", pick(lv), pick(2))
			}
		case 7:
			if allowDoes {
				return fmt.Sprintf("(does %s (m%d ?x))", roles[pick(len(roles))], pick(2))
			}
		case 8:
			if lv < 3 {
				return fmt.Sprintf("(d%d_%d ?x)", lv, pick(2)) // positive recursion within the level
			}
		case 9: // the nesting shapes of issue 22: not, or and terms, up to 64 levels deep
			n := 1 + pick(64)
			inner := lit(0, false) // a state literal, distinct or (dom ?x): nothing to stratify
			switch pick(3) {
			case 0:
				return strings.Repeat("(not (not ", n) + inner + strings.Repeat("))", n)
			case 1:
				return strings.Repeat("(or "+inner+" ", n) + inner + strings.Repeat(")", n)
			default:
				return fmt.Sprintf("(not (true (p%d %s?x%s)))", pick(3), strings.Repeat("(w ", n), strings.Repeat(")", n))
			}
		}
		return "(dom ?x)"
	}
	body := func(lv int, allowDoes bool) string {
		parts := []string{binder()}
		for n := pick(3); n >= 0; n-- {
			parts = append(parts, lit(lv, allowDoes))
		}
		return strings.Join(parts, " ")
	}
	for lv := 0; lv < 3; lv++ {
		for k := 0; k < 2; k++ {
			for n := pick(3); n >= 0; n-- {
				fmt.Fprintf(&b, "(<= (d%d_%d ?x) %s)\n", lv, k, body(lv, false))
			}
		}
	}
	for i := 0; i < 3; i++ {
		if pick(2) == 0 {
			fmt.Fprintf(&b, "(init (p%d c%d))\n", i, pick(3))
		}
	}
	if pick(2) == 0 {
		b.WriteString("(init q0)\n")
	}
	b.WriteString("(init (step c0))\n(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))\n")
	for _, r := range roles {
		for j := 0; j < 2; j++ {
			fmt.Fprintf(&b, "(<= (legal %s (m%d ?x)) %s)\n", r, j, body(3, false))
		}
		fmt.Fprintf(&b, "(legal %s (m0 c0))\n", r)
	}
	for i := 0; i < 3; i++ {
		for n := pick(3); n >= 0; n-- {
			fmt.Fprintf(&b, "(<= (next (p%d ?x)) %s)\n", i, body(3, true))
		}
	}
	for i := 0; i < 2; i++ {
		fmt.Fprintf(&b, "(<= (next q%d) %s)\n", i, body(3, true))
	}
	if pick(2) == 0 {
		fmt.Fprintf(&b, "(<= (sees %s (saw ?x)) %s)\n", roles[0], body(3, true))
	}
	fmt.Fprintf(&b, "(<= terminal (true (step c2)))\n(<= terminal %s)\n", body(3, false))
	for _, r := range roles {
		if r == "random" {
			continue
		}
		fmt.Fprintf(&b, "(<= (goal %s 100) %s)\n(<= (goal %s 0) (not (goal %s 100)))\n", r, body(3, false), r, r)
	}
	return b.String()
}

// FuzzEnginesAgree checks that the compiled engine and the interpreter agree on generated games.
func FuzzEnginesAgree(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte("compiled and interpreted engines give the same answers"))
	f.Add([]byte{2, 0, 1, 2, 0, 1, 2, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 3, 3, 3})
	// Nested not, or and terms (issue 22).
	f.Add([]byte{1, 0, 2, 9, 63, 0, 0, 9, 40, 1, 2, 9, 50, 2, 1, 9, 9, 7, 0, 1, 9, 33, 0, 4, 1})
	f.Add([]byte{0, 0, 0, 0, 9, 63, 0, 1, 0})
	f.Add([]byte{0, 0, 0, 0, 9, 63, 0, 1, 2, 1})
	a := agreement{walks: 3, steps: 20, seed: 1, budget: 10 * time.Second}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := genGame(data)
		if _, err := a.run(src); err != nil && !errors.Is(err, errSkip) {
			t.Fatalf("%v\ngame:\n%s", err, src)
		}
	})
}

package markdown

import "testing"

// TestCode: a code span shows its text exactly, whatever backticks it holds.
func TestCode(t *testing.T) {
	for s, want := range map[string]string{
		"plain": "`plain`", "a`b": "``a`b``", "`x": "`` `x ``", "a``b`": "``` a``b` ```", "a\nb": "`a b`",
	} {
		if got := Code(s); got != want {
			t.Errorf("Code(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestText: markup characters are escaped, others are not.
func TestText(t *testing.T) {
	if got, want := Text("a [b](https://c.d) *e* f"), `a \[b\](https\://c\.d) \*e\* f`; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

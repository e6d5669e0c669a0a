package lsp

import (
	"sort"
	"testing"
)

// The commands the server advertises are the ones its table runs, and the test commands.
func TestCommandTable(t *testing.T) {
	var want, got []string
	want = append(want, serverCommands...)
	for name := range commands {
		got = append(got, name)
	}
	got = append(got, "gdl.listTests", "gdl.runTests")
	sort.Strings(want)
	sort.Strings(got)
	if len(got) != len(want) {
		t.Fatalf("advertised %v, run %v", want, got)
	}
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("advertised %v, run %v", want, got)
		}
	}
}

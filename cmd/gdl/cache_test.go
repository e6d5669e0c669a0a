package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gdl cache dir names the folder GDL_CACHE_DIR sets (TestMain sets it, so that no test writes
// into the user's cache), and gdl cache clean empties its remembered failures.
func TestCacheCommand(t *testing.T) {
	bin := buildGDL(t)
	out, errOut, code := gdl(t, bin, "cache", "dir")
	want := os.Getenv("GDL_CACHE_DIR")
	if code != 0 || strings.TrimSpace(out) != want || want == "" {
		t.Fatalf("gdl cache dir: %d %q %q, want %q", code, out, errOut, want)
	}
	// Other tests of the binary may have left failures there (a grounding that ran out of its
	// time on a loaded machine is remembered): the test starts from an empty cache.
	if _, errOut, code := gdl(t, bin, "cache", "clean"); code != 0 {
		t.Fatalf("gdl cache clean: %d %q", code, errOut)
	}
	failures := filepath.Join(want, "no-compile")
	if err := os.MkdirAll(failures, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b"} {
		if err := os.WriteFile(filepath.Join(failures, name), []byte("more than 3 ground rules\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code = gdl(t, bin, "cache", "clean")
	if code != 0 || !strings.Contains(out, "removed 2 remembered failures") {
		t.Fatalf("gdl cache clean: %d %q %q", code, out, errOut)
	}
	if entries, _ := os.ReadDir(failures); len(entries) != 0 {
		t.Fatalf("left: %v", entries)
	}
	if _, errOut, code = gdl(t, bin, "cache", "purge"); code != 2 || !strings.Contains(errOut, "Usage: gdl cache dir|clean") {
		t.Fatalf("gdl cache purge: %d %q", code, errOut)
	}
}

package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is the release version, set at build time with
// -ldflags "-X main.version=v1.2.3"; without it, the module version the binary was built from
// (with go install module@version), or the commit it was built from in a checkout.
var version = ""

// commit is the commit a release was built from, set by scripts/release.sh with
// -ldflags "-X main.commit=..."; without it, the commit Go stamped into the build, if any.
var commit = ""

// versionString is what gdl --version prints: "gdl VERSION (commit, date[, modified]) GOVERSION".
func versionString() string {
	v := version
	rev, date := commit, ""
	modified := false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if commit == "" {
					rev = s.Value
				}
			case "vcs.time":
				date = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "devel"
	}
	out := "gdl " + v
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		extra := rev
		if date != "" {
			extra += ", " + date
		}
		if modified {
			extra += ", modified"
		}
		out += " (" + extra + ")"
	}
	return fmt.Sprintf("%s %s", out, runtime.Version())
}

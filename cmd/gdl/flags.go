package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
)

// The flags every command shares the handling of: reading them between the positional
// arguments, time values, and what is said about a flag that is wrong.

// durationValue is a time flag: a Go duration (2s, 500ms, 1m30s) or a plain number of seconds
// (5, 0.5), as the GGP protocol counts its clocks.
type durationValue struct{ d *time.Duration }

// durationForms names what a time flag accepts, for its errors.
const durationForms = "give seconds (5, 0.5) or a duration with its unit (2s, 500ms, 1m30s)"

func (v durationValue) Set(s string) error {
	d, err := parseDuration(s)
	if err != nil {
		return err
	}
	*v.d = d
	return nil
}

func (v durationValue) String() string {
	if v.d == nil {
		return ""
	}
	return v.d.String()
}

// parseDuration reads a time flag's value.
func parseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(t, 64); err == nil {
		if math.IsNaN(f) || math.Abs(f) > math.MaxInt64/float64(time.Second) {
			return 0, fmt.Errorf("%q seconds is out of range", s)
		}
		return time.Duration(math.Round(f * float64(time.Second))), nil
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0, errors.New(durationForms)
	}
	return d, nil
}

// durationFlag defines a time flag (see durationValue).
func durationFlag(fs *flag.FlagSet, name string, value time.Duration, usage string) *time.Duration {
	d := value
	fs.Var(durationValue{&d}, name, usage+" (seconds or a duration such as 2s, 500ms)")
	return &d
}

// interleaved parses flags that may come before, between or after the positional arguments.
// A wrong flag is reported here, once, as "gdl CMD: ..." with the nearest flag's name for one
// the command does not have, and a pointer to -h instead of the whole usage; -h prints the
// usage (fs.Usage).
func interleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	usage, out := fs.Usage, fs.Output()
	var msg bytes.Buffer
	fs.Usage = func() {}
	fs.SetOutput(&msg)
	defer func() { fs.Usage = usage; fs.SetOutput(out) }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			fs.SetOutput(out)
			if err == flag.ErrHelp {
				usage()
				return nil, err
			}
			reportFlagError(out, fs, err)
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// flagErrors are the flag package's messages about a flag's value, read back to name the flag
// the way the usage does (--name).
var (
	badValue = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-([^\s:]+): (.*)$`)
	noValue  = regexp.MustCompile(`^flag needs an argument: -(\S+)$`)
)

// reportFlagError says what is wrong with a flag: an unknown one with the nearest names the
// command has ("did you mean --format?").
func reportFlagError(w io.Writer, fs *flag.FlagSet, err error) {
	text := err.Error()
	if m := badValue.FindStringSubmatch(text); m != nil {
		text = fmt.Sprintf("--%s %s: %s", m[2], m[1], m[3])
	} else if m := noValue.FindStringSubmatch(text); m != nil {
		text = fmt.Sprintf("--%s needs a value", m[1])
	} else if name, ok := strings.CutPrefix(text, "flag provided but not defined: -"); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		text = fmt.Sprintf("unknown flag --%s", name)
		if near := analysis.Closest(name, names); len(near) > 0 {
			text += "; did you mean --" + strings.Join(near, " or --") + "?"
		}
	}
	fmt.Fprintf(w, "gdl %s: %s\nRun 'gdl %s -h' for its options.\n", fs.Name(), text, fs.Name())
}

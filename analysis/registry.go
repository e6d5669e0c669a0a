package analysis

import "sort"

// Checks lists every semantic check, sorted by code. Each check lives in its own file (named
// after its code) and adds itself here with register.
var Checks []*Check

func register(c *Check) {
	if (c.Run == nil) == (c.Clause == nil) {
		panic("analysis: check must set exactly one of Run and Clause: " + c.Code)
	}
	if c.Amend != nil && c.Clause == nil {
		panic("analysis: only a Clause check may have Amend: " + c.Code)
	}
	for _, o := range Checks {
		if o.Code == c.Code {
			panic("analysis: check registered twice: " + c.Code)
		}
	}
	Checks = append(Checks, c)
	sort.Slice(Checks, func(i, j int) bool { return Checks[i].Code < Checks[j].Code })
}

package analysis

import (
	"sort"
	"strconv"
)

// Values describes what may stand at argument arg of relation rel by the over-approximation
// CanStand reads: anything (all), or the constants, as written and sorted, and the names of the
// function terms with their arity (f/2), sorted. The explanations of things that do not hold
// say with it that an argument never takes a value, and which values it takes.
//
// It is safe for concurrent use.
func (m *Model) Values(rel Rel, arg int) (all bool, consts, funcs []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.producers().get(place{rel, arg})
	if s.any {
		return true, nil, nil
	}
	for _, f := range s.funcs {
		funcs = append(funcs, f.name+"/"+strconv.Itoa(len(f.args)))
	}
	sort.Strings(funcs)
	return false, s.constNames(), funcs
}

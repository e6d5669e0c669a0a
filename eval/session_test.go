package eval

// warm returns the session p gave out last (and will give out next): the one a test that
// makes its calls one after another has evaluated on.
func (p *Program) warm() *session { return p.last.Load() }

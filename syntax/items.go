package syntax

// Items returns cursors to the top-level items of the file in order: forms, whitespace,
// comments and stray tokens. Together they cover the source exactly.
func (f *File) Items() []Cursor {
	out := make([]Cursor, len(f.items))
	for i := range f.items {
		it := &f.items[i]
		out[i] = Cursor{&it.node, it.text, it.start}
	}
	return out
}

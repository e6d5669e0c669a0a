// Package board finds boards among the fluents of a game's states and draws states: as a plain
// model (rows, columns, squares with the text of their pieces, the other fluents in a table),
// as ASCII text and as SVG. The game view of the editor, `gdl render` and the editors' state
// commands all draw through it.
//
// Detection looks at states sampled from the game (the initial state, the fluents `base` says
// can hold, short random walks), not at one state, so that the board of a game that starts
// empty (connect four) is found and its size does not change as pieces come and go. A board is
// a relation of the fluents with two arguments that are coordinates and (usually) a content
// argument, like (cell 1 2 x):
//
//   - both coordinates are constants whose values are ordered: integers (the range from the
//     smallest to the largest seen, gaps filled), constants on a chain of a static relation of
//     two arguments (succ-like facts such as (succ 1 2) or (nextcol a b)), or single letters
//     (a to h);
//   - each takes 2 to 32 values;
//   - the coordinates determine the content: no sampled state has two fluents of the relation
//     on one square (a tenth of the fluents at most may clash, for games whose rules leave an
//     old piece behind now and then);
//   - among several such pairs of arguments, the first two adjacent ones win;
//   - the relation's fluents change from state to state (walls kept as fluents are scenery),
//     and occupy, over the sample, at least minCover of its squares.
//
// Which coordinate is the row is decided from the game, not from the names of variables
// (ggp-base's tic-tac-toe writes (base (cell ?x ?y b)) for a board whose own (row ?m ?x) reads
// (cell ?m 1 ?x)): the relations the rules name after rows and columns and the moves of one
// coordinate (see orient); then letters beside numbers (chess); then the init facts as
// written, row by row; else the first coordinate is the row (a matrix). The gdl.json section
// "board" overrides all of it (analysis.BoardConfig). Pieces of chess show as Unicode chess
// symbols.
package board

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gdl-lsp/gdl/analysis"
)

// Facts is what detection reads of a game.
type Facts struct {
	// States are states sampled from the game, each as its fluents (KIF).
	States [][]string
	// Possible are fluents that can hold though no sampled state has them (from base).
	Possible []string
	// Orders are chains of constants that static relations of two arguments order (the facts
	// (succ 1 2) (succ 2 3) give the chain 1 2 3).
	Orders [][]string
	// Hints gives, per relation (lower case), per argument position, what the rules say of it:
	// a row or a column (coordinateHints), for telling rows from columns.
	Hints map[string][]Hint
	// InitLayout is the fluents the init facts set, in the order the game writes them (KIF): a
	// board listed row by row shows which argument is the row.
	InitLayout []string
	// Infix: the game is written in infix GDL, so the states its API gives Draw and the moves
	// given MoveSquares are infix text (read as KIF through kifText).
	Infix bool
}

// Hint is what a game's rules say of one argument of a relation: how many times it is a row,
// a row that increases upwards (a rank), or a column.
type Hint struct{ Row, Up, Column int }

// Layout is how a game's states are drawn: its boards and the text of pieces.
type Layout struct {
	Boards []*Spec
	infix  bool // the game's API writes infix GDL (Facts.Infix)
	// Notes say what was asked for and could not be done (a gdl.json board whose relation no
	// fluent has), for the people who wrote it.
	Notes []string
}

// Spec is one board: the fluents of Relation (with Arity arguments) whose arguments Row and
// Column (0-based) give a square; the other arguments are the square's content.
type Spec struct {
	Relation string
	Arity    int
	Row      int
	Column   int
	Rows     []string // the row values, top to bottom
	Columns  []string // the column values, left to right
	RowsUp   bool     // the row values increase upwards
	// Configured: the board is named in gdl.json (else it was detected).
	Configured bool
	// Pieces gives the text shown for each content (KIF text of the content arguments, joined
	// by spaces): gdl.json's pieces, blanks as "", and single letters for contents that are
	// long words with distinct initials (red and black as R and B).
	Pieces map[string]string
}

// maxSide is the most values a coordinate takes.
const maxSide = 32

// blanks are the contents that usually mean an empty square.
var blanks = map[string]bool{"b": true, "blank": true, "empty": true, "none": true, "nil": true, "e": true,
	"_": true, "-": true, "free": true, "clear": true, "space": true, "emptycell": true, "void": true}

// fluentInfo is what is known of one relation's fluents.
type fluentInfo struct {
	name   string // as spelled in the first fluent seen
	arity  int
	fluent []term // every distinct fluent seen
	consts []bool // per argument: a constant in every fluent
	values []map[string]bool
}

// Detect finds the boards of a game from its facts, under the gdl.json board section cfg.
func Detect(f Facts, cfg analysis.BoardConfig) *Layout {
	rels, order := relationsOf(f)
	lay := &Layout{infix: f.Infix}
	configured := lay.addConfigured(cfg.Boards, rels, order, f)
	if cfg.DetectBoards() {
		for _, k := range order {
			fi := rels[k]
			if configured[strings.ToLower(fi.name)] {
				continue
			}
			if sp := detectOne(fi, f); sp != nil {
				lay.Boards = append(lay.Boards, sp)
			}
		}
	}
	for _, sp := range lay.Boards {
		if sp.RowsUp {
			slices.Reverse(sp.Rows)
		}
		sp.Pieces = pieceTexts(sp, rels[key(sp.Relation, sp.Arity)], cfg.Pieces)
	}
	return lay
}

// relationsOf gathers the distinct fluents of f's states and possible fluents by relation
// (name and arity, as key gives it); order is the relations' keys, sorted.
func relationsOf(f Facts) (rels map[string]*fluentInfo, order []string) {
	rels = map[string]*fluentInfo{}
	seen := map[string]bool{}
	add := func(text string) {
		if seen[text] {
			return
		}
		seen[text] = true
		t, ok := parseTerm(text)
		if !ok || t.isConst() {
			return
		}
		k := key(t.name, len(t.args))
		fi := rels[k]
		if fi == nil {
			fi = newFluentInfo(t)
			rels[k] = fi
			order = append(order, k)
		}
		fi.add(t)
	}
	for _, s := range f.States {
		for _, fl := range s {
			add(fl)
		}
	}
	for _, fl := range f.Possible {
		add(fl)
	}
	slices.Sort(order)
	return rels, order
}

// newFluentInfo is the information of the relation of fluent t, before any fluent is added.
func newFluentInfo(t term) *fluentInfo {
	fi := &fluentInfo{name: t.name, arity: len(t.args), consts: make([]bool, len(t.args)), values: make([]map[string]bool, len(t.args))}
	for k := range fi.consts {
		fi.consts[k] = true
		fi.values[k] = map[string]bool{}
	}
	return fi
}

// add records fluent t of the relation: its constant arguments' values, and which arguments
// are not constants.
func (fi *fluentInfo) add(t term) {
	fi.fluent = append(fi.fluent, t)
	for k, a := range t.args {
		if !a.isConst() {
			fi.consts[k] = false
			continue
		}
		fi.values[k][a.name] = true
	}
}

// addConfigured adds the boards gdl.json names, each on the relation of that name (any case)
// with the most arguments, noting those no fluent seen fits; it returns the relations taken,
// lower-case.
func (lay *Layout) addConfigured(boards []analysis.BoardSpec, rels map[string]*fluentInfo, order []string, f Facts) map[string]bool {
	configured := map[string]bool{}
	for _, bs := range boards {
		var fi *fluentInfo
		for _, k := range order {
			c := rels[k]
			if strings.EqualFold(c.name, bs.Relation) && c.arity >= max(bs.Row, bs.Column) && (fi == nil || c.arity > fi.arity) {
				fi = c
			}
		}
		if fi == nil {
			lay.Notes = append(lay.Notes, fmt.Sprintf("gdl.json names the board %q (row argument %d, column argument %d), but no fluent seen has that relation with that many arguments",
				bs.Relation, bs.Row, bs.Column))
			continue
		}
		configured[strings.ToLower(fi.name)] = true
		row, col := bs.Row-1, bs.Column-1
		sp := &Spec{Relation: fi.name, Arity: fi.arity, Row: row, Column: col, Configured: true,
			Rows: axis(fi, row, f.Orders, true), Columns: axis(fi, col, f.Orders, true)}
		sp.RowsUp = defaultUp(fi, row, col, f)
		if bs.RowsUp != nil {
			sp.RowsUp = *bs.RowsUp
		}
		lay.Boards = append(lay.Boards, sp)
	}
	return configured
}

// detectOne finds the board of a relation's fluents, or nil.
func detectOne(fi *fluentInfo, f Facts) *Spec {
	if fi.arity < 2 {
		return nil
	}
	var axes [][]string
	for k := range fi.arity {
		var ax []string
		if fi.consts[k] {
			ax = axis(fi, k, f.Orders, false)
		}
		if len(ax) < 2 || len(ax) > maxSide {
			ax = nil
		}
		axes = append(axes, ax)
	}
	type pair struct{ i, j, clashes int }
	total := 0
	for _, st := range f.States {
		total += count(fi, st)
	}
	var pairs []pair
	for i := range fi.arity {
		for j := i + 1; j < fi.arity; j++ {
			if axes[i] == nil || axes[j] == nil {
				continue
			}
			// A few fluents on a square already taken are tolerated (a knight on a hole it
			// left, a flipped piece whose old colour stays): a tenth of them at most.
			if n := clashes(fi, i, j, f); 10*n <= total {
				pairs = append(pairs, pair{i, j, n})
			}
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	// The fewest clashes, then adjacent coordinates, then the leftmost.
	slices.SortStableFunc(pairs, func(a, b pair) int {
		if a.clashes != b.clashes {
			return a.clashes - b.clashes
		}
		if da, db := a.j-a.i, b.j-b.i; da != db {
			return da - db
		}
		return a.i - b.i
	})
	p := pairs[0]
	if fi.arity == 2 && !(plainAxis(fi, p.i) && plainAxis(fi, p.j)) {
		// Without a content argument only numbers and letters make a board (walls of a maze
		// at (wall 2 3)); a pair of other constants is more often a mapping than a board.
		return nil
	}
	if !varies(fi, f) || covered(fi, p.i, p.j, len(axes[p.i])*len(axes[p.j]), f) < minCover {
		return nil
	}
	row, col, up := orient(fi, p.i, p.j, f)
	return &Spec{Relation: fi.name, Arity: fi.arity, Row: row, Column: col, RowsUp: up, Rows: axes[row], Columns: axes[col]}
}

// varies reports whether the relation's fluents change from state to state: a relation whose
// fluents are the same in every sampled state (the walls of a maze kept as fluents) is scenery,
// not a board. With one state sampled, there is no telling: it may be a board.
func varies(fi *fluentInfo, f Facts) bool {
	if len(f.States) < 2 {
		return true
	}
	var first []string
	for k, s := range f.States {
		var mine []string
		for _, text := range s {
			if _, ok := fluentOf(fi, text); ok {
				mine = append(mine, text)
			}
		}
		slices.Sort(mine)
		if k == 0 {
			first = mine
		} else if !slices.Equal(first, mine) {
			return true
		}
	}
	return false
}

// minCover is the share of a board's squares that its fluents must occupy, over the sampled
// states and the fluents base allows: a board covers its grid, as a chess board does with
// pieces and blanks or a connect four board filled in play; a relation of a few squares
// (chess's check markers, the squares of pieces that have moved) is not one, nor a relation
// between two numbers (an offer in a bargaining game).
const minCover = 0.3

// covered is the share of the squares of the coordinates i and j of a relation (squares of
// them) that its fluents occupy over the sampled states and the fluents base allows.
func covered(fi *fluentInfo, i, j, squares int, f Facts) float64 {
	seen := map[[2]string]bool{}
	note := func(text string) {
		if t, ok := fluentOf(fi, text); ok {
			seen[[2]string{t.args[i].text, t.args[j].text}] = true
		}
	}
	for _, s := range f.States {
		for _, text := range s {
			note(text)
		}
	}
	for _, text := range f.Possible {
		note(text)
	}
	return float64(len(seen)) / float64(max(squares, 1))
}

// clashes counts the fluents of the relation, over the sampled states, on a square of the
// arguments i and j that another fluent of the state already takes (none when the coordinates
// determine the rest, as they should).
func clashes(fi *fluentInfo, i, j int, f Facts) int {
	n := 0
	for _, s := range f.States {
		squares := map[[2]string]bool{}
		for _, text := range s {
			t, ok := fluentOf(fi, text)
			if !ok {
				continue
			}
			sq := [2]string{t.args[i].text, t.args[j].text}
			if squares[sq] {
				n++
			}
			squares[sq] = true
		}
	}
	return n
}

// count counts the fluents of the relation in a state.
func count(fi *fluentInfo, state []string) int {
	n := 0
	for _, text := range state {
		if _, ok := fluentOf(fi, text); ok {
			n++
		}
	}
	return n
}

// fluentOf reads a fluent of the relation.
func fluentOf(fi *fluentInfo, text string) (term, bool) {
	if !strings.HasPrefix(text, "(") || !strings.EqualFold(firstWord(text[1:]), fi.name) {
		return term{}, false
	}
	t, ok := parseTerm(text)
	return t, ok && len(t.args) == fi.arity
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " )"); i >= 0 {
		return s[:i]
	}
	return s
}

// axis orders the values of argument k as coordinates: integers from the smallest to the
// largest (gaps filled), a chain of a static relation, or single letters from the first to the
// last. It returns nil when they are not ordered that way, unless any is set: then they are
// sorted as text (numbers by value), for a board that gdl.json names.
func axis(fi *fluentInfo, k int, orders [][]string, any bool) []string {
	vals := make([]string, 0, len(fi.values[k]))
	for v := range fi.values[k] {
		vals = append(vals, v)
	}
	slices.Sort(vals)
	if len(vals) == 0 {
		return nil
	}
	if ax := intRange(vals); ax != nil {
		return ax
	}
	for _, ch := range orders {
		if ax := chainSegment(ch, vals); ax != nil {
			// A chain that counts down (succ c8 c7, ...) is read the other way, so that
			// coordinates numbered c1 to c8 increase from left to right and upwards as
			// numbers do.
			if slices.IsSortedFunc(ax, func(a, b string) int { return naturalCompare(b, a) }) {
				slices.Reverse(ax)
			}
			return ax
		}
	}
	if ax := letterRange(vals); ax != nil {
		return ax
	}
	if !any {
		return nil
	}
	slices.SortFunc(vals, naturalCompare)
	return vals
}

// intRange returns lo..hi when every value is an integer and the range is not too long.
func intRange(vals []string) []string {
	lo, hi := 0, 0
	for i, v := range vals {
		n, err := strconv.Atoi(v)
		if err != nil || strconv.Itoa(n) != v {
			return nil
		}
		if i == 0 || n < lo {
			lo = n
		}
		if i == 0 || n > hi {
			hi = n
		}
	}
	if hi-lo+1 > maxSide {
		return nil
	}
	out := make([]string, 0, hi-lo+1)
	for n := lo; n <= hi; n++ {
		out = append(out, strconv.Itoa(n))
	}
	return out
}

// chainSegment returns the part of chain ch from the first to the last of vals, when ch holds
// them all.
func chainSegment(ch, vals []string) []string {
	lo, hi := len(ch), -1
	for _, v := range vals {
		i := slices.Index(ch, v)
		if i < 0 {
			return nil
		}
		lo, hi = min(lo, i), max(hi, i)
	}
	if hi-lo+1 > maxSide {
		return nil
	}
	return slices.Clone(ch[lo : hi+1])
}

// letterRange returns the letters from the first to the last of vals, when every value is one
// letter of the same case.
func letterRange(vals []string) []string {
	var lo, hi byte = 'z' + 1, 0
	upper := false
	for i, v := range vals {
		if len(v) != 1 || !(v[0] >= 'a' && v[0] <= 'z' || v[0] >= 'A' && v[0] <= 'Z') {
			return nil
		}
		c := v[0]
		if i == 0 {
			upper = c <= 'Z'
		} else if (c <= 'Z') != upper {
			return nil
		}
		c |= 0x20
		lo, hi = min(lo, c), max(hi, c)
	}
	var out []string
	for c := lo; c <= hi; c++ {
		s := string(c)
		if upper {
			s = strings.ToUpper(s)
		}
		out = append(out, s)
	}
	return out
}

// naturalCompare orders texts with their numbers by value ("r2" before "r10").
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitsPrefix(a), digitsPrefix(b)
		if da != "" && db != "" {
			x, _ := strconv.Atoi(da)
			y, _ := strconv.Atoi(db)
			if x != y {
				return x - y
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			return int(ra) - int(rb)
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

func digitsPrefix(s string) string {
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// hint is what the rules say of argument k of a relation.
func hint(fi *fluentInfo, k int, f Facts) Hint {
	hs := f.Hints[strings.ToLower(fi.name)]
	if k >= len(hs) {
		return Hint{}
	}
	return hs[k]
}

// orient says which of the coordinates i < j is the row and whether rows increase upwards,
// from what the game says, in this order:
//   - its relations about rows and columns and its moves of one coordinate (Hints);
//   - letters beside numbers (or another order): the letters are the columns and the numbers
//     the rows, upwards (chess, checkers);
//   - its init facts, written row by row: the argument that stays the same from one fact to
//     the next while the other changes is the row;
//   - else the first coordinate is the row (a matrix).
//
// Rows run upwards for a rank, for numbers beside letters, and when the row comes after the
// column in the relation, as in (cell ?x ?y) of the plane; a matrix, (cell ?row ?col), is drawn
// from the top.
func orient(fi *fluentInfo, i, j int, f Facts) (row, col int, up bool) {
	hi, hj := hint(fi, i, f), hint(fi, j, f)
	decided := func(row, col int) (int, int, bool) {
		if h := hint(fi, row, f); h.Up > 0 && 2*h.Up >= h.Row {
			return row, col, true
		}
		return row, col, row > col
	}
	switch si, sj := hi.Row+hj.Column, hj.Row+hi.Column; {
	case si > sj:
		return decided(i, j)
	case sj > si:
		return decided(j, i)
	}
	switch li, lj := letterRange(keys(fi.values[i])) != nil, letterRange(keys(fi.values[j])) != nil; {
	case li && !lj:
		return j, i, true
	case lj && !li:
		return i, j, true
	}
	switch ri, rj := rowsListed(fi, i, j, f.InitLayout); {
	case rj > ri:
		return decided(j, i)
	case ri > rj:
		return decided(i, j)
	}
	return i, j, false
}

// rowsListed reads the init facts of a relation in the order written: ri counts the facts
// that keep argument i and change argument j from the fact before (i is then the row, the
// facts a row written left to right), rj the other way round.
func rowsListed(fi *fluentInfo, i, j int, layout []string) (ri, rj int) {
	var prev term
	have := false
	for _, text := range layout {
		t, ok := fluentOf(fi, text)
		if !ok {
			continue
		}
		if have {
			si, sj := t.args[i].text == prev.args[i].text, t.args[j].text == prev.args[j].text
			switch {
			case si && !sj:
				ri++
			case sj && !si:
				rj++
			}
		}
		prev, have = t, true
	}
	return ri, rj
}

// plainAxis reports whether argument k takes integers or single letters.
func plainAxis(fi *fluentInfo, k int) bool {
	vals := keys(fi.values[k])
	return intRange(vals) != nil || letterRange(vals) != nil
}

// defaultUp is the direction of rows of a board that gdl.json names without rowsUp, as orient
// decides it: upwards for a rank, numbers beside letters, or a row after the column.
func defaultUp(fi *fluentInfo, row, col int, f Facts) bool {
	if h := hint(fi, row, f); h.Up > 0 && 2*h.Up >= h.Row {
		return true
	}
	if letterRange(keys(fi.values[col])) != nil && intRange(keys(fi.values[row])) != nil {
		return true
	}
	return row > col
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// content is the KIF text of a fluent's content: its arguments other than the coordinates.
func (sp *Spec) content(t term) string {
	var parts []string
	for k, a := range t.args {
		if k != sp.Row && k != sp.Column {
			parts = append(parts, a.text)
		}
	}
	return strings.Join(parts, " ")
}

// pieceTexts fixes the text of each content of a board: gdl.json's pieces first; blanks empty;
// long words with distinct initials as their initials; the rest as written.
func pieceTexts(sp *Spec, fi *fluentInfo, configured map[string]string) map[string]string {
	out := map[string]string{}
	var contents []string
	if fi != nil {
		for _, t := range fi.fluent {
			c := sp.content(t)
			if _, ok := out[c]; ok || c == "" {
				continue
			}
			out[c] = c
			contents = append(contents, c)
		}
	}
	var words []string
	for _, c := range contents {
		if blanks[strings.ToLower(c)] {
			out[c] = ""
			continue
		}
		words = append(words, c)
	}
	long := false
	initials := map[rune]bool{}
	distinct := true
	for _, w := range words {
		if utf8.RuneCountInString(w) > 2 {
			long = true
		}
		r, _ := utf8.DecodeRuneInString(w)
		r = unicode.ToUpper(r)
		if initials[r] || !unicode.IsLetter(r) || strings.ContainsAny(w, " ()") {
			distinct = false
		}
		initials[r] = true
	}
	if glyphs := chessGlyphs(words); glyphs != nil {
		maps.Copy(out, glyphs)
	} else if long && distinct {
		for _, w := range words {
			r, _ := utf8.DecodeRuneInString(w)
			out[w] = string(unicode.ToUpper(r))
		}
	}
	for k, v := range configured {
		out[canonical(k)] = v
	}
	return out
}

// chessPiece reads a chess piece's name: a colour (w, b, white, black) and a piece (k, q, r, b,
// n, p or the words), in one word or two (wk, whiteKing, white_king, "white king").
var chessPiece = regexp.MustCompile(`^(w|b|white|black)(k|q|r|b|n|p|king|queen|rook|bishop|knight|pawn)$`)

// chessSymbols are the Unicode chess symbols, white then black, by piece letter.
var chessSymbols = map[string][2]string{"k": {"♔", "♚"}, "q": {"♕", "♛"}, "r": {"♖", "♜"}, "b": {"♗", "♝"}, "n": {"♘", "♞"}, "p": {"♙", "♟"}}

// pieceSeparators are dropped from contents before they are matched against chess pieces.
var pieceSeparators = strings.NewReplacer(" ", "", "_", "", "-", "")

// chessGlyphs gives the Unicode chess symbols of contents that are all chess pieces of at
// least three kinds (so that checkers' wp and wk stay letters), else nil.
func chessGlyphs(contents []string) map[string]string {
	out := map[string]string{}
	kinds := map[string]bool{}
	for _, c := range contents {
		m := chessPiece.FindStringSubmatch(pieceSeparators.Replace(strings.ToLower(c)))
		if m == nil {
			return nil
		}
		kind := m[2]
		if kind == "knight" {
			kind = "n"
		}
		kind = kind[:1]
		colour := 0
		if m[1][0] == 'b' {
			colour = 1
		}
		out[c] = chessSymbols[kind][colour]
		kinds[kind] = true
	}
	if len(kinds) < 3 {
		return nil
	}
	return out
}

// pieceText is what a square with content c shows.
func (sp *Spec) pieceText(c string) string {
	if sp.Arity == 2 && c == "" {
		r, _ := utf8.DecodeRuneInString(sp.Relation)
		return string(unicode.ToUpper(r))
	}
	if t, ok := sp.Pieces[c]; ok {
		return t
	}
	if blanks[strings.ToLower(c)] {
		return ""
	}
	return c
}

package analysis

import (
	"context"
	"iter"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gdl-lsp/gdl/syntax"
)

// Keywords of GDL (case-folded). Relation keywords are relations with a fixed meaning; the
// connectives are syntax.
var (
	RelationKeywords = map[string]int{ // keyword -> arity
		"role": 1, "init": 1, "true": 1, "does": 2, "next": 1, "legal": 2, "goal": 2,
		"terminal": 0, "distinct": 2, "base": 1, "input": 2, "sees": 2,
	}
	Connectives = map[string]bool{"<=": true, "not": true, "or": true}
)

// IsKeyword reports whether the folded name is a GDL keyword or connective.
func IsKeyword(key string) bool {
	_, rel := RelationKeywords[key]
	return rel || Connectives[key] || key == "and"
}

// Clause is a rule or a fact with a well-formed head. Malformed forms (reported by the parser)
// are not clauses.
type Clause struct {
	Index  int // position in Model.Clauses
	Form   syntax.Form
	Head   syntax.Atom
	Body   []syntax.Literal
	IsRule bool // written with <=; false for a fact
	key    string
	arity  int // the head's arity (counting a head's arguments walks its tree)
	// visits lists every literal, nested ones included, outermost first, at the positions of the
	// version whose form started at visitsAt: shared by the versions the form is reused in, and
	// moved by walkLiterals.
	visits   []literalVisit
	visitsAt int
	// bare lists the names without arguments written in parentheses, (terminal) or (f), at the
	// positions of the version whose form started at visitsAt (unnecessary-parentheses reads them).
	bare []bareList
	// Vars maps a variable's key to its occurrences, as indexes into c.Occurrences(m) (relative
	// to the clause's first occurrence, so that a clause moved by an edit keeps the same map), in
	// source order.
	Vars map[string][]int

	occLo, occHi   int // the clause's occurrences: m.Occ(occLo) to m.Occ(occHi-1)
	edgeLo, edgeHi int // the clause's dependency edges: m.Edges[edgeLo:edgeHi]

	// prod is the clause compiled for the producers' fixpoint, made on first need and shared by
	// the versions the clause is reused in (it holds no position).
	prod atomic.Pointer[compiled]
	// meets remembers clauseMeets's answers, shared by the versions the clause is reused in.
	meets atomic.Pointer[[]meetsMemo]
	// texts remembers the texts that whole-file checks made for the clause (see Clause.memoFinding),
	// shared by the versions the clause is reused in.
	texts atomic.Pointer[[]textMemo]
	// gen is the generation of the model that made the clause (Model.gen).
	gen uint32
	// failing remembers which of the clause's uses of a relation a whole-file check found wrong
	// against the argument sets it read (see Model.failingUses), shared like meets.
	failing atomic.Pointer[[]failingMemo]
}

// textMemo is what one check wrote about a clause, with the key of what else it depends on.
type textMemo struct {
	code, key string
	texts     [3]string
	at        syntax.Span // where the finding is, relative to the clause's form
}

// memoFinding returns what write writes about the clause for check code, made once per key
// (what else the texts depend on) and remembered with the clause: a check that reports
// thousands of clauses writes each message once while the clause is unchanged. write returns
// the texts and the span the finding covers, which is remembered relative to the clause's form
// and returned where the form is now (a moved clause's finding is not looked for in its tree
// again). Two checks that store at once may lose one's entry, which is then made again.
func (c *Clause) memoFinding(code, key string, write func() ([3]string, syntax.Span)) ([3]string, syntax.Span) {
	start := c.Form.Span().Start
	old := c.texts.Load()
	if old != nil {
		for _, e := range *old {
			if e.code == code && e.key == key {
				return e.texts, syntax.Span{Start: e.at.Start + start, End: e.at.End + start}
			}
		}
	}
	t, at := write()
	rel := syntax.Span{Start: at.Start - start, End: at.End - start}
	replaceMemo(&c.texts, textMemo{code: code, key: key, texts: t, at: rel}, func(e textMemo) bool { return e.code != code })
	return t, at
}

// replaceMemo stores in memos the entries of its list that keep accepts, then e: a clause's memo
// with one check's older entry replaced. What another goroutine stores at once may be lost.
func replaceMemo[T any](memos *atomic.Pointer[[]T], e T, keep func(T) bool) {
	var next []T
	if old := memos.Load(); old != nil {
		for _, x := range *old {
			if keep(x) {
				next = append(next, x)
			}
		}
	}
	next = append(next, e)
	memos.Store(&next)
}

// Key returns the folded name of the clause's head relation.
func (c *Clause) Key() string { return c.key }

// Rel returns the clause's head relation: its folded name and arity.
func (c *Clause) Rel() Rel { return Rel{c.key, c.arity} }

// Rel is a relation of the dependency graph: a folded name and an arity. Relations of one name
// and different arities are different relations, as for the evaluator (the arity-mismatch check
// reports a name used with several arities).
type Rel struct {
	Key   string
	Arity int
}

func (r Rel) String() string { return r.Key + "/" + strconv.Itoa(r.Arity) }

// AtomRel returns the relation of an atom.
func AtomRel(a syntax.Atom) Rel { return Rel{a.Name().Key(), a.Arity()} }

// KeywordRel returns the relation of a GDL keyword at its arity (does/2, true/1, ...). The
// checks ask it in their loops over every clause: a switch, not a look-up in RelationKeywords
// (TestKeywordRel checks that the two agree).
func KeywordRel(key string) Rel {
	switch key {
	case "terminal":
		return Rel{key, 0}
	case "role", "init", "true", "next", "base":
		return Rel{key, 1}
	case "does", "legal", "goal", "distinct", "input", "sees":
		return Rel{key, 2}
	}
	return Rel{key, 0}
}

// RelName returns how messages name a relation: its name, with its arity when the file uses the
// name with several arities.
func (m *Model) RelName(r Rel) string {
	if s := m.Relations[r.Key]; s != nil && s.ArityCount() > 1 {
		return r.String()
	}
	return r.Key
}

// OccKind says what a symbol occurrence is.
type OccKind uint8

const (
	OccRelation OccKind = iota // a relation name in an atom
	OccFunction                // a function name in a function term
	OccConstant                // a constant term
	OccVariable                // a variable
	OccKeyword                 // a connective: <=, not, or, and the distinct of a literal
)

// Occurrence is one appearance of a symbol.
type Occurrence struct {
	Kind    OccKind
	Def     bool // in the head of its clause (for a relation: a definition site)
	Negated bool // inside a `not`
	// Parenthesized is true for a relation or function name at the head of a list: `(p ...)`,
	// `(f ...)`; false for a bare proposition like `terminal`.
	Parenthesized bool
	// Arg is the argument index within the atom of Relation, -1 for the relation name. Arg,
	// Arity and Clause are 32 bits wide (an occurrence is 80 bytes, not 96).
	Arg    int32
	Arity  int32 // for relations and functions
	Clause int32 // index into Model.Clauses
	Span   syntax.Span
	Name   string // as written
	Key    string // case-folded
	// Relation is the key of the relation whose atom contains this occurrence (itself for a
	// relation name).
	Relation string
}

// SymbolKind separates the namespaces of a file.
type SymbolKind uint8

const (
	RelationSymbol SymbolKind = iota
	FunctionSymbol
	ConstantSymbol
)

// Symbol gathers the occurrences of one name in one namespace.
type Symbol struct {
	Kind SymbolKind
	Key  string
	Occs []int // occurrence indexes, in source order
	// The spellings (Spellings) and the arities (Arities) of its occurrences. Nearly every
	// symbol has one spelling and one arity: spelling and arity say which, and the maps are
	// nil. Two maps for each symbol were a fifth of the model of a file of 120,000 relations.
	spellings map[string]int // spelling -> count, when there are several
	arities   map[int][]int  // arity -> occurrence indexes, when there are several
	spelling  string
	arity     int
	ord       int32 // its number, while indexing
	defs      int   // how many of its occurrences are in a clause head
}

// relationSymbols yields the relation symbols (m.Relations) in the order of their first
// occurrences: a slice read in order, where ranging over the table of a file of 150,000
// relations visits its entries at random.
func (m *Model) relationSymbols() iter.Seq[*Symbol] {
	return func(yield func(*Symbol) bool) {
		for _, s := range m.symbols {
			if s.Kind == RelationSymbol && !yield(s) {
				return
			}
		}
	}
}

// Notation returns the notation of the analysed file: messages and fixes write code in it.
func (m *Model) Notation() syntax.Dialect { return m.File.Dialect() }

// Spelling returns the name an occurrence spells: its text, without the quotes of a quoted infix
// name ("Cell" spells Cell).
func (m *Model) Spelling(o *Occurrence) string {
	if m.File.Dialect() == syntax.Infix && strings.HasPrefix(o.Name, `"`) {
		return strings.TrimSuffix(o.Name[1:], `"`)
	}
	return o.Name
}

// Name returns the most common spelling (ties: the first written), without infix quotes.
func (s *Symbol) Name(m *Model) string {
	if s.spellings == nil {
		return s.spelling
	}
	best, n := "", -1
	for _, i := range s.Occs {
		sp := m.Spelling(m.rawOcc(i))
		if c := s.spellings[sp]; c > n {
			best, n = sp, c
		}
	}
	return best
}

// Spellings yields each spelling of the symbol's occurrences (without infix quotes) with how
// many occurrences spell it, in no particular order.
func (s *Symbol) Spellings() iter.Seq2[string, int] {
	return oneOrAll(s.spellings, s.spelling, len(s.Occs))
}

// oneOrAll yields the entries of all, or k and v when all is nil.
func oneOrAll[K comparable, V any](all map[K]V, k K, v V) iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		if all == nil {
			yield(k, v)
			return
		}
		for k, v := range all {
			if !yield(k, v) {
				return
			}
		}
	}
}

// SpellingCount returns how many spellings the symbol's occurrences have.
func (s *Symbol) SpellingCount() int {
	if s.spellings == nil {
		return 1
	}
	return len(s.spellings)
}

// Arities yields each arity of the symbol's occurrences with those occurrences (indexes into
// Model.Occurrences, in source order), in no particular order.
func (s *Symbol) Arities() iter.Seq2[int, []int] {
	return oneOrAll(s.arities, s.arity, s.Occs)
}

// ArityCount returns how many arities the symbol's occurrences have.
func (s *Symbol) ArityCount() int {
	if s.arities == nil {
		return 1
	}
	return len(s.arities)
}

// OccsOfArity returns the symbol's occurrences of arity a (in source order), nil when it has
// none.
func (s *Symbol) OccsOfArity(a int) []int {
	if s.arities == nil {
		if a == s.arity {
			return s.Occs
		}
		return nil
	}
	return s.arities[a]
}

// Edge is a dependency of a clause's head relation on a relation of its body.
type Edge struct {
	From, To Rel
	Negative bool        // under a `not`
	Span     syntax.Span // the atom of the body
	Clause   int
}

// RoleDecl is a `(role name)` fact.
type RoleDecl struct {
	Name string
	Key  string
	Span syntax.Span // the role's name
}

// Model is the semantic model of one file.
type Model struct {
	File    *syntax.File
	Clauses []*Clause
	// The occurrences, sorted by position (Occ, AllOccurrences and NumOccurrences read them),
	// in segments shared with the models they were made for (see occSeg).
	occSegs   []occSeg
	occN      int
	Relations map[string]*Symbol
	Functions map[string]*Symbol
	Constants map[string]*Symbol
	Roles     []RoleDecl
	// Broken holds the relations that forms with syntax errors seem to define.
	Broken map[string]bool

	Edges []Edge
	// The edges out of relation number v (OutEdges): outEdges[outStart[v]:outStart[v+1]].
	outStart []int32
	outEdges []int
	SCCs     [][]Rel // strongly connected components, dependencies first (see SCCOf)
	// sccOf and stratum are, by relation number (relID), its component (an index into SCCs)
	// and its stratum (see SCCOf and Stratum): slices, not maps by relation, of which a file
	// of 150,000 relations made two more on every edit.
	sccOf, stratum []int
	// Recursive[p] is true when p lies on a cycle (a component of several relations or a
	// relation that depends on itself).
	Recursive map[Rel]bool

	// parts records, per form, where its clause, occurrences and edges are, so that the model of
	// the next version can copy them instead of walking the form again: a partFinder finds the
	// part of a form that the incremental parser shared between the versions by the form's
	// identity.
	parts    []formPart
	indexed  bool // a model of the checks: its parts may be reused once its analysis completes
	reusable bool // its analysis completed (markReusable)
	formsMu  sync.Mutex
	byForm   map[syntax.Identity]uint32 // form -> index in parts, made on first need (formIndex)
	reused   int                        // clauses taken over from prev (for tests)
	walked   []int32                    // the clauses not taken over from prev, by index
	// gen numbers the models of a document's versions (prev's plus one); gens lists the
	// generations of the models that made its clauses. A clause shared with prev keeps the
	// block it was made in alive: a version whose prev's clauses come from maxClauseGens
	// models or more shares none, so that no chain of blocks stays alive.
	gen    uint32
	gens   []uint32
	share  bool              // the clauses before the first form that moved or changed are prev's own
	folded map[string]string // spelling -> case-folded key, while building
	// The stacks of the walks of literals and terms, reused from clause to clause while building.
	litStack  []litStep
	termStack []syntax.Term
	// While building: blocks from which clauses and their literal lists are taken, so that a
	// model is a few large allocations rather than one per clause.
	clauseBlock block[Clause]
	litBlock    block[syntax.Literal]
	// While building: the first stableOccs occurrences are the very ones of prev (taken over
	// from forms that neither moved nor changed place); stable holds until a form breaks the
	// stretch.
	stable       bool
	stableOccs   int
	completeOnly bool           // forms with syntax errors are left out
	incomplete   bool           // some form has syntax errors
	mu           sync.Mutex     // guards dependsOn, in, splitMemo and prodMemo
	dependsOn    map[Rel][]bool // memo for DependsOn: the relations that reach a relation, by number
	inStart      []int          // edgesIn's lists by relation number: the edges into v are
	inEdges      []int          // inEdges[inStart[v]:inStart[v+1]]
	nodeNames    []Rel          // the graph's relations by number (buildGraph)
	rels         *relIndex      // the number of each relation (relNum)
	prevOf       []prevClause   // while building: the clause of prev each clause is, by index
	heads        []int32        // the number of each clause's head relation
	headNodes    int            // how many relations are heads (numbered first)
	nodeHint     int            // the previous version's number of relations, or 0
	defs         [][]*Clause    // the clauses of each relation, by number
	edgeTo       []int32        // the number of each edge's target
	splitMemo    *splitStrata   // memo for SplitRelations and StaysUnstratified
	prodMemo     *producers     // memo for producersAt
	relCands     *relCandidates // memo for relationCandidates
	// From the end of newModel until the producers are made or the analysis ends: the model
	// this one reused clauses from, and which of its clauses it reused (by index), so that the
	// producers start from that model's sets where no changed clause can reach.
	prevModel *Model
	prevUsed  []bool
	// From the end of newModel until undefined-relation asks or the analysis ends: the model
	// this one reused clauses from's "did you mean" candidates and answers (the producers let
	// go of prevModel as soon as they are made, often before undefined-relation runs).
	prevRelCands *relCandidates
	// touched holds, when touchedOK, the keys of the relations with an occurrence in a clause
	// walked anew or in a clause of the model this one reused clauses from that it did not
	// reuse (touchedRelations): the relations whose "did you mean" candidate may differ.
	touched   []string
	touchedOK bool
	// reportHint is, per check (by index in Checks), how many diagnostics it reported on this
	// model, or (from newModel until its checks run) on prev: the reporters start with that
	// much room.
	reportHint atomic.Pointer[[]int]
	// symOf is the number of each occurrence's symbol in symbols (-1 for variables and
	// keywords), kept for the next version's index; occRuns, while building, the runs of
	// occurrences taken over from prev.
	symOf   []int32
	symbols []*Symbol
	occRuns []occRun
	// fresh holds, while building, the occurrences of the forms walked anew (their segments
	// refer to it once it is complete: finishOccs).
	fresh []Occurrence
}

// occRun is a run of n occurrences from lo that are prev's from `from`, moved.
type occRun struct{ lo, from, n int }

// formPart says what one form contributed to a model.
type formPart struct {
	id             syntax.Identity
	start          int // the form's start offset in that model's file
	clause         int // its clause's index, or -1 when it makes no clause
	occLo, occHi   int // its occurrences
	edgeLo, edgeHi int // its dependency edges
	// role is 1 + the index in that model's Roles of the role its fact declares, or 0: the next
	// version moves the declaration instead of reading the fact again (in a file of 16,000 role
	// facts, reading them was a tenth of an edit's work).
	role int32
	// diags is what the per-clause checks found in the clause (default severities), once
	// checked is set: by the analysis, or by reuse from the previous version's part.
	diags   []Diagnostic
	checked bool
}

// NewModel builds the model of f, for navigation: forms with syntax errors take part as far as
// their shape allows, so hover, definition and completion work in a rule being typed.
func NewModel(f *syntax.File) *Model {
	m, _ := newModel(context.Background(), f, false, nil)
	return m
}

// NavigationModel returns the model for navigation of the file of checks, a model of the
// checks (Prepare's, or an analysis's): checks itself when every form is complete, else a model
// that also takes in the forms with syntax errors as far as their shape allows (like NewModel),
// built from checks' parts.
func NavigationModel(checks *Model) *Model {
	if !checks.Incomplete() {
		return checks
	}
	m, _ := newModel(context.Background(), checks.File, false, checks)
	return m
}

// Incomplete reports whether some form of the file has syntax errors.
func (m *Model) Incomplete() bool { return m.incomplete }

// newModel builds the model of f; with completeOnly, forms with syntax errors are left out (the
// checks run on that model). Forms that f shares with prev's file (the incremental parser reused
// them) are copied from prev rather than walked again; prev may be nil. It gives up, returning
// ctx's error, when ctx is done.
func newModel(ctx context.Context, f *syntax.File, completeOnly bool, prev *Model) (*Model, error) {
	nodes := 0 // the graph presized like prev's; the symbol tables start from prev's (index)
	if prev != nil {
		nodes = len(prev.nodeNames)
	}
	m := &Model{
		File:         f,
		Relations:    map[string]*Symbol{},
		Functions:    map[string]*Symbol{},
		Constants:    map[string]*Symbol{},
		Broken:       map[string]bool{},
		completeOnly: completeOnly,
		dependsOn:    map[Rel][]bool{},
		nodeHint:     nodes,
	}
	// A model may reuse from one built with completeOnly even when it takes in broken forms
	// itself (the navigation model from the checks' model): every form that prev took in has
	// the same part in both, and prev has none for the forms with errors.
	if prev != nil && !prev.completeOnly {
		prev = nil
	}
	m.indexed = completeOnly // only the checks' models are reused; see parts and index
	m.presize(f, prev)
	m.stable = prev != nil
	if prev != nil {
		m.reportHint.Store(prev.reportHint.Load())
		m.gen, m.share = prev.gen+1, len(prev.gens) < maxClauseGens
	}
	if prev != nil && prev.reusable && completeOnly {
		m.prevModel, m.prevUsed = prev, make([]bool, len(prev.Clauses))
		prev.mu.Lock()
		m.prevRelCands = prev.relCands
		prev.mu.Unlock()
		// prev's own checks may never run (a newer edit cancels them): it lets go of its
		// previous version now, so that no chain of models stays alive.
		prev.forgetPrev()
	}
	i := 0
	find := &partFinder{prev: prev}
	for form := range f.FormSeq() {
		if i++; i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		m.addForm(form, prev, find)
	}
	m.folded, m.clauseBlock, m.litBlock = nil, block[Clause]{}, block[syntax.Literal]{}
	if len(m.Roles) == 0 {
		m.Roles = nil // as a model made afresh has them
	}
	m.finishOccs()
	// Occurrences are added in source order (OccurrenceAt searches them, and each clause's are
	// one run of them); TestIncrementalEqualsFull checks that they stay sorted.
	// The symbol tables and the graph read different parts of the model: made side by side.
	alongside(func() { m.index(prev, m.stableOccs) }, func() { m.buildGraph(prev) })
	m.occRuns, m.prevOf = nil, nil
	if m.prevRelCands != nil && m.prevModel != nil {
		m.touched, m.touchedOK = m.touchedRelations(m.prevModel, m.prevUsed)
	}
	return m, nil
}

// presize makes the model's lists and maps: as large as prev's, or as f's symbols and forms
// ask when there is no prev.
func (m *Model) presize(f *syntax.File, prev *Model) {
	m.folded = map[string]string{}
	if prev != nil {
		m.parts = make([]formPart, 0, len(prev.parts)+16)
		m.occSegs = make([]occSeg, 0, len(prev.occSegs)+4)
		m.Edges = make([]Edge, 0, len(prev.Edges)+64)
		m.Clauses = make([]*Clause, 0, len(prev.Clauses)+16)
		m.prevOf = make([]prevClause, 0, len(prev.Clauses)+16)
		if len(prev.Roles) > 0 {
			m.Roles = make([]RoleDecl, 0, len(prev.Roles)+1)
		}
	} else {
		symbols, forms := symbolCount(f)
		m.fresh = make([]Occurrence, 0, symbols)
		m.parts = make([]formPart, 0, forms)
		m.Clauses = make([]*Clause, 0, forms)
		m.clauseBlock.next = forms
		// Sized for a relation and a spelling per form at least: grown step by step, the
		// maps of a file of 150,000 relations moved each entry several times.
		m.Relations, m.folded = make(map[string]*Symbol, forms), make(map[string]string, forms)
	}
}

func (m *Model) addForm(form syntax.Form, prev *Model, find *partFinder) {
	if form.HasErrors() {
		// Remember what the broken form was meant to define so that nothing calls that
		// relation undefined while the author types.
		if key := BrokenHeadKey(form); key != "" {
			m.Broken[key] = true
		}
		m.incomplete = true
		if m.completeOnly {
			return
		}
	}
	part := formPart{id: form.Identity(), start: form.Span().Start, clause: -1, occLo: m.occN, edgeLo: len(m.Edges)}
	defer func() {
		part.occHi, part.edgeHi = m.occN, len(m.Edges)
		m.parts = append(m.parts, part)
		if c := m.clause(part.clause); c != nil && (c.occHi != part.occHi || c.edgeLo != part.edgeLo || c.edgeHi != part.edgeHi) {
			c.occHi, c.edgeLo, c.edgeHi = part.occHi, part.edgeLo, part.edgeHi // not a clause shared with prev
		}
	}()
	if old, ok := find.part(part.id); ok {
		part.clause = m.reuseClause(form, prev, old)
		if old.role > 0 {
			r := prev.Roles[old.role-1]
			d := part.start - old.start
			r.Span.Start, r.Span.End = r.Span.Start+d, r.Span.End+d
			m.Roles = append(m.Roles, r)
			part.role = int32(len(m.Roles))
		}
		if old.checked && m.completeOnly {
			part.diags, part.checked = movedDiagnostics(old.diags, part.start-old.start), true
		}
		m.reused++
		return
	}
	m.stable = false // the occurrences from here on are not prev's
	c := m.newClause(prev)
	c.Index, c.Form = len(m.Clauses), form
	if form.IsRule() {
		head, ok := form.Rule().RuleHead()
		if !ok || !head.Valid() {
			return
		}
		c.IsRule, c.Head, c.Body = true, head, form.Rule().Body()
	} else {
		fact := form.Fact()
		if !fact.Valid() {
			return
		}
		c.Head = fact
	}
	part.clause = c.Index
	c.key, c.arity = c.Head.Name().Key(), c.Head.Arity()
	c.visits, c.visitsAt = literalVisits(c.Body), form.Span().Start
	m.Clauses = append(m.Clauses, c)
	if prev != nil {
		m.prevOf = append(m.prevOf, prevClause{-1, -1})
	}
	m.walked = append(m.walked, int32(c.Index))
	if m.addRole(c) {
		part.role = int32(len(m.Roles))
	}
	c.occLo = m.occN
	fresh := len(m.fresh)
	arrow := form.Rule().Arrow()
	if c.IsRule && !arrow.IsOperator() {
		m.occ(OccKeyword, arrow.Cursor, c, false, "", -1, 0, false, false)
	}
	m.atom(c, c.Head, true, false)
	if c.IsRule && arrow.IsOperator() {
		m.occ(OccKeyword, arrow.Cursor, c, false, "", -1, 0, false, false) // infix: head :- body
	}
	for _, l := range c.Body {
		m.literal(c, l, false)
	}
	m.addOccRun(nil, fresh, len(m.fresh)-fresh, 0, 0)
	m.edges(c)
	c.Vars = clauseVars(m.fresh[fresh:])
}

// clauseVars returns the variables of a clause's occurrences (Clause.Vars). The map is made
// to the size of the clause's variable occurrences: a rule of 80,000 variables grew its map
// step by step, and the steps of a map larger than the caches cost more per variable.
func clauseVars(occs []Occurrence) map[string][]int {
	n := 0
	for i := range occs {
		if occs[i].Kind == OccVariable {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	vars := make(map[string][]int, n)
	for i := range occs {
		if o := &occs[i]; o.Kind == OccVariable {
			vars[o.Key] = append(vars[o.Key], i)
		}
	}
	return vars
}

// reuseClause adds the clause of a form that the parser reused since prev was built, moving
// what prev derived from it (part old) by the distance the form moved instead of walking the
// form again. It returns the new clause's index.
func (m *Model) reuseClause(form syntax.Form, prev *Model, old formPart) int {
	oc := prev.Clauses[old.clause]
	d := form.Span().Start - old.start
	c := oc
	// same: the form did not move, and nothing before it did.
	same := m.stable && d == 0 && oc.Index == len(m.Clauses) && old.occLo == m.occN && old.edgeLo == len(m.Edges)
	if !same || !m.share || form.Cursor != oc.Form.Cursor {
		c = m.movedClause(form, prev, oc, d)
	} else { // prev's clause itself serves
		m.addGen(oc.gen)
	}
	if m.prevUsed != nil {
		m.prevUsed[old.clause] = true
	}
	m.Clauses = append(m.Clauses, c)
	m.prevOf = append(m.prevOf, prevClause{int32(old.clause), int32(old.edgeLo)})
	// The occurrences are not copied: the model refers to prev's, moved (see occSeg).
	k := m.occN
	if n := old.occHi - old.occLo; n > 0 {
		occs, sd, sdc := m.prevOccs(prev, old.occLo, old.occHi)
		m.addOccRun(occs, 0, n, sd+d, sdc+int32(c.Index-oc.Index))
		if r := len(m.occRuns) - 1; r >= 0 && m.occRuns[r].lo+m.occRuns[r].n == k && m.occRuns[r].from+m.occRuns[r].n == old.occLo {
			m.occRuns[r].n += n // one run while the forms follow each other in both
		} else {
			m.occRuns = append(m.occRuns, occRun{lo: k, from: old.occLo, n: n})
		}
	}
	k = len(m.Edges)
	m.Edges = append(m.Edges, prev.Edges[old.edgeLo:old.edgeHi]...)
	if c != oc {
		for i := range m.Edges[k:] {
			e := &m.Edges[k+i]
			e.Span.Start, e.Span.End, e.Clause = e.Span.Start+d, e.Span.End+d, c.Index
		}
	}
	if same {
		m.stableOccs = m.occN
	} else {
		m.stable = false
	}
	return c.Index
}

// movedClause returns a new clause for the model under construction: prev's clause oc, of a
// form that moved by d bytes or whose clause has another index.
func (m *Model) movedClause(form syntax.Form, prev *Model, oc *Clause, d int) *Clause {
	c := m.newClause(prev)
	c.Index, c.Form, c.IsRule, c.key, c.arity = len(m.Clauses), form, oc.IsRule, oc.key, oc.arity
	c.prod.Store(oc.prod.Load())
	c.meets.Store(oc.meets.Load())
	c.texts.Store(oc.texts.Load())
	c.failing.Store(oc.failing.Load())
	c.Head = syntax.Atom{Cursor: oc.Head.Cursor.Moved(d)}
	if d == 0 {
		// The form did not move (it is before the edit): its literals are the same values, and
		// neither list is ever changed once built.
		c.Body = oc.Body
	} else if oc.Body != nil {
		c.Body = m.litBlock.take(len(oc.Body))
		for i, l := range oc.Body {
			c.Body[i] = syntax.Literal{Cursor: l.Cursor.Moved(d)}
		}
	}
	// The visits keep the positions of the version that made them (walkLiterals moves them).
	c.visits, c.visitsAt, c.bare = oc.visits, oc.visitsAt, oc.bare
	c.Vars = oc.Vars // relative to the clause's occurrences, and never changed once built: shared
	c.occLo = m.occN
	return c
}

// clause returns clause i, or nil when i < 0.
func (m *Model) clause(i int) *Clause {
	if i < 0 {
		return nil
	}
	return m.Clauses[i]
}

// newClause returns a new zero clause. The first one of a model that reuses prev's clauses
// sizes the blocks for as many clauses as prev has from here on: the clauses before it were
// shared, and most after it are moved ones.
func (m *Model) newClause(prev *Model) *Clause {
	if m.clauseBlock.buf == nil && prev != nil {
		rest := max(len(prev.Clauses)-len(m.Clauses), 0)
		m.clauseBlock.next, m.litBlock.next = rest+16, 2*rest
	}
	c := m.clauseBlock.one()
	c.gen = m.gen
	m.addGen(m.gen)
	return c
}

// maxClauseGens is how many models' clauses a model may share (see Model.gens).
const maxClauseGens = 4

// addGen records that one of the model's clauses was made by the model of generation g.
func (m *Model) addGen(g uint32) {
	if !slices.Contains(m.gens, g) {
		m.gens = append(m.gens, g)
	}
}

// addRole records c if it is a role fact, and reports whether it is one.
func (m *Model) addRole(c *Clause) bool {
	if !c.IsRule && c.key == "role" && c.Head.Arity() == 1 {
		if a := c.Head.Args()[0]; a.Kind() == syntax.TermConstant {
			m.Roles = append(m.Roles, RoleDecl{Name: a.Name().Name(), Key: a.Name().Key(), Span: a.Span()})
			return true
		}
	}
	return false
}

// partFinder finds the parts of prev (what each form contributed to it) for the forms of a new
// version, in order. The forms the parser shared between the versions come in the same order in
// both, so it looks a few parts ahead of the last one found; a form not among them is most often
// one parsed anew (it is then analysed again, which is always correct). After indexMisses misses
// in a row (many forms removed) it looks forms up in prev's table of identities. That table is
// made of all of prev's forms; an edit that the parser answers by parsing a few forms anew (a
// character typed into a form makes the parser read the form before it again too) must not make
// it: in a file of 150,000 forms it was a tenth of the edit's work and grew faster than the file.
// Forms added, however many, need no table (the next shared form is among the parts ahead); forms
// removed cost at most indexMisses-1 shared forms analysed again before the table finds the rest.
type partFinder struct {
	prev   *Model
	next   int // the index in prev.parts after the last part found
	misses int // forms not found in a row
}

// lookahead is how many parts of prev partFinder tries before it counts a miss.
const lookahead = 8

// indexMisses is how many forms in a row partFinder misses before it looks them up in prev's
// table of identities (Model.formIndex).
const indexMisses = 16

func (pf *partFinder) part(id syntax.Identity) (formPart, bool) {
	if pf.prev == nil || !pf.prev.reusable {
		return formPart{}, false
	}
	parts := pf.prev.parts
	for k := pf.next; k < len(parts) && k < pf.next+lookahead; k++ {
		if parts[k].id == id {
			if parts[k].clause < 0 {
				return formPart{}, false
			}
			pf.next, pf.misses = k+1, 0
			return parts[k], true
		}
	}
	if pf.misses++; pf.misses < indexMisses {
		return formPart{}, false
	}
	i, ok := pf.prev.formIndex()[id]
	if !ok || parts[i].clause < 0 {
		return formPart{}, false
	}
	pf.next, pf.misses = int(i)+1, 0
	return parts[i], true
}

// markReusable records that m's analysis completed, so that the next model built with m as prev
// reuses its parts. One abandoned half-way is never a prev. What the next version reuses is found
// from the model, not from the shared syntax tree.
func (m *Model) markReusable() {
	if m.indexed {
		m.reusable = true
	}
}

// formIndex returns the index in m.parts of each form's part, made on first use.
func (m *Model) formIndex() map[syntax.Identity]uint32 {
	m.formsMu.Lock()
	defer m.formsMu.Unlock()
	if m.byForm == nil {
		m.byForm = make(map[syntax.Identity]uint32, len(m.parts))
		for i, p := range m.parts {
			m.byForm[p.id] = uint32(i)
		}
	}
	return m.byForm
}

func (m *Model) occ(kind OccKind, cur syntax.Cursor, c *Clause, def bool, rel string, arg, arity int, paren, neg bool) {
	name := cur.Text()
	key := m.fold(name)
	if n := cur.Node(); n.Quoted || n.Kind == syntax.Operator || n.Kind == syntax.Variable && name[0] != '?' {
		key = cur.Symbol().Key() // "Cell" is the name Cell; ~ is not; the infix X is ?x
	}
	o := Occurrence{Kind: kind, Span: cur.Span(), Name: name, Key: key, Arity: int32(arity),
		Clause: int32(c.Index), Def: def, Relation: rel, Arg: int32(arg), Parenthesized: paren, Negated: neg}
	m.fresh = append(m.fresh, o)
}

// fold returns the case-folded key of a name. Names already in lower case (nearly all) are
// their own key; the others are folded once per spelling.
func (m *Model) fold(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c >= 0x80 || 'A' <= c && c <= 'Z' {
			key, ok := m.folded[name]
			if !ok {
				key = syntax.Fold(name)
				m.folded[name] = key
			}
			return key
		}
	}
	return name
}

// symbolCount returns the number of words and variables of the forms of f, an upper bound of
// the number of occurrences, and the number of forms, so that the tables are allocated once.
func symbolCount(f *syntax.File) (symbols, forms int) {
	n := 0
	var stack []*syntax.Node // an explicit stack: forms may nest to any depth
	for form := range f.FormSeq() {
		stack = append(stack[:0], form.Node())
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch k.Kind {
			case syntax.Word, syntax.Variable, syntax.Operator: // an infix ~, :- or (a | b) is a keyword occurrence
				n++
			case syntax.List:
				for i := range k.Kids {
					stack = append(stack, &k.Kids[i])
				}
			}
		}
		forms++
	}
	return n, forms
}

// literal adds the occurrences of a body literal and of the literals nested in it, in source
// order: a `not` or `or` keyword comes first, but the operator of a disjunction written without
// its parentheses (a | b, a syntax error) follows the first branch. Every occurrence under a
// `not` is Negated. An explicit stack: a body may nest `not` a million levels deep.
func (m *Model) literal(c *Clause, l syntax.Literal, neg bool) {
	stack := append(m.litStack[:0], litStep{lit: l, neg: neg})
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.kw.Valid() {
			m.occ(OccKeyword, s.kw.Cursor, c, false, "", -1, 0, false, s.neg)
			continue
		}
		l := s.lit
		switch k := l.Kind(); k {
		case syntax.LitAtom:
			m.atom(c, l.Atom(), false, s.neg)
		case syntax.LitNot, syntax.LitOr:
			kw := l.Keyword()
			inner := s.neg || k == syntax.LitNot
			base := len(stack)
			for _, op := range l.OperandSeq() {
				stack = append(stack, litStep{lit: op, neg: inner})
			}
			ops := stack[base:]
			if len(ops) == 0 {
				m.occ(OccKeyword, kw.Cursor, c, false, "", -1, 0, false, s.neg) // (not), (or), ~ alone
				continue
			}
			slices.Reverse(ops) // the first operand is walked first
			// The keyword before the first operand, or after it when it follows it.
			kwStep := litStep{kw: kw, neg: s.neg}
			if kw.IsOperator() && ops[len(ops)-1].lit.Span().Start < kw.Span().Start {
				first := stack[len(stack)-1]
				stack[len(stack)-1] = kwStep
				stack = append(stack, first)
			} else {
				stack = append(stack, kwStep)
			}
		case syntax.LitDistinct:
			m.occ(OccKeyword, l.Keyword().Cursor, c, false, "distinct", -1, l.Atom().Arity(), false, s.neg)
			for i, t := range l.TermSeq() {
				m.term(c, t, false, "distinct", i, s.neg)
			}
		}
	}
	m.litStack = stack
}

// bareList is a relation or function name without arguments written in parentheses: the list,
// the name as written and its key, whether it is a function (a term, else an atom), and the
// key of the relation of the atom it is or is in.
type bareList struct {
	span     syntax.Span
	name     string
	key      string
	function bool
	rel      string
}

// litStep is a step of Model.literal: a literal to walk, or (kw) a keyword occurrence to add.
type litStep struct {
	lit syntax.Literal
	kw  syntax.Symbol
	neg bool
}

func (m *Model) atom(c *Clause, a syntax.Atom, def, neg bool) {
	if !a.Valid() {
		return
	}
	name := a.Name()
	key := m.fold(name.Name())
	m.occ(OccRelation, name.Cursor, c, def, key, -1, a.Arity(), a.Parenthesized(), neg)
	if a.Parenthesized() && a.Arity() == 0 {
		c.bare = append(c.bare, bareList{a.Span(), name.Text(), key, false, key})
	}
	for i, t := range a.ArgSeq() {
		m.term(c, t, def, key, i, neg)
	}
}

// term adds the occurrences of a term, the arguments of a function term included, in source
// order. An explicit stack: terms may nest to any depth.
func (m *Model) term(c *Clause, t syntax.Term, def bool, rel string, arg int, neg bool) {
	stack := append(m.termStack[:0], t)
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t.Kind() {
		case syntax.TermConstant:
			m.occ(OccConstant, t.Cursor, c, def, rel, arg, 0, false, neg)
		case syntax.TermVariable:
			m.occ(OccVariable, t.Cursor, c, def, rel, arg, 0, false, neg)
		case syntax.TermFunction:
			m.occ(OccFunction, t.Name().Cursor, c, def, rel, arg, t.Arity(), true, neg)
			if t.Arity() == 0 {
				c.bare = append(c.bare, bareList{t.Span(), t.Name().Text(), m.fresh[len(m.fresh)-1].Key, true, rel})
			}
			base := len(stack)
			for _, a := range t.ArgSeq() {
				stack = append(stack, a)
			}
			slices.Reverse(stack[base:]) // the first argument is walked first
		}
	}
	m.termStack = stack
}

// index fills the symbol tables. Each occurrence is looked up once; the symbols' lists of
// occurrences are cut from one block, and their spellings counted per symbol (nearly every
// symbol has one spelling). A symbol of prev whose occurrences all lie in the first `stable`
// occurrences, which are the same in both models, and that has no other occurrence here is
// prev's symbol itself (symbols are never changed once built). The occurrences taken over from
// prev (m.occRuns) find their symbol by prev's number of it (prev.symOf): one look-up per symbol
// of theirs, not one per occurrence, and none for a symbol whose key no occurrence walked anew
// has (count): such a symbol gets its Symbol, or prev's, and its table entry once it is counted.
func (m *Model) index(prev *Model, stable int) {
	x := &indexer{m: m, prev: prev, ord: make([]int32, m.occN)}
	if prev != nil {
		x.reserve(len(prev.symbols) + 16)
	}
	x.count(prev)
	taken := make([]bool, len(x.order)) // prev's symbol serves
	same := prev != nil && prev.File.Dialect() == m.File.Dialect()
	for k, s := range x.order {
		// prev's symbol serves when its occurrences are the very ones, at the same indexes: all
		// of them in the stretch before the edit, or (src, not moved) each of them taken over
		// from prev to the index it had there (an edit that keeps the number of occurrences
		// before it). A symbol with an occurrence walked anew (src < 0) has one past the
		// stretch: prev's cannot serve, unless nothing was taken over by number (no remap).
		var ps *Symbol
		if pk := x.src[k]; same && pk >= 0 {
			ps = prev.symbols[pk]
		} else if same && !x.remapped {
			pt, _ := prev.table(occKindOf(s.Kind))
			ps = pt[s.Key]
		}
		serves := ps != nil && len(ps.Occs) == int(x.n[k]) &&
			(ps.Occs[len(ps.Occs)-1] < stable || x.src[k] >= 0 && !x.moved[k])
		switch {
		case serves:
			taken[k], x.order[k] = true, ps
		case s == nil: // counted by prev's number only: made now
			pks := prev.symbols[x.src[k]]
			x.order[k] = &Symbol{Kind: pks.Kind, Key: pks.Key, ord: int32(k)}
		}
		if (s == nil || serves) && !x.remapped {
			t, _ := m.table(occKindOf(x.order[k].Kind))
			t[x.order[k].Key] = x.order[k]
		}
	}
	if x.remapped {
		x.patchTables(taken)
	}
	size := 0
	for k := range x.order {
		if !taken[k] {
			size += int(x.n[k])
		}
	}
	block := make([]int, 0, size)
	for k, s := range x.order {
		if !taken[k] {
			n := int(x.n[k])
			s.Occs = block[len(block) : len(block) : len(block)+n]
			block = block[:len(block)+n]
		}
	}
	for i, k := range x.ord {
		if k >= 0 && !taken[k] {
			s := x.order[k]
			s.Occs = append(s.Occs, i)
		}
	}
	for k, s := range x.order {
		if !taken[k] {
			if x.lazy[k] {
				x.settle(k, s)
			}
			x.fill(k, s)
		}
	}
	m.symOf, m.symbols = x.ord, x.order
}

// patchTables makes m's symbol tables from prev's when occurrences were taken over from prev by
// prev's number of their symbol (remapped): a copy of prev's tables (a copy of a map costs a
// fraction of filling one), without the symbols no occurrence was taken over from (remap), and
// with every symbol that is not prev's own (taken) set. An edit of a file of 150,000 symbols
// filled the tables afresh, 30 ms of each edit; now it changes the entries of the symbols it
// changed. While counting, the symbols of the occurrences walked anew were in x.walkedSyms.
func (x *indexer) patchTables(taken []bool) {
	m, prev := x.m, x.prev
	m.Relations, m.Functions, m.Constants = maps.Clone(prev.Relations), maps.Clone(prev.Functions), maps.Clone(prev.Constants)
	for pk, k := range x.remap {
		if k < 0 {
			ps := prev.symbols[pk]
			t, _ := m.table(occKindOf(ps.Kind))
			delete(t, ps.Key)
		}
	}
	for k, s := range x.order {
		if !taken[k] {
			t, _ := m.table(occKindOf(s.Kind))
			t[s.Key] = s
		}
	}
}

// indexer is the state of Model.index.
type indexer struct {
	m    *Model
	prev *Model
	ord  []int32 // the symbol of each occurrence, by number; -1: none
	// order holds the symbols by number, in the order of their first occurrence; while counting,
	// nil for a symbol counted by prev's number only (index makes it).
	order []*Symbol
	n     []int32 // per symbol: the number of its occurrences
	// Per symbol, by number: its first occurrence, its name as written and its arity there, and
	// whether another occurrence differs from it in either (nearly none does: then its
	// occurrences are not visited again).
	first   []int32
	names   []string
	arities []int
	mixed   []uint8
	// src is, per symbol, prev's number of it while every occurrence of it comes from prev's
	// occurrences of that symbol (then its spellings are prev's), else -1; moved says that one
	// of them is at another index than in prev.
	src   []int32
	moved []bool
	// lazy says that some of the symbol's occurrences were counted without being read (add):
	// settle completes mixed and defs.
	lazy []bool
	// remapped says that occurrences were taken over from prev by prev's number of their symbol:
	// remap gives the number here of each of prev's symbols (-1: none), walkedSyms the symbols
	// of the keys of occurrences walked anew, and the tables are made at the end (patchTables).
	remapped   bool
	remap      []int32
	walkedSyms map[walkedKey]*Symbol
	// from is, per symbol, prev's number of the symbol of its occurrences taken over from prev
	// (-1: none), and takenDefs how many of those that count read (add) are in a clause head;
	// goneDefs counts, per symbol of prev, its occurrences in a clause head of a clause of prev's
	// that this model did not take over (made on first need). With them settle completes defs
	// without reading the occurrences counted unread.
	from      []int32
	takenDefs []int32
	goneDefs  map[int32]int
	goneOK    bool
}

// walkedKey is the kind and key of a symbol with an occurrence walked anew.
type walkedKey struct {
	kind OccKind
	key  string
}

// walkedKeys returns the kinds and keys of the symbols of the occurrences that are not in the
// runs taken over from prev: the forms walked anew, few after an edit.
func (x *indexer) walkedKeys(runs []occRun) map[walkedKey]bool {
	keys := map[walkedKey]bool{}
	add := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if o := x.m.rawOcc(i); o.Kind <= OccConstant {
				keys[walkedKey{o.Kind, o.Key}] = true
			}
		}
	}
	at := 0
	for _, r := range runs {
		add(at, r.lo)
		at = r.lo + r.n
	}
	add(at, x.m.occN)
	return keys
}

// count numbers the symbols and counts their occurrences. An occurrence taken over from prev
// (a run of m.occRuns) is the symbol that prev numbered pk: remap gives its number here once
// one occurrence of it was looked up; when no occurrence walked anew has its key, it is not
// looked up at all (index makes its Symbol and table entry).
func (x *indexer) count(prev *Model) {
	m := x.m
	var remap []int32 // prev's symbol number -> the number here, or -1
	var walked map[walkedKey]bool
	runs := m.occRuns
	if prev != nil && len(prev.symOf) == prev.occN {
		remap = make([]int32, len(prev.symbols))
		for k := range remap {
			remap[k] = -1
		}
		x.remapped, x.remap = true, remap
		walked = x.walkedKeys(runs)
		x.walkedSyms = make(map[walkedKey]*Symbol, len(walked))
	} else {
		runs = nil
	}
	seg := &occSeg{}
	for i := range m.occN {
		if i == seg.lo+len(seg.occs) {
			seg = &m.occSegs[sort.Search(len(m.occSegs), func(k int) bool { return m.occSegs[k].lo > i })-1]
		}
		o := &seg.occs[i-seg.lo] // its kind, key, name and arity (see rawOcc)
		for len(runs) > 0 && i >= runs[0].lo+runs[0].n {
			runs = runs[1:]
		}
		pk := int32(-1) // prev's number of the occurrence's symbol, when taken over
		moved := false  // taken over from another index of prev's
		if len(runs) > 0 && i >= runs[0].lo {
			if pk = prev.symOf[runs[0].from+i-runs[0].lo]; pk < 0 {
				x.ord[i] = -1
				continue
			}
			moved = runs[0].lo != runs[0].from
			k := remap[pk]
			if k < 0 && !walked[walkedKey{o.Kind, o.Key}] {
				k = x.newSymbol(nil, i, o, pk) // prev's symbol's key: in no table yet
				remap[pk] = k
			}
			if k >= 0 {
				// Counted, not read: most such symbols are prev's own (index), and settle
				// reads the others' occurrences.
				x.moved[k], x.lazy[k] = x.moved[k] || moved, true
				x.ord[i] = k
				x.n[k]++
				continue
			}
		}
		s := x.symbol(o)
		if s == nil {
			x.ord[i] = -1
			continue
		}
		if s.ord < 0 {
			s.ord = x.newSymbol(s, i, o, pk)
		}
		if pk >= 0 {
			remap[pk] = s.ord
			x.moved[s.ord] = x.moved[s.ord] || moved
			x.from[s.ord] = pk
			if o.Def {
				x.takenDefs[s.ord]++
			}
		} else {
			x.src[s.ord] = -1
		}
		x.add(i, o, s)
	}
}

// symbol returns the symbol of occurrence o, a new one (ord -1) the first time its key is met;
// nil for variables and keywords. While remapped, the symbols are kept apart from the tables
// (patchTables makes them from prev's).
func (x *indexer) symbol(o *Occurrence) *Symbol {
	table, kind := x.m.table(o.Kind)
	if table == nil {
		return nil
	}
	if x.remapped {
		wk := walkedKey{o.Kind, o.Key}
		s := x.walkedSyms[wk]
		if s == nil {
			s = &Symbol{Kind: kind, Key: o.Key, ord: -1}
			x.walkedSyms[wk] = s
		}
		return s
	}
	s := table[o.Key]
	if s == nil {
		s = &Symbol{Kind: kind, Key: o.Key, ord: -1}
		table[o.Key] = s
	}
	return s
}

// newSymbol numbers a symbol, s (nil: made by index), whose first occurrence is i, o, taken
// over from prev's symbol pk (or -1), and returns its number.
func (x *indexer) newSymbol(s *Symbol, i int, o *Occurrence, pk int32) int32 {
	if len(x.order) == cap(x.order) {
		x.reserve(len(x.order))
	}
	k := int32(len(x.order))
	x.order, x.n = append(x.order, s), append(x.n, 0)
	x.first, x.names, x.arities = append(x.first, int32(i)), append(x.names, o.Name), append(x.arities, int(o.Arity))
	x.mixed, x.src, x.moved = append(x.mixed, 0), append(x.src, pk), append(x.moved, false)
	x.lazy = append(x.lazy, false)
	x.from, x.takenDefs = append(x.from, pk), append(x.takenDefs, 0)
	return k
}

// reserve makes room for n more symbols in the lists by symbol (see room).
func (x *indexer) reserve(n int) {
	x.order, x.first, x.names, x.n = room(x.order, n), room(x.first, n), room(x.names, n), room(x.n, n)
	x.arities, x.mixed, x.src, x.moved = room(x.arities, n), room(x.mixed, n), room(x.src, n), room(x.moved, n)
	x.lazy = room(x.lazy, n)
	x.from, x.takenDefs = room(x.from, n), room(x.takenDefs, n)
}

// add counts occurrence i, o, of symbol s.
func (x *indexer) add(i int, o *Occurrence, s *Symbol) {
	if k := s.ord; x.mixed[k] != mixedName|mixedArity && int(x.first[k]) != i {
		if o.Name != x.names[k] {
			x.mixed[k] |= mixedName // as written: the spellings may still be one
		}
		if int(o.Arity) != x.arities[k] {
			x.mixed[k] |= mixedArity
		}
	}
	x.ord[i] = s.ord
	x.n[s.ord]++
	if o.Def {
		s.defs++
	}
}

// settle completes what add finds (mixed, defs) for symbol number k, s, whose Occs are made and
// some of whose occurrences were counted without being read. When they are all prev's
// occurrences of one symbol, they are that symbol's: its defs and arities serve (fill takes
// its spellings). Else it reads them all.
func (x *indexer) settle(k int, s *Symbol) {
	if pk := x.src[k]; pk >= 0 && len(x.prev.symbols[pk].Occs) == len(s.Occs) {
		ps := x.prev.symbols[pk]
		s.defs = ps.defs
		if ps.ArityCount() > 1 {
			x.mixed[k] |= mixedArity
		}
		return
	}
	if x.settleFromPrev(k, s) {
		return
	}
	x.mixed[k], s.defs, x.n[k] = 0, 0, 0
	for _, i := range s.Occs {
		x.add(i, x.m.rawOcc(i), s)
	}
}

// settleFromPrev is settle for a symbol some of whose occurrences were read (walked anew, or
// the first one taken over) and the others counted unread, when those are of a symbol of prev,
// ps, whose occurrences all have one name as written and one arity: the unread ones have them
// too, so that mixed compares that name and arity with the first occurrence's, and their defs
// are ps's less those in the clauses prev had and this model did not take over (goneDefs) and
// those read. In a file of 16,000 legal rules, an edit of one of them read the 16,000
// occurrences of legal, of move, of true...: a sixth of the edit, growing faster than the file.
// It reports false when it cannot tell (then settle reads them all).
func (x *indexer) settleFromPrev(k int, s *Symbol) bool {
	pk, prev := x.from[k], x.prev
	if pk < 0 || x.m.prevUsed == nil || x.m.prevModel != prev || prev.File.Dialect() == syntax.Infix ||
		prev.File.Dialect() != x.m.File.Dialect() {
		return false
	}
	ps := prev.symbols[pk]
	if ps.spellings != nil || ps.arities != nil {
		return false
	}
	if !x.goneOK {
		x.goneDefs, x.goneOK = prev.goneDefs(x.m.prevUsed), true
	}
	s.defs += ps.defs - x.goneDefs[pk] - int(x.takenDefs[k])
	if ps.spelling != x.names[k] {
		x.mixed[k] |= mixedName
	}
	if ps.arity != x.arities[k] {
		x.mixed[k] |= mixedArity
	}
	return true
}

// goneDefs counts, per symbol number, m's occurrences in a clause head in the clauses that the
// next version did not take over (used, by clause index): the work is that of those clauses'
// occurrences and of a pass over the parts.
func (m *Model) goneDefs(used []bool) map[int32]int {
	gone := map[int32]int{}
	for _, p := range m.parts {
		if p.clause < 0 || used[p.clause] {
			continue
		}
		for i := p.occLo; i < p.occHi; i++ {
			if k := m.symOf[i]; k >= 0 && m.rawOcc(i).Def {
				gone[k]++
			}
		}
	}
	return gone
}

// fill makes the spellings and arities of symbol number k, s, whose Occs are made.
func (x *indexer) fill(k int, s *Symbol) {
	m := x.m
	if pk := x.src[k]; pk >= 0 && len(x.prev.symbols[pk].Occs) == len(s.Occs) {
		ps := x.prev.symbols[pk] // the same occurrences: never changed once built
		s.spellings, s.spelling = ps.spellings, ps.spelling
	} else if x.mixed[k]&mixedName != 0 {
		s.indexSpellings(m)
	} else {
		s.spelling = m.Spelling(m.rawOcc(int(x.first[k])))
	}
	if x.mixed[k]&mixedArity != 0 {
		s.indexArities(m)
	} else {
		s.arity = int(m.rawOcc(int(x.first[k])).Arity)
	}
}

// What index found of a symbol's occurrences: some differ from the first in spelling, or in
// arity.
const (
	mixedName = 1 << iota
	mixedArity
)

// table returns the symbol table of an occurrence kind and its symbols' kind; nil for variables
// and keywords.
func (m *Model) table(k OccKind) (map[string]*Symbol, SymbolKind) {
	switch k {
	case OccRelation:
		return m.Relations, RelationSymbol
	case OccFunction:
		return m.Functions, FunctionSymbol
	case OccConstant:
		return m.Constants, ConstantSymbol
	}
	return nil, 0
}

// occKindOf returns the occurrence kind of a symbol kind.
func occKindOf(k SymbolKind) OccKind {
	switch k {
	case FunctionSymbol:
		return OccFunction
	case ConstantSymbol:
		return OccConstant
	}
	return OccRelation
}

// indexSpellings fills s's spellings.
func (s *Symbol) indexSpellings(m *Model) {
	first := m.Spelling(m.rawOcc(s.Occs[0]))
	s.spelling = first
	for k, i := range s.Occs[1:] {
		if m.Spelling(m.rawOcc(i)) != first {
			s.spellings = make(map[string]int, 2)
			s.spellings[first] = k + 1
			for _, j := range s.Occs[k+1:] {
				s.spellings[m.Spelling(m.rawOcc(j))]++
			}
			return
		}
	}
}

// indexArities fills s's arities.
func (s *Symbol) indexArities(m *Model) {
	a := int(m.rawOcc(s.Occs[0]).Arity)
	s.arity = a
	for _, i := range s.Occs[1:] {
		if int(m.rawOcc(i).Arity) != a {
			s.arities = map[int][]int{}
			for _, i := range s.Occs {
				a := int(m.rawOcc(i).Arity)
				s.arities[a] = append(s.arities[a], i)
			}
			return
		}
	}
}

// OccurrenceAt returns the occurrence whose span contains off (a cursor right after a token
// counts), or nil.
func (m *Model) OccurrenceAt(off int) *Occurrence {
	i := sort.Search(m.occN, func(i int) bool { return m.Occ(i).Span.End >= off })
	if i < m.occN {
		if o := m.Occ(i); o.Span.Start <= off {
			return &o
		}
	}
	return nil
}

// ClauseAt returns the clause whose form contains off, or nil.
func (m *Model) ClauseAt(off int) *Clause {
	i := sort.Search(len(m.Clauses), func(i int) bool { return m.Clauses[i].Form.Span().End >= off })
	if i < len(m.Clauses) && m.Clauses[i].Form.Span().Start <= off {
		return m.Clauses[i]
	}
	return nil
}

// Definitions returns the clauses whose head relation is key, in source order.
func (m *Model) Definitions(key string) []*Clause {
	var out []*Clause
	for _, c := range m.Clauses {
		if c.Key() == key {
			out = append(out, c)
		}
	}
	return out
}

// IsRole reports whether key (folded) is declared as a role.
func (m *Model) IsRole(key string) bool {
	for _, r := range m.Roles {
		if r.Key == key {
			return true
		}
	}
	return false
}

// BrokenHeadKey guesses the relation a form with syntax errors defines: the name after `<=`, or
// the form's own head.
func BrokenHeadKey(form syntax.Form) string {
	c := form.Cursor
	if form.IsRule() {
		el := c.Elements()
		if len(el) < 2 {
			return ""
		}
		c = el[1]
	}
	if c.Kind() == syntax.Word {
		return c.Symbol().Key()
	}
	if h := c.Head(); h.Valid() && h.Kind() == syntax.Word {
		return h.Symbol().Key()
	}
	return ""
}

// Defines reports whether some clause, or a form with syntax errors, defines relation key.
func (m *Model) Defines(key string) bool {
	if m.Broken[key] {
		return true
	}
	// A clause's head is an occurrence of its relation in a head: the symbol counts them.
	s := m.Relations[key]
	return s != nil && s.defs > 0
}

// room returns s with room for n more elements: past a few hundred elements append grows an
// array by a quarter at a time, so a slice built to a million elements is copied about four
// times over (a third of the memory moves of a 3 MB file's check); room doubles it instead.
func room[T any](s []T, n int) []T {
	if len(s)+n > cap(s) {
		s = slices.Grow(s, max(n, len(s)))
	}
	return s
}

// block hands out values and slices of T from larger allocations, which grow as it is used.
type block[T any] struct {
	buf  []T
	next int // the capacity of the next allocation
}

// take returns a slice of n zero values (its capacity is n: appending to it reallocates).
func (b *block[T]) take(n int) []T {
	if n > cap(b.buf)-len(b.buf) {
		b.next = max(b.next, 16)
		b.buf = make([]T, 0, max(n, b.next))
		b.next = min(2*b.next, 1<<14)
	}
	k := len(b.buf)
	b.buf = b.buf[:k+n]
	return b.buf[k : k+n : k+n]
}

// one returns a pointer to a new zero value.
func (b *block[T]) one() *T { return &b.take(1)[0] }

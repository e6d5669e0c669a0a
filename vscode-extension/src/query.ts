// Finding the query under the cursor: the literal of a rule (or the fact) the cursor is in.
// Works on the text and a UTF-16 offset only, so it is unit tested without VS Code.

export interface Span {
  start: number;
  end: number;
}

export interface QueryAtCursor extends Span {
  text: string;
}

interface Sym extends Span {
  kind: "symbol";
  text: string;
  parent?: List;
}

interface List extends Span {
  kind: "list";
  items: Node[];
  parent?: List;
}

type Node = Sym | List;

/** Parses prefix GDL into lists and symbols, skipping comments. Never fails: an unclosed list
 * ends at the end of the text, a stray ")" is ignored. */
export function parseForms(text: string): Node[] {
  const top: Node[] = [];
  const stack: List[] = [];
  const add = (n: Node) => {
    const parent = stack[stack.length - 1];
    if (parent) {
      n.parent = parent;
      parent.items.push(n);
    } else {
      top.push(n);
    }
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ";") {
      while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
    } else if (c === "(") {
      const l: List = { kind: "list", start: i, end: text.length, items: [] };
      add(l);
      stack.push(l);
      i++;
    } else if (c === ")") {
      const l = stack.pop();
      if (l) l.end = i + 1;
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else {
      const start = i;
      while (i < text.length && !/[\s();]/.test(text[i])) i++;
      add({ kind: "symbol", start, end: i, text: text.slice(start, i) });
    }
  }
  return top;
}

function headName(l: List): string | undefined {
  const h = l.items[0];
  return h && h.kind === "symbol" ? h.text.toLowerCase() : undefined;
}

/** The node that contains the offset, innermost first. A symbol also contains its end offset,
 * so a cursor just after a word still picks it. */
function innermost(nodes: Node[], offset: number): Node | undefined {
  for (const n of nodes) {
    const inside = n.kind === "symbol" ? offset >= n.start && offset <= n.end : offset >= n.start && offset < n.end;
    if (inside) {
      if (n.kind === "list") return innermost(n.items, offset) ?? n;
      return n;
    }
  }
  return undefined;
}

const CONNECTIVES = new Set(["<=", "not", "or"]);

/** A node is a literal when it is a top-level form or an argument of `<=`, `not` or `or`. */
function isLiteral(n: Node): boolean {
  const p = n.parent;
  if (!p) return true;
  const h = headName(p);
  return h !== undefined && CONNECTIVES.has(h) && p.items[0] !== n;
}

/**
 * The query for the cursor at `offset`: the literal it is in (the head when it is on `<=` or
 * between a rule's literals; the atom when it is on a `not`), or undefined outside any form or on
 * an `or`.
 */
export function queryAtOffset(text: string, offset: number): QueryAtCursor | undefined {
  const forms = parseForms(text);
  // Just after a ")" (the end of a line, usually) means the form that ends there.
  let n = innermost(forms, offset) ?? (offset > 0 ? innermost(forms, offset - 1) : undefined);
  while (n && !isLiteral(n)) n = n.parent;
  if (!n) return undefined;
  // The cursor on a rule, or on a `not`: use its head, or the negated atom.
  for (;;) {
    if (n.kind !== "list") break;
    const h = headName(n);
    if (h === "<=" || h === "not") {
      const inner: Node | undefined = n.items[1];
      if (!inner) return undefined;
      n = inner;
      continue;
    }
    if (h === "or" || n.items.length === 0) return undefined;
    break;
  }
  return { start: n.start, end: n.end, text: text.slice(n.start, n.end) };
}

// ---- Infix GDL ------------------------------------------------------------------------------

interface Token extends Span {
  /** "name" (a name, a quoted name or a variable), or the punctuation itself: ( ) , & | ~ :- . */
  t: string;
}

/** Splits infix GDL into tokens, skipping `%` comments and blanks. */
function infixTokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "%") {
      while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"' && text[i] !== "\n" && text[i] !== "\r") i++;
      if (text[i] === '"') i++;
      out.push({ t: "name", start, end: i });
    } else if (text.startsWith(":-", i)) {
      out.push({ t: ":-", start: i, end: i + 2 });
      i += 2;
    } else if ("(),&|~.".includes(c)) {
      out.push({ t: c, start: i, end: i + 1 });
      i++;
    } else {
      const start = i;
      while (i < text.length && !/[\s(),&|~.%":]/.test(text[i])) i++;
      if (i === start) i++; // a character no token starts with
      out.push({ t: "name", start, end: i });
    }
  }
  return out;
}

/**
 * The query for the cursor at `offset` in an infix game: the literal it is in (a rule's head when
 * it is on `:-` or an `&`; the negated atom on a `~`), or undefined outside any statement or on a
 * disjunction's `(`, `|` or `)`.
 */
export function infixQueryAtOffset(text: string, offset: number): QueryAtCursor | undefined {
  const toks = infixTokens(text);
  const atoms: (Span & { head: Span })[] = []; // each literal's atom, with its statement's head
  const marks: { span: Span; head: Span; next?: number; none?: boolean }[] = []; // operators
  let head: Span | undefined; // the head of the statement being read
  let literal = false; // a literal may start at the next token
  let i = 0;
  while (i < toks.length) {
    const tok = toks[i];
    if (tok.t === "name") {
      // An atom: the name and its argument list, if a "(" follows it directly.
      let end = tok.end;
      if (toks[i + 1]?.t === "(" && toks[i + 1].start === tok.end) {
        let depth = 0;
        let j = i + 1;
        for (; j < toks.length; j++) {
          if (toks[j].t === "(") depth++;
          else if (toks[j].t === ")" && --depth === 0) break;
        }
        end = j < toks.length ? toks[j].end : text.length;
        i = j;
      }
      const span = { start: tok.start, end };
      if (!literal || !head) head = span; // a new statement
      atoms.push({ ...span, head });
      literal = false;
    } else if (tok.t === ":-" || tok.t === "&") {
      if (head) marks.push({ span: tok, head });
      literal = true;
    } else if (tok.t === "~") {
      if (head) marks.push({ span: tok, head, next: atoms.length });
      literal = true;
    } else if (tok.t === "(" || tok.t === "|") {
      if (head) marks.push({ span: tok, head, none: true });
      literal = true;
    } else if (tok.t === ")") {
      if (head) marks.push({ span: tok, head, none: true });
    } else if (tok.t === ".") {
      head = undefined;
      literal = false;
    }
    i++;
  }
  const slice = (s: Span) => ({ start: s.start, end: s.end, text: text.slice(s.start, s.end) });
  // An atom contains its end too, so that just after a ")" means the atom that ends there.
  const atom = atoms.find((a) => a.start <= offset && offset <= a.end);
  if (atom) return slice(atom);
  const mark = marks.find((m) => m.span.start <= offset && offset < m.span.end);
  if (!mark || mark.none) return undefined;
  if (mark.next !== undefined) return atoms[mark.next] ? slice(atoms[mark.next]) : undefined;
  return slice(mark.head);
}

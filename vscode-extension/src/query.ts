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

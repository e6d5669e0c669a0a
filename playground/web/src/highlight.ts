// Highlighting of both notations of GDL (docs/infix.md): prefix KIF, with `;` comments and
// `?x` variables, and infix, with `%` comments, upper-case variables and the operators `:-`,
// `~`, `&`, `|`. The keywords of GDL are highlighted in both.

import { StreamLanguage, type StringStream } from "@codemirror/language";

const keywords = new Set([
  "role", "init", "true", "next", "legal", "does", "goal", "terminal", "distinct", "not", "or",
  "base", "input", "sees", "random",
]);

function word(stream: StringStream, re: RegExp): string {
  stream.eatWhile(re);
  return stream.current();
}

/** Prefix GDL (KIF). */
export const prefixGDL = StreamLanguage.define<null>({
  name: "gdl",
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match(";")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match("<=")) return "keyword";
    const ch = stream.next()!;
    if (ch === "(" || ch === ")") return "paren";
    if (ch === "?") {
      word(stream, /[^\s();]/);
      return "variableName";
    }
    if (ch === '"') {
      stream.skipTo('"') ? stream.next() : stream.skipToEnd();
      return "string";
    }
    const w = word(stream, /[^\s();"]/);
    if (/^-?\d+$/.test(w)) return "number";
    if (keywords.has(w.toLowerCase())) return "keyword";
    const after = stream.string.slice(0, stream.start).trimEnd();
    return after.endsWith("(") ? "function" : "atom";
  },
  languageData: { commentTokens: { line: ";" } },
});

/** Infix GDL (.hrf). */
export const infixGDL = StreamLanguage.define<null>({
  name: "gdl-infix",
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match("%")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match(":-")) return "keyword";
    const ch = stream.next()!;
    if ("~&|".includes(ch)) return "operator";
    if (ch === "(" || ch === ")") return "paren";
    if (ch === "," || ch === ".") return "punctuation";
    if (ch === '"') {
      stream.skipTo('"') ? stream.next() : stream.skipToEnd();
      return "string";
    }
    const w = word(stream, /[A-Za-z0-9_\-+*/<>=!@#$^'?]/);
    if (/^-?\d+$/.test(w)) return "number";
    if (/^[A-Z_]/.test(w)) return "variableName";
    if (keywords.has(w.toLowerCase())) return "keyword";
    return stream.peek() === "(" ? "function" : "atom";
  },
  languageData: { commentTokens: { line: "%" } },
});

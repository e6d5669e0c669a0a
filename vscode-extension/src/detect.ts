// Content detection for the file extensions GDL shares with other languages.
//
// `.kif` is also SUO-KIF (ontologies such as SUMO) and `.gdl` is also Archicad's Geometric
// Description Language. VS Code picks a language from the extension alone, so the extension looks
// at the text and says which of the three it is, and whether GDL is written in prefix (KIF) or in
// infix (the notation of .hrf files, which the server also detects by content). Kept free of the
// vscode API so it can be unit tested.

export type Dialect = "gdl" | "gdl-infix" | "suo-kif" | "archicad-gdl" | "unknown";

/** How much of a file is read to decide; games put their roles and rules near the top. */
export const DETECT_LIMIT = 64 * 1024;

// GDL's reserved relations at the head of a form, e.g. "(legal ?r ?m)" or "(<= terminal". A
// word right before "(" is infix GDL's, as in "(distinct(M,J) | distinct(N,K))".
const GDL_HEAD =
  /\(\s*(<=(?=[\s();]|$)|(role|init|true|does|next|legal|goal|terminal|distinct|base|input|sees)(?=[\s);]|$))/gi;
// SUO-KIF's logical operators and the ontology relations every SUMO file uses.
const SUO_KIF_HEAD =
  /\(\s*(=>|<=>|and|exists|forall|instance|subclass|subrelation|domain|range|documentation|termFormat|format|partition|disjoint|equal)(?=[\s();]|$)/gi;
// Archicad GDL: BASIC-like statements at the start of a line, "!" comments. A statement word
// right before "(" is not one: infix GDL's rules start with next(...) and init(...).
const ARCHICAD_LINE =
  /^[ \t]*(!|(ADD|ADDX|ADDY|ADDZ|DEL|MATERIAL|PEN|BLOCK|BRICK|PRISM_?|CPRISM_|CYLIND|SPHERE|LINE2|RECT2|HOTSPOT2|PROJECT2|IF|ENDIF|FOR|NEXT|GOSUB|RETURN|END|VALUES|PARAMETERS|CALL|DEFINE|RESOL|TOLER|MULX|MULY|MULZ|ROTX|ROTY|ROTZ)\b(?![ \t]*\())/gim;

function count(re: RegExp, text: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text) !== null) n++;
  return n;
}

// Infix GDL: a reserved relation directly followed by its "(" (role(white), legal(W,M)), or a
// rule's ":-", outside comments.
const INFIX_GDL_HEAD = /(^|[\s&~(|,])(role|init|true|does|next|legal|goal|distinct|base|input|sees)\(|:-/gim;

/** Strips `;` line comments, so words in prose do not count as code. */
function stripComments(text: string): string {
  return text.replace(/;[^\r\n]*/g, "");
}

/**
 * Says which language a `.kif`/`.gdl` text is written in. A text with neither clear GDL nor clear
 * foreign signs is "unknown": the caller then leaves the user's or VS Code's choice alone.
 */
export function detectDialect(fullText: string): Dialect {
  const text = fullText.slice(0, DETECT_LIMIT);
  const code = stripComments(text);
  const gdl = count(GDL_HEAD, code);
  const kif = count(SUO_KIF_HEAD, code);
  // Archicad GDL uses "!" comments and no ";": count on the raw text.
  const archicad = count(ARCHICAD_LINE, text);
  const parenForms = count(/^\s*\(/gm, code);

  if (gdl >= 2 && gdl >= kif) return "gdl";
  if (kif >= 2 && kif > gdl) return "suo-kif";
  if (archicad >= 3 && parenForms * 2 < archicad) return "archicad-gdl";
  if (gdl === 1 && kif === 0 && archicad === 0) return "gdl";
  // No prefix GDL at all: infix GDL, with `%` comments.
  if (gdl === 0 && kif === 0 && count(INFIX_GDL_HEAD, text.replace(/%[^\r\n]*/g, "")) >= 2) return "gdl-infix";
  return "unknown";
}

/** True for the file names whose extension GDL shares with other languages. */
export function hasSharedExtension(fileName: string): boolean {
  return /\.(kif|gdl)$/i.test(fileName);
}

/**
 * Whether a `files.associations` setting decides the language of `fileName`. VS Code matches the
 * patterns against the path (patterns with a "/") or the base name; this follows the common forms
 * (`*.ext`, `name`, `**\/dir/*.ext`) closely enough to stay out of the user's way.
 */
export function associationDecides(associations: Record<string, string> | undefined, filePath: string): boolean {
  if (!associations) return false;
  const path = filePath.replace(/\\/g, "/");
  const base = path.slice(path.lastIndexOf("/") + 1);
  for (const pattern of Object.keys(associations)) {
    const target = pattern.includes("/") ? path : base;
    if (globToRegExp(pattern).test(target)) return true;
  }
  return false;
}

function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") {
      if (glob[i + 1] === "*") {
        re += ".*";
        i++;
        if (glob[i + 1] === "/") i++;
      } else {
        re += "[^/]*";
      }
    } else if (c === "?") {
      re += "[^/]";
    } else if (c === "{") {
      const end = glob.indexOf("}", i);
      if (end < 0) {
        re += "\\{";
        continue;
      }
      re += "(" + glob.slice(i + 1, end).split(",").map(escapeRegExp).join("|") + ")";
      i = end;
    } else {
      re += escapeRegExp(c);
    }
  }
  // Patterns with a "/" may match anywhere below the workspace; base-name patterns match whole.
  return new RegExp((glob.includes("/") && !glob.startsWith("/") ? "(^|/)" : "^") + re + "$", "i");
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+^$()|[\]\\{}]/g, "\\$&");
}

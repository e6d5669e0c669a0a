// The Markdown of hovers and explanations as DOM nodes, built with text nodes only (never
// innerHTML), for the subset gdl writes: paragraphs, lists, fenced code, `code`, **bold**,
// *emphasis*, [links](target) and rules (---). A link to "#L<line>,<column>" calls onRule.

export function renderMarkdown(md: string, onRule: (line: number, column: number) => void): HTMLElement {
  const root = document.createElement("div");
  root.className = "md";
  const lines = md.split("\n");
  let i = 0;
  let list: HTMLElement | null = null;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const pre = document.createElement("pre");
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) body.push(lines[i]);
      pre.textContent = body.join("\n");
      root.append(pre);
      list = null;
      i++;
      continue;
    }
    if (/^\s*---+\s*$/.test(line)) {
      root.append(document.createElement("hr"));
      list = null;
    } else if (/^\s*[-*] /.test(line)) {
      const depth = line.search(/\S/);
      if (!list) {
        list = document.createElement("ul");
        root.append(list);
      }
      const li = document.createElement("li");
      li.style.marginLeft = `${depth * 0.5}em`;
      inline(li, line.replace(/^\s*[-*] /, ""), onRule);
      list.append(li);
    } else if (line.trim() === "") {
      list = null;
    } else {
      const p = document.createElement("p");
      inline(p, line, onRule);
      for (i++; i < lines.length && lines[i].trim() !== "" && !/^\s*([-*] |```|---)/.test(lines[i]); i++) {
        p.append(document.createTextNode(" "));
        inline(p, lines[i], onRule);
      }
      root.append(p);
      list = null;
      continue;
    }
    i++;
  }
  return root;
}

const token = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

function inline(into: HTMLElement, text: string, onRule: (line: number, column: number) => void): void {
  let last = 0;
  for (const m of text.matchAll(token)) {
    into.append(document.createTextNode(unescape(text.slice(last, m.index))));
    if (m[1] !== undefined) {
      const c = document.createElement("code");
      c.textContent = m[1];
      into.append(c);
    } else if (m[2] !== undefined) {
      const b = document.createElement("strong");
      b.textContent = unescape(m[2]);
      into.append(b);
    } else if (m[3] !== undefined) {
      const e = document.createElement("em");
      e.textContent = unescape(m[3]);
      into.append(e);
    } else {
      const a = document.createElement("a");
      a.textContent = unescape(m[4]);
      const rule = /^#L(\d+),(\d+)$/.exec(m[5]);
      a.href = rule ? m[5] : "#";
      a.addEventListener("click", (ev) => {
        ev.preventDefault();
        if (rule) onRule(Number(rule[1]), Number(rule[2]));
      });
      into.append(a);
    }
    last = m.index! + m[0].length;
  }
  into.append(document.createTextNode(unescape(text.slice(last))));
}

/** Markdown's backslash escapes. */
function unescape(s: string): string {
  return s.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1");
}

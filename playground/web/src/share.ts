// The game text in the URL fragment, so that a link shares a game: "#code=" and the text
// compressed with the browser's deflate (CompressionStream, "deflate-raw") in base64url;
// "&infix" marks infix GDL.

async function pipe(data: Uint8Array<ArrayBuffer>, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Blob([data]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64url(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The fragment of a link to text. */
export async function fragmentOf(text: string, infix: boolean): Promise<string> {
  const packed = await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw"));
  return `#code=${toBase64url(packed)}${infix ? "&infix" : ""}`;
}

/** The text a fragment carries, or undefined when it carries none or cannot be read. */
export async function textOf(fragment: string): Promise<{ text: string; infix: boolean } | undefined> {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  const code = params.get("code");
  if (!code) return undefined;
  try {
    const bytes = await pipe(fromBase64url(code), new DecompressionStream("deflate-raw"));
    return { text: new TextDecoder().decode(bytes), infix: params.has("infix") };
  } catch {
    return undefined;
  }
}

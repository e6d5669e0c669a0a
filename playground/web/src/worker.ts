// A Web Worker running gdl compiled to WebAssembly (cmd/gdl-wasm) with Go's wasm_exec.js. The
// page sends it the compiled module once, then calls: {id, method, params}, answered in order
// with {id, reply} (reply is the bridge's {result} or {error}). What the bridge notifies between
// calls (lenses to ask again, a verification's progress) comes as {notify, data}.

declare const Go: new () => { importObject: WebAssembly.Imports; run(instance: WebAssembly.Instance): Promise<void> };
declare function importScripts(...urls: string[]): void;

type Call = { id: number; method: string; params: unknown };
type Init = { module: WebAssembly.Module };

const scope = self as unknown as {
  gdlCall?: (method: string, params: string) => Promise<string>;
  gdlNotify?: (kind: string, json: string) => void;
  postMessage(msg: unknown): void;
  onmessage: ((e: MessageEvent) => void) | null;
};

importScripts("wasm_exec.js");

const queue: Call[] = [];
let ready = false;
let running = false;

scope.gdlNotify = (kind, json) => scope.postMessage({ notify: kind, data: JSON.parse(json) });

async function start(module: WebAssembly.Module): Promise<void> {
  const go = new Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  go.run(instance).then(
    () => scope.postMessage({ fatal: "gdl stopped" }),
    (err: unknown) => scope.postMessage({ fatal: String(err) }),
  );
  // main() defines gdlCall before it waits for calls.
  if (!scope.gdlCall) throw new Error("gdl-wasm did not define gdlCall");
  ready = true;
  scope.postMessage({ ready: true });
  void drain();
}

async function drain(): Promise<void> {
  if (running || !ready) return;
  running = true;
  while (queue.length > 0) {
    const c = queue.shift()!;
    let reply: unknown;
    try {
      reply = JSON.parse(await scope.gdlCall!(c.method, JSON.stringify(c.params ?? {})));
    } catch (err) {
      reply = { error: String(err) };
    }
    scope.postMessage({ id: c.id, reply });
  }
  running = false;
}

scope.onmessage = (e: MessageEvent) => {
  const msg = e.data as Call | Init;
  if ("module" in msg) {
    start(msg.module).catch((err) => scope.postMessage({ fatal: String(err) }));
    return;
  }
  queue.push(msg);
  void drain();
};

// The page's side of a worker (worker.ts): calls as promises, notifications to a callback, and
// a restart that ends whatever the worker computes (a verification, the computer's search).

export type Notify = (kind: string, data: unknown) => void;

export class BridgeError extends Error {}

export class Bridge {
  private worker!: Worker;
  private next = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private started!: Promise<void>;

  /**
   * Starts a worker running the module. With after, the worker loads at once but starts gdl
   * only when after resolves (calls wait in it meanwhile), so that another worker starts first.
   */
  constructor(
    private readonly module: WebAssembly.Module,
    private readonly notify: Notify,
    after?: Promise<unknown>,
  ) {
    this.spawn(after);
  }

  private spawn(after?: Promise<unknown>): void {
    this.worker = new Worker("worker.js");
    let ok: () => void;
    let fail: (e: Error) => void;
    this.started = new Promise<void>((res, rej) => {
      ok = res;
      fail = rej;
    });
    this.worker.onmessage = (e: MessageEvent) => {
      const m = e.data as { id?: number; reply?: { result?: unknown; error?: string }; notify?: string; data?: unknown; ready?: boolean; fatal?: string };
      if (m.ready) ok();
      else if (m.fatal) {
        fail(new BridgeError(m.fatal));
        this.failAll(m.fatal);
      } else if (m.notify) this.notify(m.notify, m.data);
      else if (m.id !== undefined) {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (!p) return;
        if (m.reply?.error) p.reject(new BridgeError(m.reply.error));
        else p.resolve(m.reply?.result ?? null);
      }
    };
    this.worker.onerror = (e) => {
      fail(new BridgeError(e.message));
      this.failAll(e.message);
    };
    const worker = this.worker;
    const go = () => worker.postMessage({ module: this.module });
    if (after) void after.then(go, go);
    else go();
  }

  private failAll(why: string): void {
    for (const p of this.pending.values()) p.reject(new BridgeError(why));
    this.pending.clear();
  }

  /** Resolves once the worker runs gdl. */
  ready(): Promise<void> {
    return this.started;
  }

  /** Calls a method of the bridge (package playground); calls are answered in order. */
  call<T>(method: string, params: unknown = {}): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, method, params });
    });
  }

  /** Ends the worker and whatever it computes, and starts a fresh one. */
  restart(why: string): void {
    this.worker.terminate();
    this.failAll(why);
    this.spawn();
  }
}

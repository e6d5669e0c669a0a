//go:build js && wasm

// Command gdl-wasm is gdl compiled to WebAssembly for the browser playground (playground/web):
// the bridge of package playground, exposed to JavaScript. Build it with
//
//	GOOS=js GOARCH=wasm go build -o gdl.wasm ./cmd/gdl-wasm
//
// and run it with the wasm_exec.js that ships with Go, in a Web Worker. It defines
//
//	gdlCall(method: string, params: string): Promise<string>
//
// which runs a method of playground.Bridge on its JSON parameters and resolves to the JSON of
// {result} or {error}; and it calls gdlNotify(kind, json), which the worker defines before it
// starts the program, with what happens between calls (playground.New's notify). It then waits
// for calls until the worker ends.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"syscall/js"

	"github.com/gdl-lsp/gdl/internal/gctune"
	"github.com/gdl-lsp/gdl/playground"
)

func main() {
	// The language server's collector: a small heap grows to four times what is live before a
	// collection. With Go's default a one-character edit of chess.kif took 50 to 250 ms under
	// node, with this 17 to 60 ms.
	gctune.Server()
	notify := js.Global().Get("gdlNotify")
	if notify.Type() != js.TypeFunction {
		fmt.Fprintln(os.Stderr, "gdl-wasm: define gdlNotify(kind, json) before running the program")
		os.Exit(2)
	}
	b := playground.New(func(kind string, payload any) {
		data, err := json.Marshal(payload)
		if err != nil {
			data = []byte("null")
		}
		notify.Invoke(kind, string(data))
	})
	promise := js.Global().Get("Promise")
	js.Global().Set("gdlCall", js.FuncOf(func(_ js.Value, args []js.Value) any {
		method, params := "", ""
		if len(args) > 0 {
			method = args[0].String()
		}
		if len(args) > 1 && args[1].Type() == js.TypeString {
			params = args[1].String()
		}
		// The call runs on a goroutine of its own: a function called from JavaScript must not
		// block, or the timers the features wait on would never fire.
		executor := js.FuncOf(func(_ js.Value, fns []js.Value) any {
			resolve := fns[0]
			go func() { resolve.Invoke(string(b.Call(context.Background(), method, []byte(params)))) }()
			return nil
		})
		defer executor.Release() // the Promise constructor calls it at once
		return promise.New(executor)
	}))
	select {}
}

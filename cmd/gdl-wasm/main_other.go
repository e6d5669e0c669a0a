//go:build !(js && wasm)

// Command gdl-wasm is gdl compiled to WebAssembly for the browser playground; see main.go. Built
// for any other platform it only says how to build it.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "gdl-wasm runs in a browser: build it with GOOS=js GOARCH=wasm go build ./cmd/gdl-wasm (npm run build:playground does)")
	os.Exit(2)
}

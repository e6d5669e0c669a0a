//go:build race

package lsp

// raceBuild: the tests run with the race detector, so the server binary they drive is built
// with it too (and a data race stops it: GORACE=halt_on_error=1).
const raceBuild = true

//go:build !race

package lsp

// raceBuild: the tests run without the race detector (see race_on_test.go).
const raceBuild = false

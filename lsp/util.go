package lsp

import "sort"

func sortedStrings(s []string) []string {
	sort.Strings(s)
	return s
}

package gengame

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Corpus writes a file of about size bytes made the way a user makes a big file: real games of
// the shared corpus one after another, each game's relation and constant names renamed with a
// suffix of its own (`cell` of the third game becomes `cell_g3`) so that games do not collide,
// with their base and input rules kept. The games are every prefix-notation game of corpusDir's
// MANIFEST.tsv (kind "game") in an order fixed by a hash of their paths, so that any prefix of
// the file samples the whole corpus rather than one repository; past the end of the corpus it
// starts again with new suffixes. The result is cut at a game's end, so it is at least size bytes.
func Corpus(corpusDir string, size int) (string, error) {
	games, err := corpusGames(corpusDir)
	if err != nil {
		return "", err
	}
	if len(games) == 0 {
		return "", fmt.Errorf("no prefix-notation game in %s", corpusDir)
	}
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		g := games[i%len(games)]
		fmt.Fprintf(&b, "; game %d: %s\n", i+1, g.path)
		renameNames(&b, g.text, fmt.Sprintf("_g%d", i+1))
		b.WriteString("\n")
	}
	return b.String(), nil
}

type corpusGame struct{ path, text string }

// corpusGames reads the games of the manifest, in the order of the FNV hash of their paths.
func corpusGames(dir string) ([]corpusGame, error) {
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var games []corpusGame
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 7 || cols[6] != "game" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, cols[0]))
		if err != nil {
			return nil, err
		}
		if !prefixNotation(string(data)) {
			continue
		}
		games = append(games, corpusGame{cols[0], string(data)})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	sort.Slice(games, func(i, j int) bool { return pathHash(games[i].path) < pathHash(games[j].path) })
	return games, nil
}

func pathHash(p string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(p))
	return h.Sum64()
}

// prefixNotation says whether the first token of src that is not a comment is "(".
func prefixNotation(src string) bool {
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		default:
			return c == '('
		}
	}
	return false
}

// keywords are the words of GDL that renaming keeps.
var keywords = map[string]bool{
	"role": true, "init": true, "true": true, "next": true, "legal": true, "does": true,
	"goal": true, "terminal": true, "distinct": true, "not": true, "or": true, "and": true,
	"base": true, "input": true, "sees": true, "random": true, "<=": true,
}

// renameNames copies src to b with every name that is not a keyword, a variable or a number
// given suffix. Comments and layout are kept.
func renameNames(b *strings.Builder, src, suffix string) {
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ';':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			b.WriteString(src[i : i+j])
			i += j
		case c == '(' || c == ')' || c == ' ' || c == '\t' || c == '\r' || c == '\n':
			b.WriteByte(c)
			i++
		default:
			j := i
			for j < len(src) && !strings.ContainsRune("() \t\r\n;", rune(src[j])) {
				j++
			}
			word := src[i:j]
			b.WriteString(word)
			if word[0] != '?' && !keywords[strings.ToLower(word)] && !number(word) {
				b.WriteString(suffix)
			}
			i = j
		}
	}
}

func number(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

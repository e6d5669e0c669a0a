// Package markdown writes text of a game (names, answers, messages) into Markdown so that it
// shows exactly as written. A name in GDL may hold any character but blanks and parentheses
// (an infix name in quotes, any character but a quote): `a`b](https://x)` is one. Written into
// Markdown as it is, a backtick in it would close a code span and let the rest become a link
// or an image (issue 22, item 17), so every feature that writes Markdown goes through Code or
// Text.
package markdown

import "strings"

// Code writes s as a Markdown code span that shows exactly s: delimited by one backtick more
// than the longest run of backticks in s, with a space inside each delimiter when s starts or
// ends with a backtick (CommonMark strips one such space on each side). Line breaks become
// spaces: a code span is shown on one line.
func Code(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// Text writes s as Markdown text that shows exactly s: the characters that could start markup
// (emphasis, code, links and images, HTML and entities, headings, strikethrough and tables) or
// an autolink (an address's ':', an e-mail's '@', the dot of "www.") are escaped with a
// backslash.
func Text(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if strings.IndexByte("\\`*_[]<>!&~|:@.#", c) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

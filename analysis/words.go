package analysis

import "strconv"

// counted writes n with the noun in singular or plural: "1 argument", "2 arguments".
func counted(n int, singular, plural string) string {
	if n == 1 {
		return "1 " + singular
	}
	return strconv.Itoa(n) + " " + plural
}

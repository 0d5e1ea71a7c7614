// Package words writes counts as the program's sentences say them: "1
// message", "1,244 messages", "3 passes". It imports nothing of the module,
// so every package may use it.
package words

import (
	"strconv"
	"strings"
)

// Noun is word as said of n things: "message" for 1, "messages" for any
// other n, "passes" for a word that ends in s.
func Noun(n int, word string) string {
	switch {
	case n == 1:
		return word
	case strings.HasSuffix(word, "s"):
		return word + "es"
	}
	return word + "s"
}

// Count is n and its noun, n with thousands separated as the dashboard and
// the plan sentences write it: "1 message", "1,244 messages".
func Count(n int, word string) string { return Commas(int64(n)) + " " + Noun(n, word) }

// CountPlain is Count with n in plain digits, for text another program may
// read (a rules table's comments, a command's output): "1244 messages".
func CountPlain(n int, word string) string { return strconv.Itoa(n) + " " + Noun(n, word) }

// Commas writes a count as the dashboard and the plan sentences do, 1,244:
// a sentence stands in a dialog beside its ×1,244 lines.
func Commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + Commas(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

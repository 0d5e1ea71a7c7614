package report

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// md makes copied text (a name, a sentence from the recording) safe in a
// Markdown table cell or list item: one line, nothing in it for a terminal
// to act on (the report may go to standard output), and no markup. HTML's
// specials become entities, so a name like <script> or <img onerror=...>
// is text in every renderer (many pass raw HTML through); the punctuation
// that starts emphasis, code, a link, an image, a heading, strikethrough
// or a table cell is backslash-escaped. An underscore inside a word
// (MQRC_Q_FULL) starts nothing and is left as it is.
func md(text string) string {
	text = mqfmt.Sanitize(text)
	var b strings.Builder
	b.Grow(len(text) + 8)
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '_':
			if i > 0 && i+1 < len(text) && wordByte(text[i-1]) && wordByte(text[i+1]) {
				b.WriteByte(c)
				continue
			}
			b.WriteString(`\_`)
		case '\\', '`', '*', '[', ']', '|', '#', '~':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// mdCode is text as a code span: in one, backslashes and entities are
// literal, so the text is only sanitised and set between backticks one
// longer than the longest run in it.
func mdCode(text string) string {
	text = mqfmt.Sanitize(text)
	ticks := strings.Repeat("`", longestRun(text, '`')+1)
	return ticks + " " + text + " " + ticks
}

// mdFence is the fence of a code block around text: backticks one longer
// than any run in it (at least three), so no line of it ends the block.
func mdFence(text string) string {
	return strings.Repeat("`", max(longestRun(text, '`')+1, 3))
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

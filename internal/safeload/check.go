package safeload

import "fmt"

// CheckTOML scans TOML text, without decoding it, for inline tables and
// arrays nested deeper than lim.MaxDepth, table headers and dotted keys of
// more than lim.MaxDepth parts, and more than lim.MaxKeys keys and table
// headers. Deep nesting makes the decoder's memory grow with the
// square of the file (a 30 KB file took over a gigabyte); the scan takes one
// pass and no memory. Syntax errors are left to the decoder.
func CheckTOML(data []byte, lim Limits) error {
	lim = lim.withDefaults()
	depth, keys, line, dots := 0, 0, 1, 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '\n':
			line++
			dots = 0
		case '.':
			dots++
		case ',':
			dots = 0
		case '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			end, nl := skipString(data, i)
			line += nl
			i = end
		case '[', '{':
			if depth == 0 && c == '[' && lineStart(data, i) {
				keys++ // a table header: [t] or [[t]]
				end, parts := header(data, i)
				if parts > lim.MaxDepth {
					return fmt.Errorf("line %d: a table header of more than %d dotted parts", line, lim.MaxDepth)
				}
				i = end
				continue
			}
			dots = 0
			if depth++; depth > lim.MaxDepth {
				return fmt.Errorf("line %d: arrays and inline tables nested deeper than %d", line, lim.MaxDepth)
			}
		case ']', '}':
			depth = max(depth-1, 0)
		case '=':
			if dots+1 > lim.MaxDepth {
				return fmt.Errorf("line %d: a dotted key of more than %d parts", line, lim.MaxDepth)
			}
			dots = 0
			if keys++; keys > lim.MaxKeys {
				return fmt.Errorf("line %d: more than %d keys", line, lim.MaxKeys)
			}
		}
		if keys > lim.MaxKeys {
			return fmt.Errorf("line %d: more than %d keys and tables", line, lim.MaxKeys)
		}
	}
	return nil
}

// header returns the index of the last byte of the table header starting at
// data[i] (before a comment or the end of the line) and how many dotted
// parts its name has; quoted parts may hold dots of their own. Dotted
// headers and keys nest tables as deep as brackets do, and the decoder's
// memory grows with the square of the depth (a 32 KB header took 385 MB).
func header(data []byte, i int) (int, int) {
	parts := 1
	for i+1 < len(data) && data[i+1] != '\n' && data[i+1] != '#' {
		i++
		switch data[i] {
		case '.':
			parts++
		case '"', '\'':
			end, _ := skipString(data, i)
			i = min(end, len(data)-1)
		}
	}
	return i, parts
}

// lineStart reports whether only blanks precede data[i] on its line.
func lineStart(data []byte, i int) bool {
	for j := i - 1; j >= 0 && data[j] != '\n'; j-- {
		if data[j] != ' ' && data[j] != '\t' {
			return false
		}
	}
	return true
}

// skipString returns the index of the last byte of the string starting at
// data[i] (basic or literal, single- or multi-line) and the newlines in it.
// An unterminated string runs to the end of the data.
func skipString(data []byte, i int) (int, int) {
	q := data[i]
	multi := i+2 < len(data) && data[i+1] == q && data[i+2] == q
	nl := 0
	j := i + 1
	if multi {
		j = i + 3
	}
	for ; j < len(data); j++ {
		c := data[j]
		switch {
		case c == '\\' && q == '"':
			j++
			if j < len(data) && data[j] == '\n' {
				nl++
			}
		case c == '\n':
			nl++
			if !multi {
				return j - 1, nl - 1 // the newline ends the line, not the string
			}
		case c == q && !multi:
			return j, nl
		case c == q && j+2 < len(data) && data[j+1] == q && data[j+2] == q:
			j += 2
			for j+1 < len(data) && data[j+1] == q { // """" ends with a quote inside
				j++
			}
			return j, nl
		}
	}
	return len(data) - 1, nl
}

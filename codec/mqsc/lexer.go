package mqsc

// tokKind is the kind of an MQSC token.
type tokKind int

const (
	tokWord   tokKind = iota // keyword or unquoted value
	tokQuoted                // 'quoted string' with '' unescaped
	tokOpen                  // (
	tokClose                 // )
)

type token struct {
	kind tokKind
	text string
	line int
}

// lex splits a joined command into tokens. Blanks and commas separate tokens
// outside quotes, as IBM's rules say; a quoted string keeps everything between
// its apostrophes, where two apostrophes in a row stand for one.
func lex(rc rawCommand) ([]token, error) {
	s := rc.text
	lineAt := func(i int) int {
		if i < len(rc.lineOf) {
			return rc.lineOf[i]
		}
		if len(rc.lineOf) > 0 {
			return rc.lineOf[len(rc.lineOf)-1]
		}
		return rc.first
	}
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == ',' || c == '\t':
			i++
		case c == '(':
			toks = append(toks, token{tokOpen, "(", lineAt(i)})
			i++
		case c == ')':
			toks = append(toks, token{tokClose, ")", lineAt(i)})
			i++
		case c == '\'':
			start := i
			text, next, ok := readQuoted(s, i)
			if !ok {
				return nil, errorf(lineAt(start), "quoted string starting %q is not closed", clip(s[start:]))
			}
			toks = append(toks, token{tokQuoted, text, lineAt(start)})
			i = next
		default:
			start := i
			for i < len(s) && !isSep(s[i]) {
				i++
			}
			toks = append(toks, token{tokWord, s[start:i], lineAt(start)})
		}
	}
	return toks, nil
}

func isSep(c byte) bool {
	return c == ' ' || c == ',' || c == '\t' || c == '(' || c == ')' || c == '\''
}

// readQuoted reads the quoted string at s[i] (an apostrophe) and returns its
// text and the index after the closing apostrophe.
func readQuoted(s string, i int) (string, int, bool) {
	var b []byte
	for j := i + 1; j < len(s); j++ {
		if s[j] != '\'' {
			b = append(b, s[j])
			continue
		}
		if j+1 < len(s) && s[j+1] == '\'' {
			b = append(b, '\'')
			j++
			continue
		}
		return string(b), j + 1, true
	}
	return "", len(s), false
}

// clip shortens s for an error message.
func clip(s string) string {
	const n = 24
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

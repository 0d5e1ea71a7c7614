package actions

import (
	"errors"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// mqscWord is one word of an MQSC command, with the value in parentheses
// after it when there is one. The object name after QLOCAL(...) is the
// value of the object word.
type mqscWord struct {
	text   string
	quoted bool    // the word itself was quoted (never valid as a keyword)
	value  *string // the parenthesised value: folded unless quoted
}

// mqscWords splits one MQSC command as runmqsc reads it: blanks and commas
// separate words outside quotes; an unquoted value folds to upper case, a
// quoted one keeps its case, ” inside standing for one apostrophe.
func mqscWords(line string) ([]mqscWord, error) {
	s := strings.TrimSpace(line)
	var out []mqscWord
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == ',' || c == '\t':
			i++
		case c == '(':
			if len(out) == 0 || out[len(out)-1].value != nil {
				return nil, errors.New("a value without its keyword")
			}
			v, n, err := mqscValue(s[i+1:])
			if err != nil {
				return nil, err
			}
			i += 1 + n
			out[len(out)-1].value = &v
		case c == '\'':
			v, n, err := mqscQuoted(s[i:])
			if err != nil {
				return nil, err
			}
			out = append(out, mqscWord{text: v, quoted: true})
			i += n
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" ,\t()'", rune(s[j])) {
				j++
			}
			out = append(out, mqscWord{text: s[i:j]})
			i = j
		}
	}
	return out, nil
}

// mqscValue reads a value up to its closing parenthesis: one quoted string
// or one unquoted word (folded), blanks around it ignored. n counts the
// bytes read, the ')' included.
func mqscValue(s string) (v string, n int, err error) {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i < len(s) && s[i] == '\'' {
		q, m, err := mqscQuoted(s[i:])
		if err != nil {
			return "", 0, err
		}
		v, i = q, i+m
	} else {
		j := strings.IndexAny(s[i:], ")'")
		if j < 0 {
			return "", 0, errors.New("'(' is not closed")
		}
		v, i = strings.ToUpper(strings.TrimSpace(s[i:i+j])), i+j
	}
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i >= len(s) || s[i] != ')' {
		return "", 0, fmt.Errorf("one value expected before ')'")
	}
	return v, i + 1, nil
}

// mqscQuoted reads the quoted string at s[0] and returns its text and the
// bytes read.
func mqscQuoted(s string) (string, int, error) {
	var b strings.Builder
	for j := 1; j < len(s); j++ {
		if s[j] != '\'' {
			b.WriteByte(s[j])
			continue
		}
		if j+1 < len(s) && s[j+1] == '\'' {
			b.WriteByte('\'')
			j++
			continue
		}
		return b.String(), j + 1, nil
	}
	return "", 0, errors.New("a quoted string is not closed")
}

// ChangeMQSC writes a change as the MQSC command it is, every name quoted
// where MQSC would otherwise fold it (pcf.MQSCName): what the plan shows, the
// audit records and a user may copy into runmqsc.
func ChangeMQSC(ch pcf.Change) string {
	var b strings.Builder
	switch ch.Command {
	case pcf.CmdChangeQMgr:
		b.WriteString("ALTER QMGR")
	case pcf.CmdChangeQ:
		fmt.Fprintf(&b, "ALTER %s(%s)", queueKind(ch), pcf.MQSCName(ch.Queue))
	default:
		fmt.Fprintf(&b, "DEFINE %s(%s)", queueKind(ch), pcf.MQSCName(ch.Queue))
		if ch.Command == pcf.CmdCopyQ {
			fmt.Fprintf(&b, " LIKE(%s)", pcf.MQSCName(ch.Like))
		}
	}
	for _, a := range ch.Attrs {
		switch {
		case a.Keyword == "HARDENBO" && a.Value == "NO":
			b.WriteString(" NOHARDENBO")
		case a.Keyword == "HARDENBO":
			b.WriteString(" HARDENBO")
		case a.Keyword == "TRIGGER" && a.Value == "NO":
			b.WriteString(" NOTRIGGER")
		case a.Keyword == "TRIGGER":
			b.WriteString(" TRIGGER")
		case a.Keyword == "BOQNAME" || a.Keyword == "DEADQ" || a.Keyword == "INITQ" || a.Keyword == "PROCESS":
			fmt.Fprintf(&b, " %s(%s)", a.Keyword, pcf.MQSCName(a.Value))
		default:
			fmt.Fprintf(&b, " %s(%s)", a.Keyword, a.Value)
		}
	}
	return b.String()
}

func queueKind(ch pcf.Change) string {
	for k, t := range fixQueueTypes {
		if t == ch.Type {
			return k
		}
	}
	return "QLOCAL"
}

// MQSCName is pcf.MQSCName: a name as MQSC reads it back unchanged.
func MQSCName(name string) string { return pcf.MQSCName(name) }

package mqsc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Limits from IBM's MQSC rules: a command is at most 32762 characters once its
// continuation lines are joined. A longer line cannot be part of a valid command,
// so reading stops there instead of buffering unbounded input.
const (
	MaxCommandLen = 32762
	maxLineLen    = MaxCommandLen + 2
)

// rawCommand is one command joined from its lines; lineOf maps each byte of text
// to the input line it came from, so errors can name the exact line.
type rawCommand struct {
	text   string
	lineOf []int
	first  int
}

// Error is a syntax or attribute error, located by input line.
type Error struct {
	Line int
	Msg  string
}

// Error formats the error as "line N: message".
func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func errorf(line int, format string, args ...any) *Error {
	return &Error{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// joinLines splits the input into commands following runmqsc's rules: a line
// whose last non-blank character is '+' continues with the next line's first
// non-blank character, '-' continues with the next line from its start, a final
// ';' ends the command, and comment and blank lines inside a continued command
// are dropped.
func joinLines(r io.Reader) ([]rawCommand, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLineLen)
	var (
		out      []rawCommand
		cur      *rawCommand
		trimLead bool
		lineNo   int
	)
	flush := func() {
		if cur != nil && strings.TrimSpace(cur.text) != "" {
			out = append(out, *cur)
		}
		cur = nil
	}
	for sc.Scan() {
		lineNo++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "*") || strings.TrimSpace(line) == "" {
			continue
		}
		if cur == nil {
			cur = &rawCommand{first: lineNo}
			trimLead = false
		}
		if trimLead {
			line = strings.TrimLeft(line, " \t")
		}
		line = strings.TrimRight(line, " \t")
		cont := byte(0)
		if strings.HasSuffix(line, ";") {
			// An explicit terminator wins over a continuation character left
			// before it by accident, as runmqsc documents.
			line = strings.TrimRight(line[:len(line)-1], " \t")
			line = strings.TrimRight(line, "+-")
		} else if n := len(line); n > 0 && (line[n-1] == '+' || line[n-1] == '-') {
			cont = line[n-1]
			line = line[:n-1]
		}
		if len(cur.text)+len(line) > MaxCommandLen {
			return nil, errorf(cur.first, "command longer than %d characters", MaxCommandLen)
		}
		cur.text += line
		for range len(line) {
			cur.lineOf = append(cur.lineOf, lineNo)
		}
		switch {
		case cont == '+':
			trimLead = true
		case cont == '-':
			trimLead = false
		default:
			flush()
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, errorf(lineNo+1, "line longer than %d characters", MaxCommandLen)
		}
		return nil, fmt.Errorf("mqsc: read: %w", err)
	}
	if cur != nil {
		return nil, errorf(cur.first, "command continued past the end of the input")
	}
	return out, nil
}

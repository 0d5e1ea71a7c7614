package embedded

import (
	"fmt"
	"io"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/codec/mqsc"
)

// Notes lists, one line each, what a script asked for that the embedded
// queue manager accepted without acting on: commands it does not model
// (channels, CHLAUTH, listeners...) and attributes it ignores (TRIGGER,
// INITQ...). Commands that print them show them, so nothing is dropped
// silently.
func (r Report) Notes() []string {
	var out []string
	for _, res := range r.Results {
		out = appendNote(out, res.Line, res.Command, res.Object, res.Outcome == NotModelled, res.Ignored)
	}
	return out
}

// MQSCNotes parses a script, without running it, and returns its Notes, or
// the syntax error that would stop RunMQSC.
func MQSCNotes(r io.Reader) ([]string, error) {
	cmds, err := mqsc.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("mqsc: %w", err)
	}
	var out []string
	for i := range cmds {
		c := &cmds[i]
		notModelled := c.Verb != "END" && !c.Modelled
		var ignored []string
		if !notModelled {
			ignored = unmodelledParams(c)
		}
		out = appendNote(out, c.Line, c.Kind(), c.Name, notModelled, ignored)
	}
	return out, nil
}

func appendNote(out []string, line int, command, object string, notModelled bool, ignored []string) []string {
	what := command
	if object != "" {
		what += "(" + object + ")"
	}
	what = mqfmt.Sanitize(what)
	switch {
	case notModelled:
		return append(out, fmt.Sprintf("line %d: %s: not modelled by the embedded queue manager; nothing changed", line, what))
	case len(ignored) > 0:
		return append(out, fmt.Sprintf("line %d: %s: %s not modelled (accepted, no effect)", line, what, strings.Join(ignored, ", ")))
	}
	return out
}

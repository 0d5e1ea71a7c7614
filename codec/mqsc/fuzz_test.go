package mqsc

import (
	"errors"
	"testing"
)

// FuzzMQSC checks that no input makes the reader panic, that every failure is
// an *Error naming a line inside the input, and that every accepted command has
// a verb.
func FuzzMQSC(f *testing.F) {
	f.Add("DEFINE QLOCAL('DEV.QUEUE.1') REPLACE")
	f.Add("def ql(A) +\n  maxdepth(5) -\n descr('x''y')")
	f.Add("SET AUTHREC PROFILE('DEV.**') PRINCIPAL('app') OBJTYPE(QUEUE) AUTHADD(BROWSE,GET)")
	f.Add("* comment\n\nALTER QMGR DEADQ('DLQ');")
	f.Fuzz(func(t *testing.T, in string) {
		cmds, err := ParseString(in)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not *Error", err)
			}
			if e.Line < 1 {
				t.Fatalf("error line %d", e.Line)
			}
			return
		}
		for _, c := range cmds {
			if c.Verb == "" || c.Line < 1 {
				t.Fatalf("command without verb or line: %+v", c)
			}
		}
	})
}

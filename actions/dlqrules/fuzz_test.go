package dlqrules

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// FuzzParse: any input parses or fails with positioned errors, never
// panics, and a parsed table's rules read back to themselves.
func FuzzParse(f *testing.F) {
	for _, p := range []string{"testdata/ibm-example.rules", "testdata/ibm-zos-example.rules"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("APPLNAME('ABC-\n D') ACTION(+\nFWD) FWDQ(&DESTQ) HEADER(NO)"))
	f.Add([]byte("WAIT(5) RETRYINT(1)\nREASON(MQFB_COA) ACTION(DISCARD)\n\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := Parse(bytes.NewReader(data))
		if err != nil {
			for _, e := range err.(Errors) {
				if e.Pos.Line < 1 || e.Pos.Col < 1 || e.Msg == "" {
					t.Fatalf("error without a position: %#v", e)
				}
			}
			return
		}
		if len(tb.Rules) == 0 {
			t.Fatal("a table without rules was accepted")
		}
		var src strings.Builder
		for i := range tb.Rules {
			src.WriteString(tb.Rules[i].String() + "\n")
		}
		back, err := Parse(strings.NewReader(src.String()))
		if err != nil {
			t.Fatalf("rules do not read back:\n%s\n%v", src.String(), err)
		}
		for i := range tb.Rules {
			if back.Rules[i].String() != tb.Rules[i].String() {
				t.Fatalf("rule %d reads back as %s, was %s", i+1, back.Rules[i].String(), tb.Rules[i].String())
			}
		}
	})
}

package ibmmq

import (
	"strings"
	"testing"
)

// FuzzParseQMgrFile feeds the --qmgrs loader arbitrary TOML: an error or
// entries with names, never a panic or a runaway decode.
func FuzzParseQMgrFile(f *testing.F) {
	f.Add([]byte("[[qmgr]]\nname = \"QM1\"\nconn = \"h(1414)\"\n"))
	f.Add([]byte("[[qmgr]]\nname = \"QM1\"\nx = {a = {b = [1]}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := ParseQMgrFile(data, Settings{})
		if err == nil && len(out) == 0 {
			t.Fatal("no entries and no error")
		}
	})
}

func TestQMgrFileNestingAndUnknownKeysCapped(t *testing.T) {
	deep := "[[qmgr]]\nname = \"QM1\"\nx = " + strings.Repeat("{a = ", 500) + "1" + strings.Repeat("}", 500) + "\n"
	if _, err := ParseQMgrFile([]byte(deep), Settings{}); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Fatalf("deep nesting: %v", err)
	}
	many := "[[qmgr]]\nname = \"QM1\"\n"
	for i := range 30 {
		many += "k" + strings.Repeat("z", i) + " = 1\n"
	}
	if _, err := ParseQMgrFile([]byte(many), Settings{}); err == nil || !strings.Contains(err.Error(), "and 25 more") {
		t.Fatalf("unknown keys: %v", err)
	}
}

package dlqrules

import "testing"

func TestQuick(t *testing.T) {
	for _, f := range []string{"testdata/ibm-example.rules", "testdata/ibm-zos-example.rules"} {
		tb, err := ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(tb.Control.String(), tb.Warnings)
		for _, r := range tb.Rules {
			t.Log(r.Number, r.Pos, r.String())
		}
	}
}

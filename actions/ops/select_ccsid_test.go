package ops_test

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/bodyedit"
)

// TestFilterBodyMatchesTheTextInItsCCSID: --body (a requeue's or an
// export's filter) reads a body as its CCSID says, as ctrl+f does: "@" is
// the EBCDIC space's byte in "HELLO WORLD" (CCSID 500), not a character
// of it.
func TestFilterBodyMatchesTheTextInItsCCSID(t *testing.T) {
	f := newOpFixture(t, "")
	md, _ := original(1)
	body, err := bodyedit.Encode("HELLO WORLD", 500, mqfmt.EncodingNormal)
	if err != nil {
		t.Fatal(err)
	}
	md.CodedCharSetId = 500
	f.putSetAll(f.conn(), "PARKING.Q", md, body)
	for _, tc := range []struct {
		text string
		want int
	}{{"@", 0}, {"HELLO", 1}, {"hex:40", 1}} {
		p, err := f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpExport, Queue: "PARKING.Q", Filter: &ops.Filter{BodyContains: tc.text}, File: "x"})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) != tc.want {
			t.Errorf("--body %q selected %d, want %d", tc.text, len(p.Items), tc.want)
		}
	}
}

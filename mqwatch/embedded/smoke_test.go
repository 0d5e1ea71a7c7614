package embedded

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestSmokePutGet(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q1)")
	c := f.connect("")
	q := f.open(c, "Q1", inOut)
	f.put(q, "a", 0, false)
	f.put(q, "b", 5, false)
	if got := f.get(q, mqwatch.GetOptions{}); got != "b" {
		t.Fatalf("got %q", got)
	}
	if got := f.get(q, mqwatch.GetOptions{}); got != "a" {
		t.Fatalf("got %q", got)
	}
}

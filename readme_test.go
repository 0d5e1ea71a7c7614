package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch/embedded"
)

// The README's MQSC example must run on the embedded queue manager as shown.
func TestReadmeMQSCExampleRuns(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```mqsc\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("README has no mqsc example")
	}
	qm := embedded.New(embedded.Options{Name: "QM1"})
	rep, err := qm.RunMQSC(strings.NewReader(string(m[1])))
	if err != nil {
		t.Fatalf("README MQSC example fails: %v\n%s", err, rep)
	}
	if f := rep.Failed(); len(f) > 0 {
		t.Fatalf("README MQSC example has failing commands: %v", f)
	}
}

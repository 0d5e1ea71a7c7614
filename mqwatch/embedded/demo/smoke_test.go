package demo

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"
)

func TestSmoke(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	res, err := s.Simulate(context.Background(), SimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("took %s", time.Since(t0))
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	enc.Encode(res.Accounting)
	enc.Encode(res.Routes)
	enc.Encode(res.Producers)
	enc.Encode(res.Consumers)
	for _, q := range res.QMgrs {
		for _, qq := range q.Queues {
			t.Logf("%s %-28s %-7s %5d/%5d bo=%d ip=%d op=%d maxbo=%d %v %v", q.Name, qq.Name, qq.Role, qq.Depth, qq.MaxDepth, qq.BackoutThresh, qq.OpenInput, qq.OpenOutput, qq.MaxBackoutCount, qq.Handles, qq.Reasons)
		}
	}
}

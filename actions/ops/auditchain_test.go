package ops

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func chainRec(i int) AuditRecord {
	return AuditRecord{Time: time.Date(2026, 3, 9, 14, 30, i, 0, time.UTC), User: "alice", QMgr: "QM1", Action: OpRequeue,
		MsgId: fmt.Sprintf("%04x", i), From: "QM1.DEADQ", To: "ORDERS.IN", Outcome: "requeued"}
}

// writeLog writes n lines to a new log through the writer, in batches of
// three, and returns its lines.
func writeLog(t *testing.T, path string, from, n int) []string {
	t.Helper()
	a, _, err := openAudit(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := from; i < from+n; i += 3 {
		var recs []AuditRecord
		for j := i; j < min(i+3, from+n); j++ {
			recs = append(recs, chainRec(j))
		}
		if err := a.write(recs); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")
	return lines[:len(lines)-1] // after the last newline: nothing
}

func checkLog(t *testing.T, lines []string) AuditReport {
	t.Helper()
	rep, err := CheckAuditLog(strings.NewReader(strings.Join(lines, "")))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// forge is a line claiming to follow prev, as someone who knows the
// scheme (the hash has no key) would write it.
func forge(prev string, i int) string {
	return string(chainLines([]byte(`{"user":"mallory","msg_id":"`+fmt.Sprint(i)+`"}`+"\n"), auditLineHash([]byte(prev))))
}

// Each line carries the hash of the one before: audit check finds a line
// removed, inserted or changed anywhere but at the end, and says where;
// what it cannot find (lines appended at the end, the last removed) holds.
func TestAuditChainFindsRemovedInsertedAndChangedLines(t *testing.T) {
	lines := writeLog(t, filepath.Join(t.TempDir(), "audit.jsonl"), 0, 10)
	if rep := checkLog(t, lines); len(lines) != 10 || rep.Broken != 0 || rep.Unchained != 0 || rep.Lines != 10 {
		t.Fatalf("an intact log: %d lines, %+v", len(lines), rep)
	}
	without := func(i int) []string { return append(append([]string{}, lines[:i]...), lines[i+1:]...) }
	with := func(i int, l string) []string {
		return append(append(append([]string{}, lines[:i]...), l), lines[i:]...)
	}
	changed := append([]string{}, lines...)
	changed[4] = strings.Replace(changed[4], `"alice"`, `"bob"`, 1)
	for _, tc := range []struct {
		name  string
		lines []string
		want  string // "": not found
	}{
		{"middle_removed", without(4), "line 5 does not follow line 4: lines were removed or inserted between them, or line 4 was changed"},
		{"first_removed", without(0), "line 1 follows a line that is not in the log: its first lines were removed"},
		{"unchained_inserted", with(4, `{"user":"mallory"}`+"\n"), "line 5 is not chained, after chained lines"},
		{"forged_inserted", with(4, forge(strings.TrimSuffix(lines[3], "\n"), 99)), "line 6 does not follow line 5"},
		{"changed", changed, "line 6 does not follow line 5"},
		{"forged_appended", append(append([]string{}, lines...), forge(strings.TrimSuffix(lines[9], "\n"), 99)), ""},
		{"last_removed", lines[:9], ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := checkLog(t, tc.lines)
			if tc.want == "" {
				if rep.Broken != 0 {
					t.Fatalf("found %+v where the chain cannot tell", rep.Breaks)
				}
				return
			}
			if rep.Broken != 1 || !strings.HasPrefix(rep.Breaks[0].Why, tc.want) {
				t.Fatalf("breaks %+v, want one: %q", rep.Breaks, tc.want)
			}
		})
	}
}

// A log written before lines were chained stays readable: its lines are
// counted as unchained, and the chain starts at the first new line, which
// follows the last old one.
func TestAuditChainContinuesAnUnchainedLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var old bytes.Buffer
	for i := range 4 {
		fmt.Fprintf(&old, `{"time":"2026-03-09T14:30:0%dZ","user":"alice","qmgr":"QM1","action":"requeue","msg_id":"%02x","from":"Q","outcome":"requeued"}`+"\n", i, i)
	}
	if err := os.WriteFile(path, old.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	lines := writeLog(t, path, 4, 5)
	rep := checkLog(t, lines)
	if rep.Lines != 9 || rep.Unchained != 4 || rep.Broken != 0 {
		t.Fatalf("%+v", rep)
	}
	lines[3] = strings.Replace(lines[3], "alice", "bob", 1) // the last old line, which the chain covers
	if rep := checkLog(t, lines); rep.Broken != 1 || rep.Breaks[0].Line != 5 {
		t.Fatalf("the last unchained line changed: %+v", rep)
	}
}

// Runs appending to one log at once (each its own open file, as runs,
// fixes and a second process have) keep one chain: the lock serialises
// reading the last line and appending.
func TestAuditChainHoldsUnderConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, _, err := openAudit(path)
			if err != nil {
				t.Error(err)
				return
			}
			defer a.close()
			for i := range 25 {
				if err := a.write([]AuditRecord{chainRec(w*100 + i), chainRec(w*100 + i + 50)}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	data, _ := os.ReadFile(path)
	rep, err := CheckAuditLog(bytes.NewReader(data))
	if err != nil || rep.Lines != 200 || rep.Broken != 0 {
		t.Fatalf("%v: %d lines, breaks %+v", err, rep.Lines, rep.Breaks)
	}
}

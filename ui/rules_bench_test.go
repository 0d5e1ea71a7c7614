package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// BenchmarkTriageRules100k50Rules is what a loaded 50-rule table costs the
// DEADQ triage per poll at 100,000 messages when the DEADQ changed (the
// table is matched once per class of messages; the groups and their
// predicted outcomes are counted again), and
// BenchmarkTriageRulesFirstMatch100k50Rules the first match of them all.
// The prediction itself runs in the background (dlqrules'
// BenchmarkPredict100kSummaries50Rules measures it).
func BenchmarkTriageRules100k50Rules(b *testing.B) {
	a, base := rulesBenchApp(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// One more message each poll: a new inventory, as after an arrival.
		snap := resyncPoll(base, uint64(i+2))
		inv := base.Inventories["QM1.DEADQ"]
		snap.Inventories = map[string]*mqwatch.Inventory{"QM1.DEADQ": inv.Append(dlqSummary(i, 2053, "AUDIT.IN"))}
		a.Update(snapshotMsg{snap: snap})
		_ = a.View()
	}
}

func BenchmarkTriageRulesFirstMatch100k50Rules(b *testing.B) {
	a, _ := rulesBenchApp(b)
	t := topIs[*triageScreen](b, a)
	b.ResetTimer()
	for b.Loop() {
		t.ruleCache = model.GroupRules{}
		a.sess.rules.matchGroups(&a.opt, t)
	}
}

// rulesBenchApp is the triage of a 100,000-message DEADQ with a 50-rule
// table loaded: 47 rules that match nothing, then three that do.
func rulesBenchApp(b *testing.B) (*App, *mqwatch.Snapshot) {
	var t strings.Builder
	for i := range 47 { // rules that match nothing, tested against every message
		fmt.Fprintf(&t, "DESTQ(NEVER%d.*) APPLNAME('app-%d') ACTION(DISCARD)\n", i, i)
	}
	t.WriteString("REASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(3)\nDESTQ(INVOICE.*) ACTION(FWD) FWDQ(PARKING.Q) HEADER(NO)\nACTION(IGNORE)\n")
	path := filepath.Join(b.TempDir(), "bench.rules")
	if err := os.WriteFile(path, []byte(t.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	base := deadQIncident(1, 100_000)
	a, _ := newTestApp(b, 160, 48, Options{Rules: newEnginePredictor(b, base)})
	a.Update(snapshotMsg{snap: base})
	press(a, "d")
	drain(a, loadRules(a, path)) // and the first prediction
	if a.sess.rules == nil || !strings.Contains(a.View(), "#49 FWD ✗ → PARKING.Q") || !strings.Contains(a.View(), "(MQDLH removed): would ") {
		b.Fatalf("table not applied: %s\n%s", a.flash, a.View())
	}
	return a, base
}

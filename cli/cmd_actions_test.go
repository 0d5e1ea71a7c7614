package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/ui"
)

var updateExamples = flag.Bool("update-examples", false, "rewrite the example dmpmqmsg files in testdata/actions")

// Example files that the README's action commands use.
const (
	exMQSC  = "../testdata/actions/demo.mqsc"
	exDeadQ = "../testdata/actions/deadq.dmp"
	exBOQ   = "../testdata/actions/orders-bo.dmp"
)

// runActionCLI runs an action command in a fresh state directory and returns its
// exit code and output.
func runActionCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestActionCommands(t *testing.T) {
	if *updateExamples {
		writeExamples(t)
	}
	demo := []string{"--mqsc", exMQSC, "--load", exDeadQ, "--load", exBOQ}
	with := func(args ...string) []string { return append(args, demo...) }
	full := filepath.Join(t.TempDir(), "full.mqsc")
	if err := os.WriteFile(full, []byte("ALTER QLOCAL(ORDERS.IN) MAXDEPTH(10)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"requeue_dry_run_lists_every_message", with("requeue", "--queue", "QM1.DEADQ", "--all", "--dry-run"), ExitDone, []string{
			"dry run: Requeue 37 messages from QM1.DEADQ to their original queues: ORDERS.IN ×30, PAYMENTS.IN ×7; move, not copy; MQDLH removed",
			"→ ORDERS.IN            would requeue  (R10b MQDLH DestQName)", "dry run: 37 of 37 messages would be acted on; nothing changed",
			"depths now (embedded QM1, in memory): ORDERS.IN 0, PAYMENTS.IN 0, QM1.DEADQ 37"}},
		{"R10b_requeue_the_DEADQ", with("requeue", "--queue", "QM1.DEADQ", "--all"), ExitDone, []string{
			"requeued 37 · skipped 0 · failed 0 · in doubt 0 · not done 0", "audit: ",
			"depths now (embedded QM1, in memory): ORDERS.IN 30, PAYMENTS.IN 7, QM1.DEADQ 0"}},
		{"R10c_requeue_a_shared_BOQ_is_partial_without_a_target", with("requeue", "--queue", "ORDERS.BO", "--all"), ExitPartial, []string{
			"Requeue 4 messages from ORDERS.BO to their input queues: ORDERS.IN ×3, PAYMENTS.IN ×1; move, not copy; 1 skipped",
			"skipped: ORDERS.IN, PAYMENTS.IN all name ORDERS.BO as BOQNAME and no JMS destination picks one: give a target",
			"requeued 4 · skipped 1"}},
		{"R10c_requeue_with_a_target", with("requeue", "--queue", "ORDERS.BO", "--msgid", exampleID(42), "--to", "ORDERS.IN"), ExitDone, []string{
			"Requeue 1 message from ORDERS.BO to ORDERS.IN (target override)", "requeued 1"}},
		{"R10d_discard_by_reason_archives_first", with("discard", "--queue", "QM1.DEADQ", "--reason", "MQRC_PUT_INHIBITED"), ExitDone, []string{
			"Discard 7 messages from QM1.DEADQ; each is archived to a new dmpmqmsg file in ", "discarded 7", "archive: ",
			"QM1.DEADQ 30"}},
		{"R10e_replay_keeps_the_original", with("replay", "--queue", "QM1.DEADQ", "--msgid", exampleID(1), "--to", "PARKING.Q"), ExitDone, []string{
			"Replay 1 message from QM1.DEADQ to PARKING.Q; copy, originals stay; new MsgIds; MQDLH removed from the copies",
			"replayed 1", "PARKING.Q 1, QM1.DEADQ 37"}},
		{"R10a_move_by_destination", with("move", "--queue", "QM1.DEADQ", "--dest", "PAY*", "--to", "PARKING.Q", "--batch", "3"), ExitDone, []string{
			"Move 7 messages from QM1.DEADQ to PARKING.Q; move, not copy; headers unchanged", "moved 7", "PARKING.Q 7, QM1.DEADQ 30"}},
		{"R10a_a_full_target_is_partial", append(with("requeue", "--queue", "QM1.DEADQ", "--all", "--workers", "1", "--batch", "5"), "--mqsc", full), ExitPartial, []string{
			"warning: ORDERS.IN has room for 10 of the 30 messages", "stopped: ORDERS.IN is full (MQRC_Q_FULL)",
			"requeued 10 · skipped 0 · failed 0 · in doubt 0 · not done 27"}},
		{"read_only_refuses", with("discard", "--queue", "QM1.DEADQ", "--all", "--read-only"), ExitFailed, []string{
			"stopped: read-only mode"}},
		{"nothing_selected_is_a_usage_error", with("requeue", "--queue", "QM1.DEADQ"), ExitUsage, nil},
		{"bad_msgid", with("requeue", "--queue", "QM1.DEADQ", "--msgid", "12"), ExitUsage, nil},
		{"bad_reason", with("requeue", "--queue", "QM1.DEADQ", "--reason", "MQRC_NO_SUCH"), ExitUsage, nil},
		{"bad_context", with("requeue", "--queue", "QM1.DEADQ", "--all", "--context", "mine"), ExitUsage, nil},
		{"move_needs_a_target", with("move", "--queue", "QM1.DEADQ", "--all"), ExitUsage, nil},
		{"unknown_queue_fails", with("requeue", "--queue", "NO.SUCH.Q", "--all"), ExitFailed, []string{"MQRC_UNKNOWN_OBJECT_NAME"}},
		{"missing_mqsc_file_fails", []string{"requeue", "--queue", "Q", "--all", "--mqsc", "no/such.mqsc"}, ExitFailed, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runActionCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
		})
	}
}

func TestActionCommandsJSONAndFiles(t *testing.T) {
	demo := []string{"--mqsc", exMQSC, "--load", exDeadQ}
	t.Run("json_result", func(t *testing.T) {
		code, out, _ := runActionCLI(t, append([]string{"requeue", "--queue", "QM1.DEADQ", "--dest", "PAYMENTS.IN", "--json"}, demo...)...)
		var r struct {
			Done     int            `json:"done"`
			ExitCode int            `json:"exit_code"`
			Targets  map[string]int `json:"targets"`
			Items    []struct {
				MsgId   string `json:"msg_id"`
				Outcome string `json:"outcome"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if code != ExitDone || r.Done != 7 || r.ExitCode != 0 || r.Targets["PAYMENTS.IN"] != 7 || len(r.Items) != 7 ||
			r.Items[0].Outcome != "requeued" || len(r.Items[0].MsgId) != 48 {
			t.Errorf("exit %d result %+v", code, r)
		}
	})
	t.Run("export_then_import_restores_the_messages", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "out.dmp")
		code, out, _ := runActionCLI(t, append([]string{"export", "--queue", "QM1.DEADQ", "--all", "--file", file}, demo...)...)
		if code != ExitDone || !strings.Contains(out, "exported 37") {
			t.Fatalf("export exit %d\n%s", code, out)
		}
		code, out, _ = runActionCLI(t, "import", "--file", file, "--to", "PARKING.Q", "--mqsc", exMQSC)
		if code != ExitDone || !strings.Contains(out, "Import 37 messages from "+file+" to PARKING.Q") || !strings.Contains(out, "PARKING.Q 37") {
			t.Fatalf("import exit %d\n%s", code, out)
		}
	})
}

// export without --file writes where the dashboard proposes: the state
// directory, the file named after the queue manager, the queue and the time.
func TestExportWithoutFileGoesToTheStateDirectory(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"export", "--queue", "QM1.DEADQ", "--all", "--mqsc", exMQSC, "--load", exDeadQ}, &out, &errb)
	if code != ExitDone {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	files, _ := filepath.Glob(filepath.Join(state, "poisonwatch", "export-QM1-QM1.DEADQ-*Z.dmp"))
	if len(files) != 1 || !strings.Contains(out.String(), "to "+files[0]) {
		t.Fatalf("want one export-QM1-QM1.DEADQ-TIME.dmp in the state directory, named in the output: %v\n%s", files, out.String())
	}
}

func TestParseActionArgs(t *testing.T) {
	cases := []struct {
		name string
		args string
		err  string
		chk  func(*ops.OpRequest) bool
	}{
		{"reason_by_number", "--queue Q --reason 2053", "", func(r *ops.OpRequest) bool { return r.Filter.Reason == 2053 }},
		{"reason_by_short_name", "--queue Q --reason q_full", "", func(r *ops.OpRequest) bool { return r.Filter.Reason == 2053 }},
		{"feedback_name", "--queue Q --reason MQFB_EXPIRATION", "", func(r *ops.OpRequest) bool { return r.Filter.Reason == 258 }},
		{"age_in_days", "--queue Q --min-age 3d", "", func(r *ops.OpRequest) bool { return r.Filter.MinAge == 72*time.Hour }},
		{"age_duration", "--queue Q --min-age 90m", "", func(r *ops.OpRequest) bool { return r.Filter.MinAge == 90*time.Minute }},
		{"msgids_repeat_and_comma", "--queue Q --msgid " + exampleID(1) + "," + exampleID(2) + " --msgid 0x" + exampleID(3), "",
			func(r *ops.OpRequest) bool { return len(r.Filter.MsgIds) == 3 }},
		{"import_takes_everything_by_default", "--file f --to Q", "", func(r *ops.OpRequest) bool { return r.All && r.Target == "Q" }},
		{"negative_age", "--queue Q --min-age -5m", "--min-age", nil},
		{"stray_argument", "--queue Q --all extra", "unexpected argument", nil},
		{"no_queue", "--all", "--queue", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			op := ops.OpRequeue
			if strings.HasPrefix(tc.args, "--file") {
				op = ops.OpImport
			}
			a, err := parseActionArgs(op, strings.Fields(tc.args), &bytes.Buffer{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !tc.chk(&a.req) {
				t.Fatalf("err %v request %+v filter %+v", err, a.req, a.req.Filter)
			}
		})
	}
}

// FuzzParseActionArgs: any command line is parsed or refused with an error,
// never a panic.
func FuzzParseActionArgs(f *testing.F) {
	for _, s := range []string{"--queue Q --all", "--queue Q --reason MQRC_Q_FULL --min-age 3d", "--msgid zz --queue Q",
		"--queue Q --min-age 99999999999d", "--file f --to Q", "--queue Q --context default --rate -1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, op := range []ops.Op{ops.OpRequeue, ops.OpImport} {
			a, err := parseActionArgs(op, strings.Fields(line), &bytes.Buffer{})
			if err == nil && a == nil {
				t.Fatal("no request and no error")
			}
		}
	})
}

// exampleID is the MsgId of example message n, in hex.
func exampleID(n int) string { return fmt.Sprintf("%x", exampleMsgID(n)) }

func exampleMsgID(n int) [24]byte {
	var id [24]byte
	copy(id[:], "AMQ QM.APP1     ")
	binary.BigEndian.PutUint64(id[16:], uint64(n))
	return id
}

// writeExamples builds the example files on the embedded queue manager:
// 37 dead letters (30 for ORDERS.IN, 7 for PAYMENTS.IN, put-inhibited) and
// 5 messages on the shared backout queue ORDERS.BO, one without a JMS
// destination.
func writeExamples(t *testing.T) {
	now := time.Date(2026, 3, 9, 14, 30, 0, 0, time.UTC)
	script, err := os.ReadFile(exMQSC)
	if err != nil {
		t.Fatal(err)
	}
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", Now: embeddedtest.At(now), MQSC: string(script)})
	ctx := context.Background()
	for n := 1; n <= 42; n++ {
		md := mqfmt.NewMQMD()
		md.Format, md.CodedCharSetId, md.Encoding, md.Persistence = mqfmt.FmtString, 1208, mqfmt.EncodingNative, mqfmt.PerPersistent
		md.MsgId, md.UserIdentifier, md.PutApplName, md.PutApplType = exampleMsgID(n), "app1", "orders-service", mqfmt.ATUnix
		md.PutDate, md.PutTime = mqfmt.FormatPutTime(now.Add(-time.Duration(43-n) * 7 * time.Minute))
		data := []byte(fmt.Sprintf(`{"order":%d,"sku":"A-%03d","qty":%d}`, 1000+n, n, n%5+1))
		switch {
		case n <= 37:
			dest, rc := "ORDERS.IN", mqfmt.RCQFull
			if n > 30 {
				dest, rc = "PAYMENTS.IN", mqfmt.RCPutInhibited
			}
			dmd, ddata, err := actions.ToDeadLetter(md, data, actions.DeadLetterOptions{Reason: rc, DestQName: dest, DestQMgrName: "QM1",
				PutApplType: mqfmt.ATUnix, PutApplName: "amqrmppa", Now: now})
			if err != nil {
				t.Fatal(err)
			}
			qm.Put("QM1.DEADQ", dmd, ddata)
		default:
			dst := []string{"queue:///ORDERS.IN", "queue:///ORDERS.IN", "queue:///PAYMENTS.IN", "queue:///ORDERS.IN", ""}[n-38]
			if dst != "" {
				rfh := mqfmt.NewRFH2(md.Encoding, md.CodedCharSetId, md.Format, mqfmt.NewFolder("jms", mqfmt.NewElement("Dst", dst)))
				hdr, _ := rfh.AppendEncode(nil, binary.LittleEndian)
				data, md.Format = append(hdr, data...), mqfmt.FmtRFH2
			}
			bmd, bdata, err := actions.ToBackoutQueue(md, data)
			if err != nil {
				t.Fatal(err)
			}
			qm.Put("ORDERS.BO", bmd, bdata)
		}
	}
	dir := t.TempDir()
	eng, _ := ops.NewEngine(ops.EngineOptions{Connector: qm, Now: func() time.Time { return now },
		AuditPath: filepath.Join(dir, "audit"), ArchiveDir: dir})
	for q, file := range map[string]string{"QM1.DEADQ": exDeadQ, "ORDERS.BO": exBOQ} {
		_ = os.Remove(file)
		if _, err := eng.Run(ctx, ops.OpRequest{Op: ops.OpExport, Queue: q, All: true, File: file}, nil); err != nil {
			t.Fatal(err)
		}
		_ = os.Chmod(file, 0o644)
	}
}

func TestActionBackendIBMMQWithoutSupport(t *testing.T) {
	code, _, errOut := runActionCLI(t, "requeue", "--backend", "ibmmq", "--queue", "QM1.DEADQ", "--all")
	if code != ExitFailed || !strings.Contains(errOut, "without IBM MQ support") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	code, _, errOut = runActionCLI(t, "requeue", "--backend", "ibmmq", "--queue", "Q", "--all", "--mqsc", exMQSC)
	if code != ExitFailed || !strings.Contains(errOut, "do not apply to --backend ibmmq") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// The dashboard's operations are the same engine the commands use.
var _ ui.Operations = ops.EngineOps{}

// The action commands act on a simulated scenario, loaded as `sim` loads it.
func TestActionOnSimulatedScenario(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	args := []string{"move", "--scenario", "builtin", "--sim-duration", "2m", "--qmgr", "QM2",
		"--queue", "QM2.DEAD.LETTER.QUEUE", "--all", "--to", "AUDIT.PARKED", "--verify", "1s"}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), append(args, "--dry-run"), &out, &errOut); code != ExitDone {
		t.Fatalf("dry run: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "would move") {
		t.Fatalf("dry run output:\n%s", out.String())
	}
	out.Reset()
	if code := Run(context.Background(), args, &out, &errOut); code != ExitDone {
		t.Fatalf("move: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	if code := Run(context.Background(), []string{"move", "--scenario", "builtin", "--qmgr", "QM7", "--queue", "X", "--all", "--to", "Y"}, &out, &errOut); code == ExitDone {
		t.Fatal("an unknown queue manager of the scenario was accepted")
	}
}

package ops_test

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestRateLimit(t *testing.T) {
	cases := []struct {
		name  string
		rate  float64
		n     int
		slept time.Duration
	}{
		{"R10f_10_per_second_spaces_5_messages_over_400ms", 10, 5, 400 * time.Millisecond},
		{"R10f_2_per_second_spaces_3_messages_over_1s", 2, 3, time.Second},
		{"R10f_no_rate_never_waits", 0, 5, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newOpFixture(t, "")
			c := f.conn()
			for n := 1; n <= tc.n; n++ {
				f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
			}
			res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Rate: tc.rate, Workers: 1})
			if res.Done != tc.n || f.clk.slept != tc.slept {
				t.Errorf("done %d, waited %v, want %d and %v", res.Done, f.clk.slept, tc.n, tc.slept)
			}
		})
	}
}

func TestProgress(t *testing.T) {
	t.Run("R10f_progress_counts_up_to_the_total_with_rate_and_ETA", func(t *testing.T) {
		f := newOpFixture(t, "")
		c := f.conn()
		for n := 1; n <= 25; n++ {
			f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
		}
		f.deadLetter(c, 26, "", "QM1", mqfmt.RCQFull)
		var evs []ops.OpProgress
		res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Batch: 10, Rate: 100, Workers: 1},
			func(p ops.OpProgress) { evs = append(evs, p) })
		if err != nil || res.Done != 25 {
			t.Fatalf("err %v done %d", err, res.Done)
		}
		last := evs[len(evs)-1]
		if last.Done != 25 || last.Total != 26 || last.Skipped != 1 || last.ETA != 0 || last.Rate <= 0 {
			t.Errorf("last event %+v", last)
		}
		for i := 1; i < len(evs); i++ {
			if evs[i].Done < evs[i-1].Done || evs[i].Total != 26 {
				t.Fatalf("events go backwards: %+v then %+v", evs[i-1], evs[i])
			}
		}
		if mid := evs[1]; mid.Done != 10 || mid.ETA <= 0 {
			t.Errorf("after the first batch: %+v", mid)
		}
	})
}

func TestAudit(t *testing.T) {
	t.Run("R10f_one_record_per_message_with_who_what_from_to_outcome_in_a_0600_file", func(t *testing.T) {
		f := newOpFixture(t, "")
		c := f.conn()
		f.deadLetter(c, 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
		f.deadLetter(c, 2, "ORDERS.IN", "QM2", mqfmt.RCQFull)
		path := filepath.Join(f.dir, "state", "audit.jsonl")
		eng := f.engine(func(o *ops.EngineOptions) { o.AuditPath = path })
		f.run(eng, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, User: "jdoe", Workers: 1})
		checkPrivate(t, path)
		var recs []ops.AuditRecord
		for _, r := range readAuditFile(t, path) {
			// Written before the get (the outcome follows the commit), or
			// the act's own line at its end (journal_test.go).
			if r.Outcome != "pending" && r.Act == "" {
				recs = append(recs, r)
			}
		}
		if len(recs) != 2 {
			t.Fatalf("%d outcome records", len(recs))
		}
		r := recs[0]
		md, _ := original(1)
		if r.User != "jdoe" || r.QMgr != "QM1" || r.Action != ops.OpRequeue || r.MsgId != hexOf(md.MsgId) ||
			r.From != "QM1.DEADQ" || r.To != "ORDERS.IN" || r.Outcome != "requeued" || !r.Time.Equal(f.clk.Now()) ||
			r.PutTime != "2026-03-09T12:00:00.01Z" {
			t.Errorf("record %+v", r)
		}
		if recs[1].To != "ORDERS.IN@QM2" {
			t.Errorf("remote target recorded as %q", recs[1].To)
		}
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), `{"order"`) {
			t.Error("the audit log holds message data")
		}
	})
	t.Run("R10f_an_unwritable_audit_log_stops_before_anything_moves", func(t *testing.T) {
		f := newOpFixture(t, "")
		f.deadLetter(f.conn(), 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
		blocker := filepath.Join(f.dir, "file")
		if err := os.WriteFile(blocker, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		eng := f.engine(func(o *ops.EngineOptions) { o.AuditPath = filepath.Join(blocker, "audit.jsonl") })
		if _, err := eng.Run(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true}, nil); err == nil {
			t.Fatal("no error")
		}
		wantDepths(t, f, map[string]int{"QM1.DEADQ": 1})
	})
}

func TestReadAudit(t *testing.T) {
	cases := []struct {
		name, in string
		n        int
		err      string
	}{
		{"blank_lines_are_skipped", "\n{\"action\":\"requeue\"}\n\n{\"action\":\"discard\"}\n", 2, ""},
		{"a_malformed_line_is_named", "{\"action\":\"requeue\"}\nnot json\n", 0, "audit line 2"},
		{"an_over_long_line_is_refused", "{\"user\":\"" + strings.Repeat("x", 70000) + "\"}\n", 0, "longer than"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			err := ops.ReadAudit(strings.NewReader(tc.in), func(ops.AuditRecord) error { n++; return nil })
			if tc.err == "" && (err != nil || n != tc.n) {
				t.Errorf("n %d err %v, want %d records", n, err, tc.n)
			}
			if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("err %v, want %q", err, tc.err)
			}
		})
	}
}

func TestFromDeadLetter(t *testing.T) {
	md, data := original(1)
	dlq := func(enc mqfmt.Encoding, ccsid int32) (mqfmt.MQMD, []byte) {
		m := md
		m.Encoding = enc
		dmd, ddata, err := actions.ToDeadLetter(m, data, actions.DeadLetterOptions{Reason: mqfmt.RCQFull, DestQName: "ORDERS.IN"})
		if err != nil {
			t.Fatal(err)
		}
		dmd.CodedCharSetId = ccsid
		return dmd, ddata
	}
	cases := []struct {
		name    string
		enc     mqfmt.Encoding
		edit    func(md *mqfmt.MQMD, data []byte) []byte
		wantErr string
		ccsid   int32
	}{
		{name: "R10b_big_endian_MQDLH_is_removed", enc: mqfmt.EncodingNormal, ccsid: 819},
		{name: "R10b_little_endian_MQDLH_is_removed", enc: mqfmt.EncodingNative, ccsid: 819},
		{name: "R10b_MQCCSI_INHERIT_keeps_the_MQMD_CCSID", enc: mqfmt.EncodingNormal, ccsid: 1208,
			edit: func(_ *mqfmt.MQMD, d []byte) []byte {
				binary.BigEndian.PutUint32(d[112:], uint32(0xFFFFFFFE))
				return d
			}},
		{name: "R10b_not_MQDEAD_is_refused", enc: mqfmt.EncodingNormal,
			edit: func(m *mqfmt.MQMD, d []byte) []byte { m.Format = mqfmt.FmtString; return d }, wantErr: "is not MQDEAD"},
		{name: "R10b_cut_MQDLH_reports_its_offset", enc: mqfmt.EncodingNormal,
			edit: func(_ *mqfmt.MQMD, d []byte) []byte { return d[:100] }, wantErr: "at byte 0"},
		{name: "R10b_wrong_StrucId_is_refused", enc: mqfmt.EncodingNormal,
			edit: func(_ *mqfmt.MQMD, d []byte) []byte { copy(d, "XXXX"); return d }, wantErr: "StrucId"},
		{name: "R10b_encoding_without_byte_order_is_refused", enc: mqfmt.EncodingNormal,
			edit: func(m *mqfmt.MQMD, d []byte) []byte { m.Encoding = 0x300; return d }, wantErr: "no integer byte order"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dmd, ddata := dlq(tc.enc, 1208)
			if tc.edit != nil {
				ddata = tc.edit(&dmd, ddata)
			}
			out, body, dlh, err := ops.FromDeadLetter(dmd, ddata)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(body) != string(data) || mqfmt.Trim(out.Format) != "MQSTR" || out.CodedCharSetId != tc.ccsid ||
				out.Encoding != tc.enc || mqfmt.Trim(dlh.DestQName) != "ORDERS.IN" || out.MsgId != md.MsgId {
				t.Errorf("MQMD %q %d %d body %q dest %q", out.Format, out.CodedCharSetId, out.Encoding, body, dlh.DestQName)
			}
		})
	}
}

func TestFilter(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetter(c, 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	f.deadLetter(c, 2, "PAYMENTS.IN", "QM1", mqfmt.RCPutInhibited)
	md, _ := original(3)
	md.PutApplName, md.PutDate = "billing", "20260301"
	dmd, ddata, _ := actions.ToDeadLetter(md, []byte("invoice 42 overdue"), actions.DeadLetterOptions{Reason: mqfmt.RCQFull, DestQName: "BILLING.IN"})
	dmd.BackoutCount = 0
	f.putSetAll(c, "QM1.DEADQ", dmd, ddata)
	cases := []struct {
		name   string
		filter ops.Filter
		want   []int
	}{
		{"reason", ops.Filter{Reason: int32(mqfmt.RCQFull)}, []int{1, 3}},
		{"destination_pattern", ops.Filter{DestQ: "*.IN"}, []int{1, 2, 3}},
		{"destination_generic", ops.Filter{DestQ: "PAY*"}, []int{2}},
		{"age", ops.Filter{MinAge: 7 * 24 * time.Hour}, []int{3}},
		{"putting_application_any_case", ops.Filter{PutAppl: "BILL"}, []int{3}},
		{"dead_lettering_application", ops.Filter{PutAppl: "AMQRMPPA"}, []int{1, 2}},
		{"body_substring", ops.Filter{BodyContains: "overdue"}, []int{3}},
		{"format", ops.Filter{Format: "mqdead"}, []int{1, 2, 3}},
		{"backout_count", ops.Filter{MinBackout: 1}, nil},
		{"everything_at_once", ops.Filter{Reason: int32(mqfmt.RCQFull), DestQ: "BILLING.IN", BodyContains: "42"}, []int{3}},
	}
	eng := f.engine()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := eng.Plan(f.ctx, ops.OpRequest{Op: ops.OpExport, Queue: "QM1.DEADQ", Filter: &tc.filter, File: "x"})
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, it := range p.Items {
				got = append(got, int(binary.BigEndian.Uint64(it.Msg.MsgId[16:])))
			}
			if !equalInts(got, tc.want) {
				t.Errorf("selected %v, want %v", got, tc.want)
			}
		})
	}
}

func TestExportAndFetch(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 3; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	eng := f.engine()
	t.Run("R10f_export_browses_to_a_0600_dmpmqmsg_file_and_changes_nothing", func(t *testing.T) {
		path := filepath.Join(f.dir, "deadq.dmp")
		sel := f.summaries("QM1.DEADQ")[1:]
		res := f.run(eng, ops.OpRequest{Op: ops.OpExport, Queue: "QM1.DEADQ", Messages: sel, File: path})
		if res.Done != 2 || res.Plan.Summary != "Export 2 messages from QM1.DEADQ to "+path+"; browse only, QM1.DEADQ unchanged" {
			t.Fatalf("done %d summary %q", res.Done, res.Plan.Summary)
		}
		checkPrivate(t, path)
		got := readArchive(t, path)
		if len(got) != 2 || got[0].MD.MsgId != sel[0].MsgId {
			t.Fatalf("file holds %d messages", len(got))
		}
		wantDepths(t, f, map[string]int{"QM1.DEADQ": 3})
		if _, err := eng.Run(f.ctx, ops.OpRequest{Op: ops.OpExport, Queue: "QM1.DEADQ", All: true, File: path}, nil); err == nil {
			t.Error("an existing export file was overwritten")
		}
	})
	t.Run("Fetch_returns_the_exact_message_whole", func(t *testing.T) {
		s := f.summaries("QM1.DEADQ")[2]
		m, err := eng.Fetch(f.ctx, "QM1.DEADQ", s)
		_, data := original(3)
		if err != nil || !strings.HasSuffix(string(m.Data), string(data)) || m.Truncated() {
			t.Fatalf("err %v data %q", err, m.Data)
		}
		s.PutTime = s.PutTime.Add(time.Second)
		_, err = eng.Fetch(f.ctx, "QM1.DEADQ", s)
		if !mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			t.Errorf("another put time: err %v, want 2033", err)
		}
	})
	t.Run("import_refuses_a_damaged_file_with_its_line", func(t *testing.T) {
		path := filepath.Join(f.dir, "bad.dmp")
		if err := os.WriteFile(path, []byte("* DMPMQMSG Version:9.4.0.0 Created:Mon Mar  9 14:30:15 2026\n\nA VER 2\nX 0G\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := eng.Plan(f.ctx, ops.OpRequest{Op: ops.OpImport, File: path, Target: "PARKING.Q"})
		var qe *mqfmt.QLoadError
		if !errors.As(err, &qe) || qe.Line != 4 {
			t.Fatalf("err %v, want a QLoadError at line 4", err)
		}
	})
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func hexOf(id [24]byte) string {
	const d = "0123456789abcdef"
	out := make([]byte, 48)
	for i, c := range id {
		out[2*i], out[2*i+1] = d[c>>4], d[c&15]
	}
	return string(out)
}

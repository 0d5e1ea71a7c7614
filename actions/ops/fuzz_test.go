package ops_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

var writeOpFuzzSeeds = flag.Bool("write-op-fuzz-seeds", false, "rewrite testdata/fuzz seed corpora of the operator action fuzz targets")

// FuzzFromDeadLetter: any data and MQMD Encoding either restore a message or
// fail with an error; nothing panics and a restored body is exactly the data
// after the 172-byte MQDLH.
func FuzzFromDeadLetter(f *testing.F) {
	for _, s := range fromDeadLetterSeeds(f) {
		f.Add(s.data, s.enc)
	}
	f.Fuzz(func(t *testing.T, data []byte, enc int32) {
		md := mqfmt.NewMQMD()
		md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtDeadLetter, mqfmt.Encoding(enc), 1208
		out, body, dlh, err := ops.FromDeadLetter(md, data)
		if err != nil {
			return
		}
		if len(body) != len(data)-mqfmt.DLHLen || !bytes.Equal(body, data[mqfmt.DLHLen:]) {
			t.Fatalf("body of %d bytes from %d", len(body), len(data))
		}
		if out.Format != dlh.Format || out.Encoding != dlh.Encoding {
			t.Fatalf("MQMD not restored from the MQDLH: %q %d vs %q %d", out.Format, out.Encoding, dlh.Format, dlh.Encoding)
		}
	})
}

// FuzzReadAudit: any input is read or refused with an error; records read
// survive writing and reading again.
func FuzzReadAudit(f *testing.F) {
	for _, s := range readAuditSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var recs []ops.AuditRecord
		if err := ops.ReadAudit(bytes.NewReader(data), func(r ops.AuditRecord) error {
			recs = append(recs, r)
			return nil
		}); err != nil {
			return
		}
		var buf bytes.Buffer
		for _, r := range recs {
			b, err := json.Marshal(r)
			if err != nil {
				return // e.g. a time JSON cannot write back
			}
			buf.Write(append(b, '\n'))
		}
		n := 0
		if err := ops.ReadAudit(&buf, func(ops.AuditRecord) error { n++; return nil }); err != nil || n != len(recs) {
			t.Fatalf("re-read %d of %d records: %v", n, len(recs), err)
		}
	})
}

type dlhSeed struct {
	name string
	data []byte
	enc  int32
}

func fromDeadLetterSeeds(tb testing.TB) []dlhSeed {
	md, data := original(1)
	var out []dlhSeed
	for _, enc := range []mqfmt.Encoding{mqfmt.EncodingNormal, mqfmt.EncodingNative} {
		m := md
		m.Encoding = enc
		dmd, ddata, err := actions.ToDeadLetter(m, data, actions.DeadLetterOptions{Reason: mqfmt.RCQFull, DestQName: "ORDERS.IN", DestQMgrName: "QM1"})
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, dlhSeed{fmt.Sprintf("dlh_%d", enc), ddata, int32(dmd.Encoding)})
	}
	cut := append([]byte(nil), out[0].data[:40]...)
	swapped := append([]byte(nil), out[0].data...)
	binary.LittleEndian.PutUint32(swapped[4:], 1)
	return append(out,
		dlhSeed{"cut", cut, 273},
		dlhSeed{"wrong_byte_order", swapped, 273},
		dlhSeed{"no_byte_order", out[0].data, 0},
		dlhSeed{"empty", nil, 546})
}

func readAuditSeeds() [][]byte {
	return [][]byte{
		[]byte(`{"time":"2026-03-09T14:30:15Z","user":"jdoe","qmgr":"QM1","action":"requeue","msg_id":"00","from":"QM1.DEADQ","to":"ORDERS.IN","outcome":"requeued"}` + "\n"),
		[]byte(`{"action":"import","file_sha256":"ab","index":3,"outcome":"imported"}` + "\n\n" + `{"reason":2033}`),
		[]byte("not json\n"),
		[]byte(`{"time":"yesterday"}`),
	}
}

// TestWriteOpFuzzSeeds writes the seed corpora under testdata/fuzz when
// asked (-write-op-fuzz-seeds), and otherwise checks they are there.
func TestWriteOpFuzzSeeds(t *testing.T) {
	type file struct{ dir, name, body string }
	var files []file
	for _, s := range fromDeadLetterSeeds(t) {
		files = append(files, file{"FuzzFromDeadLetter", s.name, fmt.Sprintf("go test fuzz v1\n[]byte(%q)\nint32(%d)\n", s.data, s.enc)})
	}
	for i, s := range readAuditSeeds() {
		files = append(files, file{"FuzzReadAudit", fmt.Sprintf("seed_%d", i), fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)})
	}
	for _, fl := range files {
		path := filepath.Join("testdata", "fuzz", fl.dir, fl.name)
		if *writeOpFuzzSeeds {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(fl.body), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil || !strings.HasPrefix(string(b), "go test fuzz v1\n") {
			t.Errorf("seed %s missing (run with -write-op-fuzz-seeds): %v", path, err)
		}
	}
}

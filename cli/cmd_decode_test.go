package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const corpus = "../testdata/corpus"

func corpusFile(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(corpus, rel)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("corpus file %s missing: %v (testdata/corpus is part of the repository)", p, err)
	}
	return p
}

func runCLI(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = Run(context.Background(), args, &o, &e)
	return o.String(), e.String(), code
}

func TestDecodeCorpus(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string
	}{
		{"DLH little-endian put inhibited", []string{"decode", "dlh-blog-yu-kun/dlh_put_inhibited_le.bin"}, 0,
			[]string{"MQRC_PUT_INHIBITED", "'QL.A'", "'amqrmppa'", "I send a message from QMC."}},
		{"DLH big-endian trigger, truncated MQTM", []string{"decode", "dlh-blog-yespon/dlh_mqtrig_be_first384.bin"}, 1,
			[]string{"MQFB_APPL_CANNOT_BE_STARTED", "SYSTEM.CICS.INITIATION.QUEUE", "'RUNMQTRM'", "MQTM at offset 172", "truncated"}},
		{"MQMD version 1 with a 364-byte layout, LE RFH2, XML body", []string{"decode", "tnt4j-streams/RFH2.msg"}, 0,
			[]string{"MQHRF2", "414D51204449494E464F425131202020A10B474F902C3B21", "not set (invalid PutDate/PutTime)", "usr.RoutingOverrideQueue", "ADP.ES.INFO.BB.PAYX", "GetIndicativeAssociate"}},
		{"two chained RFH2s", []string{"decode", "pymqi/multiple_rfh2.dat"}, 0,
			[]string{"MQRFH2 at offset 0 (252 bytes)", "MQRFH2 at offset 252 (284 bytes)", "Body at offset 536: 49 bytes", "<testData>"}},
		{"JMS RFH2 with a Java-serialised body shows hex", []string{"decode", "tnt4j-streams/rfh2_jms.bin"}, 0,
			[]string{"jms.Dst", "queue://LQQQ/EPH.ALSREQUESTQ", "binary", "ACED 0005"}},
		{"truncated RFH2 names the byte offset", []string{"decode", "tnt4j-streams/RFH2_incomplete.dump"}, 1,
			[]string{"truncated", "at byte", "mcd.Msd"}},
		{"amqsbcg dump", []string{"decode", "dlh-blog-yu-kun/amqsbcg_DLQ_QMW.txt"}, 0,
			[]string{"MQDEAD", "MQRC_PUT_INHIBITED", "I send a message from QMC."}},
		{"raw data with --mqmd-format", []string{"decode", "--mqmd-format", "MQHRF2", "--encoding", "273", "pymqi/single_rfh2.dat"}, 0,
			[]string{"psc.Command", "RegSub", "mcd.Msd", "xmlnsc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string(nil), tt.args...)
			args[len(args)-1] = corpusFile(t, args[len(args)-1])
			out, errOut, code := runCLI(args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, out, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
		})
	}
}

// The JMS folder's Tms (JMSTimestamp, milliseconds since 1970) reads as a
// date too.
func TestDecodeShowsJMSTimestampAsADate(t *testing.T) {
	out, _, code := runCLI("decode", corpusFile(t, "tnt4j-streams/rfh2_jms.bin"))
	if code != 0 || !strings.Contains(out, "jms.Tms              1446139225436  (2015-10-29 17:20:25.436 GMT)") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestDecodeJSON(t *testing.T) {
	out, _, code := runCLI("decode", "--json", corpusFile(t, "dlh-blog-yu-kun/dlh_put_inhibited_le.bin"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Messages []decodedMsg `json:"messages"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	m := doc.Messages[0]
	if len(m.Headers) != 1 || m.Headers[0].Kind != "MQDLH" || m.Body.Text != "I send a message from QMC." {
		t.Fatalf("decoded %+v", m)
	}
	// MQCHAR values are the strings themselves: the text output's quotes
	// ('MQDEAD') are not part of them.
	values := map[string]string{}
	for _, f := range append(m.MQMD, m.Headers[0].Fields...) {
		values[f.Name] = f.Value
		if strings.HasPrefix(f.Value, "'") {
			t.Errorf("%s = %s: quoted in JSON", f.Name, f.Value)
		}
	}
	if values["DestQName"] != "QL.A" || values["Format"] != "MQSTR" {
		t.Errorf("MQDLH DestQName %q Format %q, want QL.A and MQSTR", values["DestQName"], values["Format"])
	}
}

func TestDecodeBadInputNeverPanics(t *testing.T) {
	dir := t.TempDir()
	cases := map[string][]byte{
		"huge StrucLength": append([]byte("RFH \x00\x00\x00\x02\x7f\xff\xff\xff"), make([]byte, 40)...),
		"escape in body":   []byte("\x1b]52;c;AAAA\x07\x1b[2J hello"),
		"empty":            {},
		"broken dmpmqmsg":  []byte("* DMPMQMSG Version:9.4\nA VER 2\nX 4142Z\n"),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
			if err := os.WriteFile(p, data, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"decode", p}, {"decode", "--mqmd-format", "MQHRF2", p}, {"decode", "--json", p}} {
				out, errOut, _ := runCLI(args...)
				if strings.ContainsRune(out+errOut, 0x1b) {
					t.Fatalf("%v: an escape byte reached the output:\n%q", args, out)
				}
			}
		})
	}
}

func TestDecodeUsage(t *testing.T) {
	if _, _, code := runCLI("decode"); code != 2 {
		t.Fatalf("no file: exit %d, want 2", code)
	}
	if _, _, code := runCLI("decode", "/nonexistent/file"); code != 1 {
		t.Fatalf("missing file: exit %d, want 1", code)
	}
	out, _, code := runCLI("--help")
	if code != 0 || !strings.Contains(out, "decode") || !strings.Contains(out, "version") {
		t.Fatalf("help: %d %q", code, out)
	}
}

// FuzzWriteJSONInner: the streamed escaper (jsonInner) gives what
// encoding/json decodes back to the same string encoding/json would, and
// leaves <, > and & as they are.
func FuzzWriteJSONInner(f *testing.F) {
	for _, s := range []string{"plain", "q\"b\\s", "\x00\x1f\n\r\t", "\xff\xfe", "\u2028\u2029", "<&>", "é€"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		w.WriteByte('"')
		newJSONInner().write(w, s)
		w.WriteByte('"')
		w.Flush()
		if strings.ContainsAny(b.String(), "<>&") != strings.ContainsAny(strings.ToValidUTF8(s, ""), "<>&") {
			t.Fatalf("%q: <, > or & escaped, or made up: %q", s, b.String())
		}
		var got string
		if err := json.Unmarshal(b.Bytes(), &got); err != nil {
			t.Fatalf("%q: %v", b.String(), err)
		}
		want, _ := json.Marshal(s)
		var wantS string
		_ = json.Unmarshal(want, &wantS)
		if got != wantS {
			t.Fatalf("%q decodes to %q, want %q", s, got, wantS)
		}
	})
}

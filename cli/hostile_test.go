package cli

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// hostileStrings are what a message or file may carry to attack a terminal:
// C0 escapes (CSI, OSC 0 and 52, DCS), C1 CSI as a raw byte and as a UTF-8
// rune, bidi overrides and isolates, zero-width marks, and DEL.
var hostileStrings = []string{
	"\x1b[2J\x1b[?1049h",     // CSI: clear, alternate screen
	"\x1b]0;PWNED\x07",       // OSC 0: window title
	"\x1b]52;c;SGVsbG8=\x07", // OSC 52: clipboard
	"\x1bP+q544e\x1b\\",      // DCS
	"A\x9b31mB",              // C1 CSI as a byte (not UTF-8)
	"A\u009b31mB",            // C1 CSI as a rune
	"\u009d0;x\u009c",        // C1 OSC ... ST
	"ABC\u202eFED",           // right-to-left override
	"X\u2066Y\u2069\u200fZ",  // isolates, RLM
	"BS\x08\x7fCR\rEND",      // backspace, DEL, carriage return
}

// assertTerminalSafe fails when s holds anything but graphic runes, spaces,
// newlines and tabs: no C0 or C1 control, DEL, format character or invalid
// UTF-8 may reach stdout or stderr.
func assertTerminalSafe(t *testing.T, s string) {
	t.Helper()
	for i, r := range s {
		if r == '\n' || r == '\t' {
			continue
		}
		if (r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD")) || !unicode.IsGraphic(r) {
			t.Fatalf("byte %d: %U reached the output:\n%q", i, r, s[max(0, i-60):min(len(s), i+60)])
		}
	}
}

// hostileMessages builds, for each hostile string, messages carrying it in
// every field a message has: each character field of the MQMD and of an
// MQDLH, an RFH2 folder element and the body (text, JSON, XML and binary),
// plus a body
// in EBCDIC (CCSID 500) holding its ESC (X'27').
func hostileMessages(t *testing.T) []mqfmt.QLoadMessage {
	t.Helper()
	var out []mqfmt.QLoadMessage
	for i, h := range hostileStrings {
		md := mqfmt.NewMQMD()
		md.MsgId[0], md.MsgId[1] = 0xAA, byte(i)
		md.Format, md.ReplyToQ, md.ReplyToQMgr, md.UserIdentifier = mqfmt.FmtDeadLetter, h, h, h
		md.ApplIdentityData, md.PutApplName, md.ApplOriginData, md.PutDate, md.PutTime = h, h, h, h, h
		dlh := mqfmt.NewDLH()
		dlh.Reason, dlh.DestQName, dlh.DestQMgrName, dlh.PutApplName, dlh.PutDate, dlh.PutTime = 2053, h, h, h, h, h
		dlh.CodedCharSetId, dlh.Format, dlh.Encoding = 1208, mqfmt.FmtRFH2, mqfmt.EncodingFor(binary.LittleEndian)
		// The folder carries h raw, as a hostile sender writes it past what
		// the encoder allows: encoded with a placeholder of h's length, which
		// is then overwritten.
		ph := strings.Repeat("v", len(h))
		rfh := mqfmt.NewRFH2(mqfmt.EncodingFor(binary.LittleEndian), 1208, h,
			mqfmt.NewFolder("usr", mqfmt.NewElement("k", ph)))
		rb, err := rfh.Encode(binary.LittleEndian)
		if err != nil {
			t.Fatal(err)
		}
		rb = bytes.Replace(rb, []byte(ph), []byte(h), 1)
		data := append(dlh.Encode(binary.LittleEndian), rb...)
		data = append(data, "body "+h+strings.Repeat(" and enough words for text", 40)...)
		out = append(out, mqfmt.QLoadMessage{MD: md, HasMQMD: true, Data: data})
		js := md
		js.MsgId[2], js.Format, js.CodedCharSetId = 2, mqfmt.FmtString, 1208
		jb, _ := json.Marshal(map[string]any{"k": h, "nested": []any{map[string]string{h: h}}})
		out = append(out, mqfmt.QLoadMessage{MD: js, HasMQMD: true, Data: jb})
		xml := js
		xml.MsgId[2] = 3
		out = append(out, mqfmt.QLoadMessage{MD: xml, HasMQMD: true, Data: []byte("<a><b k='" + h + "'>" + h + "</b></a>")})
		bin := md
		bin.MsgId[2], bin.Format = 1, h
		out = append(out, mqfmt.QLoadMessage{MD: bin, HasMQMD: true, Data: append([]byte{0, 1, 2, 0xAC, 0xED, 0, 5}, h...)})
	}
	ebc := mqfmt.NewMQMD()
	ebc.MsgId[0], ebc.Format, ebc.CodedCharSetId = 0xEB, mqfmt.FmtString, 500
	out = append(out, mqfmt.QLoadMessage{MD: ebc, HasMQMD: true, Data: []byte{0xC1, 0x27, 0x4A, 0xF2, 0xD1, 0xC2, 0x40, 0x15, 0xC3}})
	return out
}

func writeHostileFiles(t *testing.T) (dump, raw string) {
	t.Helper()
	dir := t.TempDir()
	var b bytes.Buffer
	if err := mqfmt.WriteQLoad(&b, hostileMessages(t), mqfmt.QLoadWriterOptions{}); err != nil {
		t.Fatal(err)
	}
	dump = filepath.Join(dir, "hostile.dmp")
	if err := os.WriteFile(dump, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	m := hostileMessages(t)[0]
	raw = filepath.Join(dir, "hostile.msg")
	if err := os.WriteFile(raw, append(m.MD.Encode(binary.LittleEndian), m.Data...), 0o600); err != nil {
		t.Fatal(err)
	}
	return dump, raw
}

// TestHostileStringsNeverReachTheTerminal walks every command-line output
// path (decode text and JSON, the action commands' text and JSON, dry run
// and real run, errors) with hostile strings in every message field.
func TestHostileStringsNeverReachTheTerminal(t *testing.T) {
	dump, raw := writeHostileFiles(t)
	mqsc := filepath.Join(t.TempDir(), "q.mqsc")
	if err := os.WriteFile(mqsc, []byte("DEFINE QLOCAL(QM1.DEADQ)\nALTER QMGR DEADQ(QM1.DEADQ)\nDEFINE QLOCAL(PARK)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	load := []string{"--mqsc", mqsc, "--load", dump, "--load-queue", "QM1.DEADQ",
		"--audit", filepath.Join(state, "audit.jsonl"), "--archive-dir", state}
	out := filepath.Join(state, "out.dmp")
	scenario := filepath.Join(state, "hostile.toml")
	if err := os.WriteFile(scenario, []byte("name = \"\\u001b]0;PW\\u0007\"\n[[qmgr]]\nname = \"QM1\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	runs := [][]string{
		{"decode", dump}, {"decode", "--json", dump}, {"decode", "--hex", dump},
		{"decode", raw}, {"decode", "--json", raw},
		{"decode", "--mqmd-format", "MQDEAD", "--json", raw},
		append([]string{"requeue", "--queue", "QM1.DEADQ", "--all", "--dry-run"}, load...),
		append([]string{"requeue", "--queue", "QM1.DEADQ", "--all", "--dry-run", "--json"}, load...),
		append([]string{"requeue", "--queue", "QM1.DEADQ", "--all"}, load...),
		append([]string{"requeue", "--queue", "QM1.DEADQ", "--all", "--json"}, load...),
		append([]string{"move", "--queue", "QM1.DEADQ", "--all", "--to", "PARK"}, load...),
		append([]string{"export", "--queue", "QM1.DEADQ", "--all", "--file", out}, load...),
		append([]string{"discard", "--queue", "QM1.DEADQ", "--appl", "x", "--dry-run"}, load...),
		{"import", "--file", dump, "--to", "NO.SUCH.QUEUE", "--audit", filepath.Join(state, "audit.jsonl")},
		{"sim", "--scenario", scenario}, {"sim", "--scenario", scenario, "--json"},
		{"sim", "--duration", "20s"}, {"sim", "--duration", "20s", "--json"},
	}
	for _, args := range runs {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			stdout, stderr, _ := runCLI(args...)
			assertTerminalSafe(t, stdout)
			assertTerminalSafe(t, stderr)
			if strings.Contains(strings.Join(args, " "), "--json") && stdout != "" && !json.Valid([]byte(stdout)) {
				t.Fatalf("not JSON:\n%s", stdout)
			}
		})
	}
}

// TestDecodeJSONKeepsExactFormat: decode --json carries the body's Format
// exactly, escaped; the text output shows it sanitised.
func TestDecodeJSONKeepsExactFormat(t *testing.T) {
	dump, _ := writeHostileFiles(t)
	stdout, _, _ := runCLI("decode", "--json", dump)
	var doc struct {
		Messages []decodedMsg `json:"messages"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Messages[3].Body.Format; got != mqfmt.Trim(hostileStrings[0][:8]) { // the binary message
		t.Fatalf("format %q", got)
	}
	text, _, _ := runCLI("decode", dump)
	if !strings.Contains(text, `format '\x1b[2J\x1b[?1'`) {
		t.Fatalf("text output lacks the escaped format:\n%s", text)
	}
}

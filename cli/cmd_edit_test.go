package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// editFiles writes an MQSC script and a dmpmqmsg file with one EBCDIC
// (CCSID 500) text message on PARK.Q.
func editFiles(t *testing.T) (mqsc, load string, id [24]byte) {
	dir := t.TempDir()
	mqsc = filepath.Join(dir, "q.mqsc")
	if err := os.WriteFile(mqsc, []byte("DEFINE QLOCAL(PARK.Q)\nDEFINE QLOCAL(ORDERS.IN)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	md := mqfmt.NewMQMD()
	md.Format, md.CodedCharSetId = mqfmt.FmtString, 500
	copy(md.MsgId[:], "EDITTEST")
	id = md.MsgId
	// "ORDER 42 [rush]" in IBM-500
	body := []byte{0xd6, 0xd9, 0xc4, 0xc5, 0xd9, 0x40, 0xf4, 0xf2, 0x40, 0x4a, 0x99, 0xa4, 0xa2, 0x88, 0x5a}
	var buf bytes.Buffer
	if err := mqfmt.WriteQLoad(&buf, []mqfmt.QLoadMessage{{MD: md, HasMQMD: true, Data: body}}, mqfmt.QLoadWriterOptions{QMgr: "QM1", Queue: "PARK.Q"}); err != nil {
		t.Fatal(err)
	}
	load = filepath.Join(dir, "park.qload")
	if err := os.WriteFile(load, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return mqsc, load, id
}

func TestEditCommandDryRunAndRefusal(t *testing.T) {
	mqsc, load, id := editFiles(t)
	dir := t.TempDir()
	bodyFile := filepath.Join(dir, "body.txt")
	_ = os.WriteFile(bodyFile, []byte("ORDER 43 [rush]"), 0o600)
	base := []string{"edit", "--mqsc", mqsc, "--load", load, "--queue", "PARK.Q", "--msgid", strings.ToUpper(hexOf(id)),
		"--body-file", bodyFile, "--audit", filepath.Join(dir, "a.jsonl"), "--archive-dir", dir}
	var out, errb bytes.Buffer
	code := Run(context.Background(), append(base, "--dry-run", "--to", "ORDERS.IN"), &out, &errb)
	if code != ExitDone {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"Would edit message", "put to ORDERS.IN", "- ORDER 42 [rush]", "+ ORDER 43 [rush]", "(text)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	_ = os.WriteFile(bodyFile, []byte("ORDER 43 €"), 0o600)
	out.Reset()
	errb.Reset()
	if code := Run(context.Background(), base, &out, &errb); code != ExitUsage && code != ExitFailed {
		t.Fatalf("a € in CCSID 500: exit %d", code)
	}
	if !strings.Contains(errb.String(), "line 1, column 10") || !strings.Contains(errb.String(), "no byte in CCSID 500") {
		t.Fatalf("error %q, want the line and column of the €", errb.String())
	}
	errb.Reset()
	if code := Run(context.Background(), []string{"edit", "--queue", "Q"}, &out, &errb); code != ExitUsage {
		t.Fatalf("missing flags: exit %d", code)
	}
}

func hexOf(id [24]byte) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	for _, c := range id {
		b.WriteByte(digits[c>>4])
		b.WriteByte(digits[c&15])
	}
	return b.String()
}

func TestEditCommandPutsTheEditedCopy(t *testing.T) {
	mqsc, load, id := editFiles(t)
	dir := t.TempDir()
	bodyFile := filepath.Join(dir, "body.txt")
	_ = os.WriteFile(bodyFile, []byte("ORDER 43 [rush]\n"), 0o600) // the editor's final newline
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"edit", "--mqsc", mqsc, "--load", load, "--queue", "PARK.Q", "--msgid", hexOf(id),
		"--body-file", bodyFile, "--to", "ORDERS.IN", "--audit", filepath.Join(dir, "a.jsonl"), "--archive-dir", dir}, &out, &errb)
	if code != ExitDone {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "edited: the copy is on ORDERS.IN") || !strings.Contains(out.String(), "+ ORDER 43 [rush]") {
		t.Fatalf("output:\n%s", out.String())
	}
	arch, _ := filepath.Glob(filepath.Join(dir, "edit-QM1-PARK.Q-*.dmp"))
	if len(arch) != 1 {
		t.Fatalf("archives %v, want the original's", arch)
	}
}

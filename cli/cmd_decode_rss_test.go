//go:build unix

package cli

import (
	"context"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// TestDecodePeakRSS measures the peak resident memory of `decode` on a
// 100 MB body, binary and text, with text and JSON output, each in a child
// process (the test binary re-run) so the figure is decode's alone. It is a
// measurement, run on demand:
//
//	POISONWATCH_RSS=1 go test -run TestDecodePeakRSS -v .
//
// It fails only when the peak passes twice the input plus 64 MB, far
// above what streaming gives and far below what building the dump whole did.
func TestDecodePeakRSS(t *testing.T) {
	if args := os.Getenv("POISONWATCH_RSS_CHILD"); args != "" {
		os.Exit(Run(context.Background(), strings.Fields(args), io.Discard, os.Stderr))
	}
	if os.Getenv("POISONWATCH_RSS") == "" {
		t.Skip("a measurement: set POISONWATCH_RSS=1 to run it")
	}
	dir := t.TempDir()
	if d := os.Getenv("POISONWATCH_RSS_DIR"); d != "" {
		dir = d
	}
	writeRSSInputs(t, dir)
	for _, name := range []string{"binary", "text"} {
		p := filepath.Join(dir, name+".msg")
		for _, mode := range []string{"", "--json"} {
			args := strings.TrimSpace("decode " + mode + " " + p)
			cmd := exec.Command(os.Args[0], "-test.run=^TestDecodePeakRSS$")
			cmd.Env = append(os.Environ(), "POISONWATCH_RSS_CHILD="+args)
			cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s: %v", args, err)
			}
			peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
			t.Logf("%-6s body %d MB, output %-4s: peak RSS %d MB (%.2f× the input)", name, rssSize>>20,
				map[string]string{"": "text", "--json": "json"}[mode], peak>>20, float64(peak)/rssSize)
			if peak > 2*rssSize+64<<20 {
				t.Errorf("%s: peak RSS %d MB", args, peak>>20)
			}
		}
	}
}

const rssSize = 100 << 20

// writeRSSInputs writes an MQMD and a 100 MB body, random bytes (binary.msg)
// and UTF-8 text (text.msg), a megabyte at a time: the parent must stay
// small, since a child's peak RSS starts from the parent's peak (the child
// shares the parent's memory until exec).
func writeRSSInputs(t *testing.T, dir string) {
	md := mqfmt.NewMQMD()
	md.Format = mqfmt.FmtString
	md.CodedCharSetId = 1208
	header := md.Encode(binary.LittleEndian)
	r := rand.NewChaCha8([32]byte{})
	line := "a poison message body line of plain text, 64 bytes long .......\n"
	chunks := map[string]func([]byte){
		"binary": func(b []byte) { _, _ = r.Read(b) },
		// An ESC in every megabyte gives the sanitiser work on every chunk.
		"text": func(b []byte) { copy(b, strings.Repeat(line, len(b)/len(line))); b[100] = 0x1b },
	}
	for name, fill := range chunks {
		f, err := os.Create(filepath.Join(dir, name+".msg"))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = f.Write(header)
		buf := make([]byte, 1<<20)
		for range rssSize >> 20 {
			fill(buf)
			if _, err := f.Write(buf); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

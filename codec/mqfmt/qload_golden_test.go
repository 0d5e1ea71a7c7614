package mqfmt

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

func readAll(t testing.TB, src []byte, opts QLoadReaderOptions) (QLoadHeader, []QLoadMessage) {
	t.Helper()
	r := NewQLoadReader(bytes.NewReader(src), opts)
	h, err := r.Header()
	if err != nil {
		t.Fatalf("Header: %v", err)
	}
	var msgs []QLoadMessage
	for {
		m, err := r.Next()
		if err == io.EOF {
			return h, msgs
		}
		if err != nil {
			t.Fatalf("Next after %d messages: %v", len(msgs), err)
		}
		msgs = append(msgs, m)
	}
}

func writeAll(t testing.TB, msgs []QLoadMessage, opts QLoadWriterOptions) []byte {
	t.Helper()
	if opts.Now == nil {
		opts.Now = testClock
	}
	var buf bytes.Buffer
	if err := WriteQLoad(&buf, msgs, opts); err != nil {
		t.Fatalf("WriteQLoad: %v", err)
	}
	return buf.Bytes()
}

// TestQLoadGolden checks the reader and the writer against files written by hand
// from the format description: reading gives the expected messages and header,
// writing those messages gives the file byte for byte, and so read → write of
// the file gives it back unchanged.
func TestQLoadGolden(t *testing.T) {
	for _, tc := range goldenCases(t) {
		t.Run(tc.file, func(t *testing.T) {
			golden := readTestdata(t, tc.file)
			t.Run("read_gives_the_messages", func(t *testing.T) {
				h, got := readAll(t, golden, tc.ropts)
				if h != tc.header {
					t.Errorf("header %+v, want %+v", h, tc.header)
				}
				if d := diffMessages(got, tc.msgs); d != "" {
					t.Error(d)
				}
			})
			t.Run("write_gives_the_file", func(t *testing.T) {
				if got := writeAll(t, tc.msgs, tc.opts); !bytes.Equal(got, golden) {
					t.Errorf("written file differs from the golden:\n%s", firstLineDiff(got, golden))
				}
			})
			t.Run("read_then_write_is_identical", func(t *testing.T) {
				h, msgs := readAll(t, golden, tc.ropts)
				opts := tc.opts
				opts.QMgr, opts.Queue = h.QMgr, h.Queue
				if got := writeAll(t, msgs, opts); !bytes.Equal(got, golden) {
					t.Errorf("rewritten file differs:\n%s", firstLineDiff(got, golden))
				}
			})
		})
	}
}

// firstLineDiff shows the first line where two texts differ.
func firstLineDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			return fmt.Sprintf("line %d\n got %q\nwant %q", i+1, gl, wl)
		}
	}
	return "(same lines)"
}

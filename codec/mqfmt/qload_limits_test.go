package mqfmt

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// endless yields a header, the start of an X line, then hex digits forever,
// counting what it hands out.
type endless struct {
	prefix string
	served int
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if e.served < len(e.prefix) {
			p[n] = e.prefix[e.served]
		} else {
			p[n] = '4'
		}
		n++
		e.served++
	}
	return n, nil
}

// TestQLoadLimits checks that an over-long line or message is refused with
// ErrQLoadTooLarge after reading a bounded amount, so a 1 GB line or a file
// without line breaks cannot exhaust memory.
func TestQLoadLimits(t *testing.T) {
	t.Run("endless_line_is_refused_after_the_line_limit", func(t *testing.T) {
		src := &endless{prefix: hdr + "N\nX "}
		_, err := ReadQLoad(src)
		var qe *QLoadError
		if !errors.Is(err, ErrQLoadTooLarge) || !errors.As(err, &qe) || qe.Line != 3 {
			t.Fatalf("error %v, want ErrQLoadTooLarge on line 3", err)
		}
		if src.served > DefaultQLoadMaxLine+256<<10 {
			t.Errorf("read %d bytes for a %d-byte line limit", src.served, DefaultQLoadMaxLine)
		}
	})
	t.Run("line_at_the_limit_is_accepted", func(t *testing.T) {
		in := hdr + "N\nX " + strings.Repeat("41", 50) + "\n"
		msgs, err := readQLoadString(in, QLoadReaderOptions{MaxLine: 102})
		if err != nil || len(msgs) != 1 || len(msgs[0].Data) != 50 {
			t.Fatalf("got %d messages, err %v", len(msgs), err)
		}
	})
	t.Run("line_one_over_the_limit_is_refused", func(t *testing.T) {
		in := hdr + "N\nX " + strings.Repeat("41", 50) + "4\n"
		_, err := readQLoadString(in, QLoadReaderOptions{MaxLine: 102})
		if !errors.Is(err, ErrQLoadTooLarge) {
			t.Fatalf("error %v, want ErrQLoadTooLarge", err)
		}
	})
	t.Run("message_over_the_size_limit_is_refused", func(t *testing.T) {
		in := hdr + "N\nX " + strings.Repeat("41", 60) + "\nX " + strings.Repeat("41", 60) + "\n"
		_, err := readQLoadString(in, QLoadReaderOptions{MaxMessage: 100})
		var qe *QLoadError
		if !errors.Is(err, ErrQLoadTooLarge) || !errors.As(err, &qe) || qe.Line != 4 {
			t.Fatalf("error %v, want ErrQLoadTooLarge on line 4", err)
		}
	})
	t.Run("message_at_the_size_limit_is_accepted", func(t *testing.T) {
		in := hdr + "N\nX " + strings.Repeat("41", 50) + "\nT " + strings.Repeat("b", 49) + "\n"
		if _, err := readQLoadString(in, QLoadReaderOptions{MaxMessage: 100}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("many_messages_stream_one_at_a_time", func(t *testing.T) {
		r := NewQLoadReader(io.MultiReader(strings.NewReader(hdr), &repeatReader{s: "N\nX 4142\n", n: 100000}), QLoadReaderOptions{})
		n := 0
		for {
			m, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil || string(m.Data) != "AB" {
				t.Fatalf("message %d: %q, %v", n+1, m.Data, err)
			}
			n++
		}
		if n != 100000 {
			t.Fatalf("%d messages, want 100000", n)
		}
	})
}

// repeatReader yields s n times.
type repeatReader struct {
	s   string
	n   int
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	c := copy(p, r.s[r.off:])
	if r.off += c; r.off == len(r.s) {
		r.off, r.n = 0, r.n-1
	}
	return c, nil
}

// readQLoadString reads a whole string with options.
func readQLoadString(s string, opts QLoadReaderOptions) ([]QLoadMessage, error) {
	r := NewQLoadReader(strings.NewReader(s), opts)
	var out []QLoadMessage
	for {
		m, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, m)
	}
}

// TestQLoadHeaderless checks -dH files: refused by default, as dmpmqmsg does,
// and read when the caller says the file has no header.
func TestQLoadHeaderless(t *testing.T) {
	in := "* Index 1\nN\nX 41\n"
	if _, err := ReadQLoad(strings.NewReader(in)); !errors.Is(err, ErrQLoadNotQLoad) {
		t.Errorf("default options: error %v, want ErrQLoadNotQLoad", err)
	}
	msgs, err := readQLoadString(in, QLoadReaderOptions{Headerless: true})
	if err != nil || len(msgs) != 1 || string(msgs[0].Data) != "A" {
		t.Errorf("Headerless: %d messages, %v", len(msgs), err)
	}
}

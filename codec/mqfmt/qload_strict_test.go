package mqfmt

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// TestQLoadAMQSBCGHexLinesStrict: a damaged amqsbcg data line is an error
// with its line and column, not a message cut short where the damage starts.
func TestQLoadAMQSBCGHexLinesStrict(t *testing.T) {
	dump := readTestdata(t, "amqsbcg_yu-kun_DLQ_QMW.txt")
	i := bytes.Index(dump, []byte("00000000:  "))
	if i < 0 {
		t.Fatal("no data line in the dump")
	}
	bad := append([]byte(nil), dump...)
	copy(bad[i+11:], "44ZZ")
	_, err := ReadQLoad(bytes.NewReader(bad))
	var qe *QLoadError
	if !errors.As(err, &qe) || qe.Column != 14 || !strings.Contains(err.Error(), "hex") {
		t.Fatalf("error %v, want one at column 14", err)
	}
}

// FuzzQLoadHexLine checks the X-line parser on its own: it never panics, and
// what it accepts is exactly the hex data before the optional text column.
func FuzzQLoadHexLine(f *testing.F) {
	for _, s := range []string{"X 48656C6C6F", "X 4142  <AB>", "X 4865ZZ6C6F", "X 41 42", "X !!", "X 4", "X", "X 41 <\x1b>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if len(line) == 0 || line[0] != 'X' {
			return
		}
		data, err := appendDataLine(nil, line, 1)
		if err != nil {
			var qe *QLoadError
			if !errors.As(err, &qe) || qe.Line != 1 || qe.Column < 1 || qe.Column > len(line)+1 {
				t.Fatalf("error %v: want a *QLoadError with line 1 and a column in the line", err)
			}
			return
		}
		rest := line[skipBlanks(line, 1):]
		if len(rest) < 2*len(data) {
			t.Fatalf("%q gave %d bytes", line, len(data))
		}
		if want, err := hex.DecodeString(string(rest[:2*len(data)])); err != nil || !bytes.Equal(want, data) {
			t.Fatalf("%q gave %d bytes", line, len(data))
		}
		tail := bytes.TrimLeft(rest[2*len(data):], " ")
		if len(tail) > 0 && tail[0] != '<' {
			t.Fatalf("%q: accepted %q after the data", line, tail)
		}
	})
}

// TestQLoadWholeRefusesPartialDump: with Whole, a dump of the first 384 of
// 856 bytes is an error, as import and --load need; without, it is read
// and marked partial, as decode shows it.
func TestQLoadWholeRefusesPartialDump(t *testing.T) {
	dump := readTestdata(t, "amqsbcg_yespon_DEADQ_QMMBFE.txt")
	_, err := NewQLoadReader(bytes.NewReader(dump), QLoadReaderOptions{Whole: true}).Next()
	if !errors.Is(err, ErrQLoadPartial) || !strings.Contains(err.Error(), "384 of 856") {
		t.Fatalf("Whole: %v", err)
	}
	m, err := NewQLoadReader(bytes.NewReader(dump), QLoadReaderOptions{}).Next()
	if err != nil || !m.Partial() {
		t.Fatalf("default: partial %v, %v", m.Partial(), err)
	}
}

package mqfmt

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzQLoad feeds arbitrary text to the reader (qload and amqsbcg input). It
// must never panic; whenever a file reads without error, writing its messages
// (with an option combination picked from the input) and reading them again
// must give the same messages, and writing those must give the same text.
// Seeds: testdata/fuzz/FuzzQLoad.
func FuzzQLoad(f *testing.F) {
	combos := allWriterOptions()
	f.Fuzz(func(t *testing.T, in []byte) {
		limits := QLoadReaderOptions{MaxLine: 4096, MaxMessage: 1 << 16}
		msgs, err := fuzzRead(in, limits)
		if errors.Is(err, ErrQLoadNotQLoad) {
			limits.Headerless = true
			msgs, err = fuzzRead(in, limits)
		}
		if err != nil {
			var qe *QLoadError
			if !errors.As(err, &qe) {
				t.Fatalf("error %v (%T) is not a *QLoadError", err, err)
			}
			return
		}
		opts := combos[len(in)%len(combos)]
		opts.Now = testClock
		var text bytes.Buffer
		if err := WriteQLoad(&text, msgs, opts); err != nil {
			if errors.Is(err, ErrQLoadUnwritable) {
				return // a field read from the input ends in a CR; refusing it is the promise
			}
			t.Fatalf("write: %v", err)
		}
		back, err := fuzzRead(text.Bytes(), QLoadReaderOptions{Headerless: opts.NoHeader})
		if err != nil {
			t.Fatalf("reading what the writer wrote: %v\n%s", err, text.Bytes())
		}
		want := msgs
		if opts.NoMQMD {
			want = make([]QLoadMessage, len(msgs))
			for i, m := range msgs {
				want[i] = QLoadMessage{MD: QLoadDefaultMQMD(), Data: m.Data}
			}
		}
		if d := diffMessages(back, want); d != "" {
			t.Fatalf("write → read changed the messages (%s): %s", optionName(opts), d)
		}
		var again bytes.Buffer
		if err := WriteQLoad(&again, back, opts); err != nil || !bytes.Equal(again.Bytes(), text.Bytes()) {
			t.Fatalf("second write differs (%v):\n%s", err, firstLineDiff(again.Bytes(), text.Bytes()))
		}
	})
}

func fuzzRead(in []byte, opts QLoadReaderOptions) ([]QLoadMessage, error) {
	r := NewQLoadReader(bytes.NewReader(in), opts)
	var out []QLoadMessage
	for {
		m, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
}

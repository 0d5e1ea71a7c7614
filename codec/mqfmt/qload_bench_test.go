package mqfmt

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
)

// benchMessages is 1,000 messages of 1 KiB: a realistic MQMD and random bytes.
func benchMessages() []QLoadMessage {
	rng := rand.New(rand.NewPCG(3, 4))
	msgs := make([]QLoadMessage, 1000)
	for i := range msgs {
		data := make([]byte, 1024)
		for j := range data {
			data[j] = byte(rng.UintN(256))
		}
		msgs[i] = QLoadMessage{MD: mdGroup(), HasMQMD: true, Data: data}
	}
	return msgs
}

func benchOptions() []struct {
	name string
	opts QLoadWriterOptions
} {
	return []struct {
		name string
		opts QLoadWriterOptions
	}{
		{"hex", QLoadWriterOptions{Now: testClock}},
		{"hex_ascii_column", QLoadWriterOptions{ASCIIColumn: true, Now: testClock}},
		{"printable", QLoadWriterOptions{Form: QLoadPrintable, Now: testClock}},
	}
}

// BenchmarkQLoadWrite writes 1,000 messages of 1 KiB per iteration.
func BenchmarkQLoadWrite(b *testing.B) {
	msgs := benchMessages()
	for _, bc := range benchOptions() {
		b.Run(bc.name, func(b *testing.B) {
			var out bytes.Buffer
			b.SetBytes(int64(len(msgs) * 1024))
			b.ReportAllocs()
			for b.Loop() {
				out.Reset()
				if err := WriteQLoad(&out, msgs, bc.opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(out.Len()), "file-bytes")
		})
	}
}

// BenchmarkQLoadRead reads a file of 1,000 messages of 1 KiB per iteration,
// one message at a time.
func BenchmarkQLoadRead(b *testing.B) {
	msgs := benchMessages()
	for _, bc := range benchOptions() {
		b.Run(bc.name, func(b *testing.B) {
			var file bytes.Buffer
			if err := WriteQLoad(&file, msgs, bc.opts); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(msgs) * 1024))
			b.ReportAllocs()
			for b.Loop() {
				r := NewQLoadReader(bytes.NewReader(file.Bytes()), QLoadReaderOptions{})
				n := 0
				for {
					_, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != len(msgs) {
					b.Fatalf("%d messages", n)
				}
			}
		})
	}
}

package mqfmt

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// roundTripMessages is a mix of MQMDs and bodies meant to reach every branch of
// every data form: empty, all 256 byte values, random binary, text with LF and
// CRLF ends, quotes and tildes, a text line longer than a T line may be, data
// that starts outside the S set, and a version-1 MQMD.
func roundTripMessages() []QLoadMessage {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 3000)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	long := strings.Repeat("0123456789 abcdefghij ~\"quoted\" ", 2200) + "\n" // > 64 KiB
	binMD := mdGroup()
	binMD.ApplIdentityData = string(all[200:232]) // binary identity data: hex form only
	return []QLoadMessage{
		{MD: mdYuKun(), HasMQMD: true, Data: mustHex("444C4820010000000308000051" + "4C2E41")},
		{MD: mdV1(), HasMQMD: true, Data: []byte{}},
		{MD: mdGroup(), HasMQMD: true, Data: all},
		{MD: binMD, HasMQMD: true, Data: random},
		{MD: mdStr(), HasMQMD: true, Data: []byte("first line\r\nsecond line\n\n\ttabbed\nno end")},
		{MD: mdStr(), HasMQMD: true, Data: []byte("\x00\x01starts binary \"q\" ~t~ ends text")},
		{MD: QLoadDefaultMQMD(), HasMQMD: false, Data: []byte("no MQMD in the file\n")},
		{MD: mdV1(), HasMQMD: true, Data: []byte(long)},
		{MD: mdStr(), HasMQMD: true, Data: []byte("\n\n\r\r\n~~\"\"\n")},
	}
}

// allWriterOptions lists every combination of the writer's options (data form,
// -da, -dN, -dH, -di, -dc) at three widths.
func allWriterOptions() []QLoadWriterOptions {
	var out []QLoadWriterOptions
	for form := QLoadHex; form <= QLoadText; form++ {
		for bits := 0; bits < 32; bits++ {
			for _, width := range []int{0, 10, 33} {
				out = append(out, QLoadWriterOptions{
					Form: form, Width: width,
					ASCIIColumn: bits&1 != 0, NoMQMD: bits&2 != 0, NoHeader: bits&4 != 0,
					Index: bits&8 != 0, CharContext: bits&16 != 0,
					QMgr: "QM1", Queue: "APP.INPUT",
				})
			}
		}
	}
	return out
}

func optionName(o QLoadWriterOptions) string {
	d := [...]string{"X", "A", "p", "t"}[o.Form]
	for _, f := range []struct {
		on bool
		c  string
	}{{o.ASCIIColumn, "a"}, {o.NoMQMD, "N"}, {o.NoHeader, "H"}, {o.Index, "i"}, {o.CharContext, "c"}} {
		if f.on {
			d += f.c
		}
	}
	return fmt.Sprintf("d%s_w%d", d, o.Width)
}

// TestQLoadRoundTrip checks, for every writer option combination and several
// messages per file, that write → read gives the same MQMDs and data (or the
// default MQMD under -dN) and that read → write gives the same text.
func TestQLoadRoundTrip(t *testing.T) {
	msgs := roundTripMessages()
	for _, opts := range allWriterOptions() {
		t.Run(optionName(opts), func(t *testing.T) {
			text := writeAll(t, msgs, opts)
			_, got := readAll(t, text, QLoadReaderOptions{Headerless: opts.NoHeader})
			want := msgs
			if opts.NoMQMD {
				want = make([]QLoadMessage, len(msgs))
				for i, m := range msgs {
					want[i] = QLoadMessage{MD: QLoadDefaultMQMD(), Data: m.Data}
				}
			}
			if d := diffMessages(got, want); d != "" {
				t.Fatalf("write → read: %s", d)
			}
			if again := writeAll(t, got, opts); !bytes.Equal(again, text) {
				t.Fatalf("read → write changed the text:\n%s", firstLineDiff(again, text))
			}
		})
	}
}

// TestQLoadRoundTripEncodesIdentically checks the weaker promise for MQMDs
// built in code with short character fields: what comes back encodes to the
// same 364 bytes, since the reader returns fields blank padded.
func TestQLoadRoundTripEncodesIdentically(t *testing.T) {
	md := NewMQMD() // character fields "" rather than blanks
	md.ReplyToQ, md.PutApplName, md.BackoutCount = "Q", "app", 9
	text := writeAll(t, []QLoadMessage{{MD: md, HasMQMD: true, Data: []byte("x")}}, QLoadWriterOptions{})
	msgs, err := ReadQLoad(bytes.NewReader(text))
	if err != nil || len(msgs) != 1 {
		t.Fatalf("%d messages, %v", len(msgs), err)
	}
	for _, bo := range []struct {
		name string
		enc  Encoding
	}{{"big-endian", EncodingNormal}, {"little-endian", EncodingNative}} {
		order, _ := bo.enc.ByteOrder()
		if !bytes.Equal(msgs[0].MD.Encode(order), md.Encode(order)) {
			t.Errorf("%s encodings differ", bo.name)
		}
	}
}

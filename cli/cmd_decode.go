package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

type decodeOpts struct {
	json     bool
	format   string
	encoding int
	ccsid    int
	hex      bool
}

func decodeCommand() *command {
	o := &decodeOpts{}
	return &command{name: "decode", synopsis: "decode a raw MQ message or a dmpmqmsg file: MQMD, header chain, body",
		flags: o.register,
		usage: usageText("Usage: poisonwatch decode [--json] [--hex] [--mqmd-format F --encoding N --ccsid N] FILE|-",
			"\nDecodes a raw MQ message (optionally preceded by its MQMD), or every message of a",
			"dmpmqmsg/qload file or amqsbcg dump (detected automatically): the MQMD, each header",
			"of the chain with named constants, and the body as text, pretty JSON/XML, or hex."),
		exits: []exitStatus{{0, "decoded"}, {1, "a decode error (what could be decoded is still printed)"}, exitUsage},
		run: func(_ context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
			return runDecode(*o, fs, stdout, stderr)
		}}
}

func (o *decodeOpts) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.json, "json", false, "print JSON for scripts")
	fs.StringVar(&o.format, "mqmd-format", "", "the input has no MQMD: decode it as data of this MQMD Format (e.g. MQHRF2, MQDEAD, MQSTR)")
	fs.IntVar(&o.encoding, "encoding", 0, "with --mqmd-format: MQMD Encoding of the data (273 big-endian, 546 little-endian); default: detect")
	fs.IntVar(&o.ccsid, "ccsid", 0, "with --mqmd-format: MQMD CodedCharSetId of the data (default 1208)")
	fs.BoolVar(&o.hex, "hex", false, "always show the body as a hex dump")
}

func runDecode(o decodeOpts, fs *flag.FlagSet, stdout, stderr io.Writer) int {
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	if err := checkDecodeFlags(o); err != nil {
		fmt.Fprintf(stderr, "poisonwatch decode: %v\n", err)
		return 2
	}
	data, err := readInput(fs.Arg(0), maxDecodeInput)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch decode: %v\n", err)
		return 1
	}
	if len(data) > 32<<20 {
		// The input is most of the live heap and the output only garbage:
		// collecting at 20% growth instead of 100% keeps the peak near the
		// input's size.
		debug.SetGCPercent(20)
	}
	msgs, err := decodeAll(data, o)
	writeDecoded(stdout, msgs, err, o.json)
	failed := err != nil
	for _, m := range msgs {
		failed = failed || m.Error != ""
	}
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch decode: %v\n", mqfmt.Sanitize(err.Error()))
	}
	if failed {
		return 1
	}
	return 0
}

// isTextDump reports whether data is a dmpmqmsg/qload file or amqsbcg output.
func isTextDump(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data[:min(len(data), 4096)]))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		return strings.HasPrefix(line, "* QLOAD") || strings.HasPrefix(line, "* DMPMQMSG") || strings.HasPrefix(line, "AMQSBCG0")
	}
	return false
}

func decodeAll(data []byte, o decodeOpts) ([]decodedMsg, error) {
	if isTextDump(data) {
		return decodeDump(data, o)
	}
	if o.format != "" {
		return []decodedMsg{decodeRaw(data, o)}, nil
	}
	s, err := mqfmt.DecodeSaved(data)
	m := decodedMsg{Index: 1}
	if s.MD != nil {
		m.MQMD = mqfmt.DescribeMQMD(s.MD)
	}
	m.fromChain(data, s.Chain, o)
	if err != nil {
		m.Error = mqfmt.Sanitize(err.Error())
	}
	return []decodedMsg{m}, nil
}

func decodeRaw(data []byte, o decodeOpts) decodedMsg {
	format := fmt.Sprintf("%-8s", strings.ToUpper(o.format))
	enc := mqfmt.Encoding(o.encoding)
	if o.encoding == 0 {
		enc = mqfmt.EncodingNormal
		if bo, err := mqfmt.DetectRFH2Order(data, 0); err == nil {
			enc = mqfmt.EncodingFor(bo)
		} else if bo, err := mqfmt.DetectDLHOrder(data, 0); err == nil {
			enc = mqfmt.EncodingFor(bo)
		}
	}
	ccsid := int32(o.ccsid)
	if ccsid == 0 {
		ccsid = mqfmt.CCSIDUTF8
	}
	ch, err := mqfmt.WalkChain(format, enc, ccsid, data)
	m := decodedMsg{Index: 1}
	m.fromChain(data, ch, o)
	if err != nil {
		m.Error = mqfmt.Sanitize(err.Error())
	}
	return m
}

func decodeDump(data []byte, o decodeOpts) ([]decodedMsg, error) {
	r := mqfmt.NewQLoadReader(bytes.NewReader(data), mqfmt.QLoadReaderOptions{})
	var out []decodedMsg
	for {
		qm, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		m := decodedMsg{Index: len(out) + 1}
		md := qm.MD
		if qm.HasMQMD {
			m.MQMD = mqfmt.DescribeMQMD(&md)
		}
		ch, cerr := mqfmt.WalkChain(md.Format, md.Encoding, md.CodedCharSetId, qm.Data)
		m.fromChain(qm.Data, ch, o)
		if cerr != nil {
			m.Error = mqfmt.Sanitize(cerr.Error())
		}
		if qm.Partial() {
			m.Note = fmt.Sprintf("the dump shows only the first %d of %d bytes", len(qm.Data), qm.DumpLength)
		}
		out = append(out, m)
	}
}

package mqfmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The committed seed corpora under testdata/fuzz/<Target>/ are written by
//
//	go test ./codec/mqfmt/ -run TestWriteHeaderFuzzSeeds -args -write-header-fuzz-seeds
//
// from the corpus files and the golden vectors below; f.Add adds the same
// seeds, so the targets are exercised by a plain go test too.
var writeHeaderFuzzSeeds = flag.Bool("write-header-fuzz-seeds", false, "rewrite testdata/fuzz seed corpora of the header fuzz targets")

func hdrBO(little bool) binary.ByteOrder {
	if little {
		return binary.LittleEndian
	}
	return binary.BigEndian
}

// hdrCheckErr fails unless err is a *DecodeError whose offset lies in the input.
func hdrCheckErr(t *testing.T, err error, n int) {
	t.Helper()
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T) is not a *DecodeError", err, err)
	}
	if de.Offset < 0 || de.Offset > n {
		t.Fatalf("error offset %d outside the %d-byte input: %v", de.Offset, n, err)
	}
}

// hdrFolderTrees strips what only the wire form carries (Raw, Offset) so that
// trees can be compared after re-serialising.
func hdrFolderTrees(fs []Folder) []Folder {
	out := make([]Folder, len(fs))
	for i, f := range fs {
		out[i] = Folder{Name: f.Name, Attrs: f.Attrs, Elements: f.Elements}
	}
	return out
}

func FuzzRFH2(f *testing.F) {
	for _, s := range hdrSeedsRFH2(f) {
		f.Add(s.data, s.le)
	}
	f.Fuzz(func(t *testing.T, data []byte, le bool) {
		bo := hdrBO(le)
		r, err := DecodeRFH2(data, 0, bo)
		if err != nil {
			hdrCheckErr(t, err, len(data))
			return
		}
		enc, err := r.Encode(bo)
		if err != nil || !bytes.Equal(enc, data[:r.StrucLength]) {
			t.Fatalf("Encode(Decode(b)) != b[:StrucLength] (%v)", err)
		}
		again, err := DecodeRFH2(enc, 0, bo)
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("decode of the re-encoded header differs (%v)", err)
		}
		// Serialising the parsed trees (Raw dropped) must read back the same
		// trees: the encoder and the scanner agree on escaping and syntax.
		for i := range again.Folders {
			again.Folders[i].Raw = ""
		}
		enc2, err := again.Encode(bo)
		if err != nil {
			t.Fatalf("re-serialising parsed folders: %v", err)
		}
		third, err := DecodeRFH2(enc2, 0, bo)
		if err != nil {
			t.Fatalf("decoding re-serialised folders: %v\n%q", err, enc2)
		}
		if !reflect.DeepEqual(hdrFolderTrees(third.Folders), hdrFolderTrees(r.Folders)) {
			t.Fatalf("folder trees changed by re-serialising:\n%+v\n%+v", third.Folders, r.Folders)
		}
	})
}

func FuzzDLH(f *testing.F) {
	for _, s := range hdrSeedsDLH(f) {
		f.Add(s.data, s.le)
	}
	f.Fuzz(func(t *testing.T, data []byte, le bool) {
		fuzzHeaderRoundTrip(t, data, hdrBO(le), DLHLen, DecodeDLHCCSID,
			func(d DLH, bo binary.ByteOrder, cs int32) ([]byte, error) { return d.AppendEncodeCCSID(nil, bo, cs) })
	})
}

func FuzzXQH(f *testing.F) {
	for _, s := range hdrSeedsXQH(f) {
		f.Add(s.data, s.le)
	}
	f.Fuzz(func(t *testing.T, data []byte, le bool) {
		fuzzHeaderRoundTrip(t, data, hdrBO(le), XQHLen, DecodeXQHCCSID,
			func(x XQH, bo binary.ByteOrder, cs int32) ([]byte, error) { return x.AppendEncodeCCSID(nil, bo, cs) })
	})
}

// fuzzHeaderRoundTrip decodes a fixed header of n bytes in every character
// set of fuzzHeaderCCSIDs and checks that it encodes back to its bytes and
// decodes again to the same value.
func fuzzHeaderRoundTrip[T any](t *testing.T, data []byte, bo binary.ByteOrder, n int,
	decode func([]byte, int, binary.ByteOrder, int32) (T, error), encode func(T, binary.ByteOrder, int32) ([]byte, error)) {
	for _, ccsid := range fuzzHeaderCCSIDs {
		h, err := decode(data, 0, bo, ccsid)
		if err != nil {
			hdrCheckErr(t, err, len(data))
			return
		}
		cs := fieldsCCSID(codecFor(fuzzFieldsCCSID(data, ccsid)), ccsid)
		enc, err := encode(h, bo, cs)
		if err != nil || !bytes.Equal(enc, data[:n]) {
			t.Fatalf("CCSID %d: Encode(Decode(b)) differs at byte %d (%v)", ccsid, hdrFirstDiff(enc, data[:n]), err)
		}
		if again, err := decode(enc, 0, bo, ccsid); err != nil || !reflect.DeepEqual(again, h) {
			t.Fatalf("CCSID %d: decode of the re-encoded header differs (%v)", ccsid, err)
		}
	}
}

func FuzzChain(f *testing.F) {
	for _, s := range hdrSeedsChain(f) {
		f.Add(s.data, s.format, s.enc)
	}
	f.Fuzz(func(t *testing.T, data []byte, format string, enc int32) {
		for _, ccsid := range fuzzHeaderCCSIDs {
			c, err := WalkChain(format, Encoding(enc), ccsid, data)
			if err != nil {
				hdrCheckErr(t, err, len(data))
			}
			hdrCheckChain(t, c, data, err)
		}
		if s, err := DecodeSaved(data); err != nil {
			hdrCheckErr(t, err, len(data))
		} else if s.Chain.Body.Offset+s.Chain.Body.Length != len(data) {
			t.Fatalf("saved message body %+v does not end the %d-byte file", s.Chain.Body, len(data))
		}
	})
}

// hdrCheckChain checks that headers tile the data from offset 0, that the body
// closes a successful chain, and that every whole header re-encodes to the
// bytes it was decoded from.
func hdrCheckChain(t *testing.T, c Chain, data []byte, err error) {
	t.Helper()
	if len(c.Headers) > MaxChainHeaders {
		t.Fatalf("%d headers", len(c.Headers))
	}
	pos := 0
	for _, h := range c.Headers {
		if h.Offset != pos || h.Length <= 0 || h.Offset+h.Length > len(data) {
			t.Fatalf("header %v at %d+%d, expected at %d in %d bytes", h.Kind, h.Offset, h.Length, pos, len(data))
		}
		pos += h.Length
		if h.Partial {
			continue
		}
		bo, berr := h.Encoding.ByteOrder()
		if berr != nil {
			t.Fatalf("header %v decoded with encoding %v: %v", h.Kind, h.Encoding, berr)
		}
		var enc []byte
		cs := h.FieldsCCSID
		switch {
		case h.DLH != nil:
			enc, _ = h.DLH.AppendEncodeCCSID(nil, bo, cs)
		case h.XQH != nil:
			enc, _ = h.XQH.AppendEncodeCCSID(nil, bo, cs)
		case h.MDE != nil:
			enc, _ = h.MDE.AppendEncodeCCSID(nil, bo, cs)
		case h.TM != nil:
			enc = h.TM.Encode(bo)
		case h.RFH2 != nil:
			enc, _ = h.RFH2.AppendEncodeCCSID(nil, bo, cs)
		}
		if !bytes.Equal(enc, data[h.Offset:h.Offset+h.Length]) {
			t.Fatalf("header %v at %d does not re-encode to its bytes", h.Kind, h.Offset)
		}
	}
	if err == nil && (c.Body.Offset != pos || c.Body.Offset+c.Body.Length != len(data)) {
		t.Fatalf("body %+v after headers ending at %d in %d bytes", c.Body, pos, len(data))
	}
}

type hdrSeed struct {
	name   string
	data   []byte
	le     bool
	format string
	enc    int32
}

func hdrCorpusSeeds(tb testing.TB, names ...string) []hdrSeed {
	var out []hdrSeed
	for _, n := range names {
		out = append(out, hdrSeed{name: n, data: corpusFile(tb, n)})
	}
	return out
}

func hdrSeedsRFH2(tb testing.TB) []hdrSeed {
	seeds := hdrCorpusSeeds(tb, "single_rfh2.dat", "multiple_rfh2.dat", "rfh2_jms.bin", "RFH2_incomplete.dump")
	dump := corpusFile(tb, "RFH2.dump")
	seeds = append(seeds, hdrSeed{name: "RFH2.dump", data: dump, le: true})
	for _, o := range hdrOrders {
		seeds = append(seeds, hdrSeed{name: "golden_" + o.name, le: o.bo == binary.LittleEndian,
			data: rfh2Golden(tb, o.bo, 546, 1208, "MQSTR", 1208, rfhMcd, rfhJms, rfhUsr)})
	}
	utf16 := NewRFH2(273, 1208, "MQSTR", NewFolder("usr", NewElement("city", "Zürich"), NewGroup("g", NewTypedElement("n", "i4", "1"))))
	utf16.NameValueCCSID = NVCCSIDUTF16
	b, _ := utf16.Encode(binary.BigEndian)
	return append(seeds, hdrSeed{name: "utf16", data: b})
}

func hdrSeedsDLH(tb testing.TB) []hdrSeed {
	seeds := hdrCorpusSeeds(tb, "dlh_mqtrig_be_first384.bin")
	seeds = append(seeds, hdrSeed{name: "dlh_put_inhibited_le.bin", data: corpusFile(tb, "dlh_put_inhibited_le.bin"), le: true})
	for _, o := range hdrOrders {
		b, _ := dlhGolden(tb, o.bo)
		seeds = append(seeds, hdrSeed{name: "golden_" + o.name, data: b, le: o.bo == binary.LittleEndian})
		d := charsetDLH()
		e, _ := d.AppendEncodeCCSID(nil, o.bo, 500)
		seeds = append(seeds, hdrSeed{name: "ebcdic500_" + o.name, data: e, le: o.bo == binary.LittleEndian})
	}
	return seeds
}

func hdrSeedsXQH(tb testing.TB) []hdrSeed {
	var seeds []hdrSeed
	for _, o := range hdrOrders {
		b, _ := xqhGolden(tb, o.bo)
		m, _ := mdeGolden(tb, o.bo)
		seeds = append(seeds, hdrSeed{name: "golden_" + o.name, data: append(b, m...), le: o.bo == binary.LittleEndian})
		x := XQH{Version: 1, RemoteQName: "ORDERS.IN", RemoteQMgrName: "QM2", MsgDesc: NewMQMD()}
		e, _ := x.AppendEncodeCCSID(nil, o.bo, 1047)
		seeds = append(seeds, hdrSeed{name: "ebcdic1047_" + o.name, data: e, le: o.bo == binary.LittleEndian})
	}
	return seeds
}

func hdrSeedsChain(tb testing.TB) []hdrSeed {
	seeds := []hdrSeed{
		{name: "pymqi_multiple", data: corpusFile(tb, "multiple_rfh2.dat"), format: FmtRFH2, enc: 273},
		{name: "rfh2_msg", data: corpusFile(tb, "RFH2.msg"), format: FmtNone, enc: 546},
		{name: "dlh_le", data: corpusFile(tb, "dlh_put_inhibited_le.bin"), format: FmtDeadLetter, enc: 546},
		{name: "dlh_tm_be", data: corpusFile(tb, "dlh_mqtrig_be_first384.bin"), format: FmtDeadLetter, enc: 273},
	}
	for _, o := range hdrOrders {
		x, _ := xqhGolden(tb, o.bo)
		m, _ := mdeGolden(tb, o.bo)
		data := append(append(x, m...), rfh2Golden(tb, o.bo, 273, 1208, "MQSTR", 1208, rfhMcd)...)
		seeds = append(seeds, hdrSeed{name: "xqh_mde_rfh2_" + o.name, data: data, format: FmtXmitQHeader, enc: int32(EncodingFor(o.bo))})
		d, _ := dlhGolden(tb, o.bo)
		tm, _ := tmGolden(tb, o.bo)
		seeds = append(seeds, hdrSeed{name: "dlh_tm_" + o.name, data: append(d, tm...), format: FmtDeadLetter, enc: int32(EncodingFor(o.bo))})
		e := ebcdicChainSeed(o.bo)
		seeds = append(seeds, hdrSeed{name: "ebcdic37_dlh_rfh2_" + o.name, data: e, format: FmtDeadLetter, enc: int32(EncodingFor(o.bo))})
	}
	return seeds
}

// TestWriteHeaderFuzzSeeds rewrites the committed seed corpora when asked to.
func TestWriteHeaderFuzzSeeds(t *testing.T) {
	if !*writeHeaderFuzzSeeds {
		t.Skip("run with -write-header-fuzz-seeds to rewrite testdata/fuzz")
	}
	write := func(target string, seeds []hdrSeed, line func(s hdrSeed) string) {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, s := range seeds {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n%s\n", s.data, line(s))
			if err := os.WriteFile(filepath.Join(dir, "seed_"+s.name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	boolLine := func(s hdrSeed) string { return fmt.Sprintf("bool(%v)", s.le) }
	write("FuzzRFH2", hdrSeedsRFH2(t), boolLine)
	write("FuzzDLH", hdrSeedsDLH(t), boolLine)
	write("FuzzXQH", hdrSeedsXQH(t), boolLine)
	write("FuzzChain", hdrSeedsChain(t), func(s hdrSeed) string {
		return fmt.Sprintf("string(%q)\nint32(%d)", s.format, s.enc)
	})
}

// fuzzHeaderCCSIDs are the character sets the header fuzz targets read each
// input in: unknown, ASCII-based, UTF-8 and three EBCDIC code pages.
var fuzzHeaderCCSIDs = []int32{0, 819, 1208, 37, 500, 1047}

// fuzzFieldsCCSID returns ccsid, or 37 when the data's StrucId is EBCDIC and
// ccsid is not, for fieldsCCSID's codec argument.
func fuzzFieldsCCSID(data []byte, ccsid int32) int32 {
	if len(data) >= 4 && data[0] >= 0x80 && !IsEBCDICHeaderCCSID(ccsid) {
		return 37
	}
	if len(data) >= 4 && data[0] < 0x80 {
		return 0
	}
	return ccsid
}

// ebcdicChainSeed is an MQDLH and an MQRFH2 in CCSID 37 in front of a body.
func ebcdicChainSeed(bo binary.ByteOrder) []byte {
	d := charsetDLH()
	d.Encoding = EncodingFor(bo)
	b, _ := d.AppendEncodeCCSID(nil, bo, 37)
	r := NewRFH2(EncodingFor(bo), 37, FmtString, NewFolder("jms", NewElement("Dst", "queue:///ORDERS.IN")))
	b, _ = r.AppendEncodeCCSID(b, bo, 37)
	return append(b, 0xC2, 0xD6, 0xC4, 0xE8)
}

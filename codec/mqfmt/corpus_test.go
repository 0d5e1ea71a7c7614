package mqfmt

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/xml"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// corpusSHA256 are the first 16 hex digits of each file's SHA-256 as the
// corpus' SOURCES.md (testdata/corpus at the repository root) lists them, so a changed copy fails loudly.
var corpusSHA256 = map[string]string{
	"single_rfh2.dat":            "f0641ba4db69be38",
	"multiple_rfh2.dat":          "4f7ade8001ffc4d3",
	"rfh2_jms.bin":               "ee274d5d73cd6b99",
	"rfh2_data.xml":              "55e3e12752e9624e",
	"RFH2.msg":                   "9a18726c62475f96",
	"RFH2.dump":                  "7123a17112788201",
	"RFH2_incomplete.dump":       "d9c4d2eaf40f6cd9",
	"dlh_put_inhibited_le.bin":   "b29e890f10b8990e",
	"dlh_mqtrig_be_first384.bin": "17576924854e6ec9",
}

func corpusFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:8]); got != corpusSHA256[name] {
		t.Fatalf("%s: sha256 %s…, SOURCES.md says %s…", name, got, corpusSHA256[name])
	}
	return b
}

// corpusKV flattens a folder's top-level elements to name=value pairs.
func corpusKV(f *Folder) []string {
	if f == nil {
		return nil
	}
	var out []string
	for _, e := range f.Elements {
		out = append(out, e.Name+"="+e.Value)
	}
	return out
}

const (
	pymqiPsc  = "<psc><Command>RegSub</Command><Topic>$topictree/topiccat/topic</Topic><QMgrName>DebugQM</QMgrName><QName>PUBOUT</QName><RegOpt>PersAsPub</RegOpt></psc> "
	pymqiTest = "<testFolder><testVar>testValue</testVar></testFolder>   "
	pymqiMcd  = "<mcd><Msd>xmlnsc</Msd></mcd>"
	pymqiBody = "<testData><testVar>testValue</testVar></testData>"
)

var pymqiPscKV = []string{"Command=RegSub", "Topic=$topictree/topiccat/topic", "QMgrName=DebugQM", "QName=PUBOUT", "RegOpt=PersAsPub"}

func TestCorpusPymqiSingleRFH2(t *testing.T) {
	b := corpusFile(t, "single_rfh2.dat")
	bo, err := DetectRFH2Order(b, 0)
	if err != nil || bo != binary.BigEndian {
		t.Fatalf("DetectRFH2Order = %v, %v; want big-endian", bo, err)
	}
	r, err := DecodeRFH2(b, 0, binary.BigEndian)
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != 2 || r.StrucLength != 284 || r.Encoding != 273 || r.CodedCharSetId != 1208 ||
		r.Format != "MQSTR   " || r.Flags != 0 || r.NameValueCCSID != 1208 {
		t.Errorf("fixed part %+v", r)
	}
	if len(r.Folders) != 3 || r.Folders[0].Raw != pymqiPsc || r.Folders[1].Raw != pymqiTest || r.Folders[2].Raw != pymqiMcd {
		t.Fatalf("folders %+v", r.Folders)
	}
	if got := corpusKV(r.Folder("psc")); !reflect.DeepEqual(got, pymqiPscKV) {
		t.Errorf("psc %v", got)
	}
	if r.Folder("testFolder").Get("testVar") != "testValue" || r.Folder("mcd").Get("Msd") != "xmlnsc" {
		t.Errorf("testFolder/mcd: %+v", r.Folders)
	}
	c, err := WalkChain(FmtRFH2, 273, 1208, b)
	if err != nil || c.Body != (Body{Offset: 284, Length: 49, Format: FmtString, Encoding: 273, CCSID: 1208}) ||
		string(b[c.Body.Offset:]) != pymqiBody {
		t.Errorf("chain body %+v, %v", c.Body, err)
	}
	if enc, err := r.Encode(binary.BigEndian); err != nil || !bytes.Equal(enc, b[:284]) {
		t.Errorf("re-encode differs at byte %d (%v)", hdrFirstDiff(enc, b[:284]), err)
	}
	// pymqi: read as little-endian it is a 469827584-byte header. Here the
	// Version already gives it away.
	_, err = DecodeRFH2(b, 0, binary.LittleEndian)
	hdrWantErr(t, err, 4, false, "byte-swapped")
}

func TestCorpusPymqiNotWellFormedRFH2(t *testing.T) {
	// pymqi's derived negative case: bytes 0..116 + 121..332, 4 bytes cut out
	// of the psc folder. StrucLength still says 284, the psc XML is broken.
	b := corpusFile(t, "single_rfh2.dat")
	cut := append(bytes.Clone(b[:117]), b[121:]...)
	_, err := DecodeRFH2(cut, 0, binary.BigEndian)
	// "<QMgrName>" lost "ame>", so the tag name runs on to the next '<'.
	hdrWantErr(t, err, 123, false, "in tag <QMgrNaebugQM")
	s, err := DecodeSaved(cut)
	hdrWantErr(t, err, 123, false, "MQRFH2")
	if len(s.Chain.Headers) != 0 || s.Chain.Body.Offset != 0 {
		t.Errorf("a broken first header left %+v", s.Chain)
	}
}

func TestCorpusPymqiMultipleRFH2(t *testing.T) {
	b := corpusFile(t, "multiple_rfh2.dat")
	single := corpusFile(t, "single_rfh2.dat")
	s, err := DecodeSaved(b)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Chain
	if len(c.Headers) != 2 {
		t.Fatalf("%d headers, want 2", len(c.Headers))
	}
	r1, r2 := c.Headers[0].RFH2, c.Headers[1].RFH2
	if c.Headers[0].Offset != 0 || r1.StrucLength != 252 || r1.Format != FmtRFH2 || r1.Encoding != 273 ||
		r1.CodedCharSetId != 1208 || r1.NameValueCCSID != 1208 || len(r1.Folders) != 2 ||
		r1.Folders[0].Raw != pymqiPsc || r1.Folders[1].Raw != pymqiTest {
		t.Errorf("RFH2 #1: %+v", r1)
	}
	if c.Headers[1].Offset != 252 || r2.StrucLength != 284 || r2.Format != FmtString || len(r2.Folders) != 3 {
		t.Errorf("RFH2 #2: %+v", r2)
	}
	if !bytes.Equal(b[252:536], single[:284]) {
		t.Error("RFH2 #2 is not single_rfh2.dat's header")
	}
	if c.Body != (Body{Offset: 536, Length: 49, Format: FmtString, Encoding: 273, CCSID: 1208}) || string(b[536:]) != pymqiBody {
		t.Errorf("body %+v", c.Body)
	}
	if got := corpusKV(c.Folder("psc")); !reflect.DeepEqual(got, pymqiPscKV) {
		t.Errorf("psc %v", got)
	}
}

func TestCorpusTnt4jRFH2JMS(t *testing.T) {
	b := corpusFile(t, "rfh2_jms.bin")
	s, err := DecodeSaved(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Chain.Headers) != 1 {
		t.Fatalf("%d headers", len(s.Chain.Headers))
	}
	r := s.Chain.Headers[0].RFH2
	if r.StrucLength != 712 || r.Encoding != 273 || r.CodedCharSetId != 1208 || r.Format != FmtNone || r.Flags != 0 || r.NameValueCCSID != 1208 {
		t.Errorf("fixed part %+v", r)
	}
	var lens []int
	for _, f := range r.Folders {
		lens = append(lens, len(f.Raw))
	}
	if !reflect.DeepEqual(lens, []int{32, 88, 544}) {
		t.Errorf("folder lengths %v", lens)
	}
	j, err := r.JMS()
	if err != nil || j.Dst != "queue://LQQQ/EPH.ALSREQUESTQ" || j.Tms != 1446139225436 || !j.HasTms || j.Dlv != 2 || j.Msd != "jms_bytes" {
		t.Errorf("JMS %+v, %v", j, err)
	}
	if d, err := ParseDestination(j.Dst); err != nil || d.QMgr != "LQQQ" || d.Name != "EPH.ALSREQUESTQ" {
		t.Errorf("destination %+v, %v", d, err)
	}
	usingFile, ok := r.Folder("usr").Lookup("usingFile")
	if !ok || usingFile.DataType != "boolean" || usingFile.Value != "0" {
		t.Errorf("usingFile %+v", usingFile)
	}
	if body := s.Chain.Body; body.Offset != 712 || body.Length != 776 || !bytes.HasPrefix(b[712:], []byte{0xAC, 0xED, 0x00, 0x05}) {
		t.Errorf("body %+v", body)
	}
	// tnt4j-streams' own rendering of the same folders must agree with ours.
	want := corpusXMLFolders(t, corpusFile(t, "rfh2_data.xml"))
	got := map[string][]string{}
	for i := range r.Folders {
		got[r.Folders[i].Name] = corpusKV(&r.Folders[i])
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("folders\n got %v\nwant %v (rfh2_data.xml)", got, want)
	}
}

// corpusXMLFolders reads rfh2_data.xml (<rfh2Folders><mcd><Msd>…) with
// encoding/xml, independently of the folder scanner.
func corpusXMLFolders(t testing.TB, b []byte) map[string][]string {
	var doc struct {
		Folders []struct {
			XMLName xml.Name
			Elems   []struct {
				XMLName xml.Name
				Value   string `xml:",chardata"`
			} `xml:",any"`
		} `xml:",any"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, f := range doc.Folders {
		for _, e := range f.Elems {
			out[f.XMLName.Local] = append(out[f.XMLName.Local], e.XMLName.Local+"="+e.Value)
		}
	}
	return out
}

func TestCorpusTnt4jRFH2Msg(t *testing.T) {
	b := corpusFile(t, "RFH2.msg")
	s, err := DecodeSaved(b)
	if err != nil {
		t.Fatal(err)
	}
	if s.MD == nil || s.MDLength != 364 || s.MDOrder != binary.LittleEndian {
		t.Fatalf("MQMD %v, length %d, order %v", s.MD, s.MDLength, s.MDOrder)
	}
	md := s.MD
	msgID, _ := hex.DecodeString("414D51204449494E464F425131202020A10B474F902C3B21")
	want := MQMD{Version: 1, MsgType: 8, Expiry: -1, Encoding: 546, CodedCharSetId: 437, Format: FmtRFH2,
		Priority: 4, ReplyToQ: strings.Repeat(" ", 48), ReplyToQMgr: strings.Repeat(" ", 48),
		UserIdentifier: strings.Repeat(" ", 12), ApplIdentityData: strings.Repeat(" ", 32),
		PutApplName: strings.Repeat(" ", 28), PutDate: "   \x00\x00\x00\x00\x00", PutTime: strings.Repeat("\x00", 8),
		ApplOriginData: "    ", MsgSeqNumber: 1, OriginalLength: -1}
	copy(want.MsgId[:], msgID)
	if !reflect.DeepEqual(*md, want) {
		t.Errorf("MQMD\n got %+v\nwant %+v", *md, want)
	}
	if Trim(md.PutDate) != "" || Trim(md.PutTime) != "" {
		t.Errorf("junk PutDate/PutTime do not read as unset: %q %q", Trim(md.PutDate), Trim(md.PutTime))
	}
	c := s.Chain
	if len(c.Headers) != 1 || c.Headers[0].Offset != 364 || c.Headers[0].Length != 744 {
		t.Fatalf("headers %+v", c.Headers)
	}
	r := c.Headers[0].RFH2
	if r.Encoding != 546 || r.CodedCharSetId != 437 || r.Format != FmtString || r.NameValueCCSID != 1208 {
		t.Errorf("RFH2 fixed part %+v", r)
	}
	corpusCheckADPFolders(t, r)
	if c.Body.Offset != 1108 || c.Body.Length != 1261 || c.Body.CCSID != 437 ||
		!bytes.HasPrefix(b[1108:], []byte(`<GetIndicativeAssociate xmlns="http://www.adp.com/es/v1"`)) ||
		!bytes.Contains(b[1108:], []byte("\r\n")) {
		t.Errorf("body %+v", c.Body)
	}
	// A reader that trusts Version 1 and stops at 324 bytes lands in the
	// GroupId area, not on the RFH2.
	if _, err := WalkChain(md.Format, md.Encoding, md.CodedCharSetId, b[MQMDLenV1:]); err == nil {
		t.Error("the chain also decoded from byte 324")
	}
}

// corpusCheckADPFolders asserts the folders of RFH2.msg / RFH2.dump.
func corpusCheckADPFolders(t *testing.T, r *RFH2) {
	t.Helper()
	if len(r.Folders) != 3 || len(r.Folders[0].Raw) != 32 || len(r.Folders[1].Raw) != 12 || len(r.Folders[2].Raw) != 652 {
		t.Fatalf("folders %+v", r.Folders)
	}
	if r.Folder("mcd").Get("Msd") != "jms_text" || r.Folders[1].Raw != "<jms></jms> " || len(r.Folder("jms").Elements) != 0 {
		t.Errorf("mcd/jms %+v", r.Folders[:2])
	}
	want := []string{"Root=ADP", "DataClass=HR", "Verb=GET", "Noun=INDICATIVEASSOCIATE", "DataVer=003:000",
		"SrcAppID=ACS", "CustID=0AACH8JB0DZ00013", "ADPMsgCorrelationID=FE02F255-8872-1319-42C3-B84DFBBBFDF1",
		"SrcSysID=ACS", "SrcAppVer=001:000", "ADPHdrVer=002:001", "PldEffTime=20090910T120813000Z", "PldFmt=XML",
		"ADPSegCont=N", "SrcCorrID=D47E6EE0-C01B-117B-8552-FFD7C1F0F7FF", "RoutingOverride=REPLACE",
		"RoutingOverrideQueue=ADP.ES.INFO.BB.PAYX", "TestID=ACS_Get_IndicativeAssociate_3.0"}
	if got := corpusKV(r.Folder("usr")); !reflect.DeepEqual(got, want) {
		t.Errorf("usr\n got %v\nwant %v", got, want)
	}
}

func TestCorpusTnt4jRFH2Dump(t *testing.T) {
	b := corpusFile(t, "RFH2.dump")
	if !bytes.Equal(b, corpusFile(t, "RFH2.msg")[364:1108]) {
		t.Fatal("RFH2.dump is not RFH2.msg[364:1108]")
	}
	s, err := DecodeSaved(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Chain.Headers) != 1 || s.Chain.Headers[0].Encoding != EncodingNative || s.Chain.Body.Offset != 744 || s.Chain.Body.Length != 0 {
		t.Fatalf("chain %+v", s.Chain)
	}
	corpusCheckADPFolders(t, s.Chain.Headers[0].RFH2)
	if enc, err := s.Chain.Headers[0].RFH2.Encode(binary.LittleEndian); err != nil || !bytes.Equal(enc, b) {
		t.Errorf("re-encode differs at byte %d (%v)", hdrFirstDiff(enc, b), err)
	}
}

func TestCorpusTnt4jRFH2Incomplete(t *testing.T) {
	b := corpusFile(t, "RFH2_incomplete.dump")
	r, err := DecodeRFH2(b, 0, binary.LittleEndian)
	// mcd (4+32) and jms (4+12) are whole; usr's length prefix at 88 says
	// 652 bytes, only 572 remain.
	hdrWantErr(t, err, 88, true, "StrucLength 744")
	if r.StrucLength != 744 || len(r.Folders) != 2 || r.Folder("mcd").Get("Msd") != "jms_text" || r.Folder("jms") == nil {
		t.Errorf("partial decode %+v", r)
	}
	s, err := DecodeSaved(b)
	hdrWantErr(t, err, 88, true, "truncated")
	if len(s.Chain.Headers) != 1 || !s.Chain.Headers[0].Partial || s.Chain.Headers[0].Length != 664 {
		t.Errorf("chain %+v", s.Chain)
	}
}

func TestCorpusDeadLetterPutInhibited(t *testing.T) {
	b := corpusFile(t, "dlh_put_inhibited_le.bin")
	// The MQMD from the amqsbcg dump: Format MQDEAD, Encoding 546, CCSID 819.
	c, err := WalkChain(FmtDeadLetter, 546, 819, b)
	if err != nil {
		t.Fatal(err)
	}
	d := c.DLH()
	if d == nil {
		t.Fatal("no MQDLH")
	}
	if d.Version != 1 || d.Reason != RCPutInhibited || d.Reason.String() != "MQRC_PUT_INHIBITED" ||
		Trim(d.DestQName) != "QL.A" || Trim(d.DestQMgrName) != "QMW" || d.Encoding != 546 || d.CodedCharSetId != 819 ||
		d.Format != FmtString || d.PutApplType != 6 || Trim(d.PutApplName) != "amqrmppa" ||
		d.PutDate != "20130114" || d.PutTime != "11242677" {
		t.Errorf("MQDLH %+v", d)
	}
	if !bytes.Equal(b[8:12], []byte{0x03, 0x08, 0x00, 0x00}) {
		t.Error("Reason bytes are not 03 08 00 00")
	}
	if c.Body != (Body{Offset: 172, Length: 26, Format: FmtString, Encoding: 546, CCSID: 819}) || string(b[172:]) != "I send a message from QMC." {
		t.Errorf("body %+v", c.Body)
	}
	if enc := d.Encode(binary.LittleEndian); !bytes.Equal(enc, b[:172]) {
		t.Errorf("re-encode differs at byte %d", hdrFirstDiff(enc, b[:172]))
	}
	if s, err := DecodeSaved(b); err != nil || s.Chain.Headers[0].Encoding != EncodingNative {
		t.Errorf("DecodeSaved did not find the little-endian MQDLH: %+v, %v", s.Chain, err)
	}
}

func TestCorpusDeadLetteredTriggerMessage(t *testing.T) {
	b := corpusFile(t, "dlh_mqtrig_be_first384.bin")
	c, err := WalkChain(FmtDeadLetter, 273, 819, b)
	hdrWantErr(t, err, 172, true, "MQTM")
	if len(c.Headers) != 2 {
		t.Fatalf("%d headers, want MQDLH and a partial MQTM", len(c.Headers))
	}
	d := c.Headers[0].DLH
	if d.Version != 1 || d.Reason != 265 || Trim(d.DestQName) != "SYSTEM.CICS.INITIATION.QUEUE" ||
		Trim(d.DestQMgrName) != "QMMBFE" || d.Encoding != 273 || d.CodedCharSetId != 819 || d.Format != FmtTrigger ||
		d.PutApplType != 6 || d.PutApplName != "RUNMQTRM"+strings.Repeat("\x00", 20) ||
		d.PutDate != "20120914" || d.PutTime != "18260763" {
		t.Errorf("MQDLH %+v", d)
	}
	if enc := d.Encode(binary.BigEndian); !bytes.Equal(enc, b[:172]) {
		t.Errorf("re-encode differs at byte %d: the NUL padding must survive", hdrFirstDiff(enc, b[:172]))
	}
	h := c.Headers[1]
	tm := h.TM
	if !h.Partial || h.Offset != 172 || h.Length != 212 || tm.Version != 1 || Trim(tm.QName) != "102881000019_2" ||
		Trim(tm.ProcessName) != "UNIX.PRO2" || Trim(tm.TriggerData) != "" || tm.ApplType != 6 ||
		!strings.HasPrefix(tm.ApplId, "/bepsmbfe/bin/lib/MQcrecv") || tm.EnvData != "" || tm.Complete() {
		t.Errorf("MQTM %+v (header %+v)", tm, h)
	}
}

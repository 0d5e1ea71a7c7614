package mqfmt

import (
	"errors"
	"slices"
	"sync"

	"golang.org/x/text/encoding/charmap"
)

// ErrUnknownCCSID is wrapped by the error of DecodeText when the CCSID names a
// code page this package does not decode; the caller then shows the bytes as hex.
var ErrUnknownCCSID = errors.New("unknown CCSID")

// ErrInvalidText is wrapped by the error of DecodeText when some bytes are not
// characters of the code page. The text is still returned, with U+FFFD in place
// of each bad sequence, so the operator sees the message and a warning.
var ErrInvalidText = errors.New("invalid text for the CCSID")

// ccsidForm says how a code page's bytes become characters.
type ccsidForm uint8

const (
	formSBCS  ccsidForm = iota // one byte, one character, through a 256-entry table
	formUTF8                   // CCSID 1208
	formUTF16                  // CCSIDs 1200, 1202, 13488, 17584
)

// codePage describes one supported CCSID. table is built on first use so that a
// program which never decodes an EBCDIC body never pays for its table.
type codePage struct {
	name         string
	form         ccsidForm
	ebcdic       bool
	littleEndian bool // UTF-16 only: little-endian whatever the Encoding says (1202)
	table        func() *[256]rune
}

// fromCharmap adapts an x/text code page. x/text decodes bytes a code page leaves
// undefined (0x81 in Windows-1252, for one) to U+FFFD, which decodeSBCS flags.
func fromCharmap(cm *charmap.Charmap) func() *[256]rune {
	return sync.OnceValue(func() *[256]rune {
		var t [256]rune
		for i := range t {
			t[i] = cm.DecodeByte(byte(i))
		}
		return &t
	})
}

// asciiTable is US-ASCII (CCSID 367): bytes above 0x7F are not characters.
var asciiTable = sync.OnceValue(func() *[256]rune {
	var t [256]rune
	for i := range t {
		t[i] = rune(i)
		if i > 0x7F {
			t[i] = '\uFFFD'
		}
	}
	return &t
})

// cp1148Table is CCSID 1148: CCSID 500 with the euro sign in place of the
// currency sign at 0x9F, exactly as CCSID 1140 is to CCSID 37.
var cp1148Table = sync.OnceValue(func() *[256]rune {
	t := cp500Table
	t[0x9F] = '\u20AC'
	return &t
})

func cp500() *[256]rune { return &cp500Table }

// ccsids lists what DecodeText understands. x/text has no CCSID 500, so it has
// its own table below. Windows code pages 1250-1258 are decoded with the euro
// sign at 0x80 as Windows does; IBM gives those versions the CCSIDs 5346-5354,
// and older senders that tag them 1250-1258 mean the same bytes.
var ccsids = map[int32]codePage{
	37:    {name: "IBM-037 EBCDIC US/Canada", ebcdic: true, table: fromCharmap(charmap.CodePage037)},
	500:   {name: "IBM-500 EBCDIC International", ebcdic: true, table: cp500},
	1047:  {name: "IBM-1047 EBCDIC Latin-1 open systems", ebcdic: true, table: fromCharmap(charmap.CodePage1047)},
	1140:  {name: "IBM-1140 EBCDIC US/Canada with euro", ebcdic: true, table: fromCharmap(charmap.CodePage1140)},
	1148:  {name: "IBM-1148 EBCDIC International with euro", ebcdic: true, table: cp1148Table},
	367:   {name: "US-ASCII", table: asciiTable},
	437:   {name: "IBM-437 PC US", table: fromCharmap(charmap.CodePage437)},
	850:   {name: "IBM-850 PC Latin-1", table: fromCharmap(charmap.CodePage850)},
	852:   {name: "IBM-852 PC Latin-2", table: fromCharmap(charmap.CodePage852)},
	858:   {name: "IBM-858 PC Latin-1 with euro", table: fromCharmap(charmap.CodePage858)},
	866:   {name: "IBM-866 PC Cyrillic", table: fromCharmap(charmap.CodePage866)},
	819:   {name: "ISO-8859-1 Latin-1", table: fromCharmap(charmap.ISO8859_1)},
	912:   {name: "ISO-8859-2 Latin-2", table: fromCharmap(charmap.ISO8859_2)},
	915:   {name: "ISO-8859-5 Cyrillic", table: fromCharmap(charmap.ISO8859_5)},
	920:   {name: "ISO-8859-9 Latin-5", table: fromCharmap(charmap.ISO8859_9)},
	923:   {name: "ISO-8859-15 Latin-9", table: fromCharmap(charmap.ISO8859_15)},
	878:   {name: "KOI8-R", table: fromCharmap(charmap.KOI8R)},
	1250:  {name: "Windows-1250 Central European", table: fromCharmap(charmap.Windows1250)},
	1251:  {name: "Windows-1251 Cyrillic", table: fromCharmap(charmap.Windows1251)},
	1252:  {name: "Windows-1252 Latin-1", table: fromCharmap(charmap.Windows1252)},
	1253:  {name: "Windows-1253 Greek", table: fromCharmap(charmap.Windows1253)},
	1254:  {name: "Windows-1254 Turkish", table: fromCharmap(charmap.Windows1254)},
	1255:  {name: "Windows-1255 Hebrew", table: fromCharmap(charmap.Windows1255)},
	1256:  {name: "Windows-1256 Arabic", table: fromCharmap(charmap.Windows1256)},
	1257:  {name: "Windows-1257 Baltic", table: fromCharmap(charmap.Windows1257)},
	1258:  {name: "Windows-1258 Vietnamese", table: fromCharmap(charmap.Windows1258)},
	1208:  {name: "UTF-8", form: formUTF8},
	1200:  {name: "UTF-16", form: formUTF16},
	1202:  {name: "UTF-16LE", form: formUTF16, littleEndian: true},
	13488: {name: "UTF-16 (Unicode 2.0, UCS-2)", form: formUTF16},
	17584: {name: "UTF-16 (Unicode 3.0)", form: formUTF16},
}

func init() {
	// IBM's euro-enabled CCSIDs for the Windows code pages: same bytes.
	for i := int32(0); i <= 8; i++ {
		info := ccsids[1250+i]
		info.name += " with euro"
		ccsids[5346+i] = info
	}
}

func lookupCodePage(ccsid int32) (codePage, bool) {
	info, ok := ccsids[ccsid]
	return info, ok
}

// codePageName returns a short description of a decodable CCSID such as
// "IBM-500 EBCDIC International", or "" when DecodeText does not know it.
func codePageName(ccsid int32) string {
	return ccsids[ccsid].name
}

// IsEBCDIC reports whether ccsid is one of the EBCDIC code pages DecodeText
// knows, for callers that must pick how to show character fields.
func IsEBCDIC(ccsid int32) bool {
	return ccsids[ccsid].ebcdic
}

// SupportedCCSIDs returns every CCSID DecodeText decodes, in ascending order.
func SupportedCCSIDs() []int32 {
	out := make([]int32, 0, len(ccsids))
	for c := range ccsids {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// cp500Table is IBM code page 500 (CCSID 500, EBCDIC International) to Unicode,
// from IBM's published code page as carried in the Unicode Consortium's
// VENDORS/MICSFT/EBCDIC/CP500.TXT (the table Python's cp500 codec is generated
// from). It is CCSID 37 with seven positions moved: 4A '[', 4F '!', 5A ']',
// 5F '^', B0 '¢', BA '¬', BB '|'. TestCP500Table checks both facts. 0x15 is NL
// (U+0085) and 0x25 is LF, as in IBM's tables.
var cp500Table = [256]rune{
	0x0000, 0x0001, 0x0002, 0x0003, 0x009C, 0x0009, 0x0086, 0x007F, // 00
	0x0097, 0x008D, 0x008E, 0x000B, 0x000C, 0x000D, 0x000E, 0x000F, // 08
	0x0010, 0x0011, 0x0012, 0x0013, 0x009D, 0x0085, 0x0008, 0x0087, // 10
	0x0018, 0x0019, 0x0092, 0x008F, 0x001C, 0x001D, 0x001E, 0x001F, // 18
	0x0080, 0x0081, 0x0082, 0x0083, 0x0084, 0x000A, 0x0017, 0x001B, // 20
	0x0088, 0x0089, 0x008A, 0x008B, 0x008C, 0x0005, 0x0006, 0x0007, // 28
	0x0090, 0x0091, 0x0016, 0x0093, 0x0094, 0x0095, 0x0096, 0x0004, // 30
	0x0098, 0x0099, 0x009A, 0x009B, 0x0014, 0x0015, 0x009E, 0x001A, // 38
	0x0020, 0x00A0, 0x00E2, 0x00E4, 0x00E0, 0x00E1, 0x00E3, 0x00E5, // 40
	0x00E7, 0x00F1, 0x005B, 0x002E, 0x003C, 0x0028, 0x002B, 0x0021, // 48
	0x0026, 0x00E9, 0x00EA, 0x00EB, 0x00E8, 0x00ED, 0x00EE, 0x00EF, // 50
	0x00EC, 0x00DF, 0x005D, 0x0024, 0x002A, 0x0029, 0x003B, 0x005E, // 58
	0x002D, 0x002F, 0x00C2, 0x00C4, 0x00C0, 0x00C1, 0x00C3, 0x00C5, // 60
	0x00C7, 0x00D1, 0x00A6, 0x002C, 0x0025, 0x005F, 0x003E, 0x003F, // 68
	0x00F8, 0x00C9, 0x00CA, 0x00CB, 0x00C8, 0x00CD, 0x00CE, 0x00CF, // 70
	0x00CC, 0x0060, 0x003A, 0x0023, 0x0040, 0x0027, 0x003D, 0x0022, // 78
	0x00D8, 0x0061, 0x0062, 0x0063, 0x0064, 0x0065, 0x0066, 0x0067, // 80
	0x0068, 0x0069, 0x00AB, 0x00BB, 0x00F0, 0x00FD, 0x00FE, 0x00B1, // 88
	0x00B0, 0x006A, 0x006B, 0x006C, 0x006D, 0x006E, 0x006F, 0x0070, // 90
	0x0071, 0x0072, 0x00AA, 0x00BA, 0x00E6, 0x00B8, 0x00C6, 0x00A4, // 98
	0x00B5, 0x007E, 0x0073, 0x0074, 0x0075, 0x0076, 0x0077, 0x0078, // A0
	0x0079, 0x007A, 0x00A1, 0x00BF, 0x00D0, 0x00DD, 0x00DE, 0x00AE, // A8
	0x00A2, 0x00A3, 0x00A5, 0x00B7, 0x00A9, 0x00A7, 0x00B6, 0x00BC, // B0
	0x00BD, 0x00BE, 0x00AC, 0x007C, 0x00AF, 0x00A8, 0x00B4, 0x00D7, // B8
	0x007B, 0x0041, 0x0042, 0x0043, 0x0044, 0x0045, 0x0046, 0x0047, // C0
	0x0048, 0x0049, 0x00AD, 0x00F4, 0x00F6, 0x00F2, 0x00F3, 0x00F5, // C8
	0x007D, 0x004A, 0x004B, 0x004C, 0x004D, 0x004E, 0x004F, 0x0050, // D0
	0x0051, 0x0052, 0x00B9, 0x00FB, 0x00FC, 0x00F9, 0x00FA, 0x00FF, // D8
	0x005C, 0x00F7, 0x0053, 0x0054, 0x0055, 0x0056, 0x0057, 0x0058, // E0
	0x0059, 0x005A, 0x00B2, 0x00D4, 0x00D6, 0x00D2, 0x00D3, 0x00D5, // E8
	0x0030, 0x0031, 0x0032, 0x0033, 0x0034, 0x0035, 0x0036, 0x0037, // F0
	0x0038, 0x0039, 0x00B3, 0x00DB, 0x00DC, 0x00D9, 0x00DA, 0x009F, // F8
}

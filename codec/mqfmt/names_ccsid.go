package mqfmt

import (
	"fmt"
	"sort"
)

// ccsidInfo names a coded character set an MQ message may declare.
type ccsidInfo struct {
	ccsid         int32
	name, meaning string
}

// ccsidTable holds the CCSIDs MQ messages carry in practice, sorted by value:
// the Unicode ones, the ASCII-based code pages of Linux, UNIX and Windows, and
// the EBCDIC code pages of z/OS and IBM i. A meaning is given where the name
// alone does not say where the data comes from.
var ccsidTable = [...]ccsidInfo{
	{37, "EBCDIC US", "EBCDIC US and Canada (IBM-037): z/OS and IBM i"},
	{273, "EBCDIC Germany", "EBCDIC Germany and Austria (IBM-273)"},
	{277, "EBCDIC Denmark/Norway", ""},
	{278, "EBCDIC Finland/Sweden", ""},
	{280, "EBCDIC Italy", ""},
	{284, "EBCDIC Spain", "EBCDIC Spain and Latin America (IBM-284)"},
	{285, "EBCDIC UK", ""},
	{297, "EBCDIC France", ""},
	{367, "US-ASCII", "7-bit ASCII"},
	{437, "PC US", "IBM PC code page 437 (DOS)"},
	{500, "EBCDIC International", "EBCDIC International Latin-1 (IBM-500)"},
	{813, "ISO-8859-7", "ISO Greek"},
	{819, "ISO-8859-1", "ISO Latin-1: the usual CCSID of queue managers on Linux and UNIX"},
	{850, "PC Latin-1", "IBM PC multilingual code page 850"},
	{852, "PC Latin-2", "IBM PC Central European code page 852"},
	{858, "PC Latin-1 with euro", "IBM PC code page 858 (850 with the euro sign)"},
	{866, "PC Cyrillic", "IBM PC Russian code page 866"},
	{912, "ISO-8859-2", "ISO Latin-2 (Central European)"},
	{915, "ISO-8859-5", "ISO Cyrillic"},
	{916, "ISO-8859-8", "ISO Hebrew"},
	{920, "ISO-8859-9", "ISO Latin-5 (Turkish)"},
	{923, "ISO-8859-15", "ISO Latin-9 (Latin-1 with the euro sign)"},
	{924, "EBCDIC Latin-9", "EBCDIC Latin-9 (IBM-924, 1047 with the euro sign)"},
	{930, "EBCDIC Japanese Katakana", "EBCDIC Japanese, Katakana and Kanji (IBM-930)"},
	{932, "PC Japanese", "IBM PC Japanese, Shift-JIS (IBM-932)"},
	{933, "EBCDIC Korean", ""},
	{935, "EBCDIC Simplified Chinese", ""},
	{937, "EBCDIC Traditional Chinese", ""},
	{939, "EBCDIC Japanese Latin", "EBCDIC Japanese, Latin and Kanji (IBM-939)"},
	{943, "Windows Japanese", "Shift-JIS as used by Windows (IBM-943)"},
	{949, "PC Korean", ""},
	{950, "Big5", "Traditional Chinese Big5"},
	{954, "EUC-JP", "Japanese EUC"},
	{964, "EUC-TW", "Traditional Chinese EUC"},
	{970, "EUC-KR", "Korean EUC"},
	{1047, "EBCDIC Latin-1 open systems", "EBCDIC Latin-1 for z/OS UNIX (IBM-1047)"},
	{1051, "HP Roman-8", ""},
	{1089, "ISO-8859-6", "ISO Arabic"},
	{1140, "EBCDIC US with euro", "EBCDIC US and Canada with the euro sign (IBM-1140)"},
	{1141, "EBCDIC Germany with euro", ""},
	{1142, "EBCDIC Denmark/Norway with euro", ""},
	{1143, "EBCDIC Finland/Sweden with euro", ""},
	{1144, "EBCDIC Italy with euro", ""},
	{1145, "EBCDIC Spain with euro", ""},
	{1146, "EBCDIC UK with euro", ""},
	{1147, "EBCDIC France with euro", ""},
	{1148, "EBCDIC International with euro", "EBCDIC International Latin-1 with the euro sign (IBM-1148)"},
	{1149, "EBCDIC Iceland with euro", ""},
	{1200, "UTF-16", "Unicode UTF-16"},
	{1208, "UTF-8", "Unicode UTF-8: JMS messages and MQRFH2 folders use it"},
	{1250, "Windows-1250", "Windows Central European"},
	{1251, "Windows-1251", "Windows Cyrillic"},
	{1252, "Windows-1252", "Windows Latin-1: the usual CCSID of queue managers on Windows"},
	{1253, "Windows-1253", "Windows Greek"},
	{1254, "Windows-1254", "Windows Turkish"},
	{1255, "Windows-1255", "Windows Hebrew"},
	{1256, "Windows-1256", "Windows Arabic"},
	{1257, "Windows-1257", "Windows Baltic"},
	{1258, "Windows-1258", "Windows Vietnamese"},
	{1363, "Windows Korean", ""},
	{1381, "PC Simplified Chinese", "IBM PC Simplified Chinese, GB 2312 (IBM-1381)"},
	{1383, "EUC-CN", "Simplified Chinese EUC"},
	{1386, "GBK", "Simplified Chinese GBK"},
	{1388, "EBCDIC Simplified Chinese GBK", ""},
	{1390, "EBCDIC Japanese Katakana with euro", ""},
	{1399, "EBCDIC Japanese Latin with euro", ""},
	{5348, "Windows-1252 with euro", "Windows Latin-1 including the euro sign (IBM-5348)"},
	{13488, "UCS-2", "Unicode UCS-2 (Unicode 2.0 level)"},
	{17584, "UCS-2 (Unicode 3.0)", "Unicode UCS-2 (Unicode 3.0 level)"},
	{33722, "EUC-JP (IBM-33722)", "Japanese EUC"},
}

// CCSIDName names a CodedCharSetId: "UTF-8" for 1208, "ISO-8859-1" for 819,
// "EBCDIC US" for 37, the MQCCSI_* name for the special values 0 and -1..-4
// ("MQCCSI_Q_MGR" for 0), or "CCSID <n>" for one this tool does not list.
func CCSIDName(ccsid int32) string {
	if n, ok := lookupConst(mqccsiNames[:], ccsid); ok {
		return n
	}
	if c, ok := lookupCCSID(ccsid); ok {
		return c.name
	}
	return fmt.Sprintf("CCSID %d", ccsid)
}

// CCSIDMeaning says what a CodedCharSetId means, in particular what the
// special MQCCSI_* values stand for.
func CCSIDMeaning(ccsid int32) string {
	if n, ok := lookupConst(mqccsiNames[:], ccsid); ok {
		return mqccsiMeaning[n]
	}
	if c, ok := lookupCCSID(ccsid); ok {
		if c.meaning != "" {
			return c.meaning
		}
		return c.name
	}
	return "a coded character set this tool does not list"
}

func lookupCCSID(ccsid int32) (ccsidInfo, bool) {
	i := sort.Search(len(ccsidTable), func(i int) bool { return ccsidTable[i].ccsid >= ccsid })
	if i < len(ccsidTable) && ccsidTable[i].ccsid == ccsid {
		return ccsidTable[i], true
	}
	return ccsidInfo{}, false
}

var mqccsiMeaning = map[string]string{
	"MQCCSI_Q_MGR":        "the queue manager's CCSID (what a put with 0 gets; MQCCSI_DEFAULT and MQCCSI_UNDEFINED are the same value)",
	"MQCCSI_EMBEDDED":     "the data says its own CCSID",
	"MQCCSI_INHERIT":      "the same CCSID as the structure before it in the header chain",
	"MQCCSI_APPL":         "the application's CCSID, filled in when the call runs",
	"MQCCSI_AS_PUBLISHED": "each publication keeps its own CCSID (a subscription setting)",
}

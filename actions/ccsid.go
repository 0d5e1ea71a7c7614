package actions

import "github.com/poisonwatch/poisonwatch/codec/mqfmt"

// asciiCCSIDs are ASCII-based code pages in which queue-name characters
// (A–Z a–z 0–9 . / _ %) and blanks are the ASCII bytes.
var asciiCCSIDs = map[int32]bool{
	367: true, 437: true, 813: true, 819: true, 850: true, 852: true, 855: true, 857: true,
	858: true, 860: true, 861: true, 862: true, 863: true, 864: true, 865: true, 866: true,
	869: true, 874: true, 912: true, 913: true, 914: true, 915: true, 916: true, 920: true,
	923: true, 932: true, 943: true, 950: true, 954: true, 970: true, 1051: true, 1208: true,
	1250: true, 1251: true, 1252: true, 1253: true, 1254: true, 1255: true, 1256: true,
	1257: true, 1258: true, 1381: true, 1383: true, 1386: true, 5348: true, 5488: true,
}

// dlhCCSID is the character set a dead-letter header is written in for a
// message whose MQMD says ccsid: ccsid itself when it is an ASCII-based or a
// Latin EBCDIC code page, else UTF-8 (1208). IBM requires a character set
// "that has single-byte characters for the characters that are valid in
// queue names", and IBM MQ classes for JMS write the MQDLH in UTF-8 when the
// MQMD's code page is one they cannot use (MQDLH - Dead letter header);
// UCS-2/UTF-16 take that path.
func dlhCCSID(ccsid int32) int32 {
	if asciiCCSIDs[ccsid] || mqfmt.IsEBCDICHeaderCCSID(ccsid) {
		return ccsid
	}
	return mqfmt.CCSIDUTF8
}

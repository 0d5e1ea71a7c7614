package mqfmt

// MQFMT_* format names: eight characters, blank padded, as they sit in the MQMD
// and in each header's Format field.
const (
	FmtNone        = "        "
	FmtString      = "MQSTR   "
	FmtDeadLetter  = "MQDEAD  "
	FmtXmitQHeader = "MQXMIT  "
	FmtRFH2        = "MQHRF2  "
	FmtRFH         = "MQHRF   "
	FmtTrigger     = "MQTRIG  "
	FmtPCF         = "MQPCF   "
	FmtAdmin       = "MQADMIN "
	FmtEvent       = "MQEVENT "
	FmtCICS        = "MQCICS  "
	FmtIMS         = "MQIMS   "
	FmtMDE         = "MQHMDE  "
	FmtDistList    = "MQHDIST "
	FmtRefMsg      = "MQHREF  "
	FmtWorkInfo    = "MQHWIH  "
)

// MQMT_* message types.
const (
	MTRequest  = 1
	MTReply    = 2
	MTReport   = 4
	MTDatagram = 8
)

// MQPER_* persistence values.
const (
	PerNotPersistent    = 0
	PerPersistent       = 1
	PerPersistenceAsDef = 2
)

// MQRO_* report options, the bits the poison rules read.
const (
	ROException             = 0x01000000
	ROExceptionWithData     = 0x03000000
	ROExceptionWithFullData = 0x07000000
	ROExpiration            = 0x00200000
	ROExpirationWithData    = 0x00600000
	ROExpirationWithFull    = 0x00E00000
	ROCOA                   = 0x00000100
	ROCOAWithData           = 0x00000300
	ROCOAWithFullData       = 0x00000700
	ROCOD                   = 0x00000800
	ROCODWithData           = 0x00001800
	ROCODWithFullData       = 0x00003800
	ROPAN                   = 0x00000001
	RONAN                   = 0x00000002
	ROActivity              = 0x00000004
	RONewMsgId              = 0x00000000
	ROPassMsgId             = 0x00000080
	ROCopyMsgIdToCorrelId   = 0x00000000
	ROPassCorrelId          = 0x00000040
	RODeadLetterQ           = 0x00000000
	RODiscardMsg            = 0x08000000
	ROPassDiscardAndExpiry  = 0x00004000
)

// MQAT_* put application types.
const (
	ATNoContext  = 0
	ATCICS       = 1
	ATMVS        = 2
	ATIMS        = 3
	ATOS2        = 4
	ATDOS        = 5
	ATUnix       = 6
	ATQMgr       = 7
	ATOS400      = 8
	ATWindows    = 9
	ATWindowsNT  = 11
	ATNSK        = 13
	ATXCF        = 20
	ATJava       = 28
	ATNotifyRecv = 33 // unused here; kept for lookups only
)

// MQCCSI/CCSID values the tool meets most.
const (
	CCSIDUTF8     = 1208
	CCSIDISO88591 = 819
	CCSIDUCS2     = 1200
)

// MQCC_* completion codes.
const (
	CCOK      = 0
	CCWarning = 1
	CCFailed  = 2
)

package mqfmt

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// These tests hold every name and value this package shows against
// mq-golang's copy of IBM's cmqc.h, read independently of names_gen.go, so
// neither a hand edit nor a generator bug can put a wrong name on screen.

type ibmConsts struct {
	ints map[string]int32
	strs map[string]string
}

var (
	ibmOnce sync.Once
	ibm     ibmConsts
	ibmErr  error
)

var ibmLine = regexp.MustCompile(`^\s*(MQ[A-Z0-9_]+)\s+(int32|string)\s*=\s*(-?[0-9]+|"[^"]*")\s*$`)

// ibmConstants parses the cmqc file of the mq-golang version go.mod pins.
func ibmConstants(t *testing.T) ibmConsts {
	t.Helper()
	ibmOnce.Do(func() { ibm, ibmErr = loadIBM() })
	if ibmErr != nil {
		t.Fatalf("read IBM constants from mq-golang (run go mod download): %v", ibmErr)
	}
	return ibm
}

func loadIBM() (ibmConsts, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ibm-messaging/mq-golang/v5").Output()
	if err != nil {
		return ibmConsts{}, err
	}
	fh, err := os.Open(filepath.Join(strings.TrimSpace(string(out)), "ibmmq", "cmqc_linux_amd64.go"))
	if err != nil {
		return ibmConsts{}, err
	}
	defer fh.Close()
	c := ibmConsts{ints: map[string]int32{}, strs: map[string]string{}}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		m := ibmLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if m[2] == "string" {
			c.strs[m[1]], _ = strconv.Unquote(m[3])
			continue
		}
		v, err := strconv.ParseInt(m[3], 10, 32)
		if err != nil {
			return ibmConsts{}, err
		}
		c.ints[m[1]] = int32(v)
	}
	return c, sc.Err()
}

// rangeOnly are IBM names that mark bounds or masks or differ by platform;
// the tables leave them out on purpose.
var rangeOnly = map[string]bool{
	"MQRC_APPL_FIRST": true, "MQRC_APPL_LAST": true,
	"MQFB_SYSTEM_FIRST": true, "MQFB_SYSTEM_LAST": true, "MQFB_APPL_FIRST": true, "MQFB_APPL_LAST": true,
	"MQFB_IMS_FIRST": true, "MQFB_IMS_LAST": true,
	"MQFB_IMS_NACK_1A_REASON_FIRST": true, "MQFB_IMS_NACK_1A_REASON_LAST": true,
	"MQAT_DEFAULT": true, "MQAT_USER_FIRST": true, "MQAT_USER_LAST": true,
	"MQMT_SYSTEM_FIRST": true, "MQMT_SYSTEM_LAST": true, "MQMT_APPL_FIRST": true, "MQMT_APPL_LAST": true,
}

func TestGeneratedTablesMatchIBM(t *testing.T) {
	c := ibmConstants(t)
	tables := []struct {
		prefix string
		tab    []constName
	}{
		{"MQRC_", append(mqrcNamesLow[:len(mqrcNamesLow):len(mqrcNamesLow)], mqrcNamesHigh[:]...)},
		{"MQFB_", mqfbNames[:]},
		{"MQAT_", mqatNames[:]},
		{"MQMT_", mqmtNames[:]},
		{"MQPER_", mqperNames[:]},
		{"MQCCSI_", mqccsiNames[:]},
	}
	for _, tc := range tables {
		t.Run(strings.TrimSuffix(tc.prefix, "_")+"_entries_are_IBM_names_and_values", func(t *testing.T) {
			for i, e := range tc.tab {
				if v, ok := c.ints[e.name]; !ok || v != e.v || !strings.HasPrefix(e.name, tc.prefix) {
					t.Errorf("table has %s = %d; IBM has %d (defined: %v)", e.name, e.v, v, ok)
				}
				if i > 0 && tc.tab[i-1].v >= e.v {
					t.Errorf("table not strictly sorted at %s", e.name)
				}
			}
		})
		t.Run(strings.TrimSuffix(tc.prefix, "_")+"_every_IBM_value_is_named", func(t *testing.T) {
			for name, v := range c.ints {
				if !strings.HasPrefix(name, tc.prefix) || rangeOnly[name] {
					continue
				}
				if _, ok := lookupConst(tc.tab, v); !ok {
					t.Errorf("IBM defines %s = %d but the table has no name for %d", name, v, v)
				}
			}
		})
	}
}

func TestFormatTableMatchesIBM(t *testing.T) {
	c := ibmConstants(t)
	for _, f := range mqfmtNames {
		if got, ok := c.strs[f.name]; !ok || got != f.v {
			t.Errorf("table has %s = %q; IBM has %q (defined: %v)", f.name, f.v, got, ok)
		}
	}
	for name, v := range c.strs {
		if strings.HasPrefix(name, "MQFMT_") && !strings.HasSuffix(name, "_ARRAY") && FormatName(v+"        "[:8-len(v)]) == "" {
			t.Errorf("IBM defines %s = %q but FormatName does not know it", name, v)
		}
	}
}

// TestConstantsMatchIBM checks the hand-written constants of the package
// (constants.go, encoding.go, reason.go, names_mqfb.go) against IBM's values.
func TestConstantsMatchIBM(t *testing.T) {
	c := ibmConstants(t)
	cases := []struct {
		ibm string
		got int64
	}{
		{"MQRO_EXCEPTION", ROException}, {"MQRO_EXCEPTION_WITH_DATA", ROExceptionWithData},
		{"MQRO_EXCEPTION_WITH_FULL_DATA", ROExceptionWithFullData}, {"MQRO_EXPIRATION", ROExpiration},
		{"MQRO_EXPIRATION_WITH_DATA", ROExpirationWithData}, {"MQRO_EXPIRATION_WITH_FULL_DATA", ROExpirationWithFull},
		{"MQRO_COA", ROCOA}, {"MQRO_COA_WITH_DATA", ROCOAWithData}, {"MQRO_COA_WITH_FULL_DATA", ROCOAWithFullData},
		{"MQRO_COD", ROCOD}, {"MQRO_COD_WITH_DATA", ROCODWithData}, {"MQRO_COD_WITH_FULL_DATA", ROCODWithFullData},
		{"MQRO_PAN", ROPAN}, {"MQRO_NAN", RONAN}, {"MQRO_ACTIVITY", ROActivity},
		{"MQRO_NEW_MSG_ID", RONewMsgId}, {"MQRO_PASS_MSG_ID", ROPassMsgId},
		{"MQRO_COPY_MSG_ID_TO_CORREL_ID", ROCopyMsgIdToCorrelId}, {"MQRO_PASS_CORREL_ID", ROPassCorrelId},
		{"MQRO_DEAD_LETTER_Q", RODeadLetterQ}, {"MQRO_DISCARD_MSG", RODiscardMsg},
		{"MQRO_PASS_DISCARD_AND_EXPIRY", ROPassDiscardAndExpiry},
		{"MQMT_REQUEST", MTRequest}, {"MQMT_REPLY", MTReply}, {"MQMT_REPORT", MTReport}, {"MQMT_DATAGRAM", MTDatagram},
		{"MQPER_NOT_PERSISTENT", PerNotPersistent}, {"MQPER_PERSISTENT", PerPersistent},
		{"MQPER_PERSISTENCE_AS_Q_DEF", PerPersistenceAsDef},
		{"MQAT_NO_CONTEXT", ATNoContext}, {"MQAT_CICS", ATCICS}, {"MQAT_MVS", ATMVS}, {"MQAT_IMS", ATIMS},
		{"MQAT_OS2", ATOS2}, {"MQAT_DOS", ATDOS}, {"MQAT_UNIX", ATUnix}, {"MQAT_QMGR", ATQMgr},
		{"MQAT_OS400", ATOS400}, {"MQAT_WINDOWS", ATWindows}, {"MQAT_WINDOWS_NT", ATWindowsNT},
		{"MQAT_NSK", ATNSK}, {"MQAT_XCF", ATXCF}, {"MQAT_JAVA", ATJava},
		// ATNotifyRecv is not an IBM name; its value 33 is MQAT_RRS_BATCH.
		{"MQAT_RRS_BATCH", ATNotifyRecv},
		{"MQCC_OK", CCOK}, {"MQCC_WARNING", CCWarning}, {"MQCC_FAILED", CCFailed},
		{"MQENC_NORMAL", int64(EncodingNormal)}, {"MQENC_REVERSED", int64(EncodingNative)},
		{"MQENC_S390", int64(EncodingS390)}, {"MQENC_INTEGER_MASK", encIntegerMask},
		{"MQENC_INTEGER_NORMAL", encIntegerNorm}, {"MQENC_INTEGER_REVERSED", encIntegerRev},
		{"MQENC_DECIMAL_MASK", encDecimalMask}, {"MQENC_FLOAT_MASK", encFloatMask},
		{"MQENC_AS_PUBLISHED", encAsPublished},
		{"MQRC_APPL_FIRST", mqrcApplFirst}, {"MQRC_APPL_LAST", mqrcApplLast},
		{"MQFB_IMS_FIRST", mqfbIMSFirst}, {"MQFB_IMS_LAST", mqfbIMSLast},
		{"MQFB_IMS_NACK_1A_REASON_FIRST", mqfbIMSNack1AFirst}, {"MQFB_IMS_NACK_1A_REASON_LAST", mqfbIMSNack1ALast},
		{"MQFB_SYSTEM_LAST", mqfbSystemLast}, {"MQFB_APPL_FIRST", mqfbApplFirst}, {"MQFB_APPL_LAST", mqfbApplLast},
		{"MQAT_USER_FIRST", mqatUserFirst}, {"MQAT_USER_LAST", mqatUserLast},
		{"MQMT_SYSTEM_LAST", mqmtSystemLast}, {"MQMT_APPL_FIRST", mqmtApplFirst}, {"MQMT_APPL_LAST", mqmtApplLast},
		{"MQCCSI_Q_MGR", 0},
	}
	for _, tc := range cases {
		if v, ok := c.ints[tc.ibm]; !ok || int64(v) != tc.got {
			t.Errorf("%s: package has %d, IBM has %d (defined: %v)", tc.ibm, tc.got, v, ok)
		}
	}
	if uint32(encReservedMask) != uint32(c.ints["MQENC_RESERVED_MASK"]) {
		t.Errorf("encReservedMask = %#x, IBM MQENC_RESERVED_MASK = %d", uint32(encReservedMask), c.ints["MQENC_RESERVED_MASK"])
	}
	for _, w := range encWhole {
		if v, ok := c.ints[w.name]; !ok || v != int32(w.v) {
			t.Errorf("encWhole %s = %d, IBM %d (defined: %v)", w.name, w.v, v, ok)
		}
	}
	for _, f := range encFields {
		for _, v := range f.values {
			if iv, ok := c.ints[v.name]; !ok || uint32(iv) != v.bits {
				t.Errorf("encoding field %s = %#x, IBM %#x (defined: %v)", v.name, v.bits, iv, ok)
			}
		}
	}
	fmts := map[string]string{FmtNone: "MQFMT_NONE", FmtString: "MQFMT_STRING", FmtDeadLetter: "MQFMT_DEAD_LETTER_HEADER",
		FmtXmitQHeader: "MQFMT_XMIT_Q_HEADER", FmtRFH2: "MQFMT_RF_HEADER_2", FmtRFH: "MQFMT_RF_HEADER",
		FmtTrigger: "MQFMT_TRIGGER", FmtPCF: "MQFMT_PCF", FmtAdmin: "MQFMT_ADMIN", FmtEvent: "MQFMT_EVENT",
		FmtCICS: "MQFMT_CICS", FmtIMS: "MQFMT_IMS", FmtMDE: "MQFMT_MD_EXTENSION", FmtDistList: "MQFMT_DIST_HEADER",
		FmtRefMsg: "MQFMT_REF_MSG_HEADER", FmtWorkInfo: "MQFMT_WORK_INFO_HEADER"}
	for v, name := range fmts {
		if len(v) != 8 || strings.TrimRight(v, " ") != c.strs[name] {
			t.Errorf("%s: package has %q, IBM has %q blank-padded to 8", name, v, c.strs[name])
		}
	}
}

// TestReasonAndFeedbackConstantsMatchIBM checks the RC* and FB* constants by
// the name each one's String returns, so a wrong value shows as a wrong name.
func TestReasonAndFeedbackConstantsMatchIBM(t *testing.T) {
	c := ibmConstants(t)
	for _, r := range []Reason{RCNone, RCConnectionBroken, RCTruncatedMsgFailed, RCTruncatedMsgAccepted,
		RCGetInhibited, RCHconnError, RCHobjError, RCMsgTooBigForQ, RCMsgTooBigForQMgr, RCNoMsgUnderCursor,
		RCNoMsgAvailable, RCNotAuthorized, RCNotOpenForBrowse, RCNotOpenForInput, RCNotOpenForInquire,
		RCNotOpenForOutput, RCObjectInUse, RCOptionsError, RCPutInhibited, RCQFull, RCQTypeError,
		RCQMgrNameError, RCQMgrNotAvailable, RCSyncpointNotAvailable, RCUnknownObjectName, RCUnknownObjectQMgr,
		RCUnknownRemoteQMgr, RCContextHandleError, RCNoContextAvailable, RCObjectDamaged, RCUnknownAliasBaseQ,
		RCAliasBaseQTypeError, RCBackedOut, RCCallInProgress, RCClusterResolutionError,
		RCBackoutThresholdReached, RCMsgNotMatched, RCJMSFormatError, RCCallInterrupted,
		RCPersistentNotAllowed, RCExpiryError, RCObjectChanged, RCQDeleted, RCQSpaceNotAvailable,
		RCQMgrQuiescing, RCQMgrStopping, RCConnectionQuiescing, RCConnectionStopping, RCMsgTooBigForChannel,
		RCChannelNotAvailable, RCHostNotAvailable, RCReconnectFailed} {
		if v, ok := c.ints[r.String()]; !ok || v != int32(r) {
			t.Errorf("Reason %d is named %s, which IBM defines as %d (defined: %v)", int32(r), r, v, ok)
		}
	}
	for _, f := range []Feedback{FBNone, FBQuit, FBExpiration, FBCOA, FBCOD, FBChannelCompleted,
		FBChannelFailRetry, FBChannelFail, FBApplCannotBeStarted, FBTMError, FBApplTypeError,
		FBStoppedByMsgExit, FBActivity, FBXmitQMsgError, FBPAN, FBNAN} {
		if v, ok := c.ints[f.String()]; !ok || v != int32(f) || !strings.HasPrefix(f.String(), "MQFB_") {
			t.Errorf("Feedback %d is named %s, which IBM defines as %d (defined: %v)", int32(f), f, v, ok)
		}
	}
	for name := range mqroMeaning() {
		if _, ok := c.ints[name]; !ok {
			t.Errorf("ReportOptionMeaning has %s, which IBM does not define", name)
		}
	}
}

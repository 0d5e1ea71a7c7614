package mqfmt

import "fmt"

// reportField is one field of the MQRO_* bit set: the bits it owns and the
// names of its values. A "with data" variant includes its plain option's bit,
// so a field is matched as a whole, never bit by bit.
type reportField struct {
	mask  uint32
	names []reportValue
}

type reportValue struct {
	bits uint32
	name string
}

// reportFields lists the report-request fields in the order IBM documents them.
var reportFields = [...]reportField{
	{ROExceptionWithFullData, []reportValue{
		{ROExceptionWithFullData, "MQRO_EXCEPTION_WITH_FULL_DATA"},
		{ROExceptionWithData, "MQRO_EXCEPTION_WITH_DATA"},
		{ROException, "MQRO_EXCEPTION"},
	}},
	{ROExpirationWithFull, []reportValue{
		{ROExpirationWithFull, "MQRO_EXPIRATION_WITH_FULL_DATA"},
		{ROExpirationWithData, "MQRO_EXPIRATION_WITH_DATA"},
		{ROExpiration, "MQRO_EXPIRATION"},
	}},
	{ROCOAWithFullData, []reportValue{
		{ROCOAWithFullData, "MQRO_COA_WITH_FULL_DATA"},
		{ROCOAWithData, "MQRO_COA_WITH_DATA"},
		{ROCOA, "MQRO_COA"},
	}},
	{ROCODWithFullData, []reportValue{
		{ROCODWithFullData, "MQRO_COD_WITH_FULL_DATA"},
		{ROCODWithData, "MQRO_COD_WITH_DATA"},
		{ROCOD, "MQRO_COD"},
	}},
	{ROPAN, []reportValue{{ROPAN, "MQRO_PAN"}}},
	{RONAN, []reportValue{{RONAN, "MQRO_NAN"}}},
	{ROActivity, []reportValue{{ROActivity, "MQRO_ACTIVITY"}}},
}

// reportDefaults are the options whose value is zero: each is in force exactly
// when its alternative's bit is clear, so it is named then.
var reportDefaults = [...]struct {
	bit          uint32
	set, cleared string
}{
	{ROPassMsgId, "MQRO_PASS_MSG_ID", "MQRO_NEW_MSG_ID"},
	{ROPassCorrelId, "MQRO_PASS_CORREL_ID", "MQRO_COPY_MSG_ID_TO_CORREL_ID"},
	{ROPassDiscardAndExpiry, "MQRO_PASS_DISCARD_AND_EXPIRY", ""},
	{RODiscardMsg, "MQRO_DISCARD_MSG", "MQRO_DEAD_LETTER_Q"},
}

// ReportOptions decodes an MQMD Report field into IBM's option names, e.g.
// 0x08000100 gives [MQRO_COA MQRO_NEW_MSG_ID MQRO_COPY_MSG_ID_TO_CORREL_ID
// MQRO_DISCARD_MSG]. The zero-valued defaults (MQRO_NEW_MSG_ID,
// MQRO_COPY_MSG_ID_TO_CORREL_ID, MQRO_DEAD_LETTER_Q) are named when their
// alternative's bit is clear, because what happens to a poison message
// depends on them (docs/poison-rules.md R2b, R6). Bits IBM does not define, and a
// "with data" bit set without its base option, are listed as hex ("0x02000000")
// rather than dropped, so the list always accounts for every bit set.
func ReportOptions(ro int32) []string {
	u := uint32(ro)
	out := make([]string, 0, 6)
	var known uint32
	for _, f := range reportFields {
		known |= f.mask
		if bits := u & f.mask; bits != 0 {
			out = append(out, fieldName(f, bits))
		}
	}
	for _, d := range reportDefaults {
		known |= d.bit
		switch {
		case u&d.bit != 0:
			out = append(out, d.set)
		case d.cleared != "":
			out = append(out, d.cleared)
		}
	}
	if rest := u &^ known; rest != 0 {
		out = append(out, fmt.Sprintf("0x%08X", rest))
	}
	return out
}

// fieldName names the value bits of field f, or shows it in hex when it is
// not one IBM defines (a "with data" bit without its base option).
func fieldName(f reportField, bits uint32) string {
	for _, v := range f.names {
		if v.bits == bits {
			return v.name
		}
	}
	return fmt.Sprintf("0x%08X", bits)
}

// ReportOptionMeaning explains one name ReportOptions returns, or "" for a
// hex remainder or an unknown name.
func ReportOptionMeaning(name string) string { return lookupMeaning(mqroMeaning(), name) }

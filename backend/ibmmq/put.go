package ibmmq

import "github.com/poisonwatch/poisonwatch/codec/mqfmt"

// putWriteBack is what MQPUT leaves in the caller's MQMD, given the MQMD
// mq-golang copied back from the call (it copies it back whatever the
// completion code) and the call's completion code. A warning (MQCC_WARNING:
// 2049 MQRC_PRIORITY_EXCEEDS_MAXIMUM, the message put at MAXPRTY, and the
// other reasons of a put that happened) put the message: its MsgId and
// context are the ones the copy now carries, which the actions audit and
// watch, so they are written back as on success. A failure put nothing and
// leaves the caller's MQMD as it was.
func putWriteBack(md *mqfmt.MQMD, back wireMD, cc int32) {
	if cc != ccOK && cc != ccWarning {
		return
	}
	*md = fromWireMD(&back)
}

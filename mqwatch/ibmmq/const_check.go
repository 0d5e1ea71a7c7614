//go:build ibmmq

package ibmmq

import mq "github.com/ibm-messaging/mq-golang/v5/ibmmq"

// Each declaration below fails to compile when the value in mqconst.go differs
// from mq-golang's definition: the index is 0 exactly when both are equal, and
// any other constant index into a one-element array is out of range. The
// type-check test compiles this file against the real mq-golang source, so a
// wrong constant can never reach a queue manager.
var (
	_ = [1]struct{}{}[coDeletePurge-mq.MQCO_DELETE_PURGE]
	_ = [1]struct{}{}[cnoClientBinding-mq.MQCNO_CLIENT_BINDING]
	_ = [1]struct{}{}[cnoHandleShareNoBlock-mq.MQCNO_HANDLE_SHARE_NO_BLOCK]
	_ = [1]struct{}{}[cnoLocalBinding-mq.MQCNO_LOCAL_BINDING]
	_ = [1]struct{}{}[cnoReconnectDisabled-mq.MQCNO_RECONNECT_DISABLED]
	_ = [1]struct{}{}[coKeepSub-mq.MQCO_KEEP_SUB]
	_ = [1]struct{}{}[coNone-mq.MQCO_NONE]
	_ = [1]struct{}{}[cspAuthUserIDAndPassword-mq.MQCSP_AUTH_USER_ID_AND_PWD]
	_ = [1]struct{}{}[gmoAcceptTruncatedMsg-mq.MQGMO_ACCEPT_TRUNCATED_MSG]
	_ = [1]struct{}{}[gmoBrowseFirst-mq.MQGMO_BROWSE_FIRST]
	_ = [1]struct{}{}[gmoBrowseMsgUnderCursor-mq.MQGMO_BROWSE_MSG_UNDER_CURSOR]
	_ = [1]struct{}{}[gmoBrowseNext-mq.MQGMO_BROWSE_NEXT]
	_ = [1]struct{}{}[gmoConvert-mq.MQGMO_CONVERT]
	_ = [1]struct{}{}[gmoFailIfQuiescing-mq.MQGMO_FAIL_IF_QUIESCING]
	_ = [1]struct{}{}[gmoMarkBrowseHandle-mq.MQGMO_MARK_BROWSE_HANDLE]
	_ = [1]struct{}{}[gmoMsgUnderCursor-mq.MQGMO_MSG_UNDER_CURSOR]
	_ = [1]struct{}{}[gmoNoSyncpoint-mq.MQGMO_NO_SYNCPOINT]
	_ = [1]struct{}{}[gmoNoWait-mq.MQGMO_NO_WAIT]
	_ = [1]struct{}{}[gmoPropertiesForceRFH2-mq.MQGMO_PROPERTIES_FORCE_MQRFH2]
	_ = [1]struct{}{}[gmoSyncpoint-mq.MQGMO_SYNCPOINT]
	_ = [1]struct{}{}[gmoUnmarkedBrowseMsg-mq.MQGMO_UNMARKED_BROWSE_MSG]
	_ = [1]struct{}{}[gmoVersion4-mq.MQGMO_VERSION_4]
	_ = [1]struct{}{}[gmoWait-mq.MQGMO_WAIT]
	_ = [1]struct{}{}[mdVersion2-mq.MQMD_VERSION_2]
	_ = [1]struct{}{}[moMatchCorrelID-mq.MQMO_MATCH_CORREL_ID]
	_ = [1]struct{}{}[moMatchMsgID-mq.MQMO_MATCH_MSG_ID]
	_ = [1]struct{}{}[moNone-mq.MQMO_NONE]
	_ = [1]struct{}{}[ooFailIfQuiescing-mq.MQOO_FAIL_IF_QUIESCING]
	_ = [1]struct{}{}[ooInputExclusive-mq.MQOO_INPUT_EXCLUSIVE]
	_ = [1]struct{}{}[ooPassAllContext-mq.MQOO_PASS_ALL_CONTEXT]
	_ = [1]struct{}{}[ooSaveAllContext-mq.MQOO_SAVE_ALL_CONTEXT]
	_ = [1]struct{}{}[ooSetAllContext-mq.MQOO_SET_ALL_CONTEXT]
	_ = [1]struct{}{}[ooAlternateUserAuthority-mq.MQOO_ALTERNATE_USER_AUTHORITY]
	_ = [1]struct{}{}[otQ-mq.MQOT_Q]
	_ = [1]struct{}{}[otQMgr-mq.MQOT_Q_MGR]
	_ = [1]struct{}{}[otTopic-mq.MQOT_TOPIC]
	_ = [1]struct{}{}[pmoAsyncResponse-mq.MQPMO_ASYNC_RESPONSE]
	_ = [1]struct{}{}[statTypeAsyncError-mq.MQSTAT_TYPE_ASYNC_ERROR]
	_ = [1]struct{}{}[pmoDefaultContext-mq.MQPMO_DEFAULT_CONTEXT]
	_ = [1]struct{}{}[pmoFailIfQuiescing-mq.MQPMO_FAIL_IF_QUIESCING]
	_ = [1]struct{}{}[pmoNewCorrelID-mq.MQPMO_NEW_CORREL_ID]
	_ = [1]struct{}{}[pmoNewMsgID-mq.MQPMO_NEW_MSG_ID]
	_ = [1]struct{}{}[pmoNoSyncpoint-mq.MQPMO_NO_SYNCPOINT]
	_ = [1]struct{}{}[pmoPassAllContext-mq.MQPMO_PASS_ALL_CONTEXT]
	_ = [1]struct{}{}[pmoSetAllContext-mq.MQPMO_SET_ALL_CONTEXT]
	_ = [1]struct{}{}[pmoSyncpoint-mq.MQPMO_SYNCPOINT]
	_ = [1]struct{}{}[rcTruncatedAccept-mq.MQRC_TRUNCATED_MSG_ACCEPTED]
	_ = [1]struct{}{}[soCreate-mq.MQSO_CREATE]
	_ = [1]struct{}{}[soDurable-mq.MQSO_DURABLE]
	_ = [1]struct{}{}[soFailIfQuiescing-mq.MQSO_FAIL_IF_QUIESCING]
	_ = [1]struct{}{}[soManaged-mq.MQSO_MANAGED]
	_ = [1]struct{}{}[soNonDurable-mq.MQSO_NON_DURABLE]
	_ = [1]struct{}{}[soResume-mq.MQSO_RESUME]
	_ = [1]struct{}{}[wiUnlimited-mq.MQWI_UNLIMITED]
)

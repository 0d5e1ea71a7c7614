package ibmmq

// MQI constants the backend uses, with IBM's values (cmqc.h, cmqcfc.h). They are
// declared here so that the untagged helpers can be tested without mq-golang;
// const_check.go (tag ibmmq) fails to compile if any of them differs from
// mq-golang's own definition, so the type-check test keeps them honest.
const (
	// MQOO_* open options.
	ooInputAsQDef     = 1
	ooBrowse          = 8
	ooOutput          = 16
	ooInquire         = 32
	ooSaveAllContext  = 128
	ooPassAllContext  = 512
	ooSetAllContext   = 2048
	ooFailIfQuiescing = 8192
	ooInputExclusive  = 4

	ooAlternateUserAuthority = 4096

	// MQGMO_* get options.
	gmoWait                 = 1
	gmoNoWait               = 0
	gmoSyncpoint            = 2
	gmoNoSyncpoint          = 4
	gmoBrowseFirst          = 16
	gmoBrowseNext           = 32
	gmoAcceptTruncatedMsg   = 64
	gmoMsgUnderCursor       = 256
	gmoBrowseMsgUnderCursor = 2048
	gmoFailIfQuiescing      = 8192
	gmoConvert              = 16384
	gmoMarkBrowseHandle     = 1048576
	gmoUnmarkedBrowseMsg    = 16777216
	gmoPropertiesForceRFH2  = 33554432
	gmoVersion4             = 4

	// MQMO_* match options.
	moNone          = 0
	moMatchMsgID    = 1
	moMatchCorrelID = 2
	moMatchGroupID  = 4
	moMatchSeqNum   = 8
	moMatchOffset   = 16

	// MQPMO_* put options.
	pmoSyncpoint       = 2
	pmoNoSyncpoint     = 4
	pmoDefaultContext  = 32
	pmoNewMsgID        = 64
	pmoNewCorrelID     = 128
	pmoPassAllContext  = 512
	pmoSetAllContext   = 2048
	pmoFailIfQuiescing = 8192
	pmoAsyncResponse   = 65536

	// MQSTAT_* status types.
	statTypeAsyncError = 0

	// MQCNO_* connect options.
	cnoHandleShareNoBlock = 128
	cnoLocalBinding       = 1024
	cnoClientBinding      = 2048
	cnoReconnectDisabled  = 33554432

	// MQSO_* subscription options.
	soCreate          = 2
	soResume          = 4
	soDurable         = 8
	soNonDurable      = 0
	soManaged         = 32
	soFailIfQuiescing = 8192

	// MQCO_* close options.
	coNone        = 0
	coKeepSub     = 4
	coDeletePurge = 2

	// MQOT_* object types.
	otQ     = 1
	otQMgr  = 5
	otTopic = 8

	// MQMT, MQRO and MQWI values used for PCF requests.
	mtRequest                = 1
	roPassDiscardAndExpiry   = 16384
	wiUnlimited              = -1
	mdVersion2               = 2
	cspAuthUserIDAndPassword = 1

	// MQ_MAX_MSG_LENGTH: the largest message IBM MQ carries (100 MB).
	maxMsgLength = 104857600
)

// MQI reason codes the tagged layer tests for.
const (
	rcNotConverted    = 2119
	rcTruncatedFailed = 2080
	rcNoMsgAvailable  = 2033
	rcTruncatedAccept = 2079
)

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
	coNone    = 0
	coKeepSub = 4

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

// MQQT_*, MQUS_*, MQMON_*, MQQDT_*, MQQA_*, MQQSO_*, MQPER_* attribute values.
const (
	qtLocal   = 1
	qtModel   = 2
	qtAlias   = 3
	qtRemote  = 6
	qtCluster = 7
	qtAll     = 1001

	usNormal       = 0
	usTransmission = 1

	monQMgr         = -3
	monOff          = 0
	monOn           = 1
	monLow          = 17
	monMedium       = 33
	monHigh         = 65
	monNotAvailable = -1

	qdtPredefined       = 1
	qdtPermanentDynamic = 2
	qdtTemporaryDynamic = 3
	qdtSharedDynamic    = 4

	qaShareable       = 1
	qaGetInhibited    = 1
	qaPutInhibited    = 1
	qaBackoutHardened = 1

	qsoNo        = 0
	qsoYes       = 1
	qsoShared    = 1
	qsoExclusive = 2

	qsumYes = 1

	perPersistent = 1
)

// MQPL_* platforms.
const (
	plZOS       = 1
	plOS2       = 2
	plUnix      = 3
	plOS400     = 4
	plWindows   = 5
	plWindowsNT = 11
	plVMS       = 12
	plNSK       = 13
	plVSE       = 27
	plAppliance = 28
	plOpenTP1   = 15
	plVM        = 18
	plTPF       = 23
)

// PCF selectors (MQCA_*, MQIA_*, MQCACF_*, MQIACF_*, MQBACF_*, MQCACH_*).
const (
	caQName            = 2016
	caQDesc            = 2013
	caBaseObjectName   = 2002
	caRemoteQName      = 2018
	caRemoteQMgrName   = 2017
	caXmitQName        = 2024
	caBackoutReqQName  = 2019
	caDeadLetterQName  = 2006
	caQMgrName         = 2015
	iaQType            = 20
	iaMaxQDepth        = 15
	iaMaxMsgLength     = 13
	iaBackoutThreshold = 22
	iaHardenGetBackout = 8
	iaInhibitPut       = 10
	iaInhibitGet       = 9
	iaDefPersistence   = 5
	iaDefPriority      = 6
	iaUsage            = 12
	iaDefinitionType   = 7
	iaShareability     = 23
	iaMonitoringQ      = 123
	iaCurrentQDepth    = 3
	iaOpenInputCount   = 17
	iaOpenOutputCount  = 18
	iaCommandLevel     = 31
	iaPlatform         = 32
	iaApplType         = 1

	cacfLastPutDate   = 3128
	cacfLastPutTime   = 3129
	cacfLastGetDate   = 3130
	cacfLastGetTime   = 3131
	cacfApplTag       = 3058
	cacfUserID        = 3025
	cachChannelName   = 3501
	cachConnName      = 3506
	iacfUncommitted   = 1027
	iacfOldestMsgAge  = 1227
	iacfProcessID     = 1024
	iacfOpenInputType = 1098
	iacfOpenOutput    = 1099
	iacfOpenInquire   = 1101
	iacfOpenBrowse    = 1102
	iacfQStatusType   = 1103
	iacfQHandle       = 1104
	iacfQStatus       = 1105
	iacfQStatusAttrs  = 1026
	iacfQAttrs        = 1002
	iacfQMgrAttrs     = 1001
	bacfConnectionID  = 7006
	bacfQMgrUOWID     = 7009
)

// PCF structure types, commands and control values.
const (
	cmdInquireQ       = 13
	cmdInquireQMgr    = 2
	cmdInquireQStatus = 41

	cftCommand         = 1
	cftResponse        = 2
	cftInteger         = 3
	cftString          = 4
	cftIntegerList     = 5
	cftStringList      = 6
	cftByteString      = 9
	cftIntegerFilter   = 13
	cftStringFilter    = 14
	cftByteStrFilter   = 15
	cftCommandXR       = 16
	cftXRMsg           = 17
	cftXRItem          = 18
	cftXRSummary       = 19
	cftGroup           = 20
	cftInteger64       = 23
	cftInteger64List   = 25
	cfhVersion3        = 3
	cfcLast            = 1
	cfcNotLast         = 0
	cfhStrucLength     = 36
	cfinStrucLength    = 16
	cfin64StrucLength  = 24
	cfstStrucLenFixed  = 20
	cfilStrucLenFixed  = 16
	cfslStrucLenFixed  = 24
	cfbsStrucLenFixed  = 16
	cfgrStrucLength    = 16
	rccfCommandFailed  = 3008
	rccfNoneFound      = 3200
	rccfQStatusNotFnd  = 4091
	rcNotConverted     = 2119
	rcTruncatedFailed  = 2080
	rcNoMsgAvailable   = 2033
	rcTruncatedAccept  = 2079
	rcUnknownObjectNme = 2085
)

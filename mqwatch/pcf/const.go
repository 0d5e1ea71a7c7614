package pcf

// PCF and attribute constants with IBM's values (cmqc.h, cmqcfc.h, cmqxc.h).
// const_check.go (tag ibmmq) fails to compile if any of them differs from
// mq-golang's definition; the type-check test in backend/ibmmq compiles it.

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
	iaTriggerControl   = 24   // MQIA_TRIGGER_CONTROL: MQTC_OFF 0, MQTC_ON 1
	iaTriggerType      = 28   // MQIA_TRIGGER_TYPE: MQTT_NONE 0, FIRST 1, EVERY 2, DEPTH 3
	caInitiationQName  = 2008 // MQCA_INITIATION_Q_NAME
	caProcessName      = 2012 // MQCA_PROCESS_NAME
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
	rcUnknownObjectNme = 2085
)

// Constants for handle status, INQUIRE_CONNECTION, request descriptors and
// per-object failures.
const (
	cmdInquireConnection = 85

	iacfOpenOptions           = 1022
	iacfThreadID              = 1025
	iacfConnInfoType          = 1110
	iacfConnInfoConn          = 1111
	iacfConnInfoHandle        = 1112
	iacfConnectionAttrs       = 1107
	iacfCommandInfo           = 1120
	iacfParameterID           = 1012
	iacfErrorID               = 1013
	cacfUOWStartDate          = 3060
	cacfUOWStartTime          = 3061
	bacfGenericConnectionID   = 7007
	cacfResponseQMgrName      = 3070
	genericConnectionIDLength = 24 // MQ_CONNECTION_ID_LENGTH

	mtRequest              = 1
	mtReply                = 2
	roPassDiscardAndExpiry = 16384
	roDiscardMsg           = 134217728
	perNotPersistent       = 0
	fmtAdmin               = "MQADMIN "

	ooInputAsQDef = 1
	ooInputShared = 2
	ooInputExcl   = 4
	ooBrowse      = 8
	ooOutput      = 16
	ooInquire     = 32

	maxMsgLength = 104857600 // MQ_MAX_MSG_LENGTH

	ccWarning = 1
	ccFailed  = 2

	rcQDeleted          = 2052
	rcNotAuthorized     = 2035
	rcObjectDamaged     = 2101
	rcNoMsgAvailable    = 2033
	rcTruncatedFailed   = 2080
	rcNotConverted      = 2119
	rcConvertedTooBig   = 2120
	rcPersistNotAllowed = 2048
)

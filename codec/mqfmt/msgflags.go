package mqfmt

// MQMF_* message flags (MQMD MsgFlags): what a message's GroupId,
// MsgSeqNumber and Offset mean.
const (
	MFSegmentationAllowed int32 = 1
	MFSegment             int32 = 2
	MFLastSegment         int32 = 4
	MFMsgInGroup          int32 = 8
	MFLastMsgInGroup      int32 = 16
)

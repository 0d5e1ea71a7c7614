package mqsc

// Attribute tables of the modelled objects, from IBM's DEFINE queues, DEFINE
// TOPIC, ALTER QMGR and SET AUTHREC reference pages. Attributes IBM defines but
// the embedded queue manager does not act on are listed as unmodelled so a real
// script is accepted and the report can say what was ignored.

var (
	enabled  = enum("ENABLED", "DISABLED")
	yesNo    = enum("YES", "NO")
	objName  = name(48)
	replaceF = schema{"REPLACE": flag("NOREPLACE"), "NOREPLACE": flag("REPLACE")}
)

var queueCommon = schema{
	"DESCR":    text(64),
	"PUT":      enabled,
	"DEFPRTY":  intRange(0, 9),
	"DEFPSIST": yesNo,
	"LIKE":     objName,
}

var queueCommonUnmodelled = []string{
	"CMDSCOPE", "QSGDISP", "CLUSTER", "CLUSNL", "CLWLPRTY", "CLWLRANK", "DEFBIND",
	"DEFPRESP", "CUSTOM", "SCOPE", "DEFREADA", "PROPCTL", "CAPEXPRY",
}

var localAttrs = schema{
	"GET":        enabled,
	"MAXDEPTH":   intRange(0, 999999999),
	"MAXMSGL":    intRange(0, 104857600),
	"BOTHRESH":   intRange(0, 999999999),
	"BOQNAME":    objName,
	"HARDENBO":   flag("NOHARDENBO"),
	"NOHARDENBO": flag("HARDENBO"),
	"USAGE":      enum("NORMAL", "XMITQ"),
	"MONQ":       enum("OFF", "QMGR", "LOW", "MEDIUM", "HIGH"),
	"SHARE":      flag("NOSHARE"),
	"NOSHARE":    flag("SHARE"),
	"DEFSOPT":    enum("EXCL", "SHARED"),
	"MSGDLVSQ":   enum("PRIORITY", "FIFO"),
	"TRIGGER":    flag("NOTRIGGER"),
	"NOTRIGGER":  flag("TRIGGER"),
	"INITQ":      objName,
	"PROCESS":    objName,
	"TRIGTYPE":   enum("NONE", "FIRST", "EVERY", "DEPTH"),
}

var localUnmodelled = []string{
	"ACCTQ", "CLCHNAME", "CLWLUSEQ", "DISTL", "IMGRCOVQ", "INDXTYPE",
	"MAXFSIZE", "NPMCLASS", "QDEPTHHI", "QDEPTHLO", "QDPHIEV", "QDPLOEV",
	"QDPMAXEV", "QSVCIEV", "QSVCINT", "RETINTVL", "STATQ", "STREAMQ", "STRMQOS",
	"TRIGDATA", "TRIGDPTH", "TRIGMPRI",
	"CFSTRUCT", "STGCLASS",
}

var topicAttrs = schema{
	"TOPICSTR": text(10240),
	"DESCR":    text(64),
	"MDURMDL":  objName,
	"MNDURMDL": objName,
	"PUB":      enum("ENABLED", "DISABLED", "ASPARENT"),
	"SUB":      enum("ENABLED", "DISABLED", "ASPARENT"),
	"DEFPSIST": enum("YES", "NO", "ASPARENT"),
	"DEFPRTY":  intRange(0, 9, "ASPARENT"),
	"LIKE":     objName,
}

var topicUnmodelled = []string{
	"CLUSTER", "CLROUTE", "COMMINFO", "CUSTOM", "DEFPRESP", "DURSUB", "MCAST",
	"NPMSGDLV", "PMSGDLV", "PROXYSUB", "PUBSCOPE", "SUBSCOPE", "TYPE", "USEDLQ",
	"WILDCARD", "CAPEXPRY", "CMDSCOPE", "QSGDISP", "ALTDATE", "ALTTIME",
}

var qmgrAttrs = schema{
	"DEADQ":    objName,
	"DEFXMITQ": objName,
	"MAXMSGL":  intRange(32768, 104857600),
	"MAXUMSGS": intRange(1, 999999999),
	"MONQ":     enum("OFF", "NONE", "LOW", "MEDIUM", "HIGH"),
	"DESCR":    text(64),
	"CCSID":    intRange(1, 65535),
}

var qmgrUnmodelled = []string{
	"ACCTCONO", "ACCTINT", "ACCTMQI", "ACCTQ", "ACTIVREC", "ACTVCONO", "ACTVTRC",
	"ADVCAP", "AMQPCAP", "AUTHOREV", "CERTLABL", "CERTVPOL", "CHAD", "CHADEV",
	"CHADEXIT", "CHLAUTH", "CHLEV", "CLWLDATA", "CLWLEXIT", "CLWLLEN", "CLWLMRUC",
	"CLWLUSEQ", "CMDEV", "CMDSCOPE", "CONFIGEV", "CONNAUTH", "CUSTOM", "DEFCLXQ",
	"FORCE", "IMGINTVL", "IMGLOGLN", "IMGRCOVO", "IMGRCOVQ", "IMGSCHED", "INHIBTEV",
	"IPADDRV", "LOCALEV", "LOGGEREV", "MARKINT", "MAXHANDS", "MAXPROPL", "MONACLS",
	"MONCHL", "PARENT", "PERFMEV", "PSCLUS", "PSMODE", "PSNPMSG", "PSNPRES",
	"PSRTYCNT", "PSSYNCPT", "REMOTEEV", "REPOS", "REPOSNL", "REVDNS", "ROUTEREC",
	"SCHINIT", "SCMDSERV", "SPLCAP", "SSLCRLNL", "SSLCRYP", "SSLEV", "SSLFIPS",
	"SSLKEYR", "SSLRKEYC", "STATACLS", "STATCHL", "STATINT", "STATMQI", "STATQ",
	"STRSTPEV", "SUITEB", "TRAXSTR", "TRAXTBL", "TREELIFE", "TRIGINT", "XRCAP",
	"INITKEY", "CHLAUTH", "CONNAUTH", "EXPRYINT",
}

// authorities are the SET AUTHREC AUTHADD/AUTHRMV keywords.
var authorities = []string{
	"ALL", "ALLADM", "ALLMQI", "NONE", "ALTUSR", "BROWSE", "CHG", "CLR", "CONNECT",
	"CRT", "CTRL", "CTRLX", "DLT", "DSP", "GET", "INQ", "PASSALL", "PASSID", "PUB",
	"PUT", "RESUME", "SET", "SETALL", "SETID", "SUB", "SYSTEM",
}

var authrecAttrs = schema{
	"PROFILE":   text(48),
	"OBJTYPE":   enum("AUTHINFO", "CHANNEL", "CLNTCONN", "COMMINFO", "LISTENER", "NAMELIST", "PROCESS", "QUEUE", "QMGR", "RQMNAME", "SERVICE", "TOPIC"),
	"PRINCIPAL": text(1024),
	"GROUP":     text(1024),
	"AUTHADD":   list(authorities...),
	"AUTHRMV":   list(authorities...),
	"SERVCOMP":  text(48),
}

var deleteQueueAttrs = schema{
	"AUTHREC": yesNo, "CMDSCOPE": attr{kind: kAny}, "QSGDISP": attr{kind: kAny},
}

func queueSchema(obj string) schema {
	base := merge(queueCommonUnmodelled, queueCommon, replaceF)
	switch obj {
	case "QLOCAL":
		return merge(append(localUnmodelled, queueCommonUnmodelled...), queueCommon, replaceF, localAttrs)
	case "QMODEL":
		return merge(append(localUnmodelled, queueCommonUnmodelled...), queueCommon, replaceF, localAttrs,
			schema{"DEFTYPE": enum("PERMDYN", "TEMPDYN", "SHAREDYN")})
	case "QALIAS":
		return merge(queueCommonUnmodelled, base, schema{
			"GET": enabled, "TARGET": objName, "TARGQ": synonym("TARGET", objName),
			"TARGTYPE": enum("QUEUE", "TOPIC"),
		})
	case "QREMOTE":
		return merge(queueCommonUnmodelled, base, schema{
			"RNAME": objName, "RQMNAME": objName, "XMITQ": objName,
		})
	}
	return nil
}

var schemas = map[string]schema{}

func init() {
	for _, q := range []string{"QLOCAL", "QMODEL", "QALIAS", "QREMOTE"} {
		schemas["DEFINE "+q] = queueSchema(q)
		schemas["ALTER "+q] = queueSchema(q)
		del := merge(nil, deleteQueueAttrs)
		if q == "QLOCAL" {
			del = merge(nil, deleteQueueAttrs, schema{"PURGE": flag("NOPURGE"), "NOPURGE": flag("PURGE")})
		}
		schemas["DELETE "+q] = del
	}
	schemas["DEFINE TOPIC"] = merge(topicUnmodelled, topicAttrs, replaceF)
	schemas["ALTER TOPIC"] = merge(topicUnmodelled, topicAttrs)
	schemas["DELETE TOPIC"] = merge(nil, deleteQueueAttrs)
	schemas["ALTER QMGR"] = merge(qmgrUnmodelled, qmgrAttrs)
	schemas["SET AUTHREC"] = authrecAttrs
	schemas["DELETE AUTHREC"] = schema{"PROFILE": authrecAttrs["PROFILE"], "OBJTYPE": authrecAttrs["OBJTYPE"],
		"PRINCIPAL": authrecAttrs["PRINCIPAL"], "GROUP": authrecAttrs["GROUP"], "SERVCOMP": authrecAttrs["SERVCOMP"]}
	schemas["CLEAR QLOCAL"] = schema{"CMDSCOPE": attr{kind: kAny}, "QSGDISP": attr{kind: kAny}}
}

// schemaFor returns the attribute table of a modelled command.
func schemaFor(verb, object string) (schema, bool) {
	s, ok := schemas[verb+" "+object]
	return s, ok
}

// IsModelled reports whether the embedded queue manager acts on commands of
// this verb and object type (DEFINE QLOCAL, SET AUTHREC, ...).
func IsModelled(verb, object string) bool {
	_, ok := schemaFor(verb, object)
	return ok
}

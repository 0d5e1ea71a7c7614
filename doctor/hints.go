package doctor

import "github.com/poisonwatch/poisonwatch/codec/mqfmt"

// connectHints says what a reason from MQCONNX usually means on a first
// connection, and where to look.
func connectHints(rc mqfmt.Reason, client bool) []string {
	switch rc {
	case mqfmt.RCQMgrNameError: // 2058
		return []string{"the queue manager at that address has another name, or the CCDT has no channel for this name:",
			"check --qmgr against `dspmq` on the MQ host (names are case-sensitive), or the CCDT's QMNAME; for a queue-manager group give --qmgr '*GROUP'"}
	case mqfmt.RCQMgrNotAvailable: // 2059
		if !client {
			return []string{"the queue manager is not running on this host: `dspmq`, then `strmqm NAME`"}
		}
		return []string{"nothing answers as that queue manager: is it running (`dspmq`), and is its listener on that port (DISPLAY LSSTATUS(*) PORT)?",
			"check the host and port of --conn, MQSERVER or the CCDT entry"}
	case mqfmt.RCNotAuthorized: // 2035
		if !client {
			return []string{"the user may not connect: grant +connect on the queue manager (below)"}
		}
		return []string{"CHLAUTH: the channel may block this address or user; run DISPLAY CHLAUTH('CHANNEL') MATCH(RUNCHECK) CLNTUSER('user') ADDRESS('ip') on the queue manager",
			"CONNAUTH: with CHCKCLNT(REQUIRED) set MQ_USER and give the password (prompt, MQ_PASSWORD or --password-file); AMQ5534/AMQ5541 in the queue manager's AMQERR01.LOG say which",
			"OAM: the user the channel runs as (MCAUSER, or the adopted MQ_USER) needs +connect: setmqaut -m QMGR -t qmgr -p USER +connect"}
	case 2393: // MQRC_SSL_INITIALIZATION_ERROR
		return []string{"TLS could not start on this side: the key repository is missing or unreadable (--keyr, MQSSLKEYR), a .kdb has no .sth stash,",
			"or a .p12 has no password (MQKEYRPWD or --keyr-password-file); the client's AMQERR01.LOG (~/.mqm/errors or /var/mqm/errors) names the file"}
	case 2397: // MQRC_JSSE_ERROR
		return []string{"a TLS error from the Java secure sockets layer: check the CipherSpec matches the channel's SSLCIPH and that the certificate chain is trusted"}
	case 2381: // MQRC_KEY_REPOSITORY_ERROR
		return []string{"the key repository is not a usable .kdb or .p12, or its password (stash file, MQKEYRPWD, --keyr-password-file) is wrong"}
	case mqfmt.RCHostNotAvailable: // 2538
		return []string{"no answer at the host and port: check the name resolves, the port is the listener's, and no firewall is in the way (e.g. `nc -vz host port`)"}
	case mqfmt.RCConnectionBroken: // 2009
		return []string{"the channel ended while connecting: often a CipherSpec that differs from the channel's SSLCIPH, MAXINST/MAXINSTC reached,",
			"or a CHLAUTH rule; the queue manager's AMQERR01.LOG has the AMQ message that says which"}
	case 2540, 2539: // MQRC_UNKNOWN_CHANNEL_NAME, MQRC_CHANNEL_CONFIG_ERROR
		return []string{"the channel is not defined as a SVRCONN on the queue manager, or its definition does not match the client's"}
	case 2391: // MQRC_SSL_ALREADY_INITIALIZED
		return []string{"TLS was already started in this process with other settings: TLS settings are per process, so every queue manager must use the same key repository"}
	}
	return nil
}

package ibmmq

import "fmt"

// entryWins makes an entry's own way of reaching its queue manager override
// the global one: a ccdt_url replaces a channel from the flags, MQSERVER
// and MQCHLLIB/MQCHLTAB (which IBM's precedence would otherwise prefer);
// a channel or conn replaces MQSERVER and MQCCDTURL. Each setting the entry
// gives is noted as coming from it.
func entryWins(s *Settings, e qmgrEntry) {
	src := "--qmgrs entry " + e.Name
	if e.CCDTURL != "" {
		s.Channel, s.ConnName, s.MQServer, s.ChlLib, s.ChlTab = "", "", "", "", ""
		s.CipherSpec, s.CertLabel, s.SSLPeer = "", "", "" // the CCDT's channel carries its own
		s.note("ccdt", src)
	}
	if e.Channel != "" || e.ConnName != "" {
		s.MQServer, s.CCDTURL = "", ""
	}
	for key, v := range map[string]string{"channel": e.Channel, "conn": e.ConnName, "cipher": e.Cipher,
		"keyr": e.KeyRepo, "certlabel": e.CertLabel} {
		if v != "" {
			s.note(key, src)
		}
	}
}

// shareTLSPerProcess gives every client entry the same MQSCO. IBM MQ sets
// a client process's TLS up once: TLS configuration options are taken
// only on the first MQCONNX of the process (or after every TLS connection
// has ended), and a later MQCONNX whose options differ, or that has none
// when the first had some, or some when it had none, connects with
// MQRC_SSL_ALREADY_INITIALIZED (2391) and the first one's settings. So:
//   - entries naming two key repositories are refused (the second would
//     silently use the first's certificates, or fail with 2393);
//   - TLS and plain channels may be mixed (to different queue managers,
//     each channel says its own SSLCIPH): a client entry without a key
//     repository is given the TLS entries' one, so that whichever watcher
//     connects first, every MQCONNX passes the same MQSCO. A plain channel
//     does no TLS with it.
//
// Local bindings use no TLS and are left alone. The key repository's
// password is the environment's (MQKEYRPWD, --keyr-password-file or
// mqclient.ini), the same for every entry.
func shareTLSPerProcess(all []Settings) error {
	repo, from := "", ""
	for _, s := range all {
		if s.Mode() == ModeBindings || s.KeyRepository == "" {
			continue
		}
		switch {
		case repo == "":
			repo, from = s.KeyRepository, s.QMgr
		case s.mqscoKeyRepository() != (&Settings{KeyRepository: repo}).mqscoKeyRepository():
			return fmt.Errorf("%s uses key repository %q and %s %q: IBM MQ sets TLS up once per process, with the first connection's key repository, so every queue manager of one poisonwatch must use the same one (run one poisonwatch per key repository)",
				from, repo, s.QMgr, s.KeyRepository)
		}
	}
	if repo == "" {
		return nil
	}
	for i := range all {
		s := &all[i]
		if s.Mode() == ModeBindings || s.KeyRepository != "" {
			continue
		}
		s.KeyRepository = repo
		s.note("keyr", "--qmgrs entry "+from+": one key repository per process")
	}
	return nil
}

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

// checkTLSPerProcess refuses entries the MQ client cannot serve from one
// process: TLS is initialised once per process, with the first
// connection's key repository, so a later connection with another one, or
// a plain channel beside TLS ones, would connect with MQRC_SSL_ALREADY_
// INITIALIZED (2391) and the first connection's settings. Entries whose
// channel comes from a CCDT say nothing about TLS here and are not compared.
func checkTLSPerProcess(all []Settings) error {
	var tls, plain, repo string
	repoOf := ""
	for _, s := range all {
		if m := s.Mode(); m != ModeFlags && m != ModeMQServer {
			continue
		}
		if s.CipherSpec == "" {
			if plain == "" {
				plain = s.QMgr
			}
			continue
		}
		if tls == "" {
			tls, repo, repoOf = s.QMgr, s.KeyRepository, s.QMgr
		} else if s.KeyRepository != repo {
			return fmt.Errorf("%s uses key repository %q and %s %q: TLS settings are per process, so every queue manager of one poisonwatch must use the same key repository (run one poisonwatch per key repository)",
				repoOf, repo, s.QMgr, s.KeyRepository)
		}
	}
	if tls != "" && plain != "" {
		return fmt.Errorf("%s uses TLS and %s does not: TLS settings are per process, and the IBM MQ client cannot mix TLS and plain channels in one process reliably (run one poisonwatch for each)",
			tls, plain)
	}
	return nil
}

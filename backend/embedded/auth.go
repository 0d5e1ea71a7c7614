package embedded

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// authSet is a set of OAM authorities.
type authSet uint32

const (
	authAltUsr authSet = 1 << iota
	authBrowse
	authConnect
	authGet
	authInq
	authPassAll
	authPassID
	authPut
	authSet_
	authSetAll
	authSetID
	authPub
	authSub
	authResume
	authChg
	authClr
	authCrt
	authDlt
	authDsp
	authCtrl
	authCtrlX
	authSystem
)

var authNames = map[string]authSet{
	"ALTUSR": authAltUsr, "BROWSE": authBrowse, "CONNECT": authConnect, "GET": authGet,
	"INQ": authInq, "PASSALL": authPassAll, "PASSID": authPassID, "PUT": authPut,
	"SET": authSet_, "SETALL": authSetAll, "SETID": authSetID, "PUB": authPub,
	"SUB": authSub, "RESUME": authResume, "CHG": authChg, "CLR": authClr, "CRT": authCrt,
	"DLT": authDlt, "DSP": authDsp, "CTRL": authCtrl, "CTRLX": authCtrlX, "SYSTEM": authSystem,
	"NONE": 0,
	// ALLMQI and ALLADM are IBM's groupings; ALL is both.
	"ALLMQI": authAltUsr | authBrowse | authConnect | authGet | authInq | authPassAll | authPassID |
		authPut | authSet_ | authSetAll | authSetID | authPub | authSub | authResume,
	"ALLADM": authChg | authClr | authDlt | authDsp | authCtrl | authCtrlX,
}

func init() { authNames["ALL"] = authNames["ALLMQI"] | authNames["ALLADM"] | authCrt | authSystem }

// objType is the OBJTYPE of an authority record.
type objType string

const (
	otQMgr  objType = "QMGR"
	otQueue objType = "QUEUE"
	otTopic objType = "TOPIC"
)

// authRec is one SET AUTHREC entry: a profile (a name or an OAM generic
// profile) for one principal or group.
type authRec struct {
	ot      objType
	profile string
	entity  string
	group   bool
	auths   authSet
	re      *regexp.Regexp // nil for a profile without wildcards
	rank    []int          // specificity, for choosing among generic profiles
}

// authStore is the OAM: authority records, checked per user. The empty user
// (the process user of a local bindings application) and members of group mqm
// are administrators with all authority, as on IBM MQ.
type authStore struct {
	qmName string
	groups map[string][]string
	recs   []*authRec
}

func newAuthStore(qmName string, groups map[string][]string) *authStore {
	return &authStore{qmName: qmName, groups: groups}
}

func (a *authStore) isAdmin(user string) bool {
	return user == "" || user == "mqm" || slices.Contains(a.groups[user], "mqm")
}

// check reports whether user holds every authority in need on the object.
// For each entity the user is (the principal and each of its groups) the most
// specific matching profile applies; the entities' authorities add up.
func (a *authStore) check(user string, ot objType, name string, need authSet) bool {
	if a.isAdmin(user) {
		return true
	}
	have := a.lookup(user, false, ot, name)
	for _, g := range a.groups[user] {
		have |= a.lookup(g, true, ot, name)
	}
	return have&need == need
}

func (a *authStore) lookup(entity string, group bool, ot objType, name string) authSet {
	var best *authRec
	for _, r := range a.recs {
		if r.ot != ot || r.entity != entity || r.group != group || !r.matches(name) {
			continue
		}
		if best == nil || better(r, best) {
			best = r
		}
	}
	if best == nil {
		return 0
	}
	return best.auths
}

func (r *authRec) matches(name string) bool {
	if r.re == nil {
		return r.profile == name
	}
	return r.re.MatchString(name)
}

// set applies SET AUTHREC: it adds and removes authorities on the record for
// (ot, profile, entity), creating it when needed.
func (a *authStore) set(ot objType, profile, entity string, group bool, add, rmv authSet) error {
	for _, r := range a.recs {
		if r.ot == ot && r.profile == profile && r.entity == entity && r.group == group {
			r.auths = (r.auths | add) &^ rmv
			return nil
		}
	}
	re, rank, err := compileProfile(profile)
	if err != nil {
		return err
	}
	a.recs = append(a.recs, &authRec{ot: ot, profile: profile, entity: entity, group: group,
		auths: add &^ rmv, re: re, rank: rank})
	return nil
}

// remove applies DELETE AUTHREC.
func (a *authStore) remove(ot objType, profile, entity string, group bool) bool {
	for i, r := range a.recs {
		if r.ot == ot && r.profile == profile && r.entity == entity && r.group == group {
			a.recs = append(a.recs[:i], a.recs[i+1:]...)
			return true
		}
	}
	return false
}

// grantCreator gives the creator of a dynamic queue all authority on it, as
// the OAM does.
func (a *authStore) grantCreator(user, queue string) {
	if a.isAdmin(user) {
		return
	}
	_ = a.set(otQueue, queue, user, false, authNames["ALL"], 0)
}

// compileProfile turns an OAM generic profile into a regular expression: "?"
// is one character, "*" any characters within a qualifier, "**" any number of
// whole qualifiers (including none). Qualifiers are separated by ".".
func compileProfile(p string) (*regexp.Regexp, []int, error) {
	rank := profileRank(p)
	if !strings.ContainsAny(p, "*?") {
		return nil, rank, nil
	}
	quals := strings.Split(p, ".")
	var b strings.Builder
	b.WriteString("^")
	sepNeeded := false
	for i, q := range quals {
		last := i == len(quals)-1
		if q == "**" {
			switch {
			case i == 0 && last:
				b.WriteString(".*")
			case i == 0:
				b.WriteString(`(?:.*\.)?`)
			case last:
				b.WriteString(`(?:\..*)?`)
			default:
				b.WriteString(`\.(?:.*\.)?`)
			}
			sepNeeded = false
			continue
		}
		if strings.Contains(q, "**") {
			return nil, nil, fmt.Errorf("profile %q: ** must be a whole qualifier", p)
		}
		if sepNeeded {
			b.WriteString(`\.`)
		}
		for _, ch := range q {
			switch ch {
			case '*':
				b.WriteString(`[^.]*`)
			case '?':
				b.WriteString(`[^.]`)
			default:
				b.WriteString(regexp.QuoteMeta(string(ch)))
			}
		}
		sepNeeded = true
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return re, rank, err
}

// profileRank ranks each position of a profile for IBM's "most specific
// profile" rule: an explicit character beats "?", which beats "*", which
// beats "**".
func profileRank(p string) []int {
	var r []int
	for i := 0; i < len(p); i++ {
		switch {
		case strings.HasPrefix(p[i:], "**"):
			r = append(r, 0)
			i++
		case p[i] == '*':
			r = append(r, 1)
		case p[i] == '?':
			r = append(r, 2)
		default:
			r = append(r, 3)
		}
	}
	return r
}

// better reports whether r's profile is more specific than best's: a profile
// without wildcards beats every generic one; generic ones compare by rank.
func better(r, best *authRec) bool {
	if (r.re == nil) != (best.re == nil) {
		return r.re == nil
	}
	return moreSpecific(r.rank, best.rank)
}

func moreSpecific(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return len(a) > len(b)
}

// removeProfile deletes the records whose profile is exactly name, as
// DELETE of an object with AUTHREC(YES) does.
func (a *authStore) removeProfile(ot objType, name string) {
	kept := a.recs[:0]
	for _, r := range a.recs {
		if r.ot != ot || r.profile != name {
			kept = append(kept, r)
		}
	}
	a.recs = kept
}

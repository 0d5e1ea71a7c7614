package ibmmq

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// maxConnNameLen is MQ_CONN_NAME_LENGTH: the MQCD field a connection name fills.
const maxConnNameLen = 264

// Endpoint is one entry of a connection name list: a host name or IP address
// and a port (IBM's default 1414 when the entry gives none).
type Endpoint struct {
	Host string
	Port int
}

// MQServer is a parsed MQSERVER value: ChannelName/TransportType/ConnectionName.
type MQServer struct {
	Channel   string
	Transport string // upper case; only TCP is accepted, see ParseMQServer
	ConnName  string
	Endpoints []Endpoint
}

// ParseMQServer parses an MQSERVER value such as "DEV.APP.SVRCONN/TCP/mq1(1414)".
// Only the TCP transport is accepted: the channel definition built from it goes
// through mq-golang's MQCD, which always sets TransportType TCP, so accepting
// LU62, NETBIOS or SPX here would silently connect over something else.
func ParseMQServer(v string) (MQServer, error) {
	var s MQServer
	parts := strings.SplitN(v, "/", 3)
	if len(parts) != 3 {
		return s, fmt.Errorf("ibmmq: MQSERVER %q: want ChannelName/TransportType/ConnectionName", v)
	}
	s.Channel, s.Transport, s.ConnName = parts[0], strings.ToUpper(parts[1]), parts[2]
	if s.Channel == "" {
		return s, fmt.Errorf("ibmmq: MQSERVER %q: empty channel name", v)
	}
	if err := checkName("MQSERVER channel", s.Channel, 20); err != nil {
		return s, err
	}
	if s.Transport != "TCP" {
		return s, fmt.Errorf("ibmmq: MQSERVER %q: transport %q is not supported (only TCP)", v, parts[1])
	}
	if strings.Contains(s.ConnName, "/") {
		return s, fmt.Errorf("ibmmq: MQSERVER %q: connection name %q contains '/'", v, s.ConnName)
	}
	eps, err := ParseConnName(s.ConnName)
	if err != nil {
		return s, fmt.Errorf("ibmmq: MQSERVER %q: %w", v, err)
	}
	s.Endpoints = eps
	return s, nil
}

// ParseConnName parses a CONNAME list: "host(port)" or "host" entries separated
// by commas. IPv6 addresses are written bare, as IBM writes them
// ("2001:db8::1(1414)").
func ParseConnName(v string) ([]Endpoint, error) {
	if v == "" {
		return nil, fmt.Errorf("connection name is empty")
	}
	if len(v) > maxConnNameLen {
		return nil, fmt.Errorf("connection name is %d characters, longer than %d", len(v), maxConnNameLen)
	}
	var eps []Endpoint
	off := 0
	for _, entry := range strings.Split(v, ",") {
		ep, err := parseEndpoint(strings.TrimSpace(entry))
		if err != nil {
			return nil, fmt.Errorf("connection name %q at offset %d: %w", v, off, err)
		}
		eps = append(eps, ep)
		off += len(entry) + 1
	}
	return eps, nil
}

func parseEndpoint(e string) (Endpoint, error) {
	for i := 0; i < len(e); i++ {
		if e[i] <= ' ' || e[i] >= 0x7f {
			return Endpoint{}, fmt.Errorf("entry %q: byte 0x%02x at offset %d is not allowed", e, e[i], i)
		}
	}
	host, port := e, 1414
	if i := strings.IndexByte(e, '('); i >= 0 {
		if !strings.HasSuffix(e, ")") {
			return Endpoint{}, fmt.Errorf("entry %q: port must be written host(port)", e)
		}
		digits := e[i+1 : len(e)-1]
		p, err := strconv.Atoi(digits)
		if err != nil || p < 1 || p > 65535 || strings.TrimLeft(digits, "0123456789") != "" {
			return Endpoint{}, fmt.Errorf("entry %q: port %q is not a number from 1 to 65535", e, digits)
		}
		host, port = e[:i], p
	} else if strings.ContainsRune(e, ')') {
		return Endpoint{}, fmt.Errorf("entry %q: unbalanced ')'", e)
	}
	if host == "" {
		return Endpoint{}, fmt.Errorf("entry %q: empty host", e)
	}
	if strings.ContainsAny(host, "()") {
		return Endpoint{}, fmt.Errorf("entry %q: unbalanced parentheses in host %q", e, host)
	}
	return Endpoint{Host: host, Port: port}, nil
}

// parseLocation reads a time zone: "" or "Local" (this process's zone), "UTC",
// an IANA name, or a fixed offset "+02:00", "-0530", "+2".
func parseLocation(tz string) (*time.Location, error) {
	switch tz {
	case "", "Local":
		return time.Local, nil
	case "UTC", "GMT", "Z":
		return time.UTC, nil
	}
	if tz[0] == '+' || tz[0] == '-' {
		return parseOffset(tz)
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, fmt.Errorf("ibmmq: time zone %q: %w", tz, err)
	}
	return loc, nil
}

func parseOffset(tz string) (*time.Location, error) {
	digits := strings.ReplaceAll(tz[1:], ":", "")
	var h, m int
	var err error
	switch len(digits) {
	case 1, 2:
		h, err = strconv.Atoi(digits)
	case 4:
		h, err = strconv.Atoi(digits[:2])
		if err == nil {
			m, err = strconv.Atoi(digits[2:])
		}
	default:
		err = fmt.Errorf("want +HH, +HHMM or +HH:MM")
	}
	if err == nil && (h > 14 || m > 59 || h < 0 || m < 0) {
		err = fmt.Errorf("offset out of range")
	}
	if err != nil {
		return nil, fmt.Errorf("ibmmq: time zone offset %q: %v", tz, err)
	}
	secs := h*3600 + m*60
	if tz[0] == '-' {
		secs = -secs
	}
	return time.FixedZone(tz, secs), nil
}

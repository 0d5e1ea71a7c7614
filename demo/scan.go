package demo

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// scanned is what a browse of a whole queue found.
type scanned struct {
	found      []seen
	maxBackout int32
	reasons    []ReasonCount
	examples   []Example
}

// scanQueue browses every message of a local queue: identities for the
// ledger, and for BOQs and DEADQs examples and (DEADQ) reason groups.
func scanQueue(ctx context.Context, conn mqwatch.Conn, qmgr, name string, role Role) (scanned, error) {
	var s scanned
	q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: name}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return s, fmt.Errorf("scan %s: %w", name, err)
	}
	defer q.Close(ctx)
	groups := map[ReasonCount]int{}
	for first := true; ; first = false {
		m, err := q.Browse(ctx, mqwatch.BrowseOptions{First: first, MaxBytes: browseBytes})
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			break
		}
		if err != nil {
			return s, fmt.Errorf("scan %s: %w", name, err)
		}
		s.found = append(s.found, seen{ident: mqfmt.Trim(m.MD.ApplIdentityData), msgID: m.MD.MsgId, role: role,
			report: m.MD.MsgType == mqfmt.MTReport, where: qmgr + "/" + name})
		s.maxBackout = max(s.maxBackout, m.MD.BackoutCount)
		if role != RoleBOQ && role != RoleDeadQ {
			continue
		}
		if len(s.examples) < examplesPerQueue {
			s.examples = append(s.examples, describe(&m))
		}
		if role == RoleDeadQ {
			groups[dlhGroup(&m)]++
		}
	}
	for g, n := range groups {
		g.Count = n
		s.reasons = append(s.reasons, g)
	}
	sortReasons(s.reasons)
	return s, nil
}

// dlhGroup is the reason group of a dead-letter message; messages without
// a readable MQDLH group under reason 0.
func dlhGroup(m *mqwatch.Message) ReasonCount {
	ch, _ := mqfmt.WalkChain(m.MD.Format, m.MD.Encoding, m.MD.CodedCharSetId, m.Data)
	d := ch.DLH()
	if d == nil {
		return ReasonCount{Name: "no MQDLH"}
	}
	return ReasonCount{Reason: int32(d.Reason), Name: d.Reason.String(), DestQ: clean(d.DestQName),
		DestQMgr: clean(d.DestQMgrName), PutAppl: clean(d.PutApplName)}
}

func clean(s string) string { return mqfmt.Sanitize(mqfmt.Trim(s)) }

// describe decodes a message as an operator reads it: the descriptor, one
// line per header, and the start of the body.
func describe(m *mqwatch.Message) Example {
	md := &m.MD
	e := Example{MsgId: hex.EncodeToString(md.MsgId[:]), ApplIdentityData: clean(md.ApplIdentityData),
		PutApplName: clean(md.PutApplName), PutTime: clean(md.PutDate) + " " + clean(md.PutTime),
		MsgType: mqfmt.MsgTypeName(md.MsgType), Persistent: md.Persistence == mqfmt.PerPersistent,
		BackoutCount: md.BackoutCount, Format: clean(md.Format), CCSID: md.CodedCharSetId, Encoding: int32(md.Encoding)}
	ch, err := mqfmt.WalkChain(md.Format, md.Encoding, md.CodedCharSetId, m.Data)
	if err != nil {
		e.Error = mqfmt.Sanitize(err.Error())
	}
	for i := range ch.Headers {
		e.Headers = append(e.Headers, headerLine(&ch.Headers[i]))
	}
	b := ch.Body
	data := m.Data[min(b.Offset, len(m.Data)):]
	// Only MQFMT_STRING data is character data; anything else shows as hex.
	body := ""
	if mqfmt.Trim(b.Format) == "MQSTR" {
		body = mqfmt.DecodeBody(data, b.CCSID, b.Encoding).Text
	}
	if body == "" {
		body = "hex " + hex.EncodeToString(data[:min(len(data), 32)])
	}
	if r := []rune(mqfmt.Sanitize(body)); len(r) > 120 {
		body = string(r[:119]) + "…"
	} else {
		body = string(r)
	}
	e.Body = body
	return e
}

func headerLine(h *mqfmt.Header) string {
	switch {
	case h.DLH != nil:
		d := h.DLH
		return fmt.Sprintf("MQDLH Reason %s, DestQ %s@%s, PutApplName %s, then %s CCSID %d Encoding %d",
			d.Reason.Describe(), clean(d.DestQName), clean(d.DestQMgrName), clean(d.PutApplName),
			dash(clean(d.Format)), d.CodedCharSetId, int32(d.Encoding))
	case h.RFH2 != nil:
		r := h.RFH2
		var parts []string
		for _, f := range r.Folders {
			parts = append(parts, f.Name)
		}
		j, _ := r.JMS()
		folders := "no folders"
		if len(parts) > 0 {
			folders = "folders " + strings.Join(parts, ",")
		}
		line := fmt.Sprintf("MQRFH2 %s, then %s CCSID %d Encoding %d", folders,
			dash(clean(r.Format)), r.CodedCharSetId, int32(r.Encoding))
		if j.Dst != "" {
			line += ", jms Dst " + mqfmt.Sanitize(j.Dst)
		}
		return line
	}
	return h.Kind.String()
}

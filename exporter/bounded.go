package exporter

import (
	"net/http"
	"time"
)

// bounded gives each write of a response StallTimeout to reach the
// scraper, and the response WriteTimeout in all. A scraper that stops
// reading (or never reads) fills the socket buffers, the next write misses
// its deadline, and the connection is closed: the in-flight slot and the
// response's memory are free again within StallTimeout, whatever the
// scraper does. A slow but reading scraper is not cut while it keeps up.
func (e *Exporter) bounded(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &stallWriter{ResponseWriter: w, rc: http.NewResponseController(w),
			stall: e.cfg.StallTimeout, end: time.Now().Add(e.cfg.WriteTimeout)}
		h.ServeHTTP(sw, r)
	})
}

type stallWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	stall time.Duration
	end   time.Time
}

// stallChunk is the most one deadline covers: a large write goes out in
// pieces, each with a deadline of its own, so the stall is measured on
// what a scraper reads, not on how the encoder happened to buffer.
const stallChunk = 16 << 10

func (s *stallWriter) Write(p []byte) (int, error) {
	var done int
	for len(p) > 0 {
		n := min(len(p), stallChunk)
		d := time.Now().Add(s.stall)
		if d.After(s.end) {
			d = s.end
		}
		// Fails only where the connection has no deadlines (not net/http's).
		_ = s.rc.SetWriteDeadline(d)
		m, err := s.ResponseWriter.Write(p[:n])
		done += m
		if err != nil {
			return done, err
		}
		p = p[n:]
	}
	return done, nil
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (s *stallWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

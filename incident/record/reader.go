package record

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// Recording is a recording being read: its header at once, its frames as
// they are decoded (a background reader appends them), so the first frame
// shows before the last is read.
type Recording struct {
	Header Header

	mu     sync.Mutex
	frames []Frame
	polls  []int // indices of the Poll frames
	done   bool
	err    error
	grew   chan struct{}
	stop   chan struct{}
	once   sync.Once
	seg    segments // polls read again from their segment (OpenLight)
}

// Close stops reading the rest of the recording.
func (r *Recording) Close() { r.once.Do(func() { close(r.stop) }) }

// Open reads a recording's header and starts reading its frames, within
// the default Limits; it returns once the first poll of every queue
// manager is in (or the file ended).
func Open(path string) (*Recording, error) { return OpenLimited(path, Limits{}) }

// OpenLimited is Open within lim. A header over a cap is an error; a frame
// over one (or damaged) ends the reading there, and Err says why.
func OpenLimited(path string, lim Limits) (*Recording, error) { return open(path, lim, false) }

// OpenLight is Open for a playback: the polls of a recording written in
// segments (format version 2) are kept light, their time and queue
// manager only, and decoded again from their segment's bytes when
// replayed (Full). A version 1 recording is read whole.
func OpenLight(path string) (*Recording, error) { return open(path, Limits{}, true) }

func open(path string, lim Limits, light bool) (*Recording, error) {
	f, err := safeload.Open(path) // a FIFO or device is refused, never waited on
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("replay: %w", err)
	}
	lim = lim.withDefaults(st.Size())
	fr, err := newFrameReader(f, lim)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open %s: not a poisonwatch recording (%v)", path, err)
	}
	r := &Recording{grew: make(chan struct{}, 1), stop: make(chan struct{})}
	if err := fr.header(&r.Header); err != nil {
		f.Close()
		if errors.Is(err, safeload.ErrTooLarge) {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
		return nil, fmt.Errorf("open %s: not a poisonwatch recording (%v)", path, err)
	}
	if v := r.Header.Version; v < 1 || v > Version {
		f.Close()
		return nil, fmt.Errorf("open %s: format version %d, this poisonwatch reads 1 to %d", path, v, Version)
	}
	r.seg = segments{light: light && r.Header.Version >= 2, lim: lim}
	if r.seg.light {
		fr.cr.keep, fr.cr.base = true, fr.cr.n // from here on: the header is read
	}
	go r.read(f, fr)
	r.waitFirst()
	return r, nil
}

// ReadAll reads a whole recording.
func ReadAll(path string) (*Recording, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	r.Wait()
	return r, r.Err()
}

func (r *Recording) read(f io.Closer, fr *frameReader) {
	defer f.Close()
	var batch []Frame
	flush := func() {
		r.mu.Lock()
		for _, fr := range batch {
			if fr.Poll != nil {
				r.polls = append(r.polls, len(r.frames))
			}
			r.frames = append(r.frames, fr)
		}
		r.mu.Unlock()
		batch = batch[:0]
		select {
		case r.grew <- struct{}{}:
		default:
		}
	}
	seg, start := fr.seg, fr.start
	for {
		var frame Frame
		err := fr.next(&frame)
		select {
		case <-r.stop:
			err = io.EOF
		default:
		}
		if err != nil {
			flush()
			r.mu.Lock()
			r.done = true
			// A recording cut short (the process was killed mid-frame)
			// ends where its last whole frame does.
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				r.err = fmt.Errorf("replay: %w", err)
			}
			r.mu.Unlock()
			close(r.grew)
			return
		}
		if fr.seg != seg {
			// The segment of the frames waiting ended whole: their polls
			// may be kept light, read again from it when replayed.
			polls := slices.ContainsFunc(batch, func(f Frame) bool { return f.Poll != nil })
			r.seg.ended(batch, len(r.Frames()), fr.cr.cut(start, fr.start, polls))
			flush()
			seg, start = fr.seg, fr.start
		}
		batch = append(batch, frame)
		if !r.seg.light && len(batch) >= 256 {
			flush()
		}
	}
}

func (r *Recording) waitFirst() {
	want := max(len(r.Header.QMgrs), 1)
	for {
		r.mu.Lock()
		n, done := len(r.polls), r.done
		r.mu.Unlock()
		if n >= want || done {
			return
		}
		<-r.grew
	}
}

// Wait blocks until every frame is read.
func (r *Recording) Wait() {
	for range r.grew {
	}
}

// Loaded says every frame is read.
func (r *Recording) Loaded() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done
}

// Err is why reading stopped early, nil when the file was read whole.
func (r *Recording) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Len is the frames read so far.
func (r *Recording) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.frames)
}

// Frame returns frame i.
func (r *Recording) Frame(i int) Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frames[i]
}

// Frames returns the frames read so far; the slice is not to be changed.
func (r *Recording) Frames() []Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frames[:len(r.frames):len(r.frames)]
}

// Time is when frame i happened.
func (fr Frame) Time() time.Time {
	switch {
	case fr.Poll != nil:
		return fr.Poll.Time
	case fr.Alert != nil:
		return fr.Alert.At
	case fr.Entry != nil:
		return fr.Entry.At
	case fr.Action != nil:
		return fr.Action.At
	case fr.Presence != nil:
		return fr.Presence.At
	case fr.Chunk != nil:
		return fr.Chunk.At
	}
	return time.Time{}
}

// IsRecording says path is a file this package wrote (a cheap look at its
// header).
func IsRecording(path string) bool {
	f, err := safeload.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fr, err := newFrameReader(io.LimitReader(f, 1<<16), Limits{MaxFrameBytes: 1 << 16}.withDefaults(1<<16))
	if err != nil {
		return false
	}
	var h Header
	return fr.header(&h) == nil
}

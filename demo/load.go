package demo

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// Size limits keep a hostile or mistaken file from exhausting memory.
const (
	maxScenarioBytes = 1 << 20
	maxMQSCBytes     = 4 << 20
	// ScenarioFile is the file Load reads from a scenario directory.
	ScenarioFile = "scenario.toml"
)

//go:embed scenarios
var builtinFS embed.FS

// builtinPath is the built-in demo inside builtinFS.
const builtinPath = "scenarios/builtin/" + ScenarioFile

// Builtin returns the built-in demo: three queue managers reproducing the
// incidents listed in the README (The built-in demo) (see scenarios/builtin).
func Builtin() (*Scenario, error) {
	return LoadFS(builtinFS, builtinPath)
}

// Load reads a scenario from a directory (its scenario.toml) or from a TOML
// file. MQSC files it names are read relative to the TOML file and must lie
// in its directory or below.
func Load(p string) (*Scenario, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("load scenario: %w", err)
	}
	dir, name := filepath.Dir(p), filepath.Base(p)
	if st.IsDir() {
		dir, name = p, ScenarioFile
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("load scenario: %w", err)
	}
	defer root.Close()
	return LoadFS(rootFS{root}, name)
}

// rootFS is a scenario directory: os.Root refuses a symbolic link that
// leads out of it, and safeload.OpenIn a FIFO or device, without blocking.
type rootFS struct{ r *os.Root }

func (f rootFS) Open(name string) (fs.File, error) { return safeload.OpenIn(f.r, name) }

// LoadFS reads the scenario file name from fsys.
func LoadFS(fsys fs.FS, name string) (*Scenario, error) {
	data, err := readLimited(fsys, name, maxScenarioBytes)
	if err != nil {
		return nil, fmt.Errorf("load scenario: %w", err)
	}
	s, err := parse(data, name, func(ref string) ([]byte, error) {
		p := path.Join(path.Dir(name), ref)
		// fs.ValidPath rejects absolute paths and ".." elements, so a
		// scenario cannot read files outside its own directory.
		if !fs.ValidPath(ref) || !fs.ValidPath(p) {
			return nil, fmt.Errorf("MQSC file %q: must be a relative path inside the scenario's directory", ref)
		}
		return readLimited(fsys, p, maxMQSCBytes)
	})
	if err != nil {
		return nil, fmt.Errorf("load scenario %s: %w", name, err)
	}
	return s, nil
}

// Parse reads a scenario from TOML text. MQSC must be inline (script keys):
// there is no directory to read files from.
func Parse(data []byte) (*Scenario, error) {
	if len(data) > maxScenarioBytes {
		return nil, fmt.Errorf("parse scenario: %d bytes, limit %d", len(data), maxScenarioBytes)
	}
	return parse(data, "scenario", func(ref string) ([]byte, error) {
		return nil, fmt.Errorf("MQSC file %q: a parsed scenario has no directory; use script", ref)
	})
}

func readLimited(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Only regular files: a device or FIFO could be endless or block.
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("read %s: not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("read %s: larger than %d bytes", name, limit)
	}
	return data, nil
}

func parse(data []byte, name string, readMQSC func(string) ([]byte, error)) (*Scenario, error) {
	var f fileScenario
	// Size, nesting depth and key count are checked before decoding, and an
	// error names only the first few unknown keys.
	if err := safeload.DecodeTOML(data, &f, safeload.Limits{MaxBytes: maxScenarioBytes}); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s, err := f.scenario(readMQSC)
	if err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// AddMQSC appends a script to queue manager qmgr ("" = the first one); it
// runs after the scenario's own scripts.
func (s *Scenario) AddMQSC(qmgr, name, text string) error {
	if len(text) > maxMQSCBytes {
		return fmt.Errorf("add MQSC %s: %d bytes, limit %d", name, len(text), maxMQSCBytes)
	}
	if len(s.QMgrs) == 0 {
		return errors.New("add MQSC: the scenario has no queue manager")
	}
	i := 0
	if qmgr != "" {
		i = slices.IndexFunc(s.QMgrs, func(q QMgrSpec) bool { return q.Name == qmgr })
		if i < 0 {
			return fmt.Errorf("add MQSC %s: no queue manager %q in the scenario", name, qmgr)
		}
	}
	s.QMgrs[i].Scripts = append(s.QMgrs[i].Scripts, Script{Name: name, Text: text})
	return nil
}

// fileScenario is the TOML layout. Durations are strings ("250ms", "10m").
type fileScenario struct {
	Name        string          `toml:"name"`
	Description string          `toml:"description"`
	Seed        uint64          `toml:"seed"`
	Duration    time.Duration   `toml:"duration"`
	Warmup      time.Duration   `toml:"warmup"`
	Poll        time.Duration   `toml:"poll"`
	QMgrs       []fileQMgr      `toml:"qmgr"`
	Links       []fileLink      `toml:"link"`
	Producers   []fileProducer  `toml:"producer"`
	Consumers   []fileConsumer  `toml:"consumer"`
	Events      []fileEventSpec `toml:"event"`
}

type fileQMgr struct {
	Name        string   `toml:"name"`
	Description string   `toml:"description"`
	MQSC        []string `toml:"mqsc"`
	Script      string   `toml:"script"`
}

type fileLink struct {
	QMgrs []string `toml:"qmgrs"`
}

type fileEventSpec struct {
	At    time.Duration `toml:"at"`
	QMgr  string        `toml:"qmgr"`
	MQSC  string        `toml:"mqsc"`
	Stop  bool          `toml:"stop"`
	Start bool          `toml:"start"`
}

func (f *fileScenario) scenario(readMQSC func(string) ([]byte, error)) (*Scenario, error) {
	s := &Scenario{Name: f.Name, Description: f.Description, Seed: f.Seed,
		Duration: f.Duration, Warmup: f.Warmup, Poll: f.Poll}
	for _, q := range f.QMgrs {
		spec := QMgrSpec{Name: q.Name, Description: q.Description}
		for _, ref := range q.MQSC {
			text, err := readMQSC(ref)
			if err != nil {
				return nil, fmt.Errorf("queue manager %s: %w", mqfmt.Sanitize(q.Name), err)
			}
			spec.Scripts = append(spec.Scripts, Script{Name: ref, Text: string(text)})
		}
		if q.Script != "" {
			spec.Scripts = append(spec.Scripts, Script{Name: q.Name + " script", Text: q.Script})
		}
		s.QMgrs = append(s.QMgrs, spec)
	}
	for _, l := range f.Links {
		s.Links = append(s.Links, LinkSpec(l))
	}
	for i := range f.Producers {
		p, err := f.Producers[i].spec()
		if err != nil {
			return nil, fmt.Errorf("producer %d (%s): %w", i+1, mqfmt.Sanitize(f.Producers[i].Name), err)
		}
		s.Producers = append(s.Producers, p)
	}
	for i := range f.Consumers {
		s.Consumers = append(s.Consumers, f.Consumers[i].spec())
	}
	for _, e := range f.Events {
		s.Events = append(s.Events, EventSpec(e))
	}
	return s, nil
}

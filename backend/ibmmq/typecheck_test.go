package ibmmq

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/go/gcexportdata"
)

// The IBM MQ backend cannot be built here: mq-golang needs IBM's headers and
// library. These tests prove that every ibmmq-tagged file compiles against the
// real mq-golang v5.7.1 source all the same. `go list -deps -tags ibmmq` (with
// CGO_ENABLED=1 so mq-golang's cgo files are listed; go list runs no cgo)
// names every package and file in dependency order. A package that
// compiles without IBM's headers (the standard library, the other modules,
// our packages that import nothing of mq-golang) is read, in that order,
// from the export data the compiler wrote for it (`go list -export`, from
// the build cache); go/types checks the rest from source (mq-golang itself,
// and every package of ours whose tagged files import it, or import one
// that does) with FakeImportC, which treats import "C" as a package whose
// every member is valid. Function bodies of dependencies are skipped, and
// the check of the test files reuses what the backend's check loaded of
// other modules. Errors
// inside dependencies (mq-golang's C-typed internals cannot be checked
// without the headers) are ignored; any error in this module fails the test.

const (
	ownModule   = "github.com/poisonwatch/poisonwatch"
	backendPath = ownModule + "/backend/ibmmq"
	cliPath     = ownModule + "/cli"
	mqgoPath    = "github.com/ibm-messaging/mq-golang/v5/ibmmq"
)

// listedPackage is the part of `go list -json` output the checker needs.
type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	ImportMap  map[string]string
	Standard   bool
	Module     *struct{ Path, GoVersion string }
	Error      *struct{ Err string }
}

// checked is the outcome of the type-check of one dependency graph.
type checked struct {
	fset     *token.FileSet
	pkgs     map[string]*types.Package
	ownSrc   map[string]ownPackage // this module's packages, for the vet checks
	own      map[string][]error    // errors in this module's packages, by import path
	depErrs  int                   // errors in dependencies, ignored
	files    int
	duration time.Duration
}

var (
	checkOnce   sync.Once
	checkResult *checked
	checkErr    error
)

// typeCheckBackend runs the check once per test binary: every test below
// reads the same result.
func typeCheckBackend(t *testing.T) *checked {
	t.Helper()
	checkOnce.Do(func() { checkResult, checkErr = runTypeCheck(".", nil) })
	if checkErr != nil {
		t.Fatalf("type-check of the ibmmq-tagged backend could not run: %v", checkErr)
	}
	return checkResult
}

// runTypeCheck lists the packages for extra (the backend, the command line
// and the program when none) and loads them in dependency order: from
// export data when the compiler could write it, else checked from source.
// What base loaded of other modules is reused as it is.
func runTypeCheck(dir string, base *checked, extra ...string) (*checked, error) {
	start := time.Now()
	pkgs, err := goListDeps(dir, extra...)
	if err != nil {
		return nil, err
	}
	exports, err := exportFiles(dir, extra...)
	if err != nil {
		return nil, err
	}
	c := &checked{fset: token.NewFileSet(), pkgs: map[string]*types.Package{}, own: map[string][]error{}, ownSrc: map[string]ownPackage{}}
	if base != nil {
		c.fset = base.fset // the reused packages' positions are in it
		for path, pkg := range base.pkgs {
			if !isOwn(path) {
				c.pkgs[path] = pkg
			}
		}
	}
	for _, p := range pkgs {
		if _, loaded := c.pkgs[p.ImportPath]; loaded {
			continue
		}
		if file := exports[p.ImportPath]; file != "" {
			if err := c.readExport(p.ImportPath, file); err != nil {
				return nil, err
			}
			continue
		}
		if err := c.check(p); err != nil {
			return nil, err
		}
	}
	c.duration = time.Since(start)
	return c, nil
}

// exportFiles asks the go command for the export data of the packages
// goListDeps lists, building what the build cache lacks; a package that
// does not compile here (mq-golang needs cmqc.h, and so what imports it)
// has none.
func exportFiles(dir string, extra ...string) (map[string]string, error) {
	out, err := goList(dir, []string{"-e", "-export", "-deps", "-tags", "ibmmq", "-f", "{{.ImportPath}}\t{{.Export}}"}, extra)
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	for line := range strings.Lines(string(out)) {
		path, file, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		files[path] = file
	}
	return files, nil
}

// readExport reads a package from the compiler's export data; its imports
// are loaded already.
func (c *checked) readExport(path, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	// Go 1.26's `go list -export` names the compiler's archive, whose
	// export data NewReader finds; from Go 1.28 it names a cmd/export file,
	// which NewReader passes through as it is (Read alone would then do).
	//lint:ignore SA1019 the only reader of compiler archives until go list writes cmd/export files
	r, err := gcexportdata.NewReader(bufio.NewReader(f))
	if err != nil {
		return fmt.Errorf("export data of %s: %w", path, err)
	}
	pkg, err := gcexportdata.Read(r, c.fset, c.pkgs, path)
	if err != nil {
		return fmt.Errorf("export data of %s: %w", path, err)
	}
	c.pkgs[path] = pkg
	return nil
}

// goListDeps lists the backend, the command line (cli, whose
// ibmmq-tagged files wire the backend in), the program and their
// dependencies, dependencies first.
func goListDeps(dir string, extra ...string) ([]listedPackage, error) {
	out, err := goList(dir, []string{"-deps", "-json", "-tags", "ibmmq"}, extra)
	if err != nil {
		return nil, err
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("go list: package %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	listed := map[string]bool{}
	for _, p := range pkgs {
		listed[p.ImportPath] = true
	}
	if !listed[backendPath] || len(extra) == 0 && (!listed[ownModule] || !listed[cliPath]) {
		return nil, fmt.Errorf("go list did not list %s, %s and %s", backendPath, cliPath, ownModule)
	}
	return pkgs, nil
}

// isOwn reports a package of this module, test variants ("p [p.test]") included.
func isOwn(path string) bool {
	path, _, _ = strings.Cut(path, " ")
	return path == ownModule || strings.HasPrefix(path, ownModule+"/")
}

// check type-checks one listed package; its imports are already checked.
func (c *checked) check(p listedPackage) error {
	if p.ImportPath == "unsafe" {
		c.pkgs["unsafe"] = types.Unsafe
		return nil
	}
	if strings.HasSuffix(p.ImportPath, ".test") {
		return nil // a generated test main: nothing of ours in it
	}
	own := isOwn(p.ImportPath)
	var files []*ast.File
	for _, name := range append(append([]string(nil), p.GoFiles...), p.CgoFiles...) {
		f, err := parser.ParseFile(c.fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			if own {
				c.own[p.ImportPath] = append(c.own[p.ImportPath], err)
			} else {
				c.depErrs++
			}
			if f == nil {
				continue
			}
		}
		files = append(files, f)
	}
	c.files += len(files)
	conf := types.Config{
		Importer:         c.importer(p.ImportMap),
		FakeImportC:      true,
		IgnoreFuncBodies: !own,
		Sizes:            types.SizesFor("gc", runtime.GOARCH),
		Error: func(err error) {
			if own {
				c.own[p.ImportPath] = append(c.own[p.ImportPath], err)
			} else {
				c.depErrs++
			}
		},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	var info *types.Info
	if own {
		info = newInfo()
	}
	pkg, _ := conf.Check(p.ImportPath, c.fset, files, info) // errors went to conf.Error
	c.pkgs[p.ImportPath] = pkg
	if own {
		c.ownSrc[p.ImportPath] = ownPackage{files: files, info: info, goVersion: conf.GoVersion}
	}
	return nil
}

// importer resolves an import through the package's ImportMap (vendored
// standard-library paths) to a package checked earlier.
func (c *checked) importer(importMap map[string]string) types.Importer {
	return importerFunc(func(path string) (*types.Package, error) {
		if mapped, ok := importMap[path]; ok {
			path = mapped
		}
		if pkg, ok := c.pkgs[path]; ok {
			return pkg, nil
		}
		return nil, fmt.Errorf("package %s was not listed before its importer", path)
	})
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// checkSnippet type-checks src as a package that imports the checked graph,
// as a wrong call in a backend file would be checked.
func (c *checked) checkSnippet(src string) []error {
	f, err := parser.ParseFile(c.fset, "snippet.go", src, parser.SkipObjectResolution)
	if err != nil {
		return []error{err}
	}
	var errs []error
	conf := types.Config{
		Importer:    c.importer(nil),
		FakeImportC: true,
		Sizes:       types.SizesFor("gc", runtime.GOARCH),
		Error:       func(err error) { errs = append(errs, err) },
	}
	_, _ = conf.Check("snippet", c.fset, []*ast.File{f}, nil)
	return errs
}

func TestTypeCheckBackendAgainstMQGolang(t *testing.T) {
	c := typeCheckBackend(t)
	for path, errs := range c.own {
		for _, err := range errs {
			t.Errorf("%s: %v", path, err)
		}
	}
	t.Logf("type-checked %d packages, %d files in %s; %d errors inside dependencies ignored",
		len(c.pkgs), c.files, c.duration.Round(time.Millisecond), c.depErrs)
}

func TestTypeCheckIncludesTaggedFilesAndRealMQGolang(t *testing.T) {
	c := typeCheckBackend(t)
	backend := c.pkgs[backendPath]
	if backend == nil {
		t.Fatalf("%s was not checked", backendPath)
	}
	// Backend and conn live only in ibmmq-tagged files: finding them proves
	// the tag reached the checker, so an untagged-only pass cannot look green.
	for _, name := range []string{"Backend", "New", "FromEnvironment", "conn", "queue", "adminQueues"} {
		if backend.Scope().Lookup(name) == nil {
			t.Errorf("%s.%s not found: the ibmmq-tagged files were not type-checked", backendPath, name)
		}
	}
	// The command line's IBM MQ flags have their settings only in
	// cli's ibmmq-tagged file.
	if cli := c.pkgs[cliPath]; cli == nil {
		t.Errorf("%s was not checked", cliPath)
	} else if obj := cli.Scope().Lookup("mqFlags"); obj == nil {
		t.Errorf("%s.mqFlags not found", cliPath)
	} else if st, ok := obj.Type().Underlying().(*types.Struct); !ok || st.NumFields() == 0 {
		t.Errorf("%s.mqFlags has no settings: its ibmmq-tagged file was not type-checked", cliPath)
	}
	mqgo := c.pkgs[mqgoPath]
	if mqgo == nil {
		t.Fatalf("%s was not checked", mqgoPath)
	}
	for _, name := range []string{"MQObject", "MQMD", "Connx", "MQGMO_BROWSE_FIRST"} {
		if mqgo.Scope().Lookup(name) == nil {
			t.Errorf("%s.%s not found in the mq-golang source", mqgoPath, name)
		}
	}
}

func TestTypeCheckCatchesWrongCalls(t *testing.T) {
	c := typeCheckBackend(t)
	const header = "package snippet\n\nimport mq \"" + mqgoPath + "\"\n\n"
	tests := []struct {
		name string
		body string
		want string // "" = must type-check cleanly
	}{
		{"correct_Get_call_passes", "func get(q mq.MQObject, md *mq.MQMD, gmo *mq.MQGMO, b []byte) (int, error) {\n\treturn q.Get(md, gmo, b)\n}\n", ""},
		{"Get_with_missing_arguments_fails", "func get(q mq.MQObject, md *mq.MQMD) {\n\t_, _ = q.Get(md)\n}\n", "not enough arguments in call to q.Get"},
		{"Get_with_swapped_arguments_fails", "func get(q mq.MQObject, md *mq.MQMD, gmo *mq.MQGMO, b []byte) {\n\t_, _ = q.Get(gmo, md, b)\n}\n", "cannot use gmo"},
		{"GetSlice_with_too_few_results_fails", "func get(q mq.MQObject, md *mq.MQMD, gmo *mq.MQGMO, b []byte) {\n\t_, _ = q.GetSlice(md, gmo, b)\n}\n", "assignment mismatch"},
		{"pmo_Context_as_value_fails", "func put(o mq.MQObject) {\n\tpmo := mq.NewMQPMO()\n\tpmo.Context = o\n}\n", "cannot use o"},
		{"wrong_constant_in_const_check_fails", "var _ = [1]struct{}{}[9-mq.MQOO_BROWSE]\n", "out of bounds"},
		{"mirror_of_MQMD_with_a_field_missing_fails", "type md struct{ Version int32 }\n\nvar _ = mq.MQMD(md{})\n", "cannot convert"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := c.checkSnippet(header + tt.body)
			if tt.want == "" {
				for _, err := range errs {
					t.Errorf("unexpected error: %v", err)
				}
				return
			}
			for _, err := range errs {
				if strings.Contains(err.Error(), tt.want) {
					t.Logf("caught: %v", err)
					return
				}
			}
			t.Errorf("want an error containing %q, got %v", tt.want, errs)
		})
	}
}

// goList runs go list with flags over extra, or by default the backend,
// the command line (whose ibmmq-tagged files wire it in) and the program.
func goList(dir string, flags, extra []string) ([]byte, error) {
	args := append(append([]string{"list"}, flags...), extra...)
	if len(extra) == 0 {
		args = append(args, ".", "../../cli", "../..")
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v: %s", strings.Join(args[:len(flags)+1], " "), err, stderr.String())
	}
	return out, nil
}

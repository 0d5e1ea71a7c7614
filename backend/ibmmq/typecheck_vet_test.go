package ibmmq

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/assign"
	"golang.org/x/tools/go/analysis/passes/atomic"
	"golang.org/x/tools/go/analysis/passes/bools"
	"golang.org/x/tools/go/analysis/passes/composite"
	"golang.org/x/tools/go/analysis/passes/copylock"
	"golang.org/x/tools/go/analysis/passes/defers"
	"golang.org/x/tools/go/analysis/passes/errorsas"
	"golang.org/x/tools/go/analysis/passes/ifaceassert"
	"golang.org/x/tools/go/analysis/passes/loopclosure"
	"golang.org/x/tools/go/analysis/passes/lostcancel"
	"golang.org/x/tools/go/analysis/passes/nilfunc"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/analysis/passes/shift"
	"golang.org/x/tools/go/analysis/passes/stdmethods"
	"golang.org/x/tools/go/analysis/passes/stringintconv"
	"golang.org/x/tools/go/analysis/passes/structtag"
	"golang.org/x/tools/go/analysis/passes/timeformat"
	"golang.org/x/tools/go/analysis/passes/unmarshal"
	"golang.org/x/tools/go/analysis/passes/unreachable"
	"golang.org/x/tools/go/analysis/passes/unusedresult"
)

// `go vet -tags ibmmq` cannot run here (cgo needs IBM's headers), so the
// analyzers of go vet's default suite run on the packages the type check
// built, and every finding in an ibmmq-tagged file fails the test. Files
// without the tag are go vet's own business (every commit runs it).

// ownPackage is a type-checked package of this module.
type ownPackage struct {
	files     []*ast.File
	info      *types.Info
	goVersion string
}

func newInfo() *types.Info {
	return &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes: map[ast.Node]*types.Scope{}, Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{}}
}

// vetAnalyzers is go vet's default suite, less the analyzers that need
// what the check does not build (SSA, assembly, build tags, cgo).
var vetAnalyzers = []*analysis.Analyzer{assign.Analyzer, atomic.Analyzer, bools.Analyzer, composite.Analyzer,
	copylock.Analyzer, defers.Analyzer, errorsas.Analyzer, ifaceassert.Analyzer, loopclosure.Analyzer,
	lostcancel.Analyzer, nilfunc.Analyzer, printf.Analyzer, shift.Analyzer, stdmethods.Analyzer,
	stringintconv.Analyzer, structtag.Analyzer, timeformat.Analyzer, unmarshal.Analyzer, unreachable.Analyzer,
	unusedresult.Analyzer}

// vet runs the analyzers over one package; each finding comes back with
// its position.
func (c *checked) vet(path string, as []*analysis.Analyzer) ([]string, error) {
	src := c.ownSrc[path]
	pkg := c.pkgs[path]
	facts := map[factKey]analysis.Fact{}
	results := map[*analysis.Analyzer]any{}
	var findings []string
	var run func(a *analysis.Analyzer) error
	run = func(a *analysis.Analyzer) error {
		if _, done := results[a]; done {
			return nil
		}
		for _, req := range a.Requires {
			if err := run(req); err != nil {
				return err
			}
		}
		pass := &analysis.Pass{Analyzer: a, Fset: c.fset, Files: src.files, Pkg: pkg, TypesInfo: src.info,
			TypesSizes: types.SizesFor("gc", runtime.GOARCH), ResultOf: map[*analysis.Analyzer]any{}, ReadFile: os.ReadFile,
			Report: func(d analysis.Diagnostic) {
				findings = append(findings, c.fset.Position(d.Pos).String()+": "+a.Name+": "+d.Message)
			}}
		for _, req := range a.Requires {
			pass.ResultOf[req] = results[req]
		}
		pass.ImportObjectFact = func(obj types.Object, f analysis.Fact) bool {
			return getFact(facts, factKey{obj: obj, t: reflect.TypeOf(f)}, f)
		}
		pass.ExportObjectFact = func(obj types.Object, f analysis.Fact) { facts[factKey{obj: obj, t: reflect.TypeOf(f)}] = f }
		pass.ImportPackageFact = func(p *types.Package, f analysis.Fact) bool {
			return getFact(facts, factKey{pkg: p, t: reflect.TypeOf(f)}, f)
		}
		pass.ExportPackageFact = func(f analysis.Fact) { facts[factKey{pkg: pkg, t: reflect.TypeOf(f)}] = f }
		pass.AllObjectFacts = func() []analysis.ObjectFact { return nil }
		pass.AllPackageFacts = func() []analysis.PackageFact { return nil }
		res, err := a.Run(pass)
		if err != nil {
			return err
		}
		results[a] = res
		return nil
	}
	for _, a := range as {
		if err := run(a); err != nil {
			return findings, err
		}
	}
	return findings, nil
}

type factKey struct {
	obj types.Object
	pkg *types.Package
	t   reflect.Type
}

func getFact(facts map[factKey]analysis.Fact, k factKey, dst analysis.Fact) bool {
	f, ok := facts[k]
	if ok {
		reflect.ValueOf(dst).Elem().Set(reflect.ValueOf(f).Elem())
	}
	return ok
}

// hasTaggedFile reports whether a package has an ibmmq-tagged file.
func (c *checked) hasTaggedFile(path string) bool {
	for _, f := range c.ownSrc[path].files {
		if taggedIBMMQ(c.fset.Position(f.Package).Filename) {
			return true
		}
	}
	return false
}

// taggedFinding reports a finding in an ibmmq-tagged file.
func taggedFinding(finding string) bool {
	file, _, _ := strings.Cut(finding, ":")
	return taggedIBMMQ(file)
}

func TestTypeCheckVetTaggedFiles(t *testing.T) {
	for _, c := range []*checked{typeCheckBackend(t), typeCheckTests(t)} {
		for path := range c.ownSrc {
			if len(c.own[path]) > 0 || !c.hasTaggedFile(path) {
				continue // type errors are reported by the type-check tests
			}
			findings, err := c.vet(path, vetAnalyzers)
			if err != nil {
				t.Errorf("%s: %v", path, err)
			}
			for _, f := range findings {
				if taggedFinding(f) {
					t.Errorf("%s", f)
				}
			}
		}
	}
}

// TestTypeCheckVetCatchesMistakes proves the analyzers run: a tagged-style
// snippet with a wrong format verb and a copied lock is reported.
func TestTypeCheckVetCatchesMistakes(t *testing.T) {
	c := typeCheckBackend(t)
	const src = `package snippet

import (
	"fmt"
	"sync"

	mq "` + mqgoPath + `"
)

type guarded struct{ mu sync.Mutex }

func f(q mq.MQObject, g guarded) string {
	_ = mq.MQCSP{1, "u", "p", "", ""}
	return fmt.Sprintf("%d", q.Name)
}
`
	findings := c.vetSnippet(t, src)
	for _, want := range []string{"printf: fmt.Sprintf format %d has arg q.Name of wrong type string",
		"copylocks: f passes lock by value", "composites: "} {
		found := false
		for _, f := range findings {
			found = found || strings.Contains(f, want)
		}
		if !found {
			t.Errorf("no finding %q in %q", want, findings)
		}
	}
}

func (c *checked) vetSnippet(t *testing.T, src string) []string {
	t.Helper()
	const path = "snippet"
	f, err := parserParse(c.fset, src)
	if err != nil {
		t.Fatal(err)
	}
	info := newInfo()
	conf := types.Config{Importer: c.importer(nil), FakeImportC: true, Sizes: types.SizesFor("gc", runtime.GOARCH)}
	pkg, err := conf.Check(path, c.fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	c.pkgs[path], c.ownSrc[path] = pkg, ownPackage{files: []*ast.File{f}, info: info}
	defer delete(c.pkgs, path)
	defer delete(c.ownSrc, path)
	findings, err := c.vet(path, vetAnalyzers)
	if err != nil {
		t.Fatal(err)
	}
	return findings
}

func parserParse(fset *token.FileSet, src string) (*ast.File, error) {
	return parser.ParseFile(fset, "snippet.go", src, parser.SkipObjectResolution)
}

package e2e

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixedSleeps are the tests that may sleep for a fixed time outside a poll
// loop, each with its reason, keyed as fixedSleep.key says ("path func
// argument"). A fixed sleep that lets something happen (or not) before an
// assertion passes on a loaded machine without checking, and makes every
// run wait: wait for a signal, or inject the clock, instead.
var fixedSleeps = map[string]string{
	"e2e/e2e_test.go keys keyGap": "paces the keys typed into tmux as a person types: keys sent within " +
		"a few milliseconds reach the program in one read, and Bubble Tea reads esc then a key as alt+key",
	"warroom/feed_test.go BenchmarkFeedSessions 500 * time.Millisecond": "a benchmark (make bench), not a " +
		"test: the sessions fold the last snapshot before the heap is measured, and nothing outside ui says when",
}

// TestNoFixedSleepsInTests fails on a time.Sleep of a constant duration,
// or a select case that does nothing once time.After of one fires, in a
// test file, that is neither in a poll loop (a for statement, which waits
// for a condition) nor in fixedSleeps, and on an entry of fixedSleeps that
// no longer occurs.
func TestNoFixedSleepsInTests(t *testing.T) {
	found, err := fixedSleepsIn(".")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, s := range found {
		seen[s.key()] = true
		if fixedSleeps[s.key()] == "" {
			what := "time.Sleep(" + s.arg + ")"
			if strings.HasPrefix(s.arg, "<-") {
				what = s.arg
			}
			t.Errorf("%s: %s in %s waits a fixed time for something to happen or not: "+
				"wait for a signal or inject the clock (or, with a reason, list %q in fixedSleeps)", s.pos, what, s.fn, s.key())
		}
	}
	for k := range fixedSleeps {
		if !seen[k] {
			t.Errorf("fixedSleeps lists %q, which no longer sleeps: remove it", k)
		}
	}
}

// A fixed sleep is found where it stands alone or in a range loop, and a
// select that passes by waiting out a timer; a poll loop, a variable
// duration, another package's Sleep and a timer that bounds a wait are not.
func TestFixedSleepFinder(t *testing.T) {
	src := `package p
import ("time"; "testing")
const gap = 5 * time.Millisecond
func TestA(t *testing.T) {
	time.Sleep(200 * time.Millisecond) // flagged
	for range 3 { time.Sleep(gap) } // flagged: not a condition
	go func() { time.Sleep(time.Second) }() // flagged
	for !done() { time.Sleep(10 * time.Millisecond) }
	for d := time.Now(); time.Since(d) < time.Second; time.Sleep(gap) {}
	wait := time.Duration(3)
	time.Sleep(wait)
	other.Sleep(time.Second)
	select { case <-ch: t.Fatal("came"); case <-time.After(50 * time.Millisecond): } // flagged
	select { case <-ch: case <-time.After(gap): t.Fatal("never came") }
	for { select { case <-ch: return; case <-time.After(gap): } }
}
func done() bool { return true }
var ch chan int
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a_test.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	found, err := fixedSleepsIn(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range found {
		got = append(got, s.key())
	}
	want := []string{"a_test.go TestA 200 * time.Millisecond", "a_test.go TestA gap", "a_test.go TestA time.Second",
		"a_test.go TestA <-time.After(50 * time.Millisecond)"}
	if !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}

// fixedSleep is one time.Sleep of a constant duration outside a poll loop.
type fixedSleep struct {
	pos           token.Position
	path, fn, arg string
}

func (s fixedSleep) key() string { return s.path + " " + s.fn + " " + s.arg }

// fixedSleepsIn parses the test files under root (testdata, bin and
// hidden directories aside) and returns their fixed sleeps.
func fixedSleepsIn(root string) ([]fixedSleep, error) {
	byDir := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			byDir[filepath.Dir(p)] = append(byDir[filepath.Dir(p)], p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []fixedSleep
	for _, dir := range slices.Sorted(func(yield func(string) bool) {
		for d := range byDir {
			if !yield(d) {
				return
			}
		}
	}) {
		found, err := fixedSleepsInDir(root, byDir[dir])
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// fixedSleepsInDir reads the constants of one directory's files, then
// looks for sleeps in its test files.
func fixedSleepsInDir(root string, files []string) ([]fixedSleep, error) {
	fset := token.NewFileSet()
	consts := map[string]bool{}
	parsed := map[string]*ast.File{}
	for _, p := range files {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		parsed[p] = f
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					for _, n := range s.(*ast.ValueSpec).Names {
						consts[n.Name] = true
					}
				}
			}
		}
	}
	var out []fixedSleep
	for _, p := range slices.Sorted(slices.Values(files)) {
		if !strings.HasSuffix(p, "_test.go") {
			continue
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil, err
		}
		out = append(out, sleepsInFile(fset, parsed[p], filepath.ToSlash(rel), consts)...)
	}
	return out, nil
}

// sleepsInFile walks each function with the path from it to every call,
// so a sleep knows whether a for statement holds it.
func sleepsInFile(fset *token.FileSet, f *ast.File, rel string, consts map[string]bool) []fixedSleep {
	timePkg := ""
	for _, im := range f.Imports {
		if im.Path.Value == `"time"` {
			timePkg = "time"
			if im.Name != nil {
				timePkg = im.Name.Name
			}
		}
	}
	if timePkg == "" {
		return nil
	}
	var out []fixedSleep
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		var stack []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			if call := fixedWait(n, timePkg, consts); call != nil && !inFor(stack) {
				arg := source(call.Args[0])
				if _, ok := n.(*ast.CommClause); ok {
					arg = "<-" + timePkg + ".After(" + arg + ")"
				}
				out = append(out, fixedSleep{pos: fset.Position(call.Pos()), path: rel, fn: fd.Name.Name, arg: arg})
			}
			return true
		})
	}
	return out
}

// fixedWait is the call of a fixed wait: time.Sleep of a constant, or a
// select case that waits out time.After of a constant and does nothing
// then (the test passes by waiting; a case that fails the test is a bound).
func fixedWait(n ast.Node, timePkg string, consts map[string]bool) *ast.CallExpr {
	switch n := n.(type) {
	case *ast.CallExpr:
		if isCall(n, timePkg, "Sleep") && len(n.Args) == 1 && constant(n.Args[0], consts) {
			return n
		}
	case *ast.CommClause:
		es, ok := n.Comm.(*ast.ExprStmt)
		if !ok || len(n.Body) != 0 {
			return nil
		}
		recv, ok := es.X.(*ast.UnaryExpr)
		if !ok || recv.Op != token.ARROW {
			return nil
		}
		if call, ok := recv.X.(*ast.CallExpr); ok && isCall(call, timePkg, "After") && len(call.Args) == 1 && constant(call.Args[0], consts) {
			return call
		}
	}
	return nil
}

func isCall(c *ast.CallExpr, pkg, name string) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// inFor: a for statement (not a range loop) holds the innermost call, in
// the same function (a goroutine started in a loop is not polling).
func inFor(stack []ast.Node) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.ForStmt:
			return true
		case *ast.FuncLit, *ast.RangeStmt:
			return false
		}
	}
	return false
}

// constant: literals, package-level constants of the directory, another
// package's names (time.Second) and arithmetic and conversions of them.
func constant(e ast.Expr, consts map[string]bool) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return consts[e.Name]
	case *ast.SelectorExpr:
		_, ok := e.X.(*ast.Ident)
		return ok
	case *ast.ParenExpr:
		return constant(e.X, consts)
	case *ast.BinaryExpr:
		return constant(e.X, consts) && constant(e.Y, consts)
	case *ast.CallExpr: // a conversion: time.Duration(n)
		return len(e.Args) == 1 && constant(e.Args[0], consts)
	}
	return false
}

// source prints a duration expression as written.
func source(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Value
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return source(e.X) + "." + e.Sel.Name
	case *ast.ParenExpr:
		return "(" + source(e.X) + ")"
	case *ast.BinaryExpr:
		return source(e.X) + " " + e.Op.String() + " " + source(e.Y)
	case *ast.CallExpr:
		return source(e.Fun) + "(" + source(e.Args[0]) + ")"
	}
	return fmt.Sprintf("%T", e)
}

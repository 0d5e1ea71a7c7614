package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The App's shape, checked from the source (go/ast): screens reach the
// program only through common, results come back by one route, and the
// App and common stay small (docs/codebase.md, "Add a screen").

// Limits on the App's methods and common's: what only one screen needs is
// that screen's, a session's or a function of common.
const (
	maxAppMethods    = 60
	maxCommonMethods = 15
)

// uiFiles parses the package's files (tests excluded).
func uiFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	out := map[string]*ast.File{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = f
	}
	return out
}

// receiverName is the type a method is declared on, "" for a function.
func receiverName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return ""
	}
	typ := fn.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// screenTypes are the types that declare bindings(c common): every screen.
func screenTypes(files map[string]*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "bindings" || len(fn.Type.Params.List) != 1 {
				continue
			}
			if id, ok := fn.Type.Params.List[0].Type.(*ast.Ident); ok && id.Name == "common" {
				out[receiverName(fn)] = true
			}
		}
	}
	return out
}

// TestScreenFilesNeverNameTheApp: a file that declares a screen's methods
// reaches the program through common only; it never names App (a *App
// parameter, a func(*App) field, a result message applying itself to the
// App).
func TestScreenFilesNeverNameTheApp(t *testing.T) {
	files := uiFiles(t)
	screens := screenTypes(files)
	if len(screens) < 10 {
		t.Fatalf("found only %d screen types: the test no longer finds them", len(screens))
	}
	var bad []string
	for path, f := range files {
		isScreen := false
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && screens[receiverName(fn)] {
				isScreen = true
			}
		}
		if !isScreen {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "App" {
				bad = append(bad, path)
				return false
			}
			return true
		})
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		t.Errorf("screen files name the App (use common, the session, or a function of common): %v", bad)
	}
}

// TestAppAndCommonStaySmall counts the App's methods and common's.
func TestAppAndCommonStaySmall(t *testing.T) {
	files := uiFiles(t)
	app, commonMethods := 0, -1
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if receiverName(d) == "App" {
					app++
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == "common" {
						commonMethods = len(ts.Type.(*ast.InterfaceType).Methods.List)
					}
				}
			}
		}
	}
	if app > maxAppMethods {
		t.Errorf("the App has %d methods, at most %d: what one screen needs is that screen's (or the session's)", app, maxAppMethods)
	}
	if commonMethods < 0 {
		t.Fatal("no common interface found")
	}
	if commonMethods > maxCommonMethods {
		t.Errorf("common has %d methods, at most %d: it keeps what every screen needs", commonMethods, maxCommonMethods)
	}
}

// TestOneNameOneMeaning: a name the App carries means one thing. No twins
// (Push and push), no record* that writes no recording, no view() beside
// View(), one consumer-styles name (Options.ConsumerStyles beside the
// lipgloss Styles), and no screen method that does nothing (optional
// interfaces instead: refresher, resizer, scroller, filterer).
func TestOneNameOneMeaning(t *testing.T) {
	files := uiFiles(t)
	appMethods := map[string]bool{}
	var bad []string
	for path, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				name, recv := d.Name.Name, receiverName(d)
				if recv == "App" {
					appMethods[name] = true
					if strings.HasPrefix(name, "record") || name == "view" {
						bad = append(bad, path+": App."+name)
					}
				}
				if recv != "" && doesNothing(d) {
					bad = append(bad, path+": "+recv+"."+name+" does nothing")
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == "Options" {
						for _, fl := range ts.Type.(*ast.StructType).Fields.List {
							for _, n := range fl.Names {
								if n.Name == "Styles" {
									bad = append(bad, path+": Options.Styles (consumer styles are ConsumerStyles)")
								}
							}
						}
					}
				}
			}
		}
	}
	for m := range appMethods {
		if low := strings.ToLower(m[:1]) + m[1:]; low != m && appMethods[low] {
			bad = append(bad, "App."+m+" and App."+low+" are twins")
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		t.Errorf("names with two meanings or methods that do nothing:\n%s", strings.Join(bad, "\n"))
	}
}

// doesNothing: a screen method whose body is empty or only "return nil"
// (an optional interface left unimplemented says the same).
func doesNothing(fn *ast.FuncDecl) bool {
	switch fn.Name.Name {
	case "refresh", "resize", "scroll", "filter", "cursorGrid":
	default:
		return false
	}
	if fn.Body == nil || len(fn.Body.List) == 0 {
		return true
	}
	if len(fn.Body.List) != 1 {
		return false
	}
	r, ok := fn.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 {
		return false
	}
	id, ok := r.Results[0].(*ast.Ident)
	return ok && id.Name == "nil"
}

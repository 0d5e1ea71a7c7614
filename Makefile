# poisonwatch — `make run` to watch the live demo, `make test` for every check.
GO        ?= go
PKGS      := ./...
FUZZTIME  ?= 10s
BIN       := bin/poisonwatch
# VERSION is what `poisonwatch --version` prints: the commit (git describe),
# "-dirty" when the tree has uncommitted changes, "dev" without git.
VERSION   ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X main.version=$(VERSION)
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.6.1

.PHONY: all build run test fmt-check vet tidy-check generate-check staticcheck unit bench fuzz clean build-mq typecheck-mq screenshots dist man

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

run: build
	./$(BIN)

# test is what CI runs: formatting, vet, go.mod tidiness, generated files
# against their generators, staticcheck, the race-enabled test suite.
test: fmt-check vet tidy-check generate-check staticcheck unit

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

# tidy-check fails when go.mod or go.sum is not what `go mod tidy` writes.
tidy-check:
	$(GO) mod tidy -diff

# generate-check fails when a "Code generated" file differs from what
# `go generate ./...` writes now; it leaves the tree as it was.
generate-check:
	GO=$(GO) .ci/generate-check

# staticcheck runs the pinned staticcheck (built with `go run` from the module
# proxy) and fails on findings not listed in .ci/staticcheck-known.
staticcheck:
	GO=$(GO) STATICCHECK=$(STATICCHECK) .ci/staticcheck

unit:
	$(GO) test -race -count=1 $(PKGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# fuzz runs every fuzz target for FUZZTIME each (Go runs one target at a time).
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; done

# build-mq builds poisonwatch with the IBM MQ backend (build tag ibmmq). It needs
# the IBM MQ headers and libmqm_r: an MQ server or client install in /opt/mqm,
# or the MQ redistributable client unpacked anywhere and named by MQ_HOME.
# .ci/mq-headers first says which IBM MQ the headers are; their command level
# is stamped into the binary, which refuses --token-file when they are older
# than 9.3.4 (mq-golang would drop the token silently). MQ_TOKENS=1 says
# tokens are wanted: then such headers fail the build instead.
MQ_HOME ?= /opt/mqm
MQ_TOKENS ?=
MQ_PKG := github.com/poisonwatch/poisonwatch/backend/ibmmq
build-mq:
	@cflags="$${CGO_CFLAGS:--I$(MQ_HOME)/inc}"; \
	level=$$(.ci/mq-headers $(if $(filter 1 yes true,$(MQ_TOKENS)),--tokens) "$$cflags") || exit 1; \
	set -x; CGO_ENABLED=1 \
	CGO_CFLAGS="$$cflags" \
	CGO_LDFLAGS="$${CGO_LDFLAGS:--L$(MQ_HOME)/lib64 -Wl,-rpath,$(MQ_HOME)/lib64}" \
	$(GO) build -tags ibmmq -ldflags "$(LDFLAGS) -X $(MQ_PKG).headerLevel=$$level" -o bin/poisonwatch-mq .

# typecheck-mq proves the ibmmq-tagged files compile against the real mq-golang
# source without the MQ SDK (go/types with FakeImportC). `make test` already runs
# it as part of `go test ./...`; this target runs it alone.
typecheck-mq:
	$(GO) test -count=1 -run 'TestTypeCheck' -v ./backend/ibmmq/

# screenshots renders what `make run` shows (the built-in demo) in colour and
# turns every screen into a PNG with
# charmbracelet/freeze (installed into bin/ from the Go module proxy; offline
# once installed).
FREEZE := bin/freeze
$(FREEZE):
	GOBIN=$(CURDIR)/bin $(GO) install github.com/charmbracelet/freeze@v0.2.2

screenshots: $(FREEZE)
	rm -rf bin/shots && mkdir -p screenshots
	POISONWATCH_SCREENSHOTS=$(CURDIR)/bin/shots $(GO) test -count=1 -run TestWriteScreenshots ./e2e ./cli
	for f in bin/shots/*.ansi; do \
	  n=$$(basename $$f .ansi); \
	  $(FREEZE) $$f --language ansi --font.size 7 --padding 10 --margin 0 --window=false -o screenshots/$$n.png >/dev/null; \
	done
	@ls screenshots

# dist cross-builds the default binary (CGO_ENABLED=0: everything but the
# IBM MQ client backend, which needs make build-mq on the target) for each
# of DIST_TARGETS into DIST, named poisonwatch-OS-ARCH, --version stamped,
# with the man page and a SHA256SUMS file as sha256sum writes it (check a
# copy with sha256sum -c --ignore-missing SHA256SUMS). One binary to copy
# to the MQ host: scp dist/poisonwatch-linux-s390x mqhost:bin/poisonwatch.
# aix/ppc64 is not in the list: github.com/atotto/clipboard (under the
# dashboard's text input) and charmbracelet/wish (serve) do not build for
# AIX; z/OS has no Go port. Windows builds without serve (its sessions
# need a Unix pseudo-terminal).
DIST         ?= dist
DIST_TARGETS ?= linux/amd64 linux/arm64 linux/s390x linux/ppc64le darwin/amd64 darwin/arm64 windows/amd64
DIST_LDFLAGS := -s -w $(LDFLAGS)
dist:
	@rm -f $(DIST)/poisonwatch-* $(DIST)/SHA256SUMS $(DIST)/poisonwatch.1 && mkdir -p $(DIST)
	@set -e; for t in $(DIST_TARGETS); do \
	  os=$${t%/*}; arch=$${t#*/}; ext=; [ "$$os" = windows ] && ext=.exe; \
	  echo "$(GO) build $$t -> $(DIST)/poisonwatch-$$os-$$arch$$ext"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags "$(DIST_LDFLAGS)" -o $(DIST)/poisonwatch-$$os-$$arch$$ext . ; \
	done
	@$(MAKE) --no-print-directory man DIST=$(DIST)
	cd $(DIST) && sha256sum poisonwatch-* poisonwatch.1 > SHA256SUMS
	@ls -l $(DIST)

# man writes the manual page, generated from the command table (poisonwatch
# man), to $(DIST)/poisonwatch.1, with this machine's binary from $(DIST)
# when dist built one, else with go run; man -l $(DIST)/poisonwatch.1 reads it.
man:
	@mkdir -p $(DIST)
	@host=$(DIST)/poisonwatch-$$($(GO) env GOOS)-$$($(GO) env GOARCH); \
	if [ -x "$$host" ]; then "$$host" man; else $(GO) run -ldflags "$(LDFLAGS)" . man; fi > $(DIST)/poisonwatch.1.tmp
	@mv $(DIST)/poisonwatch.1.tmp $(DIST)/poisonwatch.1 && echo "wrote $(DIST)/poisonwatch.1"

clean:
	rm -rf bin dist

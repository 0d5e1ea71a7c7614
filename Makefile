# poisonwatch — `make run` to watch the live demo, `make test` for every check.
GO        ?= go
PKGS      := ./...
FUZZTIME  ?= 10s
BIN       := bin/poisonwatch

.PHONY: all build run test fmt-check vet unit bench fuzz clean build-mq typecheck-mq

all: build

build:
	$(GO) build -o $(BIN) .

run: build
	./$(BIN)

# test is what CI runs: formatting, vet, the race-enabled test suite.
test: fmt-check vet unit

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

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
MQ_HOME ?= /opt/mqm
build-mq:
	CGO_ENABLED=1 \
	CGO_CFLAGS="$${CGO_CFLAGS:--I$(MQ_HOME)/inc}" \
	CGO_LDFLAGS="$${CGO_LDFLAGS:--L$(MQ_HOME)/lib64 -Wl,-rpath,$(MQ_HOME)/lib64}" \
	$(GO) build -tags ibmmq -o bin/poisonwatch-mq .

# typecheck-mq proves the ibmmq-tagged files compile against the real mq-golang
# source without the MQ SDK (go/types with FakeImportC). `make test` already runs
# it as part of `go test ./...`; this target runs it alone.
typecheck-mq:
	$(GO) test -count=1 -run 'TestTypeCheck' -v ./mqwatch/ibmmq/

clean:
	rm -rf bin
